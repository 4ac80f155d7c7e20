/* skeleton.c: a skeleton DAG file filled in with measured costs
 * (docs/profile.md, "Skeletons").
 *
 * A skeleton is a DAG file whose kernels give their launches (repeat,
 * index, blocks, threads, edges) as expressions and write "?" for each
 * device-side cost to be measured: work="?" span="?" reads="?"
 * writes="?", and any of the time model's attributes profile measures
 * (mmm__pa_name).  The loader refuses "?" (plain `mmm
 * analyze` says to run `mmm profile build`), so the skeleton is checked
 * by loading a copy with each "?" read as 0: its errors are the loader's,
 * at the skeleton's lines.  Then at each point the skeleton is evaluated
 * with the point's parameters and its launches (in the order the time
 * model issues them: the file's order, each repeat's copies in a row)
 * are matched, one for one, with the captured launches: the same kernel
 * (its id, up to a "#..." suffix, names the function), the same blocks
 * and threads.  Each "?" becomes the simplest expression through the
 * measured values, in the parameters (and the kernel's index, when it
 * has one); the output is the skeleton's own text with the "?" replaced
 * and a comment before each measured kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/eval.h"
#include "profile_internal.h"
#include "base/file.h"

/* The attributes a skeleton may leave to be measured: the PA_* after
 * blocks and threads. */
static int measurable(const char *name)
{
    for (int a = PA_WORK; a < PA_N; a++)
        if (!strcmp(name, mmm__pa_name(a)))
            return a;
    return -1;
}

/* ------------------------------------------------------------------ */
/* A scan of the skeleton's tags (the loader checks the XML itself)     */

typedef struct sattr {
    char name[64];
    size_t vstart, vend; /* the raw value between the quotes */
    int question;        /* the value is "?" */
} sattr;

typedef struct selem {
    char name[32];
    long line;
    size_t start;        /* offset of its '<' */
    size_t line_start;   /* offset of its line's first character */
    int kernel;          /* index among the kernels (<kernel>, and the
                            kernel of a <blocks>); -1 */
    sattr *attr;
    size_t nattr;
} selem;

typedef struct scan {
    selem *e;
    size_t n;
    size_t nkernels;
} scan;

static void scan_free(scan *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->e[i].attr);
    free(s->e);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Is the raw attribute value "?" (spaces around it, or as a character
 * reference, allowed)? */
static int is_question(const char *v, size_t n)
{
    size_t a = 0, b = n;
    while (a < b && is_space(v[a]))
        a++;
    while (b > a && is_space(v[b - 1]))
        b--;
    if (b - a == 1 && v[a] == '?')
        return 1;
    return (b - a == 5 && !memcmp(v + a, "&#63;", 5)) ||
           (b - a == 6 && (!memcmp(v + a, "&#x3F;", 6) || !memcmp(v + a, "&#x3f;", 6)));
}

/* 0, or -1 at something this scan does not understand (the loader then
 * says what). */
