/* parse_dax.c: Pegasus DAX 2.x and 3.x workflows (<adag>), read with
 * libxml2's streaming reader beside the XML loader (parse.c).
 *
 *   <adag ...>
 *     <job id="ID00001" name="mProject" runtime="13.5"> (also <dag>, <dax>)
 *       <profile namespace="pegasus" key="runtime">13.5</profile>
 *     </job>
 *     <child ref="ID00002"><parent ref="ID00001"/></child>
 *   </adag>
 *
 * A job is a task named by its id; its runtime (seconds) comes from the
 * runtime attribute, else from a profile with key "runtime"; a job with
 * neither costs 0 (with a warning). */
#include <errno.h>
#include <libxml/xmlreader.h>
#include <stdlib.h>
#include <string.h>

#include "io/import_internal.h"
#include "io/parse_int.h"

typedef struct dax_edge {
    char *from, *to;
    long line;
} dax_edge;

/* A job's id and the kernel id it became (its name and its id, as
 * WfCommons names its tasks: mProjectPP_ID00000). */
typedef struct dax_job {
    char *id, *kid;
} dax_job;

typedef struct dax {
    const char *file;
    const char *buf; /* the input, len bytes */
    size_t len;
    mmm_taskgraph *g;
    xmlTextReaderPtr rd;
    int have_xml_err;
    mmm_error xml_err;
    /* the job being read */
    char *job, *job_name;
    long job_line;
    int has_rt;
    double rt;
    char *rt_text;
    /* the <child> being read */
    char *child;
    long child_line;
    dax_edge *edges;
    size_t nedges, cap;
    size_t missing;
    dax_job *jobs; /* sorted by id before the edges are added */
    size_t njobs, jobs_cap;
} dax;

/* libxml2's error in the loader's words (what to fix, then libxml2's);
 * at the end of the input when only white space follows the position. */
static void on_error(void *arg, xmlErrorPtr e)
{
    dax *d = arg;
    char msg[1024];
    long at = e && e->ctxt ? xmlByteConsumed(e->ctxt) : -1;
    int end = at >= 0 && (size_t)at <= d->len;
    if (d->have_xml_err || !e)
        return;
    d->have_xml_err = 1;
    for (size_t i = end ? (size_t)at : d->len; i < d->len && end; i++)
        end = strchr(" \t\r\n", d->buf[i]) != NULL;
    mmm__xml_message(msg, sizeof msg, e, end);
    mmm_error_set(&d->xml_err, MMM_EPARSE, d->file, e->line, "%s", msg);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

/* The line of the current node (the parser's own line runs ahead). */
static long line_now(dax *d)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(d->rd);
    long l = n ? xmlGetLineNo(n) : 0;
    if (l <= 0)
        l = xmlTextReaderGetParserLineNumber(d->rd);
    return l > 0 ? l : 0;
}

static char *attr(dax *d, const char *name)
{
    return (char *)xmlTextReaderGetAttribute(d->rd, (const xmlChar *)name);
}

