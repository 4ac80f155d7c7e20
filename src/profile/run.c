/* run.c: a program run under Nsight Compute once per point of the
 * parameters' grid (mmm_profile_run; `mmm profile run`, docs/profile.md,
 * "Profiling your own program").
 *
 * Per point, two runs of ncu (--csv --page raw --print-units base
 * --clock-control none): the list of every launch with the launch
 * statistics only (no replay: about as fast as the program), and every
 * metric (mmm_ncu_metric_list; --print-metric-instances details for the
 * barriers among the instructions per opcode) for the first `samples`
 * launches of each launch configuration (--filter-mode per-launch-config
 * --launch-count N), which stand for the others of their configuration.
 * The captures and a POINTS.csv naming them go to the kept folder, or to
 * a temporary one removed by mmm_profile_captures_free.
 *
 * The one file of the library that starts processes: posix_spawn of ncu
 * with the caller's environment, its standard output and error into a
 * file, waited for by its pid alone (no signal handler is touched).  What
 * it has to say while ncu runs goes to the caller's progress function. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/abi.h"
#include "base/notes.h"
#include "base/split.h"
#include "mmm/profile.h"
#include "profile_internal.h"

extern char **environ;

#define MAX_PARAMS 16
#define MAX_VALUES 4096
#define MAX_POINTS 10000

typedef struct grid_param {
    char *name;
    size_t n;
    char **val; /* formatted values */
} grid_param;

struct mmm_profile_grid {
    grid_param p[MAX_PARAMS];
    size_t np;
};

struct mmm_profile_captures {
    char dir[3900];
    char points[4000]; /* dir/POINTS.csv */
    int temp;          /* remove the files and dir when freed */
    char **made;       /* the files written */
    size_t nmade;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void say(const mmm_profile_run_options *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(const mmm_profile_run_options *o, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    if (!o->progress)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->progress(line, o->payload);
}

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* The grid                                                            */

int mmm_profile_grid_new(mmm_profile_grid **out, mmm_error *err)
{
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_profile_grid_new: missing argument");
    if (!(*out = calloc(1, sizeof **out)))
        return nomem(err);
    return 0;
}

void mmm_profile_grid_free(mmm_profile_grid *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->np; i++) {
        for (size_t k = 0; k < g->p[i].n; k++)
            free(g->p[i].val[k]);
        free(g->p[i].val);
        free(g->p[i].name);
    }
    free(g);
}

static int no_names(const char *name, size_t len, void *payload)
{
    (void)name;
    (void)len;
    (void)payload;
    return -1;
}

typedef struct split_arg {
    grid_param *p;
    mmm_error *err;
} split_arg;

static int add_value(const char *item, size_t len, void *payload)
{
    split_arg *a = payload;
    char text[256], buf[64];
    mmm_expr *e = NULL;
    mmm_value v;
    mmm_error err;
    char **nv;
    if (len == 0 || len >= sizeof text)
        return mmm_error_set(a->err, MMM_EINVAL, NULL, 0,
                             "--param %s: an empty or too long value", a->p->name);
    memcpy(text, item, len);
    text[len] = '\0';
    if (mmm_expr_parse(&e, text, no_names, NULL, NULL, &err) < 0 ||
        mmm_expr_eval(e, NULL, 0, &v, &err) < 0) {
        mmm_expr_free(e);
        return mmm_error_set(a->err, MMM_EINVAL, NULL, 0,
                             "--param %s: '%s' is not a number (%s)", a->p->name, text,
                             err.message);
    }
    mmm_expr_free(e);
    if (a->p->n >= MAX_VALUES)
        return mmm_error_set(a->err, MMM_EINVAL, NULL, 0, "--param %s: more than %d values",
                             a->p->name, MAX_VALUES);
    mmm_value_format(v, 0, buf, sizeof buf);
    if (!(nv = realloc(a->p->val, (a->p->n + 1) * sizeof *nv)))
        return nomem(a->err);
    a->p->val = nv;
    if (!(nv[a->p->n] = strdup(buf)))
        return nomem(a->err);
    a->p->n++;
    return 0;
}

static int is_name(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
                    s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

int mmm_profile_grid_add(mmm_profile_grid *g, const char *text, mmm_error *err)
{
    const char *eq = text ? strchr(text, '=') : NULL;
    size_t len = eq ? (size_t)(eq - text) : 0;
    if (!g || !text)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_profile_grid_add: missing argument");
    if (!eq || !is_name(text, len))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--param takes NAME=LIST "
                             "(n=1024,2048), not '%s'", text);
    if (g->np >= MAX_PARAMS)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "more than %d --param", MAX_PARAMS);
    for (size_t k = 0; k < g->np; k++)
        if (strlen(g->p[k].name) == len && !strncmp(g->p[k].name, text, len))
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--param %s given twice",
                                 g->p[k].name);
    grid_param *p = &g->p[g->np];
    if (!(p->name = malloc(len + 1)))
        return nomem(err);
    memcpy(p->name, text, len);
    p->name[len] = '\0';
    g->np++;
    split_arg sa = {p, err};
    return mmm__split_list(eq + 1, add_value, &sa);
}

