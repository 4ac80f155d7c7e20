/* cli_common.c: options shared by the subcommands, the option tables,
 * opening a program (mmm_program_open), error and usage printing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mmm/plot.h"
#ifdef MMM_HAVE_DOT
#include "mmm/import_dot.h"
#endif

const char cli_common_help[] =
    "  -D NAME=VALUE        override a parameter (VALUE is a constant expression,\n"
    "                       e.g. -D n=2^20); the file must declare NAME\n"
    "  --machine FILE       read machine parameters (U, Z, p, ...) from FILE;\n"
    "                       -D overrides them, they override the program's defaults\n"
    "  -p P                 number of SMs (overrides a parameter p)\n"
    "  --format FMT         text (default), json or csv\n"
    "  --launch MODE        time model: stream (default) or graph launches\n"
    "                       (overrides a parameter 'graph')\n"
    "  --max-file-bytes N   refuse larger files (default 1 GiB)\n"
    "  --max-kernels N      refuse more kernels (default 10000000)\n"
    "  --max-edges N        refuse more edges (default 50000000)\n"
    "  --max-params N       refuse more parameters (default 10000)\n"
    "  --max-expr-length N  refuse longer expressions (default 4096 characters)\n"
    "  --max-index-repeat N refuse longer repeats that use their index\n"
    "                       (default 10000000)\n"
    "  --threads 1|2|auto   load in one thread, or parse and build in two\n"
    "                       (default auto: two for files of 1 MiB and more on\n"
    "                       a machine with 2+ CPUs; the result is the same)\n"
    "  --input-format F     auto (default: told by the content), mmm, stg,\n"
    "                       wfcommons, dax, dot or cuda-dot\n"
    "  --time-unit U        task graphs: costs in seconds become integers in U\n"
    "                       (s, ms, us or ns; default us), rounded to nearest\n"
    "  --negative-cost M    error (default) or zero: read a negative task cost\n"
    "                       as 0, with a warning\n"
    "  --cost-attr NAME     DOT task graphs: the node attribute holding the\n"
    "                       cost (default size)\n"
    "  --progress           say on stderr what a long run is doing (the default\n"
    "                       on a terminal)\n"
    "  --costs FILE         CUDA graph DOT: kernel costs, CSV lines\n"
    "                       name,work,span,reads,writes (per thread)\n";

/* cli_common_help on stdout without the line of `option` (for a command
 * whose own option of that name means something else); "": all of it. */
static void cli_print_common_help_except(const char *option)
{
    size_t olen = strlen(option);
    const char *s = cli_common_help;
    while (*s && olen) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s + 1) : strlen(s);
        if (!(strncmp(s, "  ", 2) == 0 && strncmp(s + 2, option, olen) == 0 &&
              s[2 + olen] == ' '))
            fwrite(s, 1, n, stdout);
        s += n;
    }
    if (!olen)
        fputs(cli_common_help, stdout);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progress on stderr, from the second second on: on a terminal a line
 * redrawn at most ten times a second, else (--progress) a line a second;
 * cleared when the library says it is done (what NULL). */
static struct { double t0, last; int shown; } bar;
static void progress(void *payload, const char *what, uint64_t done, uint64_t total)
{
    const cli_common *c = payload;
    double t = now();
    if (!what || t - bar.t0 < 1 || t - bar.last < (c->tty ? 0.1 : 1)) {
        if (!what && bar.shown)
            fputs("\r\033[K", stderr);
        bar.shown &= what != NULL;
        return;
    }
    bar.last = t;
    fprintf(stderr, "%smmm %s: %s", c->tty ? "\r\033[K" : "", c->cmd, what);
    if (total)
        fprintf(stderr, " %.0f%%", 100.0 * (double)done / (double)total);
    fprintf(stderr, " (%.0f s)%s", t - bar.t0, c->tty ? "" : "\n");
    bar.shown = c->tty;
}

mmm_progress_fn cli_progress(cli_common *c)
{
    const char *term = getenv("TERM");
    c->tty = isatty(2) && term && strcmp(term, "dumb");
    return c->progress || c->tty ? progress : NULL;
}

void cli_common_init(cli_common *c, const char *cmd)
{
    bar.t0 = bar.t0 ? bar.t0 : now();
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    mmm_import_options_init(&c->io);
    c->format = MMM_FORMAT_TEXT;
}

int cli_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int cli_picture(const char *path)
{
    return cli_has_suffix(path, ".svg") || cli_has_suffix(path, ".png") ||
           cli_has_suffix(path, ".pdf");
}

