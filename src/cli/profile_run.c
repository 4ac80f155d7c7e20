/* profile_run.c: `mmm profile run`: the program under Nsight Compute once
 * per point of the parameters' grid, then `profile build` on what it
 * captured (docs/profile.md, "Profiling your own program").
 *
 * Per point, two runs of ncu (--csv --page raw --print-units base
 * --clock-control none): the list of every launch with the launch
 * statistics only (no replay: about as fast as the program), and every
 * metric (mmm_ncu_metric_list; --print-metric-instances details for the
 * barriers among the instructions per opcode) for the first --samples
 * launches of each launch configuration (--filter-mode per-launch-config
 * --launch-count N), which stand for the others of their configuration.  The captures and a
 * POINTS.csv naming them go to --keep DIR, or to a temporary folder
 * removed at the end.  Starting processes is the command line's business:
 * the library only reads what they wrote. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "profile_run.h"

extern char **environ;

#define MAX_PARAMS 16
#define MAX_VALUES 4096
#define MAX_POINTS 10000

typedef struct run_param {
    const char *name;
    size_t n;
    char **val; /* formatted values */
} run_param;

typedef struct run_opts {
    run_param p[MAX_PARAMS];
    size_t np;
    const char *skeleton, *keep, *out, *name, *ncu;
    int64_t samples; /* launches of each configuration with every metric;
                        0: every launch (one run of ncu a point) */
    uint64_t max_bytes;
    char **cmd;
    int ncmd;
} run_opts;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

static int no_names(const char *name, size_t len, void *payload)
{
    (void)name;
    (void)len;
    (void)payload;
    return -1;
}

typedef struct split_arg {
    run_param *p;
    int bad;
    char msg[1600];
} split_arg;

