/* import.c: which format a program file is in, told by its content, and
 * the one place that hands it to its reader (mmm's XML loader, or the
 * reader of a task-graph format).  The readers of formats that need a
 * foreign library stay in the module that wraps it: WfCommons (jansson)
 * in import_wfcommons.c, DAX (libxml2) in parse_dax.c beside the XML
 * loader, DOT (cgraph) in the optional DOT module, reached through
 * mmm_import_options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/import_internal.h"
#include "base/file.h"
#include "base/abi.h"

#define HEAD_BYTES ((size_t)64 << 10)

const char *mmm_input_format_name(mmm_input_format f)
{
    static const char *names[] = {"unknown", "mmm", "stg", "wfcommons",
                                  "dax", "dot", "cuda-dot"};
    unsigned i = (unsigned)f;
    return i < sizeof names / sizeof names[0] ? names[i] : "unknown";
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

static const char *find(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    for (; (size_t)(end - p) >= n; p++)
        if (*p == *s && !memcmp(p, s, n))
            return p;
    return NULL;
}

/* Skip white space and the comments of DOT (C, C++ and '#' lines). */
static const char *skip_dot_comments(const char *p, const char *end)
{
    for (;;) {
        while (p < end && is_space(*p))
            p++;
        if (p < end && *p == '#') {
            while (p < end && *p != '\n')
                p++;
        } else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
            const char *q = find(p + 2, end, "*/");
            p = q ? q + 2 : end;
        } else {
            return p;
        }
    }
}

static int word_is(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(end - p) < n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return (size_t)(end - p) == n || !((p[n] >= 'a' && p[n] <= 'z') ||
                                       (p[n] >= 'A' && p[n] <= 'Z') ||
                                       (p[n] >= '0' && p[n] <= '9') ||
                                       p[n] == '_');
}

/* A record label of cudaGraphDebugDotPrint: label="{KERNEL ..., "{MEMCPY... */
static int cuda_labels(const char *p, const char *end)
{
    static const char *kinds[] = {"KERNEL", "MEMCPY", "MEMSET", "EMPTY",
                                  "HOST", "EVENT_RECORD", "WAIT_EVENT",
                                  "MEM_ALLOC", "MEM_FREE", "GRAPH"};
    while ((p = find(p, end, "label=\"{"))) {
        p += 8;
        while (p < end && is_space(*p))
            p++;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
            size_t n = strlen(kinds[i]);
            if ((size_t)(end - p) > n && !memcmp(p, kinds[i], n) &&
                (is_space(p[n]) || p[n] == '|' || p[n] == '\\'))
                return 1;
        }
    }
    return 0;
}

static mmm_input_format by_extension(const char *path)
{
    static const struct {
        const char *ext;
        mmm_input_format f;
    } exts[] = {{".stg", MMM_INPUT_STG}, {".json", MMM_INPUT_WFCOMMONS},
                {".dax", MMM_INPUT_DAX}, {".dot", MMM_INPUT_DOT},
                {".gv", MMM_INPUT_DOT},  {".xml", MMM_INPUT_MMM}};
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return MMM_INPUT_UNKNOWN;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcmp(dot, exts[i].ext))
            return exts[i].f;
    return MMM_INPUT_UNKNOWN;
}

