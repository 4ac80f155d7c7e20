/* spec_text.c: a sweep's axes and baseline from the texts `mmm optimize`
 * takes (mmm_sweep_spec_parse): the parameters found in the program, the
 * values read as constant expressions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/notes.h"
#include "base/split.h"
#include "model/defines.h"
#include "mmm/optimize.h"

/* A value given for option `what` (len bytes of text): MMM_ELIMIT from
 * 512 bytes, MMM_EINVAL when it is not a constant expression. */
static int parse_value(const char *what, const char *text, size_t len,
                       mmm_value *out, mmm_error *err)
{
    char buf[512];
    mmm_error e;
    if (len >= sizeof buf)
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0, "%s: value too long", what);
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (mmm__constant(buf, sizeof buf, out, NULL, &e) < 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "%s '%s': %s", what, buf,
                             e.message);
    return 0;
}

typedef struct value_list {
    mmm_value *v; /* one per comma, and one */
    size_t n;
    mmm_error *err;
} value_list;

static int list_item(const char *item, size_t len, void *payload)
{
    value_list *l = payload;
    int rc = parse_value("--values", item, len, &l->v[l->n], l->err);
    if (rc == 0)
        l->n++;
    return rc;
}

/* --values: split at top-level commas (not those inside min(a,b)). */
static int parse_list(mmm_sweep_axis *sx, const char *text, mmm_error *err)
{
    value_list l = {NULL, 0, err};
    size_t cap = 1;
    for (const char *c = text; *c; c++)
        cap += *c == ',';
    if (!(l.v = malloc(cap * sizeof *l.v)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    sx->values = l.v;
    int rc = mmm__split_list(text, list_item, &l);
    sx->nvalues = l.n;
    return rc;
}

typedef struct baseline_state {
    mmm_sweep_spec *spec;
    const mmm_sweep_axis_text *axes;
    size_t naxes, next;
    int done[MMM_SWEEP_MAX_AXES];
    mmm_error *err;
} baseline_state;

static int baseline_item(const char *start, size_t len, void *payload)
{
    baseline_state *b = payload;
    const char *val = start, *eq = memchr(start, '=', len);
    size_t ax = b->next;
    int rc;
    if (eq) {
        size_t nlen = (size_t)(eq - start);
        for (ax = 0; ax < b->naxes; ax++)
            if (strlen(b->axes[ax].name) == nlen && !strncmp(b->axes[ax].name, start, nlen))
                break;
        if (ax == b->naxes)
            return mmm_error_set(b->err, MMM_EINVAL, NULL, 0, "--baseline names '%.*s', "
                                 "which is not swept", (int)nlen, start);
        val = eq + 1;
    }
    if (ax >= b->naxes || b->done[ax])
        return mmm_error_set(b->err, MMM_EINVAL, NULL, 0, "--baseline needs one value "
                             "per --param (%zu)", b->naxes);
    if ((rc = parse_value("--baseline", val, (size_t)(start + len - val),
                          &b->spec->baseline[ax], b->err)) < 0)
        return rc;
    b->done[ax] = 1;
    b->next = ax + 1;
    return 0;
}

/* --baseline "V,V" (in --param order) or "NAME=V,NAME=V". */
static int parse_baseline(mmm_sweep_spec *spec, const mmm_sweep_axis_text *axes,
                          size_t naxes, const char *text, mmm_error *err)
{
    baseline_state b = {spec, axes, naxes, 0, {0}, err};
    int rc;
    if ((rc = mmm__split_list(text, baseline_item, &b)) != 0)
        return rc;
    for (size_t a = 0; a < naxes; a++)
        if (!b.done[a])
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--baseline gives no value "
                                 "for '%s'", axes[a].name);
    spec->has_baseline = 1;
    return 0;
}

/* --param p where the file declares no p: how to look at p instead. */
static int no_p(const mmm_program *prog, mmm_error *err)
{
    char advice[800];
    snprintf(advice, sizeof advice,
             ": p, the number of SMs, comes from -p or the machine file; to "
             "see the program over p, run 'mmm scale %.200s -p 1..64' "
             "(bounds, simulated makespan and speedup at each p) or 'mmm "
             "simulate %.200s -p 1,2,4'; to sweep p here, give --machine FILE "
             "(one that sets p) or declare it in the file: <param name=\"p\" "
             "value=\"2\" min=\"1\"/>",
             prog->file, prog->file);
    return mmm__no_param(err, prog, "--param", "p", advice);
}

/* Axis a of the spec from its texts. */
static int parse_axis(mmm_sweep_spec *spec, size_t a, const mmm_sweep_axis_text *ax,
                      const mmm_program *prog, mmm_notes *notes, mmm_error *err)
{
    mmm_sweep_axis *sx = &spec->axes[a];
    int rc;
    sx->slot = mmm_program_find_param(prog, ax->name);
    if (sx->slot < 0)
        return strcmp(ax->name, "p") ? mmm__no_param(err, prog, "--param", ax->name, NULL)
                                     : no_p(prog, err);
    for (size_t k = 0; k < spec->nfixed; k++) {
        /* mmm_overrides_parse puts -p's override last */
        int dash_p = spec->has_p && k == spec->nfixed - 1 && !strcmp(ax->name, "p");
        if (spec->fixed[k].slot == sx->slot &&
            mmm__notes_add(notes, "%s: note: %s%s ignored: %s is swept", prog->file,
                           dash_p ? "-p" : "-D ", dash_p ? "" : ax->name, ax->name) < 0)
            return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    if (ax->values)
        return parse_list(sx, ax->values, err);
    if ((ax->from && (rc = parse_value("--from", ax->from, strlen(ax->from), &sx->from,
                                       err)) < 0) ||
        (ax->to && (rc = parse_value("--to", ax->to, strlen(ax->to), &sx->to, err)) < 0) ||
        (ax->step && (rc = parse_value("--step", ax->step, strlen(ax->step), &sx->step,
                                       err)) < 0))
        return rc;
    if (ax->step && sx->step.d == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--step must not be 0");
    sx->has_from = ax->from != NULL;
    sx->has_to = ax->to != NULL;
    sx->has_step = ax->step != NULL;
    return 0;
}

int mmm_sweep_spec_parse(mmm_sweep_spec *spec, const mmm_program *prog,
                         const mmm_sweep_axis_text *axes, size_t naxes,
                         const char *baseline, mmm_notes *notes, mmm_error *err)
{
    int rc = 0;
    if (!spec || !prog || !axes || naxes == 0 || naxes > MMM_SWEEP_MAX_AXES)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_sweep_spec_parse: missing argument");
    for (size_t a = 0; a < naxes; a++)
        if (!axes[a].name)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                 "mmm_sweep_spec_parse: an axis without a name");
    MMM__CHECK_VERSION(spec, mmm_sweep_spec, SWEEP_SPEC, err);
    spec->naxes = naxes;
    memset(spec->axes, 0, sizeof spec->axes);
    spec->has_baseline = 0;
    if (spec->objective == MMM_OBJECTIVE_BOUND && !spec->has_p &&
        mmm_program_find_param(prog, "p") < 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--objective bound needs p: give "
                             "-p P (%s declares no parameter p)", prog->file);
    for (size_t a = 0; a < naxes && rc == 0; a++)
        rc = parse_axis(spec, a, &axes[a], prog, notes, err);
    if (rc == 0 && baseline)
        rc = parse_baseline(spec, axes, naxes, baseline, err);
    if (rc < 0)
        mmm_sweep_spec_dispose(spec);
    return rc;
}

void mmm_sweep_spec_dispose(mmm_sweep_spec *spec)
{
    if (!spec)
        return;
    for (size_t a = 0; a < MMM_SWEEP_MAX_AXES; a++) {
        free((void *)spec->axes[a].values);
        spec->axes[a].values = NULL;
        spec->axes[a].nvalues = 0;
    }
}