static int add_value(const char *item, size_t len, void *payload)
{
    split_arg *a = payload;
    char text[256];
    mmm_expr *e = NULL;
    mmm_value v;
    mmm_error err;
    if (len == 0 || len >= sizeof text) {
        snprintf(a->msg, sizeof a->msg, "--param %s: an empty or too long value",
                 a->p->name);
        a->bad = 1;
        return 1;
    }
    memcpy(text, item, len);
    text[len] = '\0';
    if (mmm_expr_parse(&e, text, no_names, NULL, NULL, &err) < 0 ||
        mmm_expr_eval(e, NULL, 0, &v, &err) < 0) {
        mmm_expr_free(e);
        snprintf(a->msg, sizeof a->msg, "--param %s: '%s' is not a number (%s)",
                 a->p->name, text, err.message);
        a->bad = 1;
        return 1;
    }
    mmm_expr_free(e);
    if (a->p->n >= MAX_VALUES) {
        snprintf(a->msg, sizeof a->msg, "--param %s: more than %d values",
                 a->p->name, MAX_VALUES);
        a->bad = 1;
        return 1;
    }
    char buf[64];
    mmm_value_format(v, 0, buf, sizeof buf);
    char **nv = realloc(a->p->val, (a->p->n + 1) * sizeof *nv);
    if (!nv || !(nv[a->p->n] = strdup(buf))) {
        if (nv)
            a->p->val = nv;
        snprintf(a->msg, sizeof a->msg, "out of memory");
        a->bad = 1;
        return 1;
    }
    a->p->val = nv;
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

static void free_opts(run_opts *o)
{
    for (size_t i = 0; i < o->np; i++) {
        for (size_t k = 0; k < o->p[i].n; k++)
            free(o->p[i].val[k]);
        free(o->p[i].val);
        free((char *)o->p[i].name);
    }
}

static int parse_opts(run_opts *o, int argc, char **argv)
{
    int i;
    memset(o, 0, sizeof *o);
    o->samples = 1;
    for (i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        if ((v = cli_option_value("-o", argc, argv, &i, &missing)) ||
            (!missing && (v = cli_option_value("--output", argc, argv, &i, &missing)))) {
            o->out = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--skeleton", argc, argv, &i, &missing))) {
            o->skeleton = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--keep", argc, argv, &i, &missing))) {
            o->keep = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--name", argc, argv, &i, &missing))) {
            o->name = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--ncu", argc, argv, &i, &missing))) {
            o->ncu = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--samples", argc, argv, &i, &missing))) {
            if (!strcmp(v, "all"))
                o->samples = 0;
            else if (cli_parse_int64(v, &o->samples) < 0 || o->samples < 1)
                return cli_usage("profile", "--samples needs a positive integer or "
                                            "all, not '%s'", v);
            continue;
        }
        if (!missing &&
            (v = cli_option_value("--max-file-bytes", argc, argv, &i, &missing))) {
            if (cli_parse_u64(v, &o->max_bytes) < 0 || o->max_bytes == 0)
                return cli_usage("profile", "--max-file-bytes needs a positive "
                                            "integer, not '%s'", v);
            continue;
        }
        if (!missing && (v = cli_option_value("--param", argc, argv, &i, &missing))) {
            const char *eq = strchr(v, '=');
            if (!eq || !is_name(v, (size_t)(eq - v)))
                return cli_usage("profile", "--param takes NAME=LIST (n=1024,2048), "
                                            "not '%s'", v);
            if (o->np >= MAX_PARAMS)
                return cli_usage("profile", "more than %d --param", MAX_PARAMS);
            for (size_t k = 0; k < o->np; k++)
                if (strlen(o->p[k].name) == (size_t)(eq - v) &&
                    !strncmp(o->p[k].name, v, (size_t)(eq - v)))
                    return cli_usage("profile", "--param %s given twice", o->p[k].name);
            run_param *p = &o->p[o->np];
            char *name = malloc((size_t)(eq - v) + 1);
            if (!name)
                return cli_usage("profile", "out of memory");
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = '\0';
            p->name = name;
            o->np++;
            split_arg sa = {p, 0, ""};
            cli_split_list(eq + 1, add_value, &sa);
            if (sa.bad)
                return cli_usage("profile", "%s", sa.msg);
            continue;
        }
        if (missing)
            return cli_usage("profile", "option '%s' needs a value", argv[i]);
        if (argv[i][0] == '-')
            return cli_usage("profile", "unknown option '%s' of profile run (the "
                                        "command to run comes after --)",
                             argv[i]);
        break; /* the command, without a "--" before it */
    }
    if (i >= argc)
        return cli_usage("profile", "profile run: missing the command to run "
                                    "(mmm profile run [OPTIONS] -- COMMAND [ARG...])");
    o->cmd = argv + i;
    o->ncmd = argc - i;
    return CLI_OK;
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

static int find_ncu(const char *given, char *buf, size_t size)
{
    if (given) {
        if (!executable(given)) {
            fprintf(stderr, "mmm profile: error: --ncu %s: not an executable file\n",
                    given);
            return -1;
        }
        snprintf(buf, size, "%s", given);
        return 0;
    }
    if (in_path("ncu", buf, size))
        return 0;
    if (executable("/usr/local/cuda/bin/ncu")) {
        snprintf(buf, size, "/usr/local/cuda/bin/ncu");
        return 0;
    }
    glob_t g;
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
    fprintf(stderr,
            "mmm profile: error: Nsight Compute's ncu was not found (not in PATH, "
            "/usr/local/cuda/bin or /opt/nvidia/nsight-compute/*/): install Nsight "
            "Compute (it comes with the CUDA toolkit) or give its path with --ncu "
            "PATH\n");
    return -1;
}

/* ------------------------------------------------------------------ */
/* Running ncu                                                         */

/* arg with each {NAME} replaced by the point's value (malloc'd). */
static char *substitute(const char *arg, const run_opts *o, const size_t *idx)
{
    size_t cap = strlen(arg) + 1, n = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    for (const char *p = arg; *p;) {
        const char *rep = NULL;
        size_t skip = 0;
        if (*p == '{')
            for (size_t k = 0; k < o->np; k++) {
                size_t l = strlen(o->p[k].name);
                if (!strncmp(p + 1, o->p[k].name, l) && p[1 + l] == '}') {
                    rep = o->p[k].val[idx[k]];
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

/* The last "==ERROR==" lines (up to 3) of a file, on stderr. */
static int print_errors(const char *path)
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
        const char *l = last[i % 3];
        fprintf(stderr, "  %s%s", l, l[strlen(l) - 1] == '\n' ? "" : "\n");
    }
    return n;
}

/* Run argv (argv[0] the executable's path) with its output to out_path;
 * progress on stderr once the whole run is past a second.  0, or -1
 * with the error printed. */
static int run_one(char **argv, const char *out_path, const char *what,
                   double t0, const char *log_path)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int st, rc;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        fprintf(stderr, "mmm profile: error: cannot start %s: out of memory\n", argv[0]);
        return -1;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, "mmm profile: error: cannot start %s: %s\n", argv[0],
                strerror(rc));
        return -1;
    }
    int announced = 0;
    double started = now(), last = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            fprintf(stderr, "mmm profile: error: waiting for %s: %s\n", argv[0],
                    strerror(errno));
            return -1;
        }
        double t = now();
        if (!announced && t - t0 >= 1.0) {
            fprintf(stderr, "mmm profile: %s...\n", what);
            announced = 1;
            last = t;
        } else if (announced && t - last >= 10.0) {
            fprintf(stderr, "mmm profile: %s: %.0f s so far\n", what, t - started);
            last = t;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st))
        fprintf(stderr, "mmm profile: error: %s: ncu exited with status %d\n", what,
                WEXITSTATUS(st));
    else
        fprintf(stderr, "mmm profile: error: %s: ncu was killed by signal %d\n", what,
                WTERMSIG(st));
    int n = print_errors(log_path) + print_errors(out_path);
    if (!n)
        fprintf(stderr, "  (ncu printed no ==ERROR== line: see %s)\n", out_path);
    if (access("/proc/driver/nvidia/version", F_OK) != 0)
        fprintf(stderr, "  no NVIDIA driver is loaded on this machine "
                        "(/proc/driver/nvidia/version is missing): ncu needs a GPU "
                        "and its driver\n");
    return -1;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */

typedef struct created {
    char **path;
    size_t n;
} created;

static int remember(created *c, const char *path)
{
    char **np = realloc(c->path, (c->n + 1) * sizeof *np);
    if (!np)
        return -1;
    c->path = np;
    if (!(c->path[c->n] = strdup(path)))
        return -1;
    c->n++;
    return 0;
}

int cli_profile_run(int argc, char **argv)
{
    run_opts o;
    char ncu[4096], dir[3900], tmp[4200];
    created made = {NULL, 0};
    int rc = parse_opts(&o, argc, argv), temp = 0;
    size_t npoints = 1, idx[MAX_PARAMS] = {0};
    FILE *pf = NULL;
    char **args = NULL;
    if (rc != CLI_OK)
        goto out;
    rc = CLI_FAIL;
    for (size_t k = 0; k < o.np; k++) {
        if (npoints * o.p[k].n > MAX_POINTS) {
            fprintf(stderr, "mmm profile: error: more than %d points\n", MAX_POINTS);
            goto out;
        }
        npoints *= o.p[k].n;
        int used = 0;
        char pat[80];
        snprintf(pat, sizeof pat, "{%s}", o.p[k].name);
        for (int a = 0; a < o.ncmd; a++)
            used |= strstr(o.cmd[a], pat) != NULL;
        if (!used)
            fprintf(stderr, "mmm profile: warning: --param %s: %s appears in no "
                            "argument of the command (each run gets the same "
                            "arguments)\n",
                    o.p[k].name, pat);
    }
    if (find_ncu(o.ncu, ncu, sizeof ncu) < 0)
        goto out;
    {
        char prog[4096];
        if (!strchr(o.cmd[0], '/') && !in_path(o.cmd[0], prog, sizeof prog)) {
            fprintf(stderr, "mmm profile: error: the command '%s' is not in PATH\n",
                    o.cmd[0]);
            goto out;
        }
    }
    if (o.keep) {
        if (strlen(o.keep) >= sizeof dir) {
            fprintf(stderr, "mmm profile: error: --keep: too long a path\n");
            goto out;
        }
        snprintf(dir, sizeof dir, "%s", o.keep);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "mmm profile: error: --keep %s: cannot create the "
                            "folder: %s\n", dir, strerror(errno));
            goto out;
        }
    } else {
        const char *td = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/mmm-profile-XXXXXX", td && *td ? td : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "mmm profile: error: cannot create a temporary folder "
                            "%s: %s\n", dir, strerror(errno));
            goto out;
        }
        temp = 1;
    }
    /* ncu's arguments: 13 of its own, the command, NULL */
    args = calloc((size_t)o.ncmd + 20, sizeof *args);
    if (!args) {
        fprintf(stderr, "mmm profile: error: out of memory\n");
        goto out;
    }
    snprintf(tmp, sizeof tmp, "%s/POINTS.csv", dir);
    if (!(pf = fopen(tmp, "w")) || remember(&made, tmp) < 0) {
        fprintf(stderr, "mmm profile: error: cannot write %s: %s\n", tmp,
                strerror(errno));
        goto out;
    }
    fprintf(pf, "ncu");
    for (size_t k = 0; k < o.np; k++)
        fprintf(pf, ",%s", o.p[k].name);
    fprintf(pf, "\n");
    double t0 = now();
    char samples[32];
    snprintf(samples, sizeof samples, "%lld", (long long)o.samples);
    for (size_t pi = 0; pi < npoints; pi++) {
        char label[512] = "", list[4200], sample[4200], log1[4200], log2[4200];
        char what[700];
        size_t ll = 0;
        for (size_t k = 0; k < o.np && ll < sizeof label; k++)
            ll += (size_t)snprintf(label + ll, sizeof label - ll, "%s%s=%s",
                                   k ? ", " : "", o.p[k].name, o.p[k].val[idx[k]]);
        snprintf(list, sizeof list, "%s/point%zu-launches.csv", dir, pi + 1);
        snprintf(sample, sizeof sample, "%s/point%zu-sample.csv", dir, pi + 1);
        snprintf(log1, sizeof log1, "%s/point%zu-launches.out", dir, pi + 1);
        snprintf(log2, sizeof log2, "%s/point%zu-sample.out", dir, pi + 1);
        if (remember(&made, list) < 0 || remember(&made, sample) < 0 ||
            remember(&made, log1) < 0 || remember(&made, log2) < 0) {
            fprintf(stderr, "mmm profile: error: out of memory\n");
            goto out;
        }
        for (int pass = o.samples ? 0 : 1; pass < 2; pass++) {
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
            args[n++] = (char *)mmm_ncu_metric_list(pass ? MMM_NCU_SET_FULL
                                                         : MMM_NCU_SET_LAUNCH);
            if (pass) {
                /* the barriers: an instance of the instructions per opcode */
                args[n++] = (char *)"--print-metric-instances";
                args[n++] = (char *)"details";
            }
            if (pass && o.samples) {
                args[n++] = (char *)"--filter-mode";
                args[n++] = (char *)"per-launch-config";
                args[n++] = (char *)"--launch-count";
                args[n++] = samples;
            }
            args[n++] = (char *)"--log-file";
            args[n++] = pass ? sample : list;
            int first_cmd = n;
            for (int a = 0; a < o.ncmd; a++)
                if (!(args[n++] = substitute(o.cmd[a], &o, idx))) {
                    fprintf(stderr, "mmm profile: error: out of memory\n");
                    for (int b = first_cmd; b < n - 1; b++)
                        free(args[b]);
                    goto out;
                }
            args[n] = NULL;
            snprintf(what, sizeof what, "point %zu/%zu%s%s%s: %s", pi + 1, npoints,
                     o.np ? " (" : "", label, o.np ? ")" : "",
                     !pass ? "the list of launches"
                     : o.samples ? "the sampled launches with every metric"
                                 : "every launch with every metric");
            int r = run_one(args, pass ? log2 : log1, what, t0, pass ? sample : list);
            for (int b = first_cmd; b < n; b++)
                free(args[b]);
            if (r < 0) {
                if (temp)
                    fprintf(stderr, "  (give --keep DIR to keep what ncu wrote)\n");
                goto out;
            }
        }
        fprintf(pf, "point%zu-sample.csv", pi + 1);
        for (size_t k = 0; k < o.np; k++)
            fprintf(pf, ",%s", o.p[k].val[idx[k]]);
        fprintf(pf, "\n");
        if (o.samples) {
            fprintf(pf, "point%zu-launches.csv", pi + 1);
            for (size_t k = 0; k < o.np; k++)
                fprintf(pf, ",%s", o.p[k].val[idx[k]]);
            fprintf(pf, "\n");
        }
        /* the next point: the last parameter varies fastest */
        for (size_t k = o.np; k-- > 0;) {
            if (++idx[k] < o.p[k].n)
                break;
            idx[k] = 0;
        }
    }
    if (fclose(pf) != 0) {
        pf = NULL;
        fprintf(stderr, "mmm profile: error: cannot write %s/POINTS.csv\n", dir);
        goto out;
    }
    pf = NULL;
    if (now() - t0 >= 1.0 && o.samples)
        fprintf(stderr, "mmm profile: %zu point%s profiled in %.0f s; sampled the "
                        "first %lld launch%s of each configuration with every metric\n",
                npoints, npoints == 1 ? "" : "s", now() - t0, (long long)o.samples,
                o.samples == 1 ? "" : "es");
    else if (now() - t0 >= 1.0)
        fprintf(stderr, "mmm profile: %zu point%s profiled in %.0f s, every launch "
                        "with every metric\n",
                npoints, npoints == 1 ? "" : "s", now() - t0);
    snprintf(tmp, sizeof tmp, "%s/POINTS.csv", dir);
    rc = cli_profile_build(tmp, o.skeleton, o.name, o.out, o.max_bytes);
    if (rc == CLI_OK && o.keep)
        fprintf(stderr, "mmm profile: the captures are in %s ('mmm profile build "
                        "%s/POINTS.csv' reads them again)\n", dir, dir);
out:
    if (pf)
        fclose(pf);
    if (temp) {
        for (size_t i = 0; i < made.n; i++)
            unlink(made.path[i]);
        rmdir(dir);
    }
    for (size_t i = 0; i < made.n; i++)
        free(made.path[i]);
    free(made.path);
    free(args);
    free_opts(&o);
    return rc;
}
