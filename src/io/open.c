/* open.c: a program opened for analysis (mmm_program_open): the machine
 * file, the reader, -D and -p, the instance evaluated.  What every command
 * that reads a program does before it computes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/file.h"
#include "base/notes.h"
#include "mmm/import.h"

void mmm_open_options_init(mmm_open_options *opt)
{
    static const mmm_open_options defaults = MMM_OPEN_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

void mmm_opened_dispose(mmm_opened *o)
{
    if (!o)
        return;
    mmm_instance_free(o->instance);
    mmm_program_free(o->program);
    free(o->overrides);
    mmm_notes_dispose(&o->notes);
    memset(o, 0, sizeof *o);
}

/* The reader's warnings and note, as the command shows them. */
static int report_notes(mmm_opened *o, const char *path)
{
    const mmm_import_report *rep = &o->report;
    int rc = 0;
    if (rep->nwarnings == 1)
        rc = mmm__notes_add(&o->notes, "%s: warning: %s", path, rep->warning);
    else if (rep->nwarnings > 1)
        rc = mmm__notes_add(&o->notes, "%s: warning: %s (and %zu more warnings)", path,
                            rep->warning, rep->nwarnings - 1);
    if (rc == 0 && rep->summary[0])
        rc = mmm__notes_add(&o->notes, "%s: warning: %s", path, rep->summary);
    if (rc == 0 && rep->note[0])
        rc = mmm__notes_add(&o->notes, "%s: note: %s", path, rep->note);
    return rc;
}

int mmm_program_open(mmm_opened *out, const char *path, const mmm_open_options *opt,
                     mmm_error *err)
{
    static const mmm_open_options defaults = MMM_OPEN_OPTIONS_INIT;
    mmm_import_options io;
    mmm_machine *machine = NULL;
    mmm_progress_fn progress;
    int rc;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_program_open: missing argument");
    memset(out, 0, sizeof *out);
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_program_open: missing argument");
    MMM__CHECK_VERSION(opt, mmm_open_options, OPEN_OPTIONS, err);
    if (!opt)
        opt = &defaults;
    io = opt->io;
    if ((progress = MMM__PROGRESS(opt, 2))) {
        char what[600];
        snprintf(what, sizeof what, "reading %s", mmm__input_name(path));
        progress(opt->progress_payload, what, 0, 0);
    }
    if (opt->machine &&
        (rc = mmm_machine_load_file(&machine, opt->machine, &io.load.limits, err)) < 0)
        goto fail;
    io.load.machine = machine;
    rc = mmm_program_read_file(&out->program, path, &io, &out->report, err);
    mmm_machine_free(machine);
    if (rc < 0)
        goto fail;
    if (report_notes(out, mmm__input_name(path)) < 0) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    if (!(out->overrides = malloc((opt->ndefs + 1) * sizeof *out->overrides))) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    if ((rc = mmm_overrides_parse(out->program, opt->defs, opt->ndefs, opt->p,
                                  opt->unknown, out->overrides, &out->noverrides,
                                  &out->notes, err)) < 0 ||
        (rc = mmm_instance_new_flags(&out->instance, out->program,
                                     opt->instance_flags, err)) < 0 ||
        (progress && !opt->no_eval &&
         (progress(opt->progress_payload, "evaluating", 0, 0), 0)) ||
        (!opt->no_eval &&
         (rc = mmm_instance_eval_p(out->instance, out->overrides, out->noverrides,
                                   opt->p, err)) < 0))
        goto fail;
    if (progress)
        progress(opt->progress_payload, NULL, 0, 0);
    return 0;
fail:
    if (progress)
        progress(opt->progress_payload, NULL, 0, 0);
    mmm_instance_free(out->instance);
    mmm_program_free(out->program);
    out->instance = NULL;
    out->program = NULL;
    return rc;
}