static int number(dax *d, const char *text, long line, double *out,
                  mmm_error *err)
{
    char *e;
    const char *t = text;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    errno = 0;
    *out = strtod(t, &e);
    while (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r')
        e++;
    if (e == t || *e)
        return mmm_error_set(err, MMM_EINPUT, d->file, line,
                             "job '%s': its runtime '%.40s' is not a number",
                             d->job ? d->job : "?", text);
    return 0;
}

static int end_job(dax *d, mmm_error *err)
{
    int r = 0;
    double rt = d->rt;
    const char *nm = d->job_name;
    dax_job *j;
    size_t n;
    if (!d->has_rt) {
        if (d->missing++ == 0)
            mmm_taskgraph_warn(d->g, "job '%s' (line %ld) has no runtime: "
                                     "read as 0",
                               d->job, d->job_line);
        else
            mmm_taskgraph_warn(d->g, "job '%s' has no runtime", d->job);
        rt = 0;
    }
    if (d->njobs == d->jobs_cap) {
        size_t nc = d->jobs_cap ? 2 * d->jobs_cap : 256;
        dax_job *nj = realloc(d->jobs, nc * sizeof *nj);
        if (!nj)
            return mmm_error_set(err, MMM_ENOMEM, d->file, d->job_line, "out of memory");
        d->jobs = nj;
        d->jobs_cap = nc;
    }
    j = &d->jobs[d->njobs];
    n = nm && *nm && strcmp(nm, d->job) ? strlen(nm) + 1 + strlen(d->job) + 1 : 0;
    if (!(j->kid = n ? malloc(n) : strdup(d->job)))
        return mmm_error_set(err, MMM_ENOMEM, d->file, d->job_line, "out of memory");
    if (n)
        snprintf(j->kid, n, "%s_%s", nm, d->job);
    j->id = d->job;
    d->job = NULL;
    d->njobs++;
    r = mmm_taskgraph_add_task(d->g, j->kid, rt, MMM_COST_SECONDS, d->job_line, err);
    if (r == 0 && nm && *nm) /* the transformation: the task's type */
        r = mmm_taskgraph_task_type(d->g, nm, err);
    xmlFree(d->job_name);
    d->job_name = NULL;
    return r;
}

static int job_cmp(const void *a, const void *b)
{
    return strcmp(((const dax_job *)a)->id, ((const dax_job *)b)->id);
}

/* The kernel id of job id (ref), or ref itself when no job has it (the
 * builder then says there is no such task). */
static const char *kernel_of(const dax *d, const char *ref)
{
    dax_job key = {(char *)ref, NULL};
    if (d->njobs == 0) /* no jobs yet: bsearch takes no NULL array (UBSan) */
        return ref;
    const dax_job *j = bsearch(&key, d->jobs, d->njobs, sizeof *d->jobs, job_cmp);
    return j ? j->kid : ref;
}

static int start_job(dax *d, mmm_error *err)
{
    char *rt;
    d->job_line = line_now(d);
    d->job = attr(d, "id");
    if (!d->job || !*d->job)
        return mmm_error_set(err, MMM_EINPUT, d->file, d->job_line,
                             "a job has no id");
    xmlFree(d->job_name);
    d->job_name = attr(d, "name");
    d->has_rt = 0;
    if ((rt = attr(d, "runtime"))) {
        int r = number(d, rt, d->job_line, &d->rt, err);
        xmlFree(rt);
        if (r < 0)
            return r;
        d->has_rt = 1;
    }
    return 0;
}

static int profile(dax *d, mmm_error *err)
{
    char *key = attr(d, "key");
    int is_rt = key && !strcmp(key, "runtime");
    long line = line_now(d);
    xmlFree(key);
    if (!is_rt || !d->job || d->has_rt)
        return 0;
    char *text = (char *)xmlTextReaderReadString(d->rd);
    int r = number(d, text ? text : "", line, &d->rt, err);
    xmlFree(text);
    if (r == 0)
        d->has_rt = 1;
    return r;
}

static int parent(dax *d, mmm_error *err)
{
    long line = line_now(d);
    char *ref = attr(d, "ref");
    if (!ref || !d->child) {
        xmlFree(ref);
        return mmm_error_set(err, MMM_EINPUT, d->file, line,
                             "a <parent> needs a ref and must be inside a "
                             "<child ref=\"...\">");
    }
    if (d->nedges == d->cap) {
        size_t nc = d->cap ? 2 * d->cap : 256;
        dax_edge *ne = realloc(d->edges, nc * sizeof *ne);
        if (!ne) {
            xmlFree(ref);
            return mmm_error_set(err, MMM_ENOMEM, d->file, line,
                                 "out of memory");
        }
        d->edges = ne;
        d->cap = nc;
    }
    d->edges[d->nedges].from = ref;
    d->edges[d->nedges].to = (char *)xmlStrdup((const xmlChar *)d->child);
    d->edges[d->nedges].line = line;
    if (!d->edges[d->nedges].to) {
        xmlFree(ref);
        return mmm_error_set(err, MMM_ENOMEM, d->file, line, "out of memory");
    }
    d->nedges++;
    return 0;
}

static int element(dax *d, const char *name, int depth, int empty,
                   mmm_error *err)
{
    if (depth == 0) {
        if (strcmp(name, "adag"))
            return mmm_error_set(err, MMM_EINPUT, d->file, line_now(d),
                                 "a DAX file starts with <adag>, not <%s>",
                                 name);
        return 0;
    }
    if (depth == 1 && (!strcmp(name, "job") || !strcmp(name, "dag") ||
                       !strcmp(name, "dax"))) {
        int r = start_job(d, err);
        return r < 0 ? r : empty ? end_job(d, err) : 0;
    }
    if (depth == 2 && d->job && !strcmp(name, "profile"))
        return profile(d, err);
    if (depth == 1 && !strcmp(name, "child")) {
        d->child_line = line_now(d);
        xmlFree(d->child);
        d->child = attr(d, "ref");
        if (!d->child)
            return mmm_error_set(err, MMM_EINPUT, d->file, d->child_line,
                                 "a <child> needs a ref");
        if (empty) {
            xmlFree(d->child);
            d->child = NULL;
        }
        return 0;
    }
    if (!strcmp(name, "parent") && (depth != 2 || !d->child))
        return mmm_error_set(err, MMM_EINPUT, d->file, line_now(d),
                             "a <parent> must be inside a <child ref=\"...\">");
    if (depth == 2 && d->child && !strcmp(name, "parent"))
        return parent(d, err);
    return 0;
}

static int end_element(dax *d, const char *name, int depth, mmm_error *err)
{
    if (depth == 1 && d->job &&
        (!strcmp(name, "job") || !strcmp(name, "dag") || !strcmp(name, "dax")))
        return end_job(d, err);
    if (depth == 1 && !strcmp(name, "child")) {
        xmlFree(d->child);
        d->child = NULL;
    }
    return 0;
}

int mmm__read_dax(mmm_program **out, const char *buf, size_t len,
                  const char *name, const mmm_import_options *opt,
                  mmm_import_report *rep, mmm_error *err)
{
    dax d;
    mmm_limits lim = mmm_limits_effective(&opt->load.limits);
    char *title = NULL;
    int r = 0, rr, seen_root = 0;

    *out = NULL;
    memset(&d, 0, sizeof d);
    d.file = name;
    d.buf = buf;
    d.len = len;
    if (len > (size_t)2147483647)
        return mmm_error_set(err, MMM_ELIMIT, name, 0, "file too big");
    xmlInitParser();
    d.rd = xmlReaderForMemory(buf, (int)len, name, NULL,
                              XML_PARSE_NONET | XML_PARSE_NOWARNING);
    if (!d.rd)
        return mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
    /* Whatever libxml2 would print goes to on_error or nowhere; the
     * thread's handlers are put back at the end. */
    xmlStructuredErrorFunc old_sfn = xmlStructuredError;
    void *old_sctx = xmlStructuredErrorContext;
    xmlGenericErrorFunc old_gfn = xmlGenericError;
    void *old_gctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(&d, on_error);
    xmlSetGenericErrorFunc(NULL, quiet);
    xmlTextReaderSetStructuredErrorHandler(d.rd, on_error, &d);
    while ((rr = xmlTextReaderRead(d.rd)) == 1) {
        int type = xmlTextReaderNodeType(d.rd);
        int depth = xmlTextReaderDepth(d.rd);
        const char *ln = (const char *)xmlTextReaderConstLocalName(d.rd);
        if ((size_t)depth > lim.max_depth) {
            r = mmm_error_set(err, MMM_ELIMIT, name, line_now(&d),
                              "elements nested deeper than %zu",
                              lim.max_depth);
            break;
        }
        if (type == XML_READER_TYPE_ELEMENT) {
            if (!d.g) {
                title = attr(&d, "name");
                r = mmm_taskgraph_new(&d.g, name, title, opt,
                                      rep, err);
                if (r < 0)
                    break;
                seen_root = 1;
            }
            r = element(&d, ln ? ln : "", depth,
                        xmlTextReaderIsEmptyElement(d.rd) == 1, err);
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            r = end_element(&d, ln ? ln : "", depth, err);
        }
        if (r < 0)
            break;
    }
    if (r == 0 && (rr < 0 || d.have_xml_err)) {
        if (d.have_xml_err) {
            if (err)
                *err = d.xml_err;
            r = d.xml_err.code;
        } else {
            r = mmm_error_set(err, MMM_EPARSE, name, line_now(&d),
                              "malformed XML");
        }
    }
    if (r == 0 && !seen_root)
        r = mmm_error_set(err, MMM_EPARSE, name, 1, "an empty DAX file");
    if (r == 0 && d.missing > 1)
        mmm_taskgraph_summary(d.g, "%zu of %zu jobs have no runtime: read as 0",
                              d.missing, d.njobs);
    if (d.njobs)
        qsort(d.jobs, d.njobs, sizeof *d.jobs, job_cmp);
    for (size_t i = 1; r == 0 && i < d.njobs; i++)
        if (!strcmp(d.jobs[i - 1].id, d.jobs[i].id))
            r = mmm_error_set(err, MMM_EINPUT, name, 0, "two jobs have the id '%s'",
                              d.jobs[i].id);
    for (size_t i = 0; r == 0 && i < d.nedges; i++)
        r = mmm_taskgraph_add_edge(d.g, kernel_of(&d, d.edges[i].from),
                                   kernel_of(&d, d.edges[i].to), d.edges[i].line, err);
    if (r == 0) {
        r = mmm_taskgraph_finish(d.g, out, err);
        d.g = NULL;
    }
    for (size_t i = 0; i < d.nedges; i++) {
        xmlFree(d.edges[i].from);
        xmlFree(d.edges[i].to);
    }
    free(d.edges);
    for (size_t i = 0; i < d.njobs; i++) {
        xmlFree(d.jobs[i].id);
        free(d.jobs[i].kid);
    }
    free(d.jobs);
    xmlFree(d.job_name);
    xmlFree(d.job);
    xmlFree(d.child);
    xmlFree(title);
    mmm_taskgraph_free(d.g);
    xmlFreeTextReader(d.rd);
    xmlSetStructuredErrorFunc(old_sctx, old_sfn);
    xmlSetGenericErrorFunc(old_gctx, old_gfn);
    return r;
}