/* ------------------------------------------------------------------ */
/* Finding ncu and the command                                         */

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The first dir/name in PATH that is executable, into buf. */
static int in_path(const char *name, char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && (size_t)snprintf(buf, size, "%.*s/%s", (int)n, path, name) < size &&
            executable(buf))
            return 1;
        path += n;
        if (*path == ':')
            path++;
    }
    return 0;
}

static int find_ncu(const char *given, char *buf, size_t size, mmm_error *err)
{
    glob_t g;
    if (given) {
        if (!executable(given))
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "--ncu %s: not an executable file", given);
        snprintf(buf, size, "%s", given);
        return 0;
    }
    if (in_path("ncu", buf, size))
        return 0;
    if (executable("/usr/local/cuda/bin/ncu")) {
        snprintf(buf, size, "/usr/local/cuda/bin/ncu");
        return 0;
    }
    if (glob("/opt/nvidia/nsight-compute/*/ncu", 0, NULL, &g) == 0) {
        /* the newest version: the last in the sorted list */
        for (size_t i = g.gl_pathc; i-- > 0;)
            if (executable(g.gl_pathv[i])) {
                snprintf(buf, size, "%s", g.gl_pathv[i]);
                globfree(&g);
                return 0;
            }
        globfree(&g);
    }
    return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                         "Nsight Compute's ncu was not found (not in PATH, "
                         "/usr/local/cuda/bin or /opt/nvidia/nsight-compute/*/): install "
                         "Nsight Compute (it comes with the CUDA toolkit) or give its path "
                         "with --ncu PATH");
}

/* ------------------------------------------------------------------ */
/* Running ncu                                                         */

/* arg with each {NAME} replaced by the point's value (malloc'd). */
static char *substitute(const char *arg, const mmm_profile_grid *g, const size_t *idx)
{
    size_t cap = strlen(arg) + 1, n = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    for (const char *p = arg; *p;) {
        const char *rep = NULL;
        size_t skip = 0;
        if (*p == '{')
            for (size_t k = 0; k < g->np; k++) {
                size_t l = strlen(g->p[k].name);
                if (!strncmp(p + 1, g->p[k].name, l) && p[1 + l] == '}') {
                    rep = g->p[k].val[idx[k]];
                    skip = l + 2;
                    break;
                }
            }
        const char *add = rep ? rep : p;
        size_t al = rep ? strlen(rep) : 1;
        if (n + al + 1 > cap) {
            cap = 2 * (n + al + 1);
            char *ns = realloc(s, cap);
            if (!ns) {
                free(s);
                return NULL;
            }
            s = ns;
        }
        memcpy(s + n, add, al);
        n += al;
        p += rep ? skip : 1;
    }
    s[n] = '\0';
    return s;
}

/* The last "==ERROR==" lines (up to 3) of a file, into details. */
static int last_errors(const char *path, mmm_notes *details)
{
    FILE *f = fopen(path, "r");
    char line[1024], last[3][1024];
    int n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "==ERROR=="))
            snprintf(last[n++ % 3], sizeof last[0], "%s", line);
    fclose(f);
    for (int i = n > 3 ? n - 3 : 0; i < n; i++) {
        char *l = last[i % 3];
        size_t len = strlen(l);
        if (len && l[len - 1] == '\n')
            l[len - 1] = '\0';
        mmm__notes_add(details, "  %s", l);
    }
    return n;
}

/* Run argv (argv[0] the executable's path) with its output to out_path;
 * progress once the whole run is past a second.  0, or the error with
 * what ncu said about it in details. */
