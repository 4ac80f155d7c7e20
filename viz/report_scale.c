/* report_scale.c: the report's speedup section: the sweep over p of
 * mmm/scale.h (bounds, the fifo makespan, the speedup range) as a table
 * and Cilkview's picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/plot.h"
#include "figure_int.h"
#include "mmm/scale.h"
#include "report_int.h"

#define DASH "\xe2\x80\x94"
#define GE "\xe2\x89\xa5"
#define MIDDOT "\xc2\xb7"

/* Launches simulated one by one per p before giving up (the report stays
 * quick on programs whose launches all differ). */
#define SCALE_MAX_LAUNCHES 1000000
/* Above this many kernels and edges the section is left out (each p
 * costs a simulation). */
#define SCALE_MAX_SIZE 100000

typedef struct speedup_fig {
    const mmm_speedup *s;
    const char *name;
} speedup_fig;

/* A speedup: 4 significant digits, as the ranges always were. */
static char *range_num(double v, char *buf, size_t size)
{
    snprintf(buf, size, "%.4g", v);
    return buf;
}

static int draw_speedup(char **svg, size_t *len, const void *arg, mmm_error *err)
{
    const speedup_fig *f = arg;
    return mmm__speedup_plot_svg(f->s, f->name, svg, len, err);
}

int mmm__report_scaling(mmm__text *t, const mmm_instance *inst,
                       const mmm_report_options *opt, mmm_error *err)
{
    mmm_speedup_options so = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_speedup s;
    mmm_error e;
    char a[96], b[96];
    mmm__tab tb;
    size_t i;
    int rc;
    if (inst->program->nkernels + inst->program->nedges > SCALE_MAX_SIZE)
        return 0;
    so.max_launches = SCALE_MAX_LAUNCHES;
    MMM__REPORT_PROGRESS_TO(so, opt);
    mmm_error_clear(&e);
    rc = mmm_speedup_compute(&s, inst, opt->overrides, opt->noverrides, &so, &e);
    mmm__text_put(t, "<section id=\"speedup\">\n<h2>Speedup over p</h2>\n");
    if (rc == MMM_ENOMEM) {
        mmm__text_put(t, "</section>\n");
        return mmm__report_fail(err, &e);
    }
    if (rc < 0) {
        mmm__report_note(t, "(no sweep over p: %s)", e.message);
        mmm__text_put(t, "</section>\n");
        return 0;
    }
    mmm__text_printf(t, "<p>T1 = %s (the sum of the block costs S(B) + O(B): the makespan on "
                       "one SM), critical path = %s (the longest block path by the same "
                       "costs), K = %lld. The corollary (N/K + L)" MIDDOT "C holds only for "
                       "p " GE " K. Every greedy schedule's speedup T1/makespan lies in the "
                       "range T1/Graham .. T1/lower bound.%s</p>\n",
                    mmm__report_num(s.T1, a, sizeof a),
                    mmm__report_num(s.critical_path, b, sizeof b), (long long)s.K,
                    s.p_dependent ? " The program declares p: each row evaluates it with "
                                    "that p." : "");
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "p", MMM__TAB_NUM);
    mmm__tab_col(&tb, "lower bound", MMM__TAB_NUM);
    mmm__tab_col(&tb, "Graham", MMM__TAB_NUM);
    mmm__tab_col(&tb, "(N/p + L)" MIDDOT "C", MMM__TAB_NUM);
    mmm__tab_col(&tb, "corollary (p " GE " K)", MMM__TAB_NUM);
    mmm__tab_col(&tb, "makespan (fifo)", MMM__TAB_NUM);
    mmm__tab_col(&tb, "speedup range", MMM__TAB_NUM);
    for (i = 0; i < s.nrows; i++) {
        const mmm_speedup_row *r = &s.rows[i];
        mmm__tab_row(&tb, NULL);
        mmm__tab_num(&tb, (double)r->p);
        mmm__tab_num(&tb, r->lower_bound);
        mmm__tab_num(&tb, r->graham);
        mmm__tab_num(&tb, r->graham_brent);
        if (r->has_corollary)
            mmm__tab_num(&tb, r->corollary);
        else
            mmm__tab_html(&tb, NAN, DASH " (p &lt; K)");
        mmm__tab_num(&tb, r->makespan[0]);
        mmm__tab_html(&tb, r->speedup_max, "%s .. %s", range_num(r->speedup_min, a, sizeof a),
                      range_num(r->speedup_max, b, sizeof b));
    }
    if ((rc = mmm__tab_end(&tb, t, err)) < 0) {
        mmm_speedup_dispose(&s);
        mmm__text_put(t, "</section>\n");
        return rc;
    }
    if (mmm_plot_available()) {
        speedup_fig fig;
        fig.s = &s;
        fig.name = inst->program->name;
        rc = mmm__report_figure(t, draw_speedup, &fig, "speedup", err);
    }
    mmm_speedup_dispose(&s);
    mmm__text_put(t, "</section>\n");
    return rc;
}
