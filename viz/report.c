/* report.c: `mmm report`: one self-contained HTML page about a program
 * (summary, DAG, parameters, kernels; the sweep and simulation sections
 * are in report_sweep.c and report_sim.c). */
#include "mmm/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/version.h"
#include "base/outfile.h"
#include "render_labels.h"
#include "report_int.h"
#include "base/abi.h"

#define RARROW "\xe2\x86\x92"
#define TIMES "\xc3\x97"
#define CHECK "\xe2\x9c\x93"
#define LE "\xe2\x89\xa4"
#define GE "\xe2\x89\xa5"
#define MIDDOT "\xc2\xb7"

/* No external resource and one inline script, its hash the only one the
 * policy allows: the browser refuses any fetch and any other script, so a
 * regression shows up as a console error. */
static const char page_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; img-src data:; script-src ";
static const char page_head_end[] =
    "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"generator\" content=\"mmm " MMM_VERSION_STRING "\">\n";

/* Every text at least 11 pixels (sub and sup included); figures at their
 * natural size in a frame that scrolls (the script zooms them). */
static const char page_style[] =
    "<style>\n"
    ":root{color-scheme:light}\n"
    "body{margin:0;background:#fff;color:#1b1b1b;font:15px/1.45 system-ui,-apple-system,"
    "\"Segoe UI\",Roboto,\"Liberation Sans\",Helvetica,Arial,sans-serif}\n"
    "main{max-width:1180px;margin:0 auto;padding:22px 28px 40px}\n"
    "h1{font-size:26px;margin:0 0 4px}\n"
    "h2{font-size:19px;margin:30px 0 10px;padding-bottom:4px;border-bottom:1px solid #ddd}\n"
    "p{margin:6px 0}\n"
    "sub,sup{font-size:max(11px,.75em);line-height:0}\n"
    ".desc{color:#333}.meta,.note{color:#6a6a6a;font-size:13px}\n"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:6px 0;"
    "display:block;max-width:100%;overflow-x:auto}\n"
    "th,td{padding:4px 10px;text-align:left;border-bottom:1px solid #eaeaea;vertical-align:top}\n"
    "th{background:#f4f4f4;font-weight:600}\n"
    "td.n,th.n{text-align:right;white-space:nowrap}\n"
    "th.sortable{cursor:pointer;user-select:none}\n"
    "th.sortable:hover{background:#e8e8e8}\n"
    "th.sortable::after{content:\"\\2195\";color:#aaa;padding-left:4px;font-weight:400}\n"
    "th[aria-sort=ascending]::after{content:\"\\2191\";color:#1b1b1b}\n"
    "th[aria-sort=descending]::after{content:\"\\2193\";color:#1b1b1b}\n"
    "table.folded>tbody>tr:nth-child(n+51),.list.folded>:nth-child(n+51){display:none}\n"
    "button{font:13px system-ui,sans-serif;padding:2px 9px;margin:2px 4px 2px 0;"
    "border:1px solid #bbb;border-radius:4px;background:#f7f7f7;color:#1b1b1b;cursor:pointer}\n"
    "button:hover{background:#ececec}\n"
    "tr.span td:first-child{box-shadow:inset 4px 0 #2166ac}\n"
    "tr.lpath td:first-child{box-shadow:inset 4px 0 #1b7837}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}\n"
    ".card{border:1px solid #e2e2e2;border-radius:6px;padding:7px 12px;min-width:96px}\n"
    ".card .k{font-size:12px;color:#666}.card .v{font-size:18px;font-weight:600;"
    "font-variant-numeric:tabular-nums}\n"
    ".figure{overflow:auto;max-height:85vh;border:1px solid #e2e2e2;border-radius:6px;"
    "padding:8px;margin:8px 0}\n"
    ".figure svg{display:block;margin:0 auto}\n"
    ".figure.drag{cursor:grabbing}\n"
    ".zoom{display:flex;align-items:center;gap:2px;font-size:13px;color:#6a6a6a}\n"
    ".zoom span{margin-left:6px}\n"
    "code{font-family:ui-monospace,\"DejaVu Sans Mono\",monospace;font-size:13px}\n"
    ".sw{display:inline-block;width:10px;height:10px;margin-right:5px;vertical-align:baseline}\n"
    "</style>\n</head>\n<body>\n<main>\n";