static int run_one(char **argv, char **envp, const char *out_path, const char *what,
                   double t0, const char *log_path, const mmm_profile_run_options *o,
                   mmm_notes *details, mmm_error *err)
{
    const char *who = envp ? "the program" : "ncu";
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int st, rc, announced = 0;
    double started = now(), last = 0;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "cannot start %s: out of memory",
                             argv[0]);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp ? envp : environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return mmm_error_set(err, MMM_EIO, NULL, 0, "cannot start %s: %s", argv[0],
                             strerror(rc));
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return mmm_error_set(err, MMM_EIO, NULL, 0, "waiting for %s: %s", argv[0],
                                 strerror(errno));
        double t = now();
        if (!announced && t - t0 >= 1.0) {
            say(o, "%s...", what);
            announced = 1;
            last = t;
        } else if (announced && t - last >= 10.0) {
            say(o, "%s: %.0f s so far", what, t - started);
            last = t;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st))
        mmm_error_set(err, MMM_EIO, NULL, 0, "%s: %s exited with status %d", what, who,
                      WEXITSTATUS(st));
    else
        mmm_error_set(err, MMM_EIO, NULL, 0, "%s: %s was killed by signal %d", what, who,
                      WTERMSIG(st));
    if (!(last_errors(log_path, details) + last_errors(out_path, details)))
        mmm__notes_add(details, "  (%s printed no ==ERROR== line: see %s)", who, out_path);
    if (access("/proc/driver/nvidia/version", F_OK) != 0)
        mmm__notes_add(details, "  no NVIDIA driver is loaded on this machine "
                                "(/proc/driver/nvidia/version is missing): ncu needs a GPU "
                                "and its driver");
    return MMM_EIO;
}

/* ------------------------------------------------------------------ */
/* The captures                                                        */

static int remember(mmm_profile_captures *c, const char *path)
{
    char **np = realloc(c->made, (c->nmade + 1) * sizeof *np);
    if (!np)
        return -1;
    c->made = np;
    if (!(c->made[c->nmade] = strdup(path)))
        return -1;
    c->nmade++;
    return 0;
}

const char *mmm_profile_captures_points(const mmm_profile_captures *c)
{
    return c ? c->points : NULL;
}

void mmm_profile_captures_free(mmm_profile_captures *c)
{
    if (!c)
        return;
    if (c->temp) {
        for (size_t i = 0; i < c->nmade; i++)
            unlink(c->made[i]);
        rmdir(c->dir);
    }
    for (size_t i = 0; i < c->nmade; i++)
        free(c->made[i]);
    free(c->made);
    free(c);
}