mmm_input_format mmm_input_detect(const char *buf, size_t len,
                                  const char *path)
{
    const char *p = buf, *end = buf + (len > HEAD_BYTES ? HEAD_BYTES : len);
    if (end - p >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (p < end && is_space(*p))
        p++;
    if (p < end && (*p == '{' || *p == '['))
        return MMM_INPUT_WFCOMMONS;
    if (p < end && *p == '<') {
        /* The root element: past the declaration, comments, DOCTYPE. */
        while (p < end && *p == '<') {
            const char *q;
            if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
                if (!(q = find(p + 4, end, "-->")))
                    break;
                p = q + 3;
            } else if (end - p >= 2 && (p[1] == '?' || p[1] == '!')) {
                if (!(q = memchr(p, '>', (size_t)(end - p))))
                    break;
                p = q + 1;
            } else {
                const char *n = p + 1, *colon;
                while (n < end && !is_space(*n) && *n != '>' && *n != '/')
                    n++;
                colon = memchr(p + 1, ':', (size_t)(n - p - 1));
                p = colon ? colon + 1 : p + 1; /* a namespace prefix */
                return word_is(p, n, "adag") ? MMM_INPUT_DAX : MMM_INPUT_MMM;
            }
            while (p < end && is_space(*p))
                p++;
        }
        return MMM_INPUT_MMM;
    }
    {
        const char *q = skip_dot_comments(p, end);
        const char *w = q;
        if (word_is(w, end, "strict"))
            w = skip_dot_comments(w + 6, end);
        if (word_is(w, end, "digraph") || word_is(w, end, "graph"))
            return cuda_labels(w, end) ? MMM_INPUT_CUDA_DOT : MMM_INPUT_DOT;
    }
    {
        /* STG: '#' comments, then the task count. */
        const char *q = p;
        while (q < end && *q == '#') {
            while (q < end && *q != '\n')
                q++;
            while (q < end && is_space(*q))
                q++;
        }
        if (q < end && *q >= '0' && *q <= '9')
            return MMM_INPUT_STG;
    }
    return by_extension(path);
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

static int dispatch(mmm_program **out, mmm_input_format f, const char *buf,
                    size_t len, const char *name,
                    const mmm_import_options *opt, mmm_import_report *rep,
                    mmm_error *err)
{
    mmm_import_reader reader = NULL;
    switch (f) {
    case MMM_INPUT_STG: reader = mmm__read_stg; break;
    case MMM_INPUT_WFCOMMONS: reader = mmm__read_wfcommons; break;
    case MMM_INPUT_DAX: reader = mmm__read_dax; break;
    case MMM_INPUT_DOT: reader = opt->dot_reader; break;
    case MMM_INPUT_CUDA_DOT: reader = opt->cuda_dot_reader; break;
    case MMM_INPUT_MMM:
        return mmm_program_load_memory(out, buf, len, name, &opt->load, err);
    default:
        return mmm_error_set(err, MMM_EPARSE, name, 1,
                             "not a format mmm reads: expected mmm XML, STG, "
                             "WfCommons JSON, Pegasus DAX or a DOT graph");
    }
    if (!reader)
        return mmm_error_set(err, MMM_EINVAL, name, 0,
                             "a %s graph: this mmm was built without "
                             "Graphviz's cgraph, which reads DOT",
                             f == MMM_INPUT_DOT ? "DOT" : "CUDA DOT");
    return reader(out, buf, len, name, opt, rep, err);
}

static const mmm_import_options default_options = MMM_IMPORT_OPTIONS_INIT;

void mmm_import_options_init(mmm_import_options *opt)
{
    if (opt)
        *opt = default_options;
}

int mmm_program_read_memory(mmm_program **out, const char *buf, size_t len,
                            const char *name, const mmm_import_options *opt,
                            mmm_import_report *rep, mmm_error *err)
{
    mmm_import_report own;
    mmm_input_format f;
    mmm_limits lim;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no output pointer");
    *out = NULL;
    if (!buf && len)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no buffer");
    MMM__CHECK_IMPORT_OPTIONS(opt, err);
    if (!opt)
        opt = &default_options;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    if (!name)
        name = "<memory>";
    if (!buf)
        buf = "";
    lim = mmm_limits_effective(&opt->load.limits);
    if ((uint64_t)len > lim.max_file_bytes)
        return mmm_error_set(err, MMM_ELIMIT, name, 0,
                             "file too big: %zu bytes (limit %llu)", len,
                             (unsigned long long)lim.max_file_bytes);
    f = opt->format ? opt->format : mmm_input_detect(buf, len, name);
    rep->format = f;
    return dispatch(out, f, buf, len, name, opt, rep, err);
}

int mmm_program_read_file(mmm_program **out, const char *path,
                          const mmm_import_options *opt,
                          mmm_import_report *rep, mmm_error *err)
{
    mmm_import_report own;
    mmm_input_format f = MMM_INPUT_UNKNOWN;
    mmm_limits lim;
    char *buf = NULL;
    size_t len;
    int r;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "no output pointer");
    *out = NULL;
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    MMM__CHECK_IMPORT_OPTIONS(opt, err);
    if (!opt)
        opt = &default_options;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    f = opt->format;
    {
        /* A pipe (or a terminal, or "-": standard input) can be read once
         * only: all of it, then the format is told from memory. */
        struct stat st;
        if (strcmp(path, "-") == 0 ||
            (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
             !S_ISDIR(st.st_mode))) {
            lim = mmm_limits_effective(&opt->load.limits);
            if ((r = mmm__read_whole_file(path, lim.max_file_bytes, &buf,
                                          &len, err)) < 0)
                return r;
            if (!f)
                f = mmm_input_detect(buf, len, path);
            rep->format = f;
            r = dispatch(out, f, buf, len, mmm__input_name(path), opt, rep,
                         err);
            free(buf);
            return r;
        }
    }
    if (!f) {
        char *head = malloc(HEAD_BYTES);
        size_t got = 0;
        if (!head)
            return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        r = mmm__read_head(path, head, HEAD_BYTES, &got, err);
        if (r == 0)
            f = mmm_input_detect(head, got, path);
        free(head);
        if (r < 0)
            return r;
    }
    rep->format = f;
    /* mmm's XML streams from the file (it may be large, and threaded). */
    if (f == MMM_INPUT_MMM)
        return mmm_program_load_file(out, path, &opt->load, err);
    lim = mmm_limits_effective(&opt->load.limits);
    if ((r = mmm__read_whole_file(path, lim.max_file_bytes, &buf, &len,
                                  err)) < 0)
        return r;
    r = dispatch(out, f, buf, len, path, opt, rep, err);
    free(buf);
    return r;
}