/* ------------------------------------------------------------------ */
/* Sections                                                            */

static void put_num_cell(mmm__text *t, double v)
{
    char b[96];
    mmm__text_printf(t, "<td class=\"n\">%s</td>", mmm__report_num(v, b, sizeof b));
}

static void put_header(mmm__text *t, const mmm_instance *inst,
                       const mmm_report_options *opt)
{
    const mmm_program *p = inst->program;
    const char *name = p->name && *p->name ? p->name : "program";
    mmm__text_put(t, page_head);
    mmm__report_script_hash(t);
    mmm__text_put(t, page_head_end);
    mmm__text_put(t, "<title>");
    mmm__text_put_xml(t, name);
    mmm__text_put(t, " " MIDDOT " mmm report</title>\n");
    mmm__text_put(t, page_style);
    mmm__text_put(t, "<header>\n<h1>");
    mmm__text_put_xml(t, name);
    mmm__text_put(t, "</h1>\n");
    if (p->description && *p->description) {
        mmm__text_put(t, "<p class=\"desc\">");
        mmm__text_put_xml(t, p->description);
        mmm__text_put(t, "</p>\n");
    }
    mmm__text_put(t, "<p class=\"meta\">");
    mmm__text_put_xml(t, opt->source ? opt->source : p->file ? p->file : "");
    mmm__text_printf(t, " " MIDDOT " %zu kernel%s, %zu edge%s " MIDDOT
                       " Many-core Machine Model</p>\n</header>\n",
                     p->nkernels, p->nkernels == 1 ? "" : "s", p->nedges,
                     p->nedges == 1 ? "" : "s");
}

static void card(mmm__text *t, const char *key, const char *title, double v)
{
    char b[96];
    mmm__text_put(t, "<div class=\"card\" title=\"");
    mmm__text_put_xml(t, title);
    mmm__text_put(t, "\"><div class=\"k\">");
    mmm__text_put(t, key);
    mmm__text_printf(t, "</div><div class=\"v\">%s</div></div>\n",
                     mmm__report_num(v, b, sizeof b));
}

static void put_path(mmm__text *t, const mmm_instance *inst, const uint32_t *path,
                     size_t len)
{
    size_t i;
    if (len == 0) {
        mmm__text_put(t, "(empty)");
        return;
    }
    /* one item per kernel: the script folds a long path */
    mmm__text_put(t, "<span class=\"list\">");
    for (i = 0; i < len; i++) {
        const mmm_kernel_val *kv = &inst->kernels[path[i]];
        mmm__text_put(t, "<span><code>");
        mmm__text_put_xml(t, inst->program->kernels[path[i]].id);
        mmm__text_put(t, "</code>");
        if (kv->repeat != 1)
            mmm__text_printf(t, " " TIMES "%lld", (long long)kv->repeat);
        mmm__text_put(t, i + 1 < len ? " " RARROW " </span>" : "</span>");
    }
    mmm__text_put(t, "</span>");
}