void mmm_profile_run_options_init(mmm_profile_run_options *opt)
{
    static const mmm_profile_run_options defaults = MMM_PROFILE_RUN_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

/* The folder of the captures: the kept one (made when missing) or a
 * temporary one. */
static int make_dir(mmm_profile_captures *c, const char *keep, mmm_error *err)
{
    if (keep) {
        if (strlen(keep) >= sizeof c->dir)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--keep: too long a path");
        snprintf(c->dir, sizeof c->dir, "%s", keep);
        if (mkdir(c->dir, 0777) != 0 && errno != EEXIST)
            return mmm_error_set(err, MMM_EIO, NULL, 0, "--keep %s: cannot create the "
                                 "folder: %s", c->dir, strerror(errno));
        return 0;
    }
    const char *td = getenv("TMPDIR");
    snprintf(c->dir, sizeof c->dir, "%s/mmm-profile-XXXXXX", td && *td ? td : "/tmp");
    if (!mkdtemp(c->dir))
        return mmm_error_set(err, MMM_EIO, NULL, 0, "cannot create a temporary folder "
                             "%s: %s", c->dir, strerror(errno));
    c->temp = 1;
    return 0;
}

/* What one run of ncu measures: the launch statistics of every launch
 * (LIST), every metric of the first `samples` launches of each
 * configuration (SAMPLE; all launches when samples is 0), or every metric
 * of one launch, the skip-th of the kernel named (ONE). */
typedef struct ncu_pass {
    enum { PASS_LIST, PASS_SAMPLE, PASS_ONE } kind;
    int mangled;          /* kernels named and filtered by mangled names */
    const char *samples;  /* the count, as text; NULL: every launch */
    const char *kernel;   /* PASS_ONE */
    char skip[24];        /* PASS_ONE */
} ncu_pass;

/* ncu's arguments for one pass at one point into args (at most 24 of its
 * own, the command with the point's values, NULL); n: how many. */
static int ncu_args(char **args, char *ncu, const ncu_pass *ps, char *log,
                    const mmm_profile_grid *g, char *const *argv, size_t argc,
                    const size_t *idx, int *first_cmd)
{
    int n = 0;
    args[n++] = ncu;
    args[n++] = (char *)"--csv";
    args[n++] = (char *)"--page";
    args[n++] = (char *)"raw";
    args[n++] = (char *)"--print-units";
    args[n++] = (char *)"base";
    args[n++] = (char *)"--clock-control";
    args[n++] = (char *)"none";
    args[n++] = (char *)"--metrics";
    args[n++] = (char *)mmm_ncu_metric_list(ps->kind == PASS_LIST ? MMM_NCU_SET_LAUNCH
                                                                  : MMM_NCU_SET_FULL);
    if (ps->kind != PASS_LIST) {
        /* the barriers: an instance of the instructions per opcode */
        args[n++] = (char *)"--print-metric-instances";
        args[n++] = (char *)"details";
    }
    if (ps->mangled) {
        /* the names a launch trace has */
        args[n++] = (char *)"--print-kernel-base";
        args[n++] = (char *)"mangled";
        args[n++] = (char *)"--kernel-name-base";
        args[n++] = (char *)"mangled";
    }
    if (ps->kind == PASS_SAMPLE && ps->samples) {
        args[n++] = (char *)"--filter-mode";
        args[n++] = (char *)"per-launch-config";
        args[n++] = (char *)"--launch-count";
        args[n++] = (char *)ps->samples;
    }
    if (ps->kind == PASS_ONE) {
        args[n++] = (char *)"--kernel-name";
        args[n++] = (char *)ps->kernel;
        args[n++] = (char *)"--launch-skip";
        args[n++] = (char *)ps->skip;
        args[n++] = (char *)"--launch-count";
        args[n++] = (char *)"1";
    }
    args[n++] = (char *)"--log-file";
    args[n++] = log;
    *first_cmd = n;
    for (size_t a = 0; a < argc; a++)
        if (!(args[n++] = substitute(argv[a], g, idx))) {
            args[n - 1] = NULL;
            return -1;
        }
    args[n] = NULL;
    return n;
}

/* ------------------------------------------------------------------ */
/* The launch tracer                                                   */

/* The installed tracer's folder relative to the installed binary's
 * (CMakeLists.txt sets it, as for the drawing plugin). */
#ifndef MMM_TRACER_REL
#define MMM_TRACER_REL "../lib/mmm"
#endif
#define TRACER "libmmm_trace.so"

/* The tracer to use into buf ("" for none): the option's, else
 * $MMM_TRACER's, else beside the running program (a build tree), else
 * the installed one (MMM_TRACER_REL from the program's folder). */
static int find_tracer(const char *given, char *buf, size_t size, mmm_error *err)
{
    char exe[4096];
    ssize_t n;
    buf[0] = '\0';
    if (!given)
        given = getenv("MMM_TRACER");
    if (given) {
        if (*given && access(given, R_OK) != 0)
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "the launch tracer %s cannot be read: %s (build it with "
                                 "CUDA's CUPTI, or set MMM_TRACER= (empty) to list launches "
                                 "with ncu)", given, strerror(errno));
        snprintf(buf, size, "%s", given);
        return 0;
    }
    if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if ((size_t)snprintf(buf, size, "%s/%s", exe, TRACER) < size &&
                access(buf, R_OK) == 0)
                return 0;
            if ((size_t)snprintf(buf, size, "%s/%s/%s", exe, MMM_TRACER_REL, TRACER) < size &&
                access(buf, R_OK) == 0)
                return 0;
        }
    }
    buf[0] = '\0';
    return 0;
}

/* The environment with the tracer injected (malloc'd array; its two
 * new strings are inj and file). */
static char **traced_env(char *inj, char *file)
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **e = malloc((n + 3) * sizeof *e);
    if (!e)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "CUDA_INJECTION64_PATH=", 22) &&
            strncmp(environ[i], "MMM_TRACE_FILE=", 15))
            e[k++] = environ[i];
    e[k++] = inj;
    e[k++] = file;
    e[k] = NULL;
    return e;
}

