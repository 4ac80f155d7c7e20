/* report_html.c: what the sections of the HTML report share (report.c,
 * report_sweep.c, report_sim.c): SVG figures inline with ids of their own,
 * notes.  Calls nothing of theirs. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

/* Copy svg, prefixing its ids and the references to them (id="x",
 * url(#x), href="#x") with prefix: several figures inline in one page must
 * not share ids (PLplot names its clip paths the same in every figure). */
static void put_prefixed(mmm__text *t, const char *svg, const char *prefix)
{
    static const char *const marks[] = {"id=\"", "url(#", "href=\"#"};
    const char *p = svg;
    for (;;) {
        const char *best = NULL;
        size_t i, blen = 0;
        for (i = 0; i < sizeof marks / sizeof marks[0]; i++) {
            const char *q = strstr(p, marks[i]);
            if (q && (!best || q < best)) {
                best = q;
                blen = strlen(marks[i]);
            }
        }
        if (!best)
            break;
        /* "id" must be a whole attribute name, not the end of "grid" */
        if (best > svg && best[0] == 'i' && (isalnum((unsigned char)best[-1]) ||
                                             best[-1] == '-' || best[-1] == '_' ||
                                             best[-1] == ':')) {
            mmm__text_putn(t, p, (size_t)(best - p) + blen);
            p = best + blen;
            continue;
        }
        mmm__text_putn(t, p, (size_t)(best - p) + blen);
        mmm__text_put(t, prefix);
        mmm__text_put(t, "-");
        p = best + blen;
    }
    mmm__text_put(t, p);
}

void mmm__report_put_svg(mmm__text *t, const char *svg, const char *prefix)
{
    const char *start = svg ? strstr(svg, "<svg") : NULL;
    if (!start) {
        mmm__report_note(t, "(the figure could not be embedded)");
        return;
    }
    mmm__text_put(t, "<div class=\"fig\"><div class=\"figure\">\n");
    put_prefixed(t, start, prefix);
    mmm__text_put(t, "</div></div>\n");
}

void mmm__report_note(mmm__text *t, const char *fmt, ...)
{
    char buf[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    mmm__text_put(t, "<p class=\"note\">");
    mmm__text_put_xml(t, buf);
    mmm__text_put(t, "</p>\n");
}


int mmm__report_fail(mmm_error *err, const mmm_error *e)
{
    if (err)
        *err = *e;
    return e->code;
}

int mmm__report_figure(mmm__text *t, mmm__report_draw_fn draw, const void *arg,
                       const char *prefix, mmm_error *err)
{
    char *svg = NULL;
    size_t len = 0;
    mmm_error e;
    int rc;
    mmm_error_clear(&e);
    rc = draw(&svg, &len, arg, &e);
    if (rc == MMM_ENOMEM) {
        free(svg);
        return mmm__report_fail(err, &e);
    }
    if (rc < 0)
        mmm__report_note(t, "(no figure: %s)", e.message);
    else
        mmm__report_put_svg(t, svg, prefix);
    free(svg);
    return 0;
}

void mmm__report_progress(const mmm_report_options *opt, const char *what, uint64_t done,
                          uint64_t total)
{
    mmm_progress_fn fn = MMM__PROGRESS(opt, 2);
    if (fn)
        fn(opt->progress_payload, what, done, total);
}
