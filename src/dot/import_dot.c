/* import_dot.c: DOT task graphs (SimGrid, DAGGEN, hand-written), read with
 * cgraph.  Each node is a task whose cost is its attribute opt->cost_attr
 * ("size" by default), a number in the graph's own unit, rounded to the
 * nearest integer; each edge a dependency.  A node without the attribute
 * costs 0, with a warning. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dot_common.h"
#include "mmm/import_dot.h"
#include "base/abi.h"

static int cost_of(const char *text, double *out)
{
    char *e;
    while (*text == ' ' || *text == '\t')
        text++;
    errno = 0;
    *out = strtod(text, &e);
    while (*e == ' ' || *e == '\t')
        e++;
    return e != text && !*e ? 0 : -1;
}

/* An attribute other than skip whose value is a number on every node (the
 * first declared), or NULL: what --cost-attr should perhaps name. */
static const char *numeric_everywhere(Agraph_t *g, const char *skip)
{
    for (Agsym_t *a = agnxtattr(g, AGNODE, NULL); a; a = agnxtattr(g, AGNODE, a)) {
        Agnode_t *n;
        double c;
        if (!strcmp(a->name, skip))
            continue;
        for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
            const char *v = agxget(n, a);
            if (!v || !*v || cost_of(v, &c) < 0)
                break;
        }
        if (!n && agfstnode(g))
            return a->name;
    }
    return NULL;
}

int mmm_dot_read(mmm_program **out, const char *buf, size_t len,
                 const char *name, const mmm_import_options *opt,
                 mmm_import_report *rep, mmm_error *err)
{
    const char *attr = opt && opt->cost_attr ? opt->cost_attr : "size";
    Agraph_t *g = NULL;
    Agnode_t *n;
    Agsym_t *sym;
    mmm_taskgraph *tg = NULL;
    size_t missing = 0, nnodes = 0;
    const char *hint;
    char gname[256];
    int r;
    MMM__CHECK_IMPORT_OPTIONS(opt, err);

    *out = NULL;
    if ((r = mmm__dot_parse(&g, buf, len, name, err)) < 0)
        return r;
    /* a graph without a name is %1 (cgraph's): the file's name then */
    snprintf(gname, sizeof gname, "%s", agnameof(g) && agnameof(g)[0] != '%' ? agnameof(g) : "");
    if ((r = mmm_taskgraph_new(&tg, name, gname, opt, rep, err)) < 0)
        goto done;
    sym = agattr(g, AGNODE, (char *)attr, NULL);
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        const char *id = agnameof(n);
        const char *v = sym ? agxget(n, sym) : NULL;
        double c = 0;
        nnodes++;
        if (!v || !*v) {
            /* each one a warning; the report keeps the first (the search
             * of its line runs for it only) */
            if (missing++ == 0)
                mmm_taskgraph_warn(tg, "node '%s' (line %ld) has no %s "
                                       "attribute: its cost is 0",
                                   id, mmm__dot_line_of(buf, len, id), attr);
            else
                mmm_taskgraph_warn(tg, "node '%s' has no %s attribute", id, attr);
        } else if (cost_of(v, &c) < 0) {
            r = mmm_error_set(err, MMM_EINPUT, name,
                              mmm__dot_line_of(buf, len, id),
                              "node '%s': its %s '%.40s' is not a number", id,
                              attr, v);
            goto done;
        }
        /* cgraph keeps no lines: the text is searched on an error only */
        if ((r = mmm_taskgraph_add_task(tg, id, c, MMM_COST_UNITLESS, 0,
                                        err)) < 0) {
            if (err && !err->line)
                err->line = mmm__dot_line_of(buf, len, id);
            goto done;
        }
    }
    hint = missing ? numeric_everywhere(g, attr) : NULL;
    if (missing > 1 || hint)
        mmm_taskgraph_summary(tg, "%zu of %zu nodes have no %s attribute (cost 0)%s%s%s%s%s",
                              missing, nnodes, attr, hint ? "; every node has a number in '" : "",
                              hint ? hint : "", hint ? "': give --cost-attr " : "",
                              hint ? hint : "", hint ? " if that is the cost" : "");
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        Agedge_t *e;
        for (e = agfstout(g, n); e; e = agnxtout(g, e)) {
            const char *from = agnameof(agtail(e)), *to = agnameof(aghead(e));
            if ((r = mmm_taskgraph_add_edge(tg, from, to, 0, err)) < 0) {
                if (err && !err->line)
                    err->line = mmm__dot_line_of(buf, len, from);
                goto done;
            }
        }
    }
    r = mmm_taskgraph_finish(tg, out, err);
    tg = NULL;
done:
    mmm_taskgraph_free(tg);
    agclose(g);
    return r;
}