static void put_summary(mmm__text *t, const mmm_instance *inst, const mmm_metrics *m)
{
    char b[96];
    mmm__text_put(t, "<section id=\"summary\">\n<h2>Measures</h2>\n<div class=\"cards\">\n");
    card(t, "W " MIDDOT " work", "total local operations of all threads", m->W);
    card(t, "S " MIDDOT " span", "largest sum of S(K) over a kernel path", m->S);
    card(t, "O " MIDDOT " overhead", "sum of (r+w)U over all blocks", m->O);
    card(t, "N " MIDDOT " blocks", "number of thread blocks", (double)m->N);
    card(t, "L " MIDDOT " block path", "blocks on a longest path of the block DAG", (double)m->L);
    card(t, "C " MIDDOT " max S(B)+O(B)", "largest block cost", m->C);
    card(t, "K " MIDDOT " antichain", "largest set of pairwise independent blocks",
         (double)m->K);
    card(t, "W/S " MIDDOT " thread parallelism", "work over span", m->parallelism);
    if (m->has_blocks)
        card(t, "T<sub>1</sub>/T<sub>" "\xe2\x88\x9e" "</sub> " MIDDOT " block parallelism",
             "the sum of S(B) + O(B) over the blocks, over the block critical path: the "
             "largest speedup on SMs", m->parallelism_blocks);
    mmm__text_put(t, "</div>\n<table>\n<tr><th>bound</th><th>formula</th><th class=\"n\">"
                    "value</th></tr>\n");
    if (m->has_p)
        mmm__text_printf(t, "<tr><td>Graham" "\xe2\x80\x93" "Brent, p = %lld</td><td>T<sub>p</sub> "
                           LE " (N/p + L)" MIDDOT "C</td>", (long long)m->p);
    else
        mmm__text_put(t, "<tr><td>Graham" "\xe2\x80\x93" "Brent</td><td>p is not known "
                        "(<code>-p P</code>)</td>");
    if (m->has_p)
        put_num_cell(t, m->graham_brent);
    else
        mmm__text_put(t, "<td class=\"n\">" "\xe2\x80\x94" "</td>");
    mmm__text_put(t, "</tr>\n<tr><td>corollary (holds for p " GE " K)</td><td>T " LE " (N/K + L)" MIDDOT
                    "C</td>");
    if (m->K > 0)
        put_num_cell(t, m->corollary);
    else
        mmm__text_put(t, "<td class=\"n\">" "\xe2\x80\x94" "</td>");
    mmm__text_put(t, "</tr>\n</table>\n<p>Critical path (span S): ");
    put_path(t, inst, m->span_path, m->span_path_len);
    mmm__text_put(t, "<br>Longest block path (L): ");
    put_path(t, inst, m->l_path, m->l_path_len);
    mmm__text_printf(t, "</p>\n<p class=\"note\">K computed by %s. ",
                     m->k_method == MMM_K_FLOW ? "minimum flow (Dilworth)"
                                              : "series-parallel composition");
    if (mmm_program_cost_unit(inst->program)) /* a task graph's */
        mmm__text_printf(t, "Costs are in %s, as the task graph gives them: each task is a "
                           "block whose work and span are its cost, with no memory traffic "
                           "(O = 0).</p>\n</section>\n",
                         mmm_program_cost_unit(inst->program));
    else
        mmm__text_printf(t, "Costs are in machine cycles; one global access costs U = "
                           "%s.</p>\n</section>\n", mmm__report_num(inst->U, b, sizeof b));
}

static int put_dag(mmm__text *t, const mmm_instance *inst, const mmm_metrics *m,
                   const mmm_report_options *opt, mmm_error *err)
{
    mmm_render_options ro = MMM_RENDER_OPTIONS_INIT;
    char *svg = NULL;
    size_t len = 0;
    mmm_error e;
    int rc;
    ro.format = MMM_RENDER_SVG;
    ro.color = opt->color;
    ro.max_nodes = opt->max_nodes;
    mmm__text_put(t, "<section id=\"dag\">\n<h2>Kernel DAG</h2>\n");
    mmm_error_clear(&e);
    rc = mmm_render_memory(&svg, &len, inst, m, &ro, &e);
    if (rc == MMM_ELIMIT) {
        mmm__report_note(t, "%s", e.message);
    } else if (rc < 0) {
        return mmm__report_fail(err, &e);
    } else {
        mmm__report_put_svg(t, svg, "dag");
        mmm__text_put(t, "<p class=\"note\">One node per kernel; a repeated kernel is drawn "
                        "once with its number of launches (" TIMES "k) and a double border. "
                        "W, S, O are totals over all launches; S(B)+O(B) is the cost of "
                        "its most expensive block.</p>\n");
    }
    free(svg);
    mmm__text_put(t, "</section>\n");
    return 0;
}

