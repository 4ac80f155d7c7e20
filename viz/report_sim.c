/* report_sim.c: the report's simulation section: every built-in greedy
 * policy on p SMs (mmm_simulate), a table of makespans against the bounds,
 * and the Gantt chart of the best schedule. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_int.h"
#include "mmm/gantt.h"
#include "mmm/sim.h"
#include "report_int.h"

#define LE "\xe2\x89\xa4"
#define MIDDOT "\xc2\xb7"

/* Launches simulated one by one before a policy gives up: the report
 * must stay quick on programs whose launches all differ. */
#define REPORT_MAX_LAUNCHES 1000000
/* Above this many kernels and edges only the critical-path policy is
 * simulated (each policy costs about as much as the analysis). */
#define ALL_POLICIES_MAX 100000

static int put_gantt(mmm__text *t, const mmm_instance *inst, const mmm_metrics *m,
                     const mmm_sim_policy *best, const mmm_report_options *opt,
                     mmm_error *err)
{
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
    mmm_gantt_options go = MMM_GANTT_OPTIONS_INIT;
    mmm_sim_result res;
    char *svg = NULL;
    size_t len = 0;
    mmm_error e;
    int rc;
    so.p = inst->p;
    so.policy = best;
    so.seed = 1;
    so.record = 1;
    so.max_launches = REPORT_MAX_LAUNCHES;
    MMM__REPORT_PROGRESS_TO(so, opt);
    go.mmm_bound = m->has_p ? m->graham_brent : -1.0;
    mmm_error_clear(&e);
    if ((rc = mmm_simulate(&res, inst, &so, &e)) < 0)
        goto out;
    rc = mmm__gantt_svg(&svg, &len, &res, inst->program, &go, &e);
    mmm_sim_result_dispose(&res);
out:
    if (rc == MMM_ENOMEM)
        return mmm__report_fail(err, &e);
    if (rc < 0)
        mmm__report_note(t, "(no Gantt chart: %s)", e.message);
    else
        mmm__report_put_svg(t, svg, "gantt");
    free(svg);
    return 0;
}

static void put_policy_row(mmm__tab *tb, const mmm_sim_result *r, int best)
{
    mmm__tab_row(tb, NULL);
    mmm__tab_html(tb, NAN, "<code>%s</code>%s", r->policy->name, best ? " (best)" : "");
    mmm__tab_num(tb, r->makespan);
    if (r->lower_bound > 0)
        mmm__tab_num(tb, r->makespan / r->lower_bound);
    else
        mmm__tab_empty(tb);
    mmm__tab_num(tb, 100.0 * r->utilization);
}

int mmm__report_simulation(mmm__text *t, const mmm_instance *inst,
                           const mmm_metrics *m, const mmm_report_options *opt,
                           mmm_error *err)
{
    size_t np = mmm_sim_policy_count(), i, best = 0;
    mmm_sim_result *res;
    int *ok;
    mmm_error e;
    char a[96], b[96], c[96];
    mmm__tab tb;
    int rc = 0, any = 0;
    (void)opt;
    if (!inst->has_p)
        return 0; /* the schedules need p: no section */
    res = calloc(np + 1, sizeof *res);
    ok = calloc(np + 1, sizeof *ok);
    if (!res || !ok) {
        free(res);
        free(ok);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    mmm__text_printf(t, "<section id=\"simulation\">\n<h2>Greedy schedules on p = %lld SMs</h2>\n",
                     (long long)inst->p);
    if (inst->program->nkernels + inst->program->nedges > ALL_POLICIES_MAX)
        mmm__report_note(t, "A large program: only the critical-path policy is simulated "
                           "here (mmm simulate --policy all runs them all).");
    for (i = 0; i < np; i++) {
        mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
        so.p = inst->p;
        so.policy = mmm_sim_policy_at(i);
        if (inst->program->nkernels + inst->program->nedges > ALL_POLICIES_MAX &&
            strcmp(so.policy->name, "critical-path") != 0)
            continue;
        so.seed = 1;
        so.max_launches = REPORT_MAX_LAUNCHES;
        MMM__REPORT_PROGRESS_TO(so, opt);
        mmm_error_clear(&e);
        rc = mmm_simulate(&res[i], inst, &so, &e);
        if (rc == MMM_ENOMEM) {
            mmm__report_fail(err, &e);
            goto done;
        }
        if (rc < 0) {
            mmm__report_note(t, "Policy %s: %s.", so.policy->name, e.message);
            rc = 0;
            continue;
        }
        ok[i] = 1;
        if (!any || res[i].makespan < res[best].makespan)
            best = i;
        any = 1;
    }
    if (!any)
        goto done;
    mmm__text_put(t, "<p>An SM runs one block at a time for S(B) + O(B); a block is ready when "
                    "every block of the launches before it has finished. Every policy below "
                    "is greedy (no SM idles while a block is ready), so its makespan lies "
                    "between the lower bound and Graham's bound.</p>\n");
    mmm__text_printf(t, "<table>\n<tr><th>lower bound max(&Sigma;/p, critical path)</th>"
                       "<td class=\"n\">%s</td></tr>\n<tr><th>Graham: &Sigma;/p + (1 "
                       "&minus; 1/p)" MIDDOT "critical path</th><td class=\"n\">%s</td></tr>\n",
                     mmm__report_num(res[best].lower_bound, a, sizeof a),
                     mmm__report_num(res[best].graham, b, sizeof b));
    if (m->has_p)
        mmm__text_printf(t, "<tr><th>MMM: (N/p + L)" MIDDOT "C</th><td class=\"n\">%s</td>"
                           "</tr>\n", mmm__report_num(m->graham_brent, c, sizeof c));
    mmm__text_put(t, "</table>\n");
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "policy", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "makespan", MMM__TAB_NUM);
    mmm__tab_col(&tb, "/ lower bound", MMM__TAB_RATIO);
    mmm__tab_col(&tb, "utilization", MMM__TAB_PERCENT);
    for (i = 0; i < np; i++)
        if (ok[i])
            put_policy_row(&tb, &res[i], i == best);
    if ((rc = mmm__tab_end(&tb, t, err)) < 0)
        goto done;
    mmm__report_note(t, "Gantt chart of the %s schedule: one lane per SM, blocks coloured by "
                       "kernel; the vertical lines are the bounds.", res[best].policy->name);
    rc = put_gantt(t, inst, m, res[best].policy, opt, err);
done:
    for (i = 0; i < np; i++)
        if (ok[i])
            mmm_sim_result_dispose(&res[i]);
    free(res);
    free(ok);
    mmm__text_put(t, "</section>\n");
    return rc;
}