static int is_trace(const char *path)
{
    char head[20] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    return !strncmp(head, "# mmm launch trace", 18);
}

/* ------------------------------------------------------------------ */
/* The points                                                          */

typedef struct point_run {
    mmm_profile_captures *c;
    const mmm_profile_grid *g;
    char *ncu;
    char *const *argv;
    size_t argc;
    const mmm_profile_run_options *o;
    mmm_notes *details;
    char **args;
    double t0;
    FILE *pf;          /* POINTS.csv */
    size_t extra_runs; /* ncu runs for configurations the sample missed */
} point_run;

/* One run of ncu (or, with envp, of the program) at point idx. */
static int run_pass(point_run *r, const ncu_pass *ps, char **envp, const size_t *idx,
                    const char *out, const char *log, const char *what, mmm_error *err)
{
    int first_cmd = 0, n, rc;
    if (envp) {
        for (n = 0; (size_t)n < r->argc; n++)
            if (!(r->args[n] = substitute(r->argv[n], r->g, idx)))
                break;
        r->args[n] = NULL;
        rc = (size_t)n < r->argc ? nomem(err)
                                 : run_one(r->args, envp, log, what, r->t0, log, r->o,
                                           r->details, err);
    } else {
        n = ncu_args(r->args, r->ncu, ps, (char *)out, r->g, r->argv, r->argc, idx,
                     &first_cmd);
        rc = n < 0 ? nomem(err)
                   : run_one(r->args, NULL, log, what, r->t0, out, r->o, r->details, err);
    }
    for (char **a = r->args + first_cmd; *a; a++)
        free(*a);
    if (rc < 0 && r->c->temp && n >= 0)
        mmm__notes_add(r->details, "  (give --keep DIR to keep what ncu wrote)");
    return rc;
}

static void points_row(point_run *r, const char *file, const size_t *idx)
{
    const char *base = strrchr(file, '/');
    fprintf(r->pf, "%s", base ? base + 1 : file);
    for (size_t k = 0; k < r->g->np; k++)
        fprintf(r->pf, ",%s", r->g->p[k].val[idx[k]]);
    fprintf(r->pf, "\n");
}

/* The configurations of the trace that the sample missed (ncu's
 * per-launch-config filter may take one sample for launches that differ
 * in their template arguments): one more run of ncu for each, on the
 * first launch of the configuration. */
static int fill_missing(point_run *r, size_t pi, const char *list, const char *sample,
                        const size_t *idx, const char *label, mmm_error *err)
{
    mmm_ncu_capture *L = NULL, *S = NULL;
    size_t *id = NULL, added = 0;
    int rc;
    if ((rc = mmm_ncu_read_file(&L, list, 0, err)) < 0 ||
        (rc = mmm_ncu_read_file(&S, sample, 0, err)) < 0)
        goto out;
    size_t n = mmm_ncu_count(L);
    if (!(id = malloc((n ? n : 1) * sizeof *id))) {
        rc = nomem(err);
        goto out;
    }
    if ((rc = mmm__config_ids(L, n, id, err)) < 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0, skip = 0;
        if (id[i] != i)
            continue;
        for (j = 0; j < mmm_ncu_count(S); j++)
            if (mmm__has_costs(S, j) && mmm__same_config(L, i, S, j))
                break;
        if (j < mmm_ncu_count(S))
            continue;
        if (added == 256) {
            rc = mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                               "point %zu (%s): more than 256 launch configurations have "
                               "no sample; give --samples all", pi + 1, label);
            goto out;
        }
        for (size_t k = 0; k < i; k++)
            skip += !strcmp(mmm_ncu_kernel(L, k), mmm_ncu_kernel(L, i));
        char file[4200], what[700];
        ncu_pass ps = {PASS_ONE, 1, NULL, mmm_ncu_kernel(L, i), ""};
        snprintf(ps.skip, sizeof ps.skip, "%zu", skip);
        snprintf(file, sizeof file, "%s/point%zu-config%zu.csv", r->c->dir, pi + 1, added + 1);
        snprintf(what, sizeof what, "point %zu (%s): launch %zu, a configuration the sample "
                 "missed", pi + 1, label, i + 1);
        if (remember(r->c, file) < 0) {
            rc = nomem(err);
            goto out;
        }
        if ((rc = run_pass(r, &ps, NULL, idx, file, file, what, err)) < 0)
            goto out;
        points_row(r, file, idx);
        added++;
        r->extra_runs++;
    }