static int overridden(const mmm_report_options *opt, size_t slot)
{
    size_t i;
    for (i = 0; i < opt->noverrides; i++)
        if (opt->overrides[i].slot == (int)slot)
            return 1;
    return 0;
}

static int put_params(mmm__text *t, const mmm_instance *inst, const mmm_report_options *opt,
                      mmm_error *err)
{
    const mmm_program *p = inst->program;
    mmm__tab tb;
    size_t i;
    int rc = 0;
    mmm__text_put(t, "<section id=\"parameters\">\n<h2>Parameters</h2>\n");
    if (p->nparams == 0)
        mmm__report_note(t, "The program declares no parameter.");
    mmm__tab_init(&tb, NULL); /* nothing to release while it has no row */
    mmm__tab_col(&tb, "name", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "value", MMM__TAB_NUM);
    mmm__tab_col(&tb, "declared", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "range", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "from", MMM__TAB_TEXT);
    for (i = 0; i < p->nparams && i < inst->nvalues; i++) {
        const mmm_param *pa = &p->params[i];
        mmm_value v = inst->values[i];
        char b[64];
        mmm__tab_row(&tb, NULL);
        mmm__tab_text(&tb, NAN, pa->name, 1);
        if (v.exact && v.den == 1)
            mmm__tab_num(&tb, (double)v.num);
        else
            mmm__tab_html(&tb, v.d, "%s", mmm_value_format(v, 0, b, sizeof b));
        mmm__tab_text(&tb, NAN, pa->value_text ? pa->value_text : "", 1);
        if (pa->min_text || pa->max_text) {
            mmm__text r;
            mmm__text_init(&r);
            mmm__text_put(&r, "<code>");
            mmm__text_put_xml(&r, pa->min_text ? pa->min_text : "");
            mmm__text_put(&r, " .. ");
            mmm__text_put_xml(&r, pa->max_text ? pa->max_text : "");
            mmm__text_put(&r, "</code>");
            mmm__tab_html(&tb, NAN, "%s", r.s ? r.s : "");
            tb.oom |= r.oom;
            mmm__text_dispose(&r);
        } else {
            mmm__tab_empty(&tb);
        }
        mmm__tab_html(&tb, NAN, "%s", overridden(opt, i) ? "command line"
                                      : pa->from_machine ? "machine file" : "default");
    }
    if (p->nparams && (rc = mmm__tab_end(&tb, t, err)) < 0)
        return rc;
    if (p->nconstraints) {
        mmm__text_put(t, "<p>Constraints, all satisfied:</p>\n<ul>\n");
        for (i = 0; i < p->nconstraints; i++) {
            mmm__text_put(t, "<li><code>");
            mmm__text_put_xml(t, p->constraints[i].text);
            mmm__text_put(t, "</code> " CHECK "</li>\n");
        }
        mmm__text_put(t, "</ul>\n");
    }
    mmm__text_put(t, "</section>\n");
    return 0;
}

/* Blocks of the first and last launch ("8", or "2560 → 5"). */
static void put_blocks_cell(mmm__tab *tb, const mmm_instance *inst, size_t k)
{
    const mmm_kernel_val *kv = &inst->kernels[k];
    int64_t first = kv->blocks, last = kv->blocks;
    mmm_class_val *cls = NULL;
    if (kv->varies && kv->repeat > 1) {
        cls = calloc(inst->program->kernels[k].nclasses + 1, sizeof *cls);
        if (!cls || mmm__launch_classes(cls, &first, inst, k, 1, NULL) < 0 ||
            mmm__launch_classes(cls, &last, inst, k, kv->repeat, NULL) < 0)
            first = last = kv->blocks;
        free(cls);
    }
    if (first != last) {
        char a[64], b[64];
        mmm__tab_html(tb, (double)first, "%s " RARROW " %s",
                      mmm__report_num((double)first, a, sizeof a),
                      mmm__report_num((double)last, b, sizeof b));
    } else {
        mmm__tab_num(tb, (double)first);
    }
}