int cli_plot_path(const char *cmd, const char *opt, const char *path)
{
    const char *why = "this mmm was built without PLplot";
    if (path && !cli_picture(path))
        return cli_usage(cmd, "%s writes .svg, .png or .pdf files, not '%s'", opt, path);
    if (path && (!mmm_draw_available(&why) || !mmm_plot_available()))
        return fprintf(stderr, "mmm %s: error: %s: %s is not available\n", cmd, why, opt),
               CLI_FAIL;
    return CLI_OK;
}

int cli_flushed(const char *message)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return CLI_OK;
    fputs(message, stderr);
    return CLI_FAIL;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mmm %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'mmm %s --help'.\n", cmd);
    return CLI_USAGE;
}

void cli_print_error(const mmm_error *err)
{
    char buf[2048];
    fprintf(stderr, "%s\n", mmm_error_format(err, buf, sizeof buf));
}

const char *cli_option_value(const char *name, int argc, char **argv, int *i,
                             int *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* Where an option's value goes, in its command's arguments. */
#define AT(type, args, o) ((type *)(void *)((char *)(args) + (o)->off))

/* The index of v in "a|b|c", or -1. */
static int choice(const char *choices, const char *v)
{
    for (int k = 0; *choices; k++) {
        size_t n = strcspn(choices, "|");
        if (strlen(v) == n && !strncmp(choices, v, n))
            return k;
        choices += n + (choices[n] == '|');
    }
    return -1;
}

/* 1 when argv[*i] is option o ("-o|--output": one of its names), with its
 * value in *v (NULL when it has none), advancing *i past it; else 0. */
static int opt_match(const cli_opt *o, int argc, char **argv, int *i,
                     const char **v)
{
    for (const char *n = o->names; *n;) {
        char name[32];
        size_t len = strcspn(n, "|");
        int missing = 0;
        snprintf(name, sizeof name, "%.*s", (int)len, n);
        n += len + (n[len] == '|');
        if ((*v = cli_option_value(name, argc, argv, i, &missing)) || missing)
            return 1;
    }
    return 0;
}

static struct { const char *name[64]; size_t n; } seen; /* names tried on one argument */
/* The option of opts (ended by {NULL}) at argv[*i] into args: 1 when it
 * was one (its value consumed), 0 when not, -1 after a usage error. */
static int cli_opts(const char *cmd, const char *missing, const cli_opt *opts,
                    void *args, int argc, char **argv, int *i)
{
    for (const cli_opt *o = opts;
         o && o->names && (seen.n == 64 || (seen.name[seen.n++] = o->names)); o++) {
        const char *v = NULL;
        int64_t n;
        int k;
        if (o->kind == CLI_FLAG) {
            if (strcmp(argv[*i], o->names))
                continue;
            *AT(int, args, o) = 1;
            return 1;
        }
        if (!opt_match(o, argc, argv, i, &v))
            continue;
        if (!v)
            return cli_usage(cmd, o->missing ? o->missing : missing ? missing : o->bad,
                             argv[*i]), -1;
        switch (o->kind) {
        case CLI_STR:
            *AT(const char *, args, o) = v;
            return 1;
        case CLI_INT:
            if (mmm_parse_int64(v, &n) < 0 || n < o->min || n > o->max)
                break;
            *AT(int64_t, args, o) = n;
            return 1;
        case CLI_U64:
            if (mmm_parse_u64(v, AT(uint64_t, args, o)) < 0)
                break;
            return 1;
        case CLI_CHOICE:
            if ((k = choice(o->choices, v)) < 0)
                break;
            *AT(int, args, o) = k;
            return 1;
        default:
            if ((k = o->fn(AT(void, args, o), v)) == 0)
                return 1;
            if (k == -2)
                return -1;
        }
        return cli_usage(cmd, o->bad, v), -1;
    }
    return 0;
}

static int cli_common_option(cli_common *c, int argc, char **argv, int *i);

/* An unknown option: the closest of the names tried on it (seen), and all
 * of them, a name each ("-o|--output" is two), each once. */
static int unknown_option(const cli_cmd *cmd, int common, const char *arg)
{
    char buf[2048], msg[4096];
    const char *names[160], *near;
    size_t n = 0, k = 0, len, col = 12, j, j2;
    seen.name[seen.n < 63 ? seen.n++ : 62] = cmd->also ? cmd->also : "";
    seen.name[seen.n++] = common ? "-D|-p|--help" : "--help";
    for (j = 0; j < seen.n; j++)
        for (const char *s = seen.name[j]; *s && n < 160 && k + 33 < sizeof buf;
             s += len + (s[len] == '|'), k += len + 1) {
            len = strcspn(s, "|") < 32 ? strcspn(s, "|") : 32;
            names[n] = memcpy(buf + k, s, len);
            buf[k + len] = '\0';
            for (j2 = 0; j2 < n && strcmp(names[j2], names[n]); j2++)
                ;
            n += j2 == n; /* each once */
        }
    near = cmd->unknown ? NULL : mmm_closest(arg, names, n);
    len = (size_t)snprintf(msg, sizeof msg, cmd->unknown ? cmd->unknown : "unknown option '%s'",
                           arg);
    if (near)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "; did you mean '%s'?", near);
    len += (size_t)snprintf(msg + len, sizeof msg - len, "\nits options:");
    for (j = 0; j < n && len < sizeof msg - 64; j++) {
        int wrap = col + 1 + strlen(names[j]) > 78;
        col = (wrap ? 2 : col + 1) + strlen(names[j]);
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", wrap ? "\n  " : " ",
                                names[j]);
    }
    return cli_usage(cmd->name, "%s", msg);
}

