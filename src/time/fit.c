/* fit.c: least squares of the time model's constants on measured runs
 * (include/mmm/fit.h, docs/time.md "Fitting"): a projected Levenberg–
 * Marquardt iteration on the logarithms of the constants, residuals
 * ln(predicted) − ln(measured), a central-difference Jacobian, several
 * starts; and the machine file it writes. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/fit.h"
#include "base/outfile.h"
#include "base/text.h"
#include "base/abi.h"

int mmm_time_predict(const mmm_time_machine *m, const mmm_instance *inst,
                     int graph, double *seconds, mmm_error *err)
{
    mmm_time_machine mm = *m;
    mmm_time t;
    mm.graph = graph;
    int r = mmm_time_compute(&t, inst, &mm, err);
    if (r < 0)
        return r;
    *seconds = t.seconds;
    mmm_time_dispose(&t);
    return 0;
}

void mmm_fit_result_dispose(mmm_fit_result *res)
{
    if (!res)
        return;
    free(res->predicted);
    res->predicted = NULL;
}

typedef struct problem {
    const mmm_fit_sample *s;
    size_t n;
    mmm_time_machine m;    /* current machine (fixed constants in place) */
    int idx[MMM_TIME_NCONST];
    int k;                 /* fitted constants */
    double lo[MMM_TIME_NCONST], hi[MMM_TIME_NCONST]; /* log bounds */
    mmm_error *err;
} problem;

/* Residuals at x (log constants); returns the cost or -1 on error. */
static double residuals(problem *pb, const double *x, double *r)
{
    double cost = 0;
    for (int j = 0; j < pb->k; j++)
        pb->m.c[pb->idx[j]] = exp(x[j]);
    for (size_t i = 0; i < pb->n; i++) {
        double t;
        if (mmm_time_predict(&pb->m, pb->s[i].inst, pb->s[i].graph, &t,
                             pb->err) < 0)
            return -1;
        if (!(t > 0) || !isfinite(t))
            t = DBL_MIN;
        r[i] = log(t) - log(pb->s[i].seconds);
        cost += r[i] * r[i];
    }
    return cost;
}

/* Solve the k x k system A d = b (A symmetric positive definite) by
 * Cholesky, in place; returns -1 when a squared pivot is not above
 * min_pivot (0: A is not positive definite). */