static void put_kernel_row(mmm__tab *tb, const mmm_instance *inst, size_t k,
                           const unsigned char *on_span, const unsigned char *on_l)
{
    const mmm_kernel_val *kv = &inst->kernels[k];
    const mmm_kernel *kern = &inst->program->kernels[k];
    const mmm_class_val *c0 = kern->nclasses ? &inst->classes[kern->first_class] : NULL;
    mmm__tab_row(tb, on_span[k] ? "span" : on_l[k] ? "lpath" : NULL);
    mmm__tab_text(tb, NAN, kern->id, 1);
    mmm__tab_num(tb, (double)kv->repeat);
    if (mmm_kernel_copy(inst->program, k) != MMM_COPY_NONE) {
        /* a copy: no blocks; what it moves instead */
        mmm__text w;
        mmm__text_init(&w);
        mmm__copy_what(&w, inst, k);
        mmm__tab_html(tb, NAN, "%s", w.s ? w.s : "");
        tb->oom |= w.oom;
        mmm__text_dispose(&w);
    } else {
        put_blocks_cell(tb, inst, k);
    }
    if (c0 && c0->threads > 0 && kern->nclasses == 1)
        mmm__tab_num(tb, (double)c0->threads);
    else
        mmm__tab_empty(tb);
    mmm__tab_num(tb, (double)kv->N);
    mmm__tab_num(tb, kv->W);
    mmm__tab_num(tb, kv->S);
    mmm__tab_num(tb, kv->O);
    mmm__tab_num(tb, kv->C);
    if (on_span[k] || on_l[k])
        mmm__tab_html(tb, NAN, "%s%s", on_span[k] ? "S " : "", on_l[k] ? "L" : "");
    else
        mmm__tab_empty(tb);
}

static int put_kernels(mmm__text *t, const mmm_instance *inst, const mmm_metrics *m,
                       const mmm_report_options *opt, mmm_error *err)
{
    const mmm_program *p = inst->program;
    size_t i, max_rows = opt->max_rows ? opt->max_rows : MMM__REPORT_MAX_ROWS;
    unsigned char *on_span = calloc(p->nkernels + 1, 1), *on_l = calloc(p->nkernels + 1, 1);
    mmm__tab tb;
    int rc;
    if (!on_span || !on_l) {
        free(on_span);
        free(on_l);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    for (i = 0; i < m->span_path_len; i++)
        on_span[m->span_path[i]] = 1;
    for (i = 0; i < m->l_path_len; i++)
        on_l[m->l_path[i]] = 1;
    mmm__text_put(t, "<section id=\"kernels\">\n<h2>Kernels</h2>\n");
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "kernel", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "launches", MMM__TAB_NUM);
    mmm__tab_col(&tb, "blocks per launch", MMM__TAB_NUM);
    mmm__tab_col(&tb, "threads", MMM__TAB_NUM);
    mmm__tab_col(&tb, "N", MMM__TAB_NUM);
    mmm__tab_col(&tb, "W", MMM__TAB_NUM);
    mmm__tab_col(&tb, "S", MMM__TAB_NUM);
    mmm__tab_col(&tb, "O", MMM__TAB_NUM);
    mmm__tab_col(&tb, "max S(B)+O(B)", MMM__TAB_NUM);
    mmm__tab_col(&tb, "on path", MMM__TAB_TEXT);
    for (i = 0; i < p->nkernels && i < max_rows; i++)
        put_kernel_row(&tb, inst, p->topo[i], on_span, on_l);
    free(on_span);
    free(on_l);
    if ((rc = mmm__tab_end(&tb, t, err)) < 0)
        return rc;
    if (p->nkernels > max_rows)
        mmm__report_note(t, "... and %zu more kernels (in topological order; "
                           "mmm analyze --max-rows 0 lists them all).",
                        p->nkernels - max_rows);
    mmm__report_note(t, "In topological order (a click on a column header sorts the table). "
                       "W, S, O and N are totals over all launches of a kernel; S marks the "
                       "critical path (span), L the longest block path.");
    mmm__text_put(t, "</section>\n");
    return 0;
}