int cli_args(const cli_cmd *cmd, void *args, cli_common *c, const char **file,
             int argc, char **argv)
{
    for (int i = 1; i < argc; i++, seen.n = 0) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (cmd->print_help)
                cmd->print_help();
            else
                printf("%s", cmd->help);
            if (!cmd->print_help && cmd->help_except)
                cli_print_common_help_except(cmd->help_except);
            return -1;
        }
        if ((cmd->special && (r = cmd->special(args, argc, argv, &i)) != 0) ||
            (r = cli_opts(cmd->name, cmd->missing, cmd->opts, args, argc, argv, &i)) != 0 ||
            (c && (r = cli_common_option(c, argc, argv, &i)) != 0)) {
            if (r < 0)
                return CLI_USAGE;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return unknown_option(cmd, c != NULL, argv[i]);
        if (!file)
            return cli_usage(cmd->name, cmd->unknown ? cmd->unknown : "unknown option '%s'",
                             argv[i]);
        if (*file && !cmd->many)
            return cli_usage(cmd->name, "one %s only ('%s' and '%s')",
                             cmd->file_word ? cmd->file_word : "FILE", *file, argv[i]);
        if (!*file)
            *file = argv[i];
        if (cmd->many) /* files kept in argv, where they were read */
            (c->files = (const char **)argv + 1)[c->nfiles++] = argv[i];
    }
    if (file && !*file)
        return cli_usage(cmd->name, "missing %s", cmd->file_word ? cmd->file_word : "FILE");
    return CLI_OK;
}

/* -D NAME=VALUE, -DNAME=VALUE. */
static int define(cli_common *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char *def = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
    const char *eq;
    if (!def || !(eq = strchr(def, '=')) || eq == def)
        return cli_usage(c->cmd, "-D needs NAME=VALUE"), -1;
    if (c->ndefs >= CLI_MAX_DEFS)
        return cli_usage(c->cmd, "too many -D options (at most %d)", CLI_MAX_DEFS), -1;
    c->defs[c->ndefs++] = def;
    return 1;
}

int cli_models(void *models, const char *v)
{
    return mmm_models_parse(models, v) < 0 ? -1 : 0;
}

static int nonempty(void *out, const char *v)
{
    *(const char **)out = v;
    return *v ? 0 : -1;
}

static int time_unit(void *c, const char *v)
{
    return mmm_time_unit_parse(v, &((cli_common *)c)->io.time_unit);
}

static int launch(void *c, const char *v)
{
    return mmm_launch_parse(&((cli_common *)c)->launch, v);
}

#define C_(field) offsetof(cli_common, field)
/* the limits (size_t, uint64_t, int64_t) are written as int64_t */
_Static_assert(sizeof(size_t) == sizeof(int64_t), "a limit is not 64 bits");
static const cli_opt common_opts[] = {
    {"--progress", CLI_FLAG, C_(progress), .bad = NULL},
    {"--threads", CLI_CHOICE, C_(io.load.threads), "--threads needs 1, 2 or auto",
     .choices = "auto|1|2"},
    {"--input-format", CLI_CHOICE, C_(io.format), "--input-format needs auto, "
     "mmm, stg, wfcommons, dax, dot or cuda-dot",
     .choices = "auto|mmm|stg|wfcommons|dax|dot|cuda-dot"},
    {"--time-unit", CLI_FN, 0, "--time-unit needs s, ms, us or ns", .fn = time_unit},
    {"--negative-cost", CLI_CHOICE, C_(io.negative_to_zero),
     "--negative-cost needs error or zero", .choices = "error|zero"},
    {"--cost-attr", CLI_FN, C_(io.cost_attr), "--cost-attr needs an attribute NAME",
     .fn = nonempty},
    {"--costs", CLI_FN, C_(io.costs_file), "--costs needs a FILE", .fn = nonempty},
    {"--launch", CLI_FN, 0, "--launch must be stream or graph", .fn = launch},
    {"--machine", CLI_STR, C_(machine_path), NULL, .missing = "--machine needs a FILE"},
    {"--format", CLI_CHOICE, C_(format), "--format must be text, json or csv",
     .choices = "text|json|csv"},
#define LIMIT(name, field) \
    {name, CLI_INT, C_(io.load.limits.field), name " needs a positive integer", 1, \
     INT64_MAX, .fn = NULL}
    LIMIT("--max-file-bytes", max_file_bytes), LIMIT("--max-kernels", max_kernels),
    LIMIT("--max-edges", max_edges), LIMIT("--max-params", max_params),
    LIMIT("--max-expr-length", max_expr_length),
    LIMIT("--max-index-repeat", max_index_repeat),
    {NULL}};