out:
    free(id);
    mmm_ncu_free(L);
    mmm_ncu_free(S);
    return rc;
}

/* The points' runs and POINTS.csv into c. */
static int run_points(mmm_profile_captures *c, const mmm_profile_grid *g, size_t npoints,
                      char *ncu, const char *tracer, char *const *argv, size_t argc,
                      const mmm_profile_run_options *o, mmm_notes *details,
                      mmm_error *err)
{
    size_t idx[MAX_PARAMS] = {0}, traced = 0;
    char samples[32], inj[4200], tfile[4300];
    point_run r = {c, g, ncu, argv, argc, o, details, NULL, now(), NULL, 0};
    char **env = NULL;
    int rc = 0;
    r.args = calloc(argc + 32, sizeof *r.args);
    if (!r.args || !(r.pf = fopen(c->points, "w")) || remember(c, c->points) < 0) {
        rc = !r.args ? nomem(err)
                     : mmm_error_set(err, MMM_EIO, NULL, 0, "cannot write %s: %s", c->points,
                                     strerror(errno));
        goto out;
    }
    snprintf(inj, sizeof inj, "CUDA_INJECTION64_PATH=%s", tracer);
    if (*tracer && o->samples && !(env = traced_env(inj, tfile))) {
        rc = nomem(err);
        goto out;
    }
    fprintf(r.pf, "ncu");
    for (size_t k = 0; k < g->np; k++)
        fprintf(r.pf, ",%s", g->p[k].name);
    fprintf(r.pf, "\n");
    snprintf(samples, sizeof samples, "%lld", (long long)o->samples);
    for (size_t pi = 0; pi < npoints; pi++) {
        char label[512] = "", list[4200], sample[4200], log1[4200], log2[4200];
        char what[700], pl[600];
        size_t ll = 0;
        int use_trace = 0;
        for (size_t k = 0; k < g->np && ll < sizeof label; k++)
            ll += (size_t)snprintf(label + ll, sizeof label - ll, "%s%s=%s", k ? ", " : "",
                                   g->p[k].name, g->p[k].val[idx[k]]);
        snprintf(pl, sizeof pl, "point %zu/%zu%s%s%s", pi + 1, npoints, g->np ? " (" : "",
                 label, g->np ? ")" : "");
        snprintf(list, sizeof list, "%s/point%zu-launches.csv", c->dir, pi + 1);
        snprintf(sample, sizeof sample, "%s/point%zu-sample.csv", c->dir, pi + 1);
        snprintf(log1, sizeof log1, "%s/point%zu-launches.out", c->dir, pi + 1);
        snprintf(log2, sizeof log2, "%s/point%zu-sample.out", c->dir, pi + 1);
        if (remember(c, list) < 0 || remember(c, sample) < 0 || remember(c, log1) < 0 ||
            remember(c, log2) < 0) {
            rc = nomem(err);
            goto out;
        }
        if (env) {
            /* the list from the tracer: the program alone, at its own speed */
            snprintf(tfile, sizeof tfile, "MMM_TRACE_FILE=%s", list);
            unlink(list);
            snprintf(what, sizeof what, "%s: the program with the launch tracer", pl);
            if ((rc = run_pass(&r, NULL, env, idx, list, log1, what, err)) < 0)
                goto out;
            use_trace = is_trace(list);
            if (!use_trace)
                say(o, "%s: the launch tracer wrote no trace (is the program a CUDA "
                       "program? see %s); ncu lists the launches instead", pl, log1);
            traced += use_trace;
        }
        if (o->samples && !use_trace) {
            ncu_pass ps = {PASS_LIST, 0, NULL, NULL, ""};
            snprintf(what, sizeof what, "%s: the list of launches", pl);
            if ((rc = run_pass(&r, &ps, NULL, idx, list, log1, what, err)) < 0)
                goto out;
        }
        ncu_pass ps = {PASS_SAMPLE, use_trace, o->samples ? samples : NULL, NULL, ""};
        snprintf(what, sizeof what, "%s: %s", pl,
                 o->samples ? "the sampled launches with every metric"
                            : "every launch with every metric");
        if ((rc = run_pass(&r, &ps, NULL, idx, sample, log2, what, err)) < 0)
            goto out;
        points_row(&r, sample, idx);
        if (o->samples)
            points_row(&r, list, idx);
        if (use_trace && (rc = fill_missing(&r, pi, list, sample, idx, label, err)) < 0)
            goto out;
        /* the next point: the last parameter varies fastest */
        for (size_t k = g->np; k-- > 0;) {
            if (++idx[k] < g->p[k].n)
                break;
            idx[k] = 0;
        }
    }
    rc = fclose(r.pf);
    r.pf = NULL;
    if (rc != 0) {
        rc = mmm_error_set(err, MMM_EIO, NULL, 0, "cannot write %s", c->points);
        goto out;
    }
    if (now() - r.t0 >= 1.0 && o->samples)
        say(o, "%zu point%s profiled in %.0f s; %s; sampled the first %lld launch%s of each "
               "configuration with every metric%s", npoints, npoints == 1 ? "" : "s",
            now() - r.t0, traced ? "launches listed by the launch tracer"
                                 : "launches listed by ncu",
            (long long)o->samples, o->samples == 1 ? "" : "es",
            r.extra_runs ? " (and one more run of ncu for each configuration its filter "
                           "missed)" : "");
    else if (now() - r.t0 >= 1.0)
        say(o, "%zu point%s profiled in %.0f s, every launch with every metric", npoints,
            npoints == 1 ? "" : "s", now() - r.t0);
out:
    if (r.pf)
        fclose(r.pf);
    free(r.args);
    free(env);
    return rc;
}