static void put_footer(mmm__text *t)
{
    mmm__text_put(t, "<footer><p class=\"meta\">Generated by mmm " MMM_VERSION_STRING
                    ". Measures of the Many-core Machine Model (Haque, Moreno Maza, Xie); "
                    "the bounds are Graham" "\xe2\x80\x93" "Brent's theorem applied to the "
                    "thread-block DAG.</p></footer>\n</main>\n");
    mmm__report_script(t);
    mmm__text_put(t, "</body>\n</html>\n");
}

int mmm_report_html(char **out, size_t *len_out, const mmm_instance *inst,
                    const mmm_metrics *m, const mmm_report_options *opt,
                    mmm_error *err)
{
    static const mmm_report_options defaults = MMM_REPORT_OPTIONS_INIT;
    mmm__text t;
    int rc;
    if (!out || !len_out || !inst || !m)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_report_html: bad argument");
    MMM__CHECK_VERSION(opt, mmm_report_options, REPORT_OPTIONS, err);
    if (!opt)
        opt = &defaults;
    *out = NULL;
    *len_out = 0;
    for (size_t i = 0; i < opt->nsweep && opt->sweep; i++)
        if (mmm_program_find_param(inst->program, opt->sweep[i]) < 0)
            return mmm_error_set(err, MMM_EINPUT,
                                 opt->source ? opt->source : inst->program->file, 0,
                                 "--sweep: the program has no parameter '%s'",
                                 opt->sweep[i]);
    mmm__text_init(&t);
    put_header(&t, inst, opt);
    put_summary(&t, inst, m);
    mmm__report_progress(opt, "drawing the DAG", 0, 0);
    if ((rc = put_dag(&t, inst, m, opt, err)) < 0)
        goto fail;
    if ((rc = put_params(&t, inst, opt, err)) < 0)
        goto fail;
    mmm__report_progress(opt, "the kernel table", 0, 0);
    if ((rc = put_kernels(&t, inst, m, opt, err)) < 0)
        goto fail;
    mmm__report_progress(opt, "the time model", 0, 0);
    if ((rc = mmm__report_time(&t, inst, opt, err)) < 0 ||
        (rc = mmm__report_roofline(&t, inst, opt, err)) < 0)
        goto fail;
    if (!opt->no_sweep && (rc = mmm__report_sweeps(&t, inst, opt, err)) < 0)
        goto fail;
    if (!opt->no_simulation && (rc = mmm__report_simulation(&t, inst, m, opt, err)) < 0)
        goto fail;
    if (!opt->no_simulation && (rc = mmm__report_scaling(&t, inst, opt, err)) < 0)
        goto fail;
    put_footer(&t);
    mmm__report_progress(opt, NULL, 0, 0);
    *len_out = t.len;
    if (!(*out = mmm__text_take(&t)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    return 0;
fail:
    mmm__report_progress(opt, NULL, 0, 0);
    mmm__text_dispose(&t);
    return rc;
}

int mmm_report_write(const char *path, const mmm_instance *inst,
                     const mmm_metrics *m, const mmm_report_options *opt,
                     mmm_error *err)
{
    char *html = NULL;
    size_t len = 0;
    int rc = mmm_report_html(&html, &len, inst, m, opt, err);
    if (rc == 0)
        rc = mmm__write_file_atomic(path, html, len, err);
    free(html);
    return rc;
}
