/* fit_samples.c: measured runs matched to their programs and evaluated,
 * the samples of the fit (mmm_fit_samples_make; `mmm fit`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/notes.h"
#include "mmm/fit.h"

void mmm_fit_samples_dispose(mmm_fit_samples *s)
{
    if (!s)
        return;
    if (s->inst)
        for (size_t k = 0; k < s->n; k++)
            mmm_instance_free(s->inst[k]);
    free(s->inst);
    free(s->samples);
    free(s->runs);
    memset(s, 0, sizeof *s);
}

/* Row `row` of r, a run of prog, as sample k: -D, then the row's own
 * parameters (ov holds ndefs + r->ncols + 1 entries). */
static int sample(mmm_fit_samples *s, size_t k, const mmm_runs *r, size_t row,
                  const mmm_program *prog, const char *const *defs, size_t ndefs,
                  int unknown, mmm_override *ov, mmm_notes *notes, mmm_error *err)
{
    const mmm_run_row *rw = &r->rows[row];
    size_t nov = 0, ndef = 0;
    int rc;
    s->runs[k] = (mmm_fit_run){r, row, prog};
    if ((rc = mmm_overrides_parse(prog, defs, ndefs, 0, unknown, ov, &ndef, notes,
                                  err)) < 0 ||
        (rc = mmm_runs_overrides(r, row, prog, ov + ndef, &nov, err)) < 0 ||
        (rc = mmm_instance_new(&s->inst[k], prog, err)) < 0)
        return rc;
    if ((rc = mmm_instance_eval(s->inst[k], ov, ndef + nov, err)) < 0) {
        mmm_error e2 = *err;
        return mmm_error_set(err, e2.code, r->file, rw->line, "%s (program %s, %s:%ld)",
                             e2.message, prog->name, e2.file, e2.line);
    }
    s->samples[k] = (mmm_fit_sample){s->inst[k], rw->graph, rw->seconds};
    return 0;
}

int mmm_fit_samples_make(mmm_fit_samples *out, mmm_runs *const *runs, size_t nruns,
                         mmm_program *const *progs, size_t nprogs,
                         const char *const *defs, size_t ndefs, mmm_notes *notes,
                         mmm_error *err)
{
    size_t i, n = 0, maxcols = 0, k = 0;
    char *noted = NULL; /* -D notes given, by program */
    mmm_override *ov = NULL;
    mmm_error own, *e = err ? err : &own;
    int rc = 0;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_fit_samples_make: missing argument");
    memset(out, 0, sizeof *out);
    if ((nruns && !runs) || !progs || !nprogs || (ndefs && !defs))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_fit_samples_make: missing argument");
    for (i = 1; i < nprogs; i++) /* rows name their program: one of a name */
        for (size_t j = 0; j < i; j++)
            if (progs[i] && progs[j] && !strcmp(progs[j]->name, progs[i]->name))
                return mmm_error_set(err, MMM_EINPUT, progs[i]->file, progs[i]->line,
                                     "program name '%s' also in %s (runs name their "
                                     "program)", progs[i]->name, progs[j]->file);
    for (i = 0; i < nruns; i++) {
        n += runs[i]->nrows;
        if (runs[i]->ncols > maxcols)
            maxcols = runs[i]->ncols;
    }
    out->samples = calloc(n + 1, sizeof *out->samples);
    out->runs = calloc(n + 1, sizeof *out->runs);
    out->inst = calloc(n + 1, sizeof *out->inst);
    noted = calloc(nprogs, 1);
    ov = malloc((maxcols + ndefs + 2) * sizeof *ov);
    if (!out->samples || !out->runs || !out->inst || !noted || !ov) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    out->n = n;
    for (i = 0; i < nruns && rc == 0; i++)
        for (size_t row = 0; row < runs[i]->nrows && rc == 0; row++, k++) {
            const mmm_run_row *rw = &runs[i]->rows[row];
            size_t p;
            for (p = 0; p < nprogs && strcmp(progs[p]->name, rw->program); p++)
                ;
            if (p == nprogs) {
                char list[700] = "";
                size_t len = 0;
                for (size_t q = 0; q < nprogs && len < sizeof list; q++)
                    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                            q ? ", " : "", progs[q]->name);
                rc = mmm_error_set(err, MMM_EINPUT, runs[i]->file, rw->line,
                                   "program '%s' is not one of the programs given (%s)",
                                   rw->program, list);
                break;
            }
            rc = sample(out, k, runs[i], row, progs[p], defs, ndefs,
                        noted[p] ? MMM_DEFINE_QUIET : MMM_DEFINE_NOTE, ov, notes, e);
            noted[p] = 1;
        }
done:
    free(noted);
    free(ov);
    return rc;
}
