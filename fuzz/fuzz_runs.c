/* fuzz_runs.c: the runs reader of mmm fit (src/time/csv.c) on arbitrary bytes.
 * The first byte picks the default launch mode; the rest is the file.  A
 * file that reads must satisfy the reader's contract (rows with a program
 * and a positive finite time, one cell per column), and its overrides
 * against a small program must be numbers or a FILE:LINE error. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char prog_text[] =
    "<program name='p'><param name='n' value='1'/><param name='s' value='2'/>"
    "<kernel id='a' blocks='1' work='n' span='s' reads='0' writes='0'/>"
    "</program>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mmm_program *prog;
    mmm_runs *r = NULL;
    mmm_error err;
    if (!prog && mmm_program_load_memory(&prog, prog_text,
                                         sizeof prog_text - 1, "p.xml", NULL,
                                         &err) < 0)
        abort();
    if (size < 1)
        return 0;
    int graph = data[0] & 1;
    if (mmm_runs_read_memory(&r, (const char *)data + 1, size - 1, "f.csv",
                             graph, &err) < 0) {
        if (r || err.code >= 0 || !err.message[0])
            abort();
        return 0;
    }
    if (!r || r->nrows == 0 || r->program_col < 0 || r->time_col < 0)
        abort();
    mmm_override *ov = malloc((r->ncols + 1) * sizeof *ov);
    if (!ov)
        abort();
    for (size_t i = 0; i < r->nrows; i++) {
        const mmm_run_row *rw = &r->rows[i];
        size_t nov;
        if (!rw->program || !*rw->program || !(rw->seconds > 0) ||
            !isfinite(rw->seconds) || rw->line < 2)
            abort();
        for (size_t c = 0; c < r->ncols; c++)
            if (!rw->cells[c])
                abort();
        if (mmm_runs_overrides(r, i, prog, ov, &nov, &err) < 0 &&
            err.line != rw->line)
            abort();
    }
    free(ov);
    mmm_runs_free(r);
    return 0;
}