static int scan_tags(const char *t, size_t len, scan *s)
{
    size_t i = 0, line_start = 0, cap = 0;
    long line = 1;
    long open_kernel = -1;
    while (i < len) {
        if (t[i] == '\n') {
            line++;
            line_start = i + 1;
            i++;
            continue;
        }
        if (t[i] != '<') {
            i++;
            continue;
        }
        const char *close = NULL;
        size_t skip = 0;
        if (!strncmp(t + i, "<!--", 4))
            close = "-->", skip = 4;
        else if (!strncmp(t + i, "<![CDATA[", 9))
            close = "]]>", skip = 9;
        else if (!strncmp(t + i, "<?", 2))
            close = "?>", skip = 2;
        else if (!strncmp(t + i, "<!", 2))
            close = ">", skip = 2;
        if (close) {
            size_t cl = strlen(close);
            i += skip;
            while (i + cl <= len && strncmp(t + i, close, cl)) {
                if (t[i] == '\n') {
                    line++;
                    line_start = i + 1;
                }
                i++;
            }
            if (i + cl > len)
                return -1;
            i += cl;
            continue;
        }
        if (i + 1 < len && t[i + 1] == '/') {
            size_t j = i + 2, k = 0;
            char name[32];
            while (j < len && !is_space(t[j]) && t[j] != '>' && k + 1 < sizeof name)
                name[k++] = t[j++];
            name[k] = '\0';
            if (!strcmp(name, "kernel"))
                open_kernel = -1;
            while (j < len && t[j] != '>')
                j++;
            i = j + 1;
            continue;
        }
        /* a start tag */
        if (s->n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            selem *ne = realloc(s->e, nc * sizeof *ne);
            if (!ne)
                return -2;
            s->e = ne;
            cap = nc;
        }
        selem *e = &s->e[s->n];
        memset(e, 0, sizeof *e);
        e->line = line;
        e->start = i;
        e->line_start = line_start;
        e->kernel = -1;
        s->n++;
        size_t j = i + 1, k = 0;
        while (j < len && !is_space(t[j]) && t[j] != '>' && t[j] != '/') {
            if (k + 1 < sizeof e->name)
                e->name[k++] = t[j];
            j++;
        }
        e->name[k] = '\0';
        size_t acap = 0;
        for (;;) {
            while (j < len && is_space(t[j])) {
                if (t[j] == '\n') {
                    line++;
                    line_start = j + 1;
                }
                j++;
            }
            if (j >= len)
                return -1;
            if (t[j] == '>' || t[j] == '/')
                break;
            sattr a;
            memset(&a, 0, sizeof a);
            k = 0;
            while (j < len && !is_space(t[j]) && t[j] != '=' && t[j] != '>') {
                if (k + 1 < sizeof a.name)
                    a.name[k++] = t[j];
                j++;
            }
            while (j < len && is_space(t[j])) {
                if (t[j] == '\n') {
                    line++;
                    line_start = j + 1;
                }
                j++;
            }
            if (j >= len || t[j] != '=')
                return -1;
            j++;
            while (j < len && is_space(t[j])) {
                if (t[j] == '\n') {
                    line++;
                    line_start = j + 1;
                }
                j++;
            }
            if (j >= len || (t[j] != '"' && t[j] != '\''))
                return -1;
            char q = t[j++];
            a.vstart = j;
            while (j < len && t[j] != q) {
                if (t[j] == '\n') {
                    line++;
                    line_start = j + 1;
                }
                j++;
            }
            if (j >= len)
                return -1;
            a.vend = j++;
            a.question = is_question(t + a.vstart, a.vend - a.vstart);
            if (e->nattr == acap) {
                size_t nc = acap ? 2 * acap : 8;
                sattr *na = realloc(e->attr, nc * sizeof *na);
                if (!na)
                    return -2;
                e->attr = na;
                acap = nc;
            }
            e->attr[e->nattr++] = a;
        }
        int empty = t[j] == '/';
        while (j < len && t[j] != '>')
            j++;
        i = j + 1;
        if (!strcmp(e->name, "kernel")) {
            e->kernel = (int)s->nkernels++;
            open_kernel = empty ? -1 : e->kernel;
        } else if (!strcmp(e->name, "copy")) {
            /* copies are among the program's kernels, in file order */
            e->kernel = (int)s->nkernels++;
        } else if (!strcmp(e->name, "blocks")) {
            e->kernel = (int)open_kernel;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Matching                                                            */

/* Does the skeleton's kernel id name the launched function?  The id up
 * to a '#' is the function's name without return type, template
 * arguments and parameters, or its last component after "::". */
static int id_matches(const char *id, const char *kernel)
{
    char base[256];
    size_t n = strcspn(id, "#");
    mmm__kernel_base(kernel, base, sizeof base);
    if (strlen(base) == n && !strncmp(base, id, n))
        return 1;
    const char *last = base, *p;
    while ((p = strstr(last, "::")))
        last = p + 2;
    return strlen(last) == n && !strncmp(last, id, n);
}

typedef struct expect {
    size_t kernel;   /* program kernel index */
    int64_t copy;    /* 1 .. repeat */
    int64_t repeat;
    int64_t blocks, threads;
} expect;

/* One "?" to fill: where it is, and the values measured for it. */
typedef struct hole {
    size_t elem, attr;  /* in the scan */
    size_t kernel;      /* program kernel index */
    int pa;             /* PA_* */
    mmm_value *x, *y;   /* rows of (params[, index]) -> value */
    const char **inst;  /* the function each row's launch ran */
    size_t n, cap;
    mmm__profile_fit fit;
} hole;

static int hole_add(hole *h, size_t nv, const mmm_value *x, mmm_value y, const char *inst)
{
    if (h->n == h->cap) {
        size_t nc = h->cap ? 2 * h->cap : 16;
        mmm_value *nx = realloc(h->x, nc * (nv ? nv : 1) * sizeof *nx);
        if (!nx)
            return -1;
        h->x = nx;
        mmm_value *ny = realloc(h->y, nc * sizeof *ny);
        if (!ny)
            return -1;
        h->y = ny;
        const char **ni = realloc(h->inst, nc * sizeof *ni);
        if (!ni)
            return -1;
        h->inst = ni;
        h->cap = nc;
    }
    memcpy(h->x + h->n * nv, x, nv * sizeof *x);
    h->inst[h->n] = inst;
    h->y[h->n++] = y;
    return 0;
}

/* A part the skeleton writes by hand (gathers, scatters) of a whole it
 * leaves to be measured (reads, writes): the time model refuses a part
 * larger than its whole, so where the hand's value is more than the
 * measured one at a point, the part is written min(hand, the whole's
 * expression) and the kernel's comment says so. */
typedef struct clamp {
    size_t elem, attr;  /* the part's attribute, in the scan */
    size_t kernel;
    int part;           /* MMM_ATTR_* */
    size_t whole;       /* the hole of the whole */
    int bites;          /* more than the whole at some point */
    double hand, measured, ratio; /* where hand / measured is largest */
    char at[256];       /* that point's label */
    size_t npoints;     /* points where it is more */
} clamp;

int mmm__skeleton_fill(mmm_profile *prof, mmm__text *out, const char *path,
                       const mmm__profile_points *pts, const mmm_profile_options *opt,
                       mmm_error *err)
{
    mmm_limits lim = mmm_limits_effective(&opt->limits);
    char *text = NULL, *copy = NULL;
    size_t len;
    scan sc = {NULL, 0, 0};
    hole *holes = NULL;
    size_t nholes = 0;
    clamp *clamps = NULL;
    size_t nclamps = 0;
    mmm_attr_value *av = NULL;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    expect *ex = NULL;
    size_t nex = 0, excap = 0;
    int *ovslot = NULL;
    mmm_override *ov = NULL;
    const mmm__profile_launch ***rep = NULL; /* per kernel, per point */
    int64_t **nl = NULL;
    uint32_t *differ_noted = NULL;
    int rc = 0;

    if ((rc = mmm__read_whole_file(path, lim.max_file_bytes, &text, &len, err)) < 0)
        return rc;
    if (!(copy = malloc(len + 1))) {
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        goto out;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    int sr = scan_tags(text, len, &sc);
    if (sr == -2) {
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        goto out;
    }
    /* every "?" read as 0, for the loader */
    if (sr == 0)
        for (size_t i = 0; i < sc.n; i++)
            for (size_t a = 0; a < sc.e[i].nattr; a++) {
                const sattr *at = &sc.e[i].attr[a];
                if (!at->question)
                    continue;
                for (size_t k = at->vstart; k < at->vend; k++)
                    if (copy[k] != '\n')
                        copy[k] = ' ';
                copy[at->vstart] = '0';
            }
    {
        static const mmm_machine_param U1 = {"U", {1, 1, 1, 1.0}, 0};
        mmm_machine m = {"(mmm profile)", "U", 1, &U1, NULL};
        mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
        lo.limits = opt->limits;
        lo.machine = &m;
        lo.threads = MMM_THREADS_OFF;
        if ((rc = mmm_program_load_memory(&prog, copy, len, path, &lo, err)) < 0)
            goto out;
    }
    if (sr != 0) {
        rc = mmm_error_set(err, MMM_EPARSE, path, 0,
                           "cannot read the skeleton's tags");
        goto out;
    }
    if (sc.nkernels != prog->nkernels) {
        rc = mmm_error_set(err, MMM_EINPUT, path, 0,
                           "internal error: %zu kernel elements, %zu kernels",
                           sc.nkernels, prog->nkernels);
        goto out;
    }
    /* the holes, where "?" is allowed */
    for (size_t i = 0; i < sc.n; i++) {
        selem *e = &sc.e[i];
        for (size_t a = 0; a < e->nattr; a++) {
            if (!e->attr[a].question)
                continue;
            int pa = measurable(e->attr[a].name);
            if (strcmp(e->name, "kernel")) {
                if (!strcmp(e->name, "blocks"))
                    rc = mmm_error_set(err, MMM_EINPUT, path, e->line,
                                       "<blocks> %s=\"?\": mmm profile measures a "
                                       "launch as one kind of block; measure a "
                                       "kernel with several kinds as one (its "
                                       "attributes on <kernel>, blocks= the whole "
                                       "grid)",
                                       e->attr[a].name);
                else
                    rc = mmm_error_set(err, MMM_EINPUT, path, e->line,
                                       "<%s> %s=\"?\": only a kernel's costs can "
                                       "be left to be measured",
                                       e->name, e->attr[a].name);
                goto out;
            }
            const mmm_kernel *k = &prog->kernels[e->kernel];
            if (pa < 0) {
                char list[512];
                size_t ln = 0;
                for (int q = PA_WORK; q < PA_N && ln < sizeof list; q++)
                    ln += (size_t)snprintf(list + ln, sizeof list - ln, "%s%s",
                                           q == PA_WORK ? "" : q + 1 == PA_N ? " and " : ", ",
                                           mmm__pa_name(q));
                rc = mmm_error_set(err, MMM_EINPUT, path, e->line,
                                   "kernel '%s': %s=\"?\" cannot be measured "
                                   "(mmm profile measures %s; write %s as an "
                                   "expression)",
                                   k->id, e->attr[a].name, list, e->attr[a].name);
                goto out;
            }
            hole *nh = realloc(holes, (nholes + 1) * sizeof *nh);
            if (!nh) {
                rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                goto out;
            }
            holes = nh;
            memset(&holes[nholes], 0, sizeof holes[nholes]);
            holes[nholes].elem = i;
            holes[nholes].attr = a;
            holes[nholes].kernel = (size_t)e->kernel;
            holes[nholes].pa = pa;
            nholes++;
        }
    }
    /* hand-written parts of measured wholes, on the same <kernel> */
    for (size_t h = 0; h < nholes; h++) {
        static const int parts[2][2] = {{PA_READS, MMM_ATTR_GATHERS},
                                        {PA_WRITES, MMM_ATTR_SCATTERS}};
        const selem *e = &sc.e[holes[h].elem];
        for (int w = 0; w < 2; w++) {
            if (holes[h].pa != parts[w][0])
                continue;
            const char *pn = mmm_attr_name((mmm_attr)parts[w][1]);
            for (size_t a = 0; pn && a < e->nattr; a++) {
                if (e->attr[a].question || strcmp(e->attr[a].name, pn))
                    continue;
                clamp *nc = realloc(clamps, (nclamps + 1) * sizeof *nc);
                if (!nc) {
                    rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                    goto out;
                }
                clamps = nc;
                memset(&clamps[nclamps], 0, sizeof clamps[nclamps]);
                clamps[nclamps].elem = holes[h].elem;
                clamps[nclamps].attr = a;
                clamps[nclamps].kernel = holes[h].kernel;
                clamps[nclamps].part = parts[w][1];
                clamps[nclamps].whole = h;
                nclamps++;
            }
        }
    }
    if (nclamps) {
        size_t maxc = 1;
        for (size_t k = 0; k < prog->nkernels; k++)
            if (prog->kernels[k].nclasses > maxc)
                maxc = prog->kernels[k].nclasses;
        if (!(av = malloc(maxc * mmm_attr_count() * sizeof *av))) {
            rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
            goto out;
        }
    }
    if (nholes == 0 &&
        mmm__profile_note(prof, "the skeleton %s has no \"?\": nothing to measure; "
                          "its launches were checked against the captures", path) < 0) {
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        goto out;
    }

    /* the POINTS columns are the skeleton's parameters */
    size_t nparams = pts->nparams;
    ovslot = malloc((nparams ? nparams : 1) * sizeof *ovslot);
    ov = malloc((nparams ? nparams : 1) * sizeof *ov);
    rep = calloc(prog->nkernels, sizeof *rep);
    nl = calloc(prog->nkernels, sizeof *nl);
    differ_noted = calloc(prog->nkernels, sizeof *differ_noted);
    if (!ovslot || !ov || !rep || !nl || !differ_noted) {
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < prog->nkernels; k++)
        if (!(rep[k] = calloc(pts->n, sizeof *rep[k])) ||
            !(nl[k] = calloc(pts->n, sizeof *nl[k]))) {
            rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
            goto out;
        }
    for (size_t j = 0; j < nparams; j++) {
        int slot = mmm_program_find_param(prog, pts->pname[j]);
        if (slot < 0) {
            rc = mmm_error_set(err, MMM_EINPUT, pts->file, 1,
                               "column '%s' names no parameter of the skeleton "
                               "%s (declare it there with <param name=\"%s\" "
                               "value=\"...\"/>)",
                               pts->pname[j], path, pts->pname[j]);
            goto out;
        }
        ovslot[j] = slot;
    }
    /* the order the time model issues the kernels in */
    uint32_t *order = malloc((prog->nkernels ? prog->nkernels : 1) * sizeof *order);
    if (!order) {
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        goto out;
    }
    {
        int forward = 1;
        for (size_t e = 0; e < prog->nedges; e++)
            forward &= prog->edges[e].from < prog->edges[e].to;
        for (size_t k = 0; k < prog->nkernels; k++)
            order[k] = forward ? (uint32_t)k : prog->topo[k];
    }
    if ((rc = mmm_instance_new(&inst, prog, err)) < 0) {
        free(order);
        goto out;
    }
    for (size_t pi = 0; pi < pts->n; pi++) {
        const mmm__profile_point *pt = &pts->p[pi];
        for (size_t j = 0; j < nparams; j++) {
            ov[j].slot = ovslot[j];
            ov[j].value = pt->params[j];
        }
        if ((rc = mmm_instance_eval(inst, ov, nparams, err)) < 0) {
            if (err) {
                char m[sizeof err->message];
                snprintf(m, sizeof m, "%s", err->message);
                mmm_error_set(err, rc, err->file[0] ? err->file : path, err->line,
                              "%s (at the point %s, %s:%ld)", m, pt->label,
                              pts->file, pt->line);
            }
            free(order);
            goto out;
        }
        /* the launches the skeleton says */
        nex = 0;
        for (size_t oi = 0; oi < prog->nkernels; oi++) {
            size_t k = order[oi];
            const mmm_kernel *K = &prog->kernels[k];
            int64_t r = inst->kernels[k].repeat;
            if (mmm_kernel_copy(prog, k) != MMM_COPY_NONE)
                continue; /* a copy is no launch: the trace's copies are not matched */
            for (int64_t c = 1; c <= r; c++) {
                mmm_class_val cv[64];
                int64_t blocks = 0, threads = 0;
                if (K->nclasses > 64) {
                    rc = mmm_error_set(err, MMM_ELIMIT, path, K->line,
                                       "kernel '%s' has more than 64 kinds of block",
                                       K->id);
                    free(order);
                    goto out;
                }
                if (K->uses_index) {
                    if ((rc = mmm_instance_eval_copy(inst, k, c, cv, err)) < 0) {
                        free(order);
                        goto out;
                    }
                } else {
                    memcpy(cv, &inst->classes[K->first_class],
                           K->nclasses * sizeof *cv);
                }
                for (uint32_t q = 0; q < K->nclasses; q++)
                    blocks += cv[q].count;
                threads = cv[0].threads;
                if (nex == excap) {
                    size_t nc = excap ? 2 * excap : 64;
                    expect *ne = realloc(ex, nc * sizeof *ne);
                    if (!ne) {
                        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                        free(order);
                        goto out;
                    }
                    ex = ne;
                    excap = nc;
                }
                ex[nex++] = (expect){k, c, r, blocks, threads};
                if (r > 10000000) {
                    rc = mmm_error_set(err, MMM_ELIMIT, path, K->line,
                                       "kernel '%s' repeats %lld times at the "
                                       "point %s: more launches than a capture has",
                                       K->id, (long long)r, pt->label);
                    free(order);
                    goto out;
                }
            }
        }
        /* one for one with the captured launches */
        size_t m = nex < pt->n ? nex : pt->n;
        for (size_t i = 0; i < m; i++) {
            const expect *x = &ex[i];
            const mmm__profile_launch *l = &pt->l[i];
            const mmm_kernel *K = &prog->kernels[x->kernel];
            if (!id_matches(K->id, l->kernel)) {
                char base[160];
                mmm__kernel_base(l->kernel, base, sizeof base);
                rc = mmm_error_set(err, MMM_EINPUT, l->file, l->line,
                                   "launch %zu of the point %s is '%s', where the "
                                   "skeleton %s expects kernel '%s' (line %ld), "
                                   "launch %lld of its %lld: the skeleton lacks "
                                   "this launch, or launches in another order",
                                   i + 1, pt->label, base, path, K->id, K->line,
                                   (long long)x->copy, (long long)x->repeat);
                free(order);
                goto out;
            }
            mmm_value b = l->a[PA_BLOCKS], th = l->a[PA_THREADS];
            if (b.d != (double)x->blocks || (x->threads && th.d != (double)x->threads)) {
                rc = mmm_error_set(err, MMM_EINPUT, l->file, l->line,
                                   "launch %zu of the point %s ('%s') has %.0f "
                                   "blocks of %.0f threads, where the skeleton %s "
                                   "says kernel '%s' (line %ld) has %lld blocks "
                                   "of %lld threads",
                                   i + 1, pt->label, K->id, b.d, th.d, path, K->id,
                                   K->line, (long long)x->blocks,
                                   (long long)x->threads);
                free(order);
                goto out;
            }
        }
        if (nex != pt->n) {
            if (nex < pt->n) {
                const mmm__profile_launch *l = &pt->l[nex];
                char base[160];
                mmm__kernel_base(l->kernel, base, sizeof base);
                rc = mmm_error_set(err, MMM_EINPUT, l->file, l->line,
                                   "launch %zu of the point %s ('%s') has no "
                                   "kernel in the skeleton %s: it describes %zu "
                                   "launches at this point, the capture has %zu",
                                   nex + 1, pt->label, base, path, nex, pt->n);
            } else {
                const expect *x = &ex[pt->n];
                const mmm_kernel *K = &prog->kernels[x->kernel];
                rc = mmm_error_set(err, MMM_EINPUT, path, K->line,
                                   "kernel '%s', launch %lld of its %lld, has no "
                                   "launch in the captures of the point %s (%s:%ld): "
                                   "the skeleton describes %zu launches there, "
                                   "the captures have %zu",
                                   K->id, (long long)x->copy, (long long)x->repeat,
                                   pt->label, pts->file, pt->line, nex, pt->n);
            }
            free(order);
            goto out;
        }
        /* the measured values of each "?" */
        for (size_t i = 0; i < nex; i++) {
            const expect *x = &ex[i];
            const mmm__profile_launch *l = &pt->l[i];
            if (x->copy == 1) {
                rep[x->kernel][pi] = l;
                nl[x->kernel][pi] = x->repeat;
            }
        }
        /* the hand's parts against the measured wholes */
        for (size_t cl = 0; cl < nclamps; cl++) {
            clamp *C = &clamps[cl];
            const mmm_kernel *K = &prog->kernels[C->kernel];
            int pa = holes[C->whole].pa, more = 0;
            size_t na = mmm_attr_count();
            for (size_t i = 0; i < nex; i++) {
                const expect *x = &ex[i];
                const mmm__profile_launch *l = &pt->l[i];
                if (x->kernel != C->kernel || !(l->have_a & (1u << pa)))
                    continue;
                if ((rc = mmm_instance_eval_attrs(inst, C->kernel, x->copy, av, err)) < 0) {
                    free(order);
                    goto out;
                }
                double w = l->a[pa].d;
                for (uint32_t q = 0; q < K->nclasses; q++) {
                    double v = av[q * na + (size_t)C->part].value;
                    if (!(v > w))
                        continue;
                    double ratio = w > 0 ? v / w : HUGE_VAL;
                    more = 1;
                    if (!C->bites || ratio > C->ratio) {
                        C->hand = v;
                        C->measured = w;
                        C->ratio = ratio;
                        snprintf(C->at, sizeof C->at, "%s", pt->label);
                    }
                    C->bites = 1;
                }
            }
            C->npoints += (size_t)more;
        }
        for (size_t h = 0; h < nholes; h++) {
            hole *H = &holes[h];
            const mmm_kernel *K = &prog->kernels[H->kernel];
            size_t nv = nparams + (K->uses_index ? 1 : 0);
            mmm_value xrow[260];
            if (nv > 256) {
                rc = mmm_error_set(err, MMM_ELIMIT, pts->file, 1,
                                   "more than 255 parameters");
                free(order);
                goto out;
            }
            memcpy(xrow, pt->params, nparams * sizeof *xrow);
            mmm_value sum = mmm_value_int(0), first = mmm_value_int(0);
            int64_t cnt = 0, differ = 0;
            const char *kname = NULL;
            for (size_t i = 0; i < nex; i++) {
                const expect *x = &ex[i];
                const mmm__profile_launch *l = &pt->l[i];
                if (x->kernel != H->kernel)
                    continue;
                if (!(l->have_a & (1u << H->pa))) {
                    rc = mmm_error_set(err, MMM_EINPUT, path, sc.e[H->elem].line,
                                       "kernel '%s': %s=\"?\" cannot be filled in: "
                                       "the capture %s:%ld lacks the metrics it is "
                                       "read from (docs/profile.md; 'mmm profile "
                                       "metrics' lists them)",
                                       K->id, mmm__pa_name(H->pa), l->file, l->line);
                    free(order);
                    goto out;
                }
                mmm_value v = l->a[H->pa];
                if (K->uses_index) {
                    xrow[nparams] = mmm_value_int(x->copy);
                    if (hole_add(H, nv, xrow, v, l->kernel) < 0) {
                        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                        free(order);
                        goto out;
                    }
                    continue;
                }
                if (cnt == 0) {
                    first = v;
                    kname = l->kernel;
                }
                else if (!mmm__pv_equal(first, v) &&
                         !((H->pa == PA_WAVEFRONTS || H->pa == PA_GLOBAL_WAVEFRONTS) &&
                           fabs(first.d - v.d) <= 0.1 * fmax(fabs(first.d), fabs(v.d))))
                    differ = 1;
                sum = mmm__pv_add(sum, v);
                cnt++;
            }
            if (K->uses_index || cnt == 0)
                continue;
            if (differ && !(differ_noted[H->kernel] & (1u << H->pa))) {
                differ_noted[H->kernel] |= 1u << H->pa;
                if (mmm__profile_note(prof, "kernel '%s': its %lld launches at the "
                                      "point %s have different %s: their mean is "
                                      "used (give the kernel an index to tell them "
                                      "apart)",
                                      K->id, (long long)cnt, pt->label,
                                      mmm__pa_name(H->pa)) < 0) {
                    rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                    free(order);
                    goto out;
                }
            }
            if (hole_add(H, nv, xrow, mmm__pv_div(sum, mmm_value_int(cnt)), kname) < 0) {
                rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                free(order);
                goto out;
            }
        }
    }
    free(order);

    /* fit each "?" */
    for (size_t h = 0; h < nholes; h++) {
        hole *H = &holes[h];
        const mmm_kernel *K = &prog->kernels[H->kernel];
        const char *names[260];
        size_t nv = nparams + (K->uses_index ? 1 : 0);
        for (size_t j = 0; j < nparams; j++)
            names[j] = pts->pname[j];
        if (K->uses_index)
            names[nparams] = K->index;
        if (H->n == 0) {
            rc = mmm_error_set(err, MMM_EINPUT, path, sc.e[H->elem].line,
                               "kernel '%s' is never launched at the points of %s "
                               "(its repeat is 0 at every one): %s=\"?\" has "
                               "nothing to be measured from",
                               K->id, pts->file, mmm__pa_name(H->pa));
            goto out;
        }
        if ((rc = mmm__fit_values(names, nv, H->x, H->y, H->n,
                                  mmm__pa_integral(H->pa), H->inst, &H->fit, err)) < 0)
            goto out;
        if (!H->fit.exact) {
            char why[300];
            mmm__approx_text(&H->fit, why, sizeof why);
            prof->napprox++;
            if (mmm__profile_note(prof, "kernel '%s': %s = %s is approximate (%s)",
                                  K->id, mmm__pa_name(H->pa), H->fit.text, why) < 0) {
                rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
                goto out;
            }
        }
    }

    for (size_t cl = 0; cl < nclamps; cl++) {
        const clamp *C = &clamps[cl];
        if (!C->bites)
            continue;
        const char *part = mmm_attr_name((mmm_attr)C->part),
                   *whole = mmm__pa_name(holes[C->whole].pa);
        if (mmm__profile_note(prof, "kernel '%s': the skeleton's %s (%s:%ld) is more "
                              "than the measured %s at %zu of the %zu points (%g "
                              "against %g at %s): written min(the skeleton's, "
                              "the %s), as %s count among the %s",
                              prog->kernels[C->kernel].id, part, path,
                              sc.e[C->elem].line, whole, C->npoints, pts->n,
                              C->hand, C->measured, C->at, whole, part, whole) < 0) {
            rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
            goto out;
        }
    }

    /* the skeleton's text, with the "?" replaced and the comments */
    {
        size_t pos = 0, h = 0;
        int header_done = 0;
        for (size_t i = 0; i < sc.n; i++) {
            selem *e = &sc.e[i];
            int program = !strcmp(e->name, "program");
            int measured = 0;
            for (size_t k = 0; k < nholes; k++)
                measured |= holes[k].elem == i;
            if ((program && !header_done) || measured) {
                /* a comment on the lines before the element, or just before
                 * it when something precedes it on its line (an XML
                 * declaration must stay first) */
                char indent[64];
                size_t il = 0, at = e->line_start;
                while (e->line_start + il < e->start &&
                       (text[e->line_start + il] == ' ' || text[e->line_start + il] == '\t'))
                    il++;
                if (e->line_start + il != e->start || il + 1 > sizeof indent) {
                    at = e->start;
                    il = 0;
                }
                mmm__text_putn(out, text + pos, at - pos);
                if (at == e->start && at > 0 && text[at - 1] != '\n')
                    mmm__text_put(out, "\n");
                memcpy(indent, text + e->line_start, il);
                indent[il] = '\0';
                if (program) {
                    header_done = 1;
                    mmm__text_printf(out, "%s<!-- ", indent);
                    mmm__text hd;
                    mmm__text_init(&hd);
                    mmm__text_printf(&hd, "Filled in by mmm profile from %s (%zu "
                                     "point%s) on the skeleton %s: each \"?\" is "
                                     "the simplest expression through the measured "
                                     "values, exact unless its kernel's comment "
                                     "says APPROXIMATE (docs/profile.md)",
                                     pts->file, pts->n, pts->n == 1 ? "" : "s", path);
                    mmm__text_comment(out, hd.s ? hd.s : "");
                    mmm__text_dispose(&hd);
                    mmm__text_put(out, " -->\n");
                } else {
                    mmm__profile_fit f[PA_N + 1];
                    memset(f, 0, sizeof f);
                    for (size_t k = 0; k < nholes; k++)
                        if (holes[k].elem == i)
                            f[holes[k].pa] = holes[k].fit;
                    mmm__text note;
                    mmm__text_init(&note);
                    for (size_t cl = 0; cl < nclamps; cl++) {
                        const clamp *C = &clamps[cl];
                        if (C->elem != i || !C->bites)
                            continue;
                        const char *part = mmm_attr_name((mmm_attr)C->part),
                                   *whole = mmm__pa_name(holes[C->whole].pa);
                        char by[64];
                        if (C->ratio >= 1.1)
                            snprintf(by, sizeof by, "%.3gx", C->ratio);
                        else
                            snprintf(by, sizeof by, "%.2g %% more", 100 * (C->ratio - 1));
                        mmm__text_printf(&note, "%sCLAMPED %s: the skeleton's is more "
                                         "than the measured %s at %zu of the %zu "
                                         "points (%g against %g at %s, %s), so "
                                         "written min(the skeleton's, the %s): %s "
                                         "count among the %s",
                                         note.s && note.s[0] ? "\n" : "", part, whole,
                                         C->npoints, pts->n, C->hand, C->measured, C->at,
                                         by, whole, part, whole);
                    }
                    mmm__kernel_comment(out, indent, prog->kernels[e->kernel].id, pts,
                                        rep[e->kernel], nl[e->kernel], f, note.s);
                    mmm__text_dispose(&note);
                }
                pos = at;
            }
            /* the name, and the holes of this element */
            for (size_t a = 0; a < e->nattr; a++) {
                const sattr *at = &e->attr[a];
                const char *with = NULL;
                if (program && opt->name && !strcmp(at->name, "name"))
                    with = opt->name;
                for (h = 0; h < nholes && !with; h++)
                    if (holes[h].elem == i && holes[h].attr == a)
                        with = holes[h].fit.text;
                const clamp *C = NULL;
                for (size_t cl = 0; cl < nclamps && !with && !C; cl++)
                    if (clamps[cl].elem == i && clamps[cl].attr == a && clamps[cl].bites)
                        C = &clamps[cl];
                if (C) {
                    /* min(the skeleton's text as it is, the whole's) */
                    mmm__text_putn(out, text + pos, at->vstart - pos);
                    mmm__text_put(out, "min(");
                    mmm__text_putn(out, text + at->vstart, at->vend - at->vstart);
                    mmm__text_put(out, ", ");
                    mmm__text_put_xml(out, holes[C->whole].fit.text);
                    mmm__text_put(out, ")");
                    pos = at->vend;
                    continue;
                }
                if (!with)
                    continue;
                mmm__text_putn(out, text + pos, at->vstart - pos);
                mmm__text_put_xml(out, with);
                pos = at->vend;
            }
        }
        mmm__text_putn(out, text + pos, len - pos);
    }
    prof->nkernels = 0;
    for (size_t k = 0; k < prog->nkernels; k++)
        prof->nkernels += mmm_kernel_copy(prog, k) == MMM_COPY_NONE;
out:
    if (rep)
        for (size_t k = 0; prog && k < prog->nkernels; k++)
            free(rep[k]);
    if (nl)
        for (size_t k = 0; prog && k < prog->nkernels; k++)
            free(nl[k]);
    free(rep);
    free(nl);
    free(differ_noted);
    for (size_t h = 0; h < nholes; h++) {
        free(holes[h].x);
        free(holes[h].y);
        free(holes[h].inst);
    }
    free(holes);
    free(clamps);
    free(av);
    free(ex);
    free(ov);
    free(ovslot);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    scan_free(&sc);
    free(copy);
    free(text);
    return rc;
}