static int cholesky_solve(int k, double *A, double *b, double *d,
                          double min_pivot)
{
    for (int j = 0; j < k; j++) {
        double s = A[j * k + j];
        for (int q = 0; q < j; q++)
            s -= A[j * k + q] * A[j * k + q];
        if (!(s > min_pivot))
            return -1;
        A[j * k + j] = sqrt(s);
        for (int i = j + 1; i < k; i++) {
            double t = A[i * k + j];
            for (int q = 0; q < j; q++)
                t -= A[i * k + q] * A[j * k + q];
            A[i * k + j] = t / A[j * k + j];
        }
    }
    for (int i = 0; i < k; i++) {
        double t = b[i];
        for (int q = 0; q < i; q++)
            t -= A[i * k + q] * d[q];
        d[i] = t / A[i * k + i];
    }
    for (int i = k - 1; i >= 0; i--) {
        double t = d[i];
        for (int q = i + 1; q < k; q++)
            t -= A[q * k + i] * d[q];
        d[i] = t / A[i * k + i];
    }
    return 0;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The Jacobian of the residuals at x (log constants) by central
 * differences, one-sided at a bound: J[i·k + j] for run i and fitted
 * constant j.  rp, rm: scratch of pb->n.  -1 on error. */
static int jacobian(problem *pb, const double *x, double *J, double *rp,
                    double *rm)
{
    int k = pb->k;
    double xt[MMM_TIME_NCONST];
    for (int j = 0; j < k; j++) {
        double h = 1e-4;
        memcpy(xt, x, (size_t)k * sizeof *x);
        double up = fmin(x[j] + h, pb->hi[j]), dn = fmax(x[j] - h, pb->lo[j]);
        xt[j] = up;
        if (residuals(pb, xt, rp) < 0)
            return -1;
        xt[j] = dn;
        if (residuals(pb, xt, rm) < 0)
            return -1;
        for (size_t i = 0; i < pb->n; i++)
            J[i * (size_t)k + (size_t)j] =
                up > dn ? (rp[i] - rm[i]) / (up - dn) : 0;
    }
    return 0;
}

/* How well the runs determine the fitted constants at x (their best
 * values; cost there): res->at_bound, rel_sd and corr (fit.h).  The
 * covariance of the log constants inside their bounds is s²(JᵀJ)⁻¹, the
 * Gauss–Newton approximation, with s² = cost / (runs − constants).  -1 on
 * error (pb->err set). */
static int diagnose(problem *pb, const double *x, double cost,
                    mmm_fit_result *res)
{
    int k = pb->k, in[MMM_TIME_NCONST], m = 0;
    size_t n = pb->n;
    for (int i = 0; i < MMM_TIME_NCONST; i++) {
        res->at_bound[i] = 0;
        res->rel_sd[i] = NAN;
        for (int j = 0; j < MMM_TIME_NCONST; j++)
            res->corr[i][j] = NAN;
    }
    if (k == 0)
        return 0;
    double *J = malloc(n * (size_t)k * sizeof *J), *rp = malloc(n * sizeof *rp),
           *rm = malloc(n * sizeof *rm);
    int r = -1;
    if (!J || !rp || !rm) {
        mmm_error_set(pb->err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if (jacobian(pb, x, J, rp, rm) < 0)
        goto done;
    for (int j = 0; j < k; j++) {
        int c = pb->idx[j];
        double norm = 0;
        for (size_t i = 0; i < n; i++)
            norm += J[i * (size_t)k + (size_t)j] * J[i * (size_t)k + (size_t)j];
        if (x[j] <= pb->lo[j] + 1e-9)
            res->at_bound[c] = -1;
        else if (x[j] >= pb->hi[j] - 1e-9)
            res->at_bound[c] = 1;
        else if (!(norm > 0))
            res->rel_sd[c] = INFINITY; /* no run depends on it */
        else
            in[m++] = j;
    }
    r = 0;
    if (m == 0)
        goto done;
    double A[MMM_TIME_NCONST * MMM_TIME_NCONST], C[MMM_TIME_NCONST * MMM_TIME_NCONST];
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            double t = 0;
            for (size_t i = 0; i < n; i++)
                t += J[i * (size_t)k + (size_t)in[a]] *
                     J[i * (size_t)k + (size_t)in[b]];
            A[a * m + b] = t;
        }
    /* (JᵀJ)⁻¹ through its scaled form R = D^-1/2 JᵀJ D^-1/2 (unit
     * diagonal, D its diagonal), column by column.  A pivot of R's
     * Cholesky factor below 1e-10 (R within rounding of singular) means
     * the runs cannot tell these constants apart. */
    int singular = 0;
    double R[MMM_TIME_NCONST * MMM_TIME_NCONST];
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++)
            R[a * m + b] = A[a * m + b] / sqrt(A[a * m + a] * A[b * m + b]);
    for (int col = 0; col < m && !singular; col++) {
        double M[MMM_TIME_NCONST * MMM_TIME_NCONST], e[MMM_TIME_NCONST],
            d[MMM_TIME_NCONST];
        memcpy(M, R, sizeof(double) * (size_t)(m * m));
        for (int a = 0; a < m; a++)
            e[a] = a == col;
        if (cholesky_solve(m, M, e, d, 1e-10) < 0)
            singular = 1;
        for (int a = 0; a < m; a++) /* back from the scaled form */
            C[a * m + col] = d[a] / sqrt(A[a * m + a] * A[col * m + col]);
    }
    for (int a = 0; a < m; a++) /* symmetric to the last bit */
        for (int b = 0; b < a; b++)
            C[a * m + b] = C[b * m + a] = 0.5 * (C[a * m + b] + C[b * m + a]);
    double s2 = n > (size_t)m ? cost / (double)(n - (size_t)m) : NAN;
    for (int a = 0; a < m; a++) {
        int ca = pb->idx[in[a]];
        if (singular) {
            /* no covariance: the cosine of the two constants' columns of
             * J (R), the closer to parallel the more the runs trade one
             * for the other */
            res->rel_sd[ca] = INFINITY;
            for (int b = 0; b < m; b++)
                res->corr[ca][pb->idx[in[b]]] = -R[a * m + b];
            continue;
        }
        res->rel_sd[ca] = sqrt(s2 * C[a * m + a]);
        for (int b = 0; b < m; b++)
            res->corr[ca][pb->idx[in[b]]] =
                C[a * m + b] / sqrt(C[a * m + a] * C[b * m + b]);
    }
done:
    free(J);
    free(rp);
    free(rm);
    return r;
}

/* One LM run from x (in place).  Returns the final cost or -1. */
static double lm(problem *pb, double *x, int max_iter, int *iters)
{
    int k = pb->k;
    size_t n = pb->n;
    double *r = malloc(n * sizeof *r), *rp = malloc(n * sizeof *r),
           *rm = malloc(n * sizeof *r), *J = malloc(n * (size_t)k * sizeof *J);
    double A[MMM_TIME_NCONST * MMM_TIME_NCONST], g[MMM_TIME_NCONST],
        d[MMM_TIME_NCONST], xn[MMM_TIME_NCONST];
    double cost = -1, lambda = 1e-3;
    if (!r || !rp || !rm || !J) {
        mmm_error_set(pb->err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if ((cost = residuals(pb, x, r)) < 0)
        goto done;
    for (int it = 0; it < max_iter; it++) {
        *iters += 1;
        if (jacobian(pb, x, J, rp, rm) < 0) {
            cost = -1;
            goto done;
        }
        for (int a = 0; a < k; a++) {
            g[a] = 0;
            for (int b = 0; b < k; b++)
                A[a * k + b] = 0;
        }
        for (size_t i = 0; i < n; i++)
            for (int a = 0; a < k; a++) {
                double ja = J[i * (size_t)k + (size_t)a];
                g[a] += ja * r[i];
                for (int b = 0; b <= a; b++)
                    A[a * k + b] += ja * J[i * (size_t)k + (size_t)b];
            }
        for (int a = 0; a < k; a++)
            for (int b = 0; b < a; b++)
                A[b * k + a] = A[a * k + b];
        int improved = 0;
        for (int tries = 0; tries < 12 && !improved; tries++) {
            double M[MMM_TIME_NCONST * MMM_TIME_NCONST], bb[MMM_TIME_NCONST];
            memcpy(M, A, sizeof(double) * (size_t)(k * k));
            for (int a = 0; a < k; a++) {
                M[a * k + a] += lambda * (A[a * k + a] + 1e-12);
                bb[a] = -g[a];
            }
            if (cholesky_solve(k, M, bb, d, 0) < 0) {
                lambda *= 10;
                continue;
            }
            for (int a = 0; a < k; a++)
                xn[a] = clampd(x[a] + d[a], pb->lo[a], pb->hi[a]);
            double cn = residuals(pb, xn, rp);
            if (cn < 0) {
                cost = -1;
                goto done;
            }
            if (cn < cost) {
                double gain = cost - cn;
                memcpy(x, xn, (size_t)k * sizeof *x);
                memcpy(r, rp, n * sizeof *r);
                cost = cn;
                lambda = fmax(lambda / 3, 1e-12);
                improved = 1;
                if (gain <= 1e-14 * (cost + 1e-300))
                    goto done;
            } else {
                lambda *= 4;
            }
        }
        if (!improved || cost < 1e-28)
            break;
    }
done:
    if (cost >= 0) /* leave the machine at x */
        for (int j = 0; j < k; j++)
            pb->m.c[pb->idx[j]] = exp(x[j]);
    free(r);
    free(rp);
    free(rm);
    free(J);
    return cost;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int mmm_time_fit(mmm_time_machine *m, const mmm_fit_sample *s, size_t n,
                 const mmm_fit_options *opt, mmm_fit_result *res,
                 mmm_error *err)
{
    mmm_error own; /* the code of a failure, when the caller passes no err */
    if (!err)
        err = &own;
    if (!m || !res)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_time_fit: missing argument");
    MMM__CHECK_VERSION(opt, mmm_fit_options, FIT_OPTIONS, err);
    problem pb;
    double x0[MMM_TIME_NCONST], best[MMM_TIME_NCONST], x[MMM_TIME_NCONST];
    double best_cost = -1;
    int max_iter = opt && opt->max_iter > 0 ? opt->max_iter : 100;
    memset(res, 0, sizeof *res);
    if (n == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no runs to fit");
    memset(&pb, 0, sizeof pb);
    pb.s = s;
    pb.n = n;
    pb.m = *m;
    pb.err = err;
    for (int i = 0; i < MMM_TIME_NCONST; i++) {
        if (opt && !opt->fit[i]) {
            double lo, hi;
            mmm_time_const_bounds(i, &lo, &hi);
            /* an optional constant is kept at 0 when a file has none */
            if (!(m->c[i] >= lo && m->c[i] <= hi) &&
                !(mmm_time_const_optional(i) && m->c[i] == 0))
                return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                     "the constant '%s' is kept but has no "
                                     "value in [%g, %g] (%g): give it in the "
                                     "base machine or fit it",
                                     mmm_time_const_name(i), lo, hi, m->c[i]);
            continue;
        }
        double lo, hi;
        mmm_time_const_bounds(i, &lo, &hi);
        pb.idx[pb.k] = i;
        pb.lo[pb.k] = log(lo);
        pb.hi[pb.k] = log(hi);
        double v = log(m->c[i] > 0 ? m->c[i] : mmm_time_const_start(i));
        x0[pb.k] = clampd(v, pb.lo[pb.k], pb.hi[pb.k]);
        pb.k++;
    }
    /* Starts: the given values, then each scaled by 1/4; the best end
     * wins. */
    static const double shift[] = {0, -1.3862943611198906};
    for (size_t st = 0; st < sizeof shift / sizeof shift[0]; st++) {
        for (int j = 0; j < pb.k; j++)
            x[j] = clampd(x0[j] + shift[st], pb.lo[j], pb.hi[j]);
        if (pb.k == 0)
            break; /* nothing to fit: only the predictions below */
        double c = lm(&pb, x, max_iter, &res->iterations);
        if (c < 0)
            return err->code;
        if (best_cost < 0 || c < best_cost) {
            best_cost = c;
            memcpy(best, x, sizeof x);
        }
        if (best_cost < 1e-24)
            break;
    }
    for (int j = 0; j < pb.k; j++)
        pb.m.c[pb.idx[j]] = exp(best[j]);
    res->predicted = malloc(n * sizeof *res->predicted);
    double *rel = malloc(n * sizeof *rel);
    if (!res->predicted || !rel) {
        free(rel);
        mmm_fit_result_dispose(res);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    res->cost = 0;
    for (size_t i = 0; i < n; i++) {
        double t;
        if (mmm_time_predict(&pb.m, s[i].inst, s[i].graph, &t, err) < 0) {
            free(rel);
            mmm_fit_result_dispose(res);
            return err->code;
        }
        res->predicted[i] = t;
        double lr = log(t) - log(s[i].seconds);
        res->cost += lr * lr;
        rel[i] = fabs(t - s[i].seconds) / s[i].seconds;
    }
    qsort(rel, n, sizeof *rel, cmp_double);
    res->median_rel_error =
        n % 2 ? rel[n / 2] : 0.5 * (rel[n / 2 - 1] + rel[n / 2]);
    res->max_rel_error = rel[n - 1];
    free(rel);
    if (diagnose(&pb, best, res->cost, res) < 0) {
        mmm_fit_result_dispose(res);
        return err->code;
    }
    for (int j = 0; j < pb.k; j++) /* the Jacobian moved them */
        pb.m.c[pb.idx[j]] = exp(best[j]);
    for (int i = 0; i < MMM_TIME_NCONST; i++)
        m->c[i] = pb.m.c[i];
    return 0;
}

/* ------------------------------------------------------------------ */
/* The machine file                                                    */

char *mmm_fit_note(char *buf, size_t size, const mmm_fit_result *res, size_t nruns,
                   const char *base_path)
{
    if (buf && size && res)
        snprintf(buf, size,
                 "Written by mmm fit: the time model's constants (docs/time.md) "
                 "fitted to %zu measured runs (median relative error %.3g, "
                 "largest %.3g); the other parameters are those of %s.",
                 nruns, res->median_rel_error, res->max_rel_error,
                 base_path ? base_path : "no machine file");
    else if (buf && size)
        buf[0] = '\0';
    return buf;
}

int mmm_time_machine_write(const char *path, const char *name,
                           const mmm_machine *base, const mmm_time_machine *m,
                           const char *note, mmm_error *err)
{
    mmm__outfile of;
    int r = mmm__outfile_open(&of, path, err);
    if (r < 0)
        return r;
    FILE *f = of.fp;
    int done[MMM_TIME_NCONST] = {0};
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if (note) {
        fputs("<!--\n", f);
        mmm__fput_xml_comment(f, note);
        fputs("\n-->\n", f);
    }
    fputs("<machine name=\"", f);
    mmm__fput_xml(f, name ? name : (base && base->name ? base->name : "fitted"));
    fputs("\">\n", f);
    for (size_t i = 0; base && i < base->nparams; i++) {
        const mmm_machine_param *p = &base->params[i];
        int c = mmm_time_const_find(p->name);
        char buf[64];
        if (c >= 0) {
            /* A constant the fit kept still holds the base machine's
             * value; one it fitted has moved. */
            fprintf(f, "  <!-- %s: %s (%s), %s -->\n", p->name,
                    mmm_time_const_meaning(c), mmm_time_const_unit(c),
                    m->c[c] == p->value.d ? "kept from the base machine"
                                          : "fitted");
            fprintf(f, "  <param name=\"%s\" value=\"%.9g\"/>\n", p->name,
                    m->c[c]);
            done[c] = 1;
        } else {
            fprintf(f, "  <param name=\"%s\" value=\"%s\"/>\n", p->name,
                    mmm_value_format(p->value, 0, buf, sizeof buf));
        }
    }
    for (int c = 0; c < MMM_TIME_NCONST; c++) {
        if (done[c])
            continue;
        fprintf(f, "  <!-- %s: %s (%s), fitted -->\n",
                mmm_time_const_name(c), mmm_time_const_meaning(c),
                mmm_time_const_unit(c));
        fprintf(f, "  <param name=\"%s\" value=\"%.9g\"/>\n",
                mmm_time_const_name(c), m->c[c]);
    }
    fputs("</machine>\n", f);
    return mmm__outfile_commit(&of, err);
}

void mmm_fit_options_init(mmm_fit_options *opt)
{
    static const mmm_fit_options defaults = MMM_FIT_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}