int mmm_profile_run(mmm_profile_captures **out, const mmm_profile_grid *grid,
                    char *const *argv, size_t argc, const mmm_profile_run_options *opt,
                    mmm_notes *details, mmm_error *err)
{
    static const mmm_profile_grid none;
    mmm_profile_run_options o = MMM_PROFILE_RUN_OPTIONS_INIT;
    mmm_profile_captures *c;
    char ncu[4096], prog[4096], tracer[4096];
    size_t npoints = 1;
    int rc;
    if (!out || !argv || argc == 0 || !argv[0])
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_profile_run: missing argument");
    *out = NULL;
    MMM__CHECK_VERSION(opt, mmm_profile_run_options, PROFILE_RUN_OPTIONS, err);
    if (opt && opt->version >= 2)
        o = *opt;
    else if (opt) { /* version 1: the fields before tracer */
        o.ncu = opt->ncu;
        o.keep = opt->keep;
        o.samples = opt->samples;
        o.progress = opt->progress;
        o.payload = opt->payload;
    }
    if (!grid)
        grid = &none;
    if (o.samples < 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_profile_run: samples < 0");
    for (size_t k = 0; k < grid->np; k++) {
        char pat[80];
        int used = 0;
        if (npoints * grid->p[k].n > MAX_POINTS)
            return mmm_error_set(err, MMM_ELIMIT, NULL, 0, "more than %d points",
                                 MAX_POINTS);
        npoints *= grid->p[k].n;
        snprintf(pat, sizeof pat, "{%s}", grid->p[k].name);
        for (size_t a = 0; a < argc; a++)
            used |= strstr(argv[a], pat) != NULL;
        if (!used)
            say(&o, "warning: --param %s: %s appears in no argument of the command (each "
                    "run gets the same arguments)", grid->p[k].name, pat);
    }
    if ((rc = find_ncu(o.ncu, ncu, sizeof ncu, err)) < 0 ||
        (rc = find_tracer(o.tracer, tracer, sizeof tracer, err)) < 0)
        return rc;
    if (!strchr(argv[0], '/') && !in_path(argv[0], prog, sizeof prog))
        return mmm_error_set(err, MMM_EINPUT, NULL, 0, "the command '%s' is not in PATH",
                             argv[0]);
    if (!(c = calloc(1, sizeof *c)))
        return nomem(err);
    if ((rc = make_dir(c, o.keep, err)) == 0) {
        snprintf(c->points, sizeof c->points, "%s/POINTS.csv", c->dir);
        rc = run_points(c, grid, npoints, ncu, tracer, argv, argc, &o, details, err);
    }
    if (rc < 0) {
        mmm_profile_captures_free(c);
        return rc;
    }
    *out = c;
    return 0;
}
