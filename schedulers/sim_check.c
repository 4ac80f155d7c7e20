/* sim_check.c: a schedule must respect its bounds.  Every greedy schedule
 * satisfies max(total/p, critical path) <= T <= total/p + (1-1/p) critical
 * path (Graham 1966/1969), and that is at most the MMM bound (N/p + L)C
 * since total <= N C and critical path <= L C.  Anything else is a bug. */
#include <math.h>

#include "mmm/sim.h"

/* a <= b up to the relative tolerance (sums of doubles round). */
static int leq(double a, double b)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return a <= b + MMM_SIM_REL_TOL * scale;
}

int mmm_sim_check(const mmm_sim_result *r, double mmm_bound, mmm_error *err)
{
    const char *name = r->policy ? r->policy->name : "?";
    if (!leq(r->lower_bound, r->makespan))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "internal error: policy %s, p = %lld: makespan %.17g "
                             "is below the lower bound %.17g", name,
                             (long long)r->p, r->makespan, r->lower_bound);
    if (!leq(r->makespan, r->graham))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "internal error: policy %s, p = %lld: makespan %.17g "
                             "exceeds Graham's bound %.17g", name,
                             (long long)r->p, r->makespan, r->graham);
    if (mmm_bound >= 0.0 && !leq(r->makespan, mmm_bound))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "internal error: policy %s, p = %lld: makespan %.17g "
                             "exceeds the MMM bound (N/p + L)C = %.17g", name,
                             (long long)r->p, r->makespan, mmm_bound);
    return MMM_OK;
}
