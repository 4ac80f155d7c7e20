/* roofline.c: the roofline of a program's kernels from the time model's
 * own figures (mmm/roofline.h). */
#include "mmm/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mmm_roofline_bound_name(mmm_roofline_bound b)
{
    return b == MMM_ROOFLINE_DRAM ? "dram" : b == MMM_ROOFLINE_L2 ? "l2" : "compute";
}

static double per(double a, double b)
{
    return b > 0 ? a / b : INFINITY;
}

int mmm_roofline_compute(mmm_roofline *out, const mmm_time *t,
                         const mmm_instance *inst, mmm_error *err)
{
    const mmm_time_machine *m;
    const mmm_program *prog;
    size_t k, n = 0;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_roofline_compute: bad argument");
    memset(out, 0, sizeof *out);
    if (!t || !inst || !inst->program || t->nkernels != inst->program->nkernels)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_roofline_compute: bad argument");
    m = &t->machine;
    prog = inst->program;
    if (!(m->clock_hz > 0) || !(m->c[MMM_TIME_ISSUE] > 0) || !(m->c[MMM_TIME_BANDWIDTH] > 0) ||
        m->p <= 0 || m->warp_size <= 0)
        return mmm_error_set(err, MMM_EINPUT, prog->file, 0,
                             "the roofline needs the machine's clock_hz, p, warp_size, "
                             "issue_per_cycle and bandwidth_bytes_per_cycle (--machine FILE)");
    out->peak_ops_per_s = m->c[MMM_TIME_ISSUE] * (double)m->warp_size * (double)m->p *
                          m->clock_hz;
    out->dram_bytes_per_s = m->c[MMM_TIME_BANDWIDTH] * m->clock_hz;
    out->l2_bytes_per_s = m->l2_bytes_per_cycle > 0 ? m->l2_bytes_per_cycle * m->clock_hz : 0;
    out->ridge = out->peak_ops_per_s / out->dram_bytes_per_s;
    out->l2_ridge = out->l2_bytes_per_s > 0 ? out->peak_ops_per_s / out->l2_bytes_per_s : 0;
    out->kernels = calloc(t->nkernels ? t->nkernels : 1, sizeof *out->kernels);
    if (!out->kernels)
        return mmm_error_set(err, MMM_ENOMEM, prog->file, 0, "out of memory");
    for (k = 0; k < t->nkernels; k++) {
        const mmm_time_kernel *tk = &t->kernels[k];
        mmm_roofline_kernel *rk = &out->kernels[n];
        double roof;
        if (mmm_kernel_copy(prog, k) != MMM_COPY_NONE || !(tk->work > 0) ||
            !(tk->exec_seconds > 0)) {
            out->nskipped++;
            continue;
        }
        rk->kernel = k;
        rk->launches = tk->launches;
        rk->work = tk->work;
        rk->dram_bytes = tk->dram_bytes;
        rk->l2_bytes = tk->l2_bytes;
        rk->exec_seconds = tk->exec_seconds;
        rk->intensity = per(tk->work, tk->dram_bytes);
        rk->l2_intensity = per(tk->work, tk->l2_bytes);
        rk->throughput = tk->work / tk->exec_seconds;
        rk->bound = MMM_ROOFLINE_COMPUTE;
        roof = out->peak_ops_per_s;
        if (rk->intensity * out->dram_bytes_per_s < roof) {
            roof = rk->intensity * out->dram_bytes_per_s;
            rk->bound = MMM_ROOFLINE_DRAM;
        }
        if (out->l2_bytes_per_s > 0 && rk->l2_intensity * out->l2_bytes_per_s < roof) {
            roof = rk->l2_intensity * out->l2_bytes_per_s;
            rk->bound = MMM_ROOFLINE_L2;
        }
        rk->roof = roof;
        rk->fraction = rk->throughput / roof;
        rk->dominant = tk->dominant;
        n++;
    }
    out->nkernels = n;
    return MMM_OK;
}

void mmm_roofline_dispose(mmm_roofline *r)
{
    if (!r)
        return;
    free(r->kernels);
    memset(r, 0, sizeof *r);
}