/* The common option at argv[*i] (and its value, advancing *i): 1 when it
 * was one, 0 when not, -1 after a usage error. */
static int cli_common_option(cli_common *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strncmp(a, "-D", 2))
        return define(c, argc, argv, i);
    a += !strcmp(a, "--p") || !strncmp(a, "--p=", 4); /* -p, --p, -pP, -p=P */
    if (!strncmp(a, "-p", 2)) {
        const char *v = a[2] ? a + 2 + (a[2] == '=') : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!v || mmm_parse_int64(v, &c->p) < 0 || c->p <= 0)
            return cli_usage(c->cmd, "-p needs a positive integer"), -1;
        c->has_p = 1;
        return 1;
    }
    return cli_opts(c->cmd, NULL, common_opts, c, argc, argv, i);
}

void cli_open_options(const cli_common *c, int lenient, int evaluate,
                      mmm_open_options *opt)
{
    mmm_open_options o = {.version = MMM_OPEN_OPTIONS_VERSION, .io = c->io,
                          .machine = c->machine_path, .defs = c->defs,
                          .ndefs = c->ndefs, .p = c->has_p ? c->p : 0,
                          .unknown = lenient, .instance_flags = c->instance_flags,
                          .no_eval = !evaluate, .progress = cli_progress((cli_common *)c),
                          .progress_payload = (void *)c};
#ifdef MMM_HAVE_DOT
    o.io.dot_reader = mmm_dot_read;
    o.io.cuda_dot_reader = mmm_cuda_dot_read;
#endif
    *opt = o;
}

void cli_on_file(void *c, const char *path, const mmm_notes *notes, const mmm_error *err)
{
    (void)path;
    for (size_t i = 0; i < notes->n; i++)
        fprintf(stderr, "%s\n", notes->line[i]);
    if (err && err->code == MMM_EINVAL && !err->file[0])
        fprintf(stderr, "mmm %s: %s\n", ((const cli_common *)c)->cmd, err->message);
    else if (err)
        cli_print_error(err);
}

int cli_load_full(const cli_common *c, const char *path, int lenient,
                  int evaluate, mmm_program **prog, mmm_instance **inst,
                  mmm_import_report *rep, mmm_override *ov, size_t *nov)
{
    mmm_open_options opt;
    mmm_opened o;
    mmm_error err;
    int rc;
    cli_open_options(c, lenient, evaluate, &opt);
    rc = mmm_program_open(&o, path, &opt, &err);
    cli_on_file((void *)c, path, &o.notes, rc < 0 ? &err : NULL);
    *prog = o.program;
    *inst = o.instance;
    if (rep)
        *rep = o.report;
    if (ov && o.noverrides)
        memcpy(ov, o.overrides, o.noverrides * sizeof *ov);
    if (nov)
        *nov = o.noverrides;
    o.program = NULL;
    o.instance = NULL;
    mmm_opened_dispose(&o);
    return rc < 0 ? CLI_FAIL : CLI_OK;
}

int cli_noted(mmm_notes *notes, int status)
{
    for (size_t i = 0; i < notes->n; i++)
        fprintf(stderr, "%s\n", notes->line[i]);
    mmm_notes_dispose(notes);
    return status;
}

void cli_note_inexact(const char *file, const mmm_metrics *m)
{
    static int said;
    if (!m->lost || said)
        return;
    said = 1;
    fprintf(stderr, "%s: note: some integers exceed what a double holds exactly (2^53) and "
                    "are printed rounded (\"exact\": false in JSON)\n",
            file ? file : "mmm");
}

int cli_fail(const mmm_error *err)
{
    cli_print_error(err);
    return CLI_FAIL;
}
