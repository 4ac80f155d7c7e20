/* cli_common.c: options shared by the subcommands, loading a program with
 * its machine file and overrides, error and usage printing. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
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

void cli_common_init(cli_common *c, const char *cmd)
{
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    mmm_import_options_init(&c->io);
    c->format = MMM_FORMAT_TEXT;
}

/* A whole decimal integer; 0 or -1. */
int cli_parse_int64(const char *s, int64_t *out)
{
    char *end;
    long long v;
    if (!s || !*s)
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* A whole decimal integer without a sign; 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = (uint64_t)v;
    return 0;
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

int cli_split_list(const char *text, cli_item_fn fn, void *payload)
{
    const char *p = text, *start = text;
    int depth = 0, rc;
    for (;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p != '\0' && !(*p == ',' && depth == 0))
            continue;
        if ((rc = fn(start, (size_t)(p - start), payload)) != 0)
            return rc;
        if (*p == '\0')
            return 0;
        start = p + 1;
    }
}

int cli_write_stdout(const void *data, size_t len, mmm_error *err)
{
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
        return mmm_error_set(err, MMM_EIO, NULL, 0, "cannot write to stdout");
    return 0;
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

static int limit_option(cli_common *c, int argc, char **argv, int *i)
{
    static const char *names[] = {"--max-file-bytes", "--max-kernels",
                                  "--max-edges", "--max-params",
                                  "--max-expr-length", "--max-index-repeat"};
    size_t k;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        int missing = 0;
        int64_t v;
        const char *arg = cli_option_value(names[k], argc, argv, i, &missing);
        if (!arg && !missing)
            continue;
        if (!arg || cli_parse_int64(arg, &v) < 0 || v <= 0) {
            cli_usage(c->cmd, "%s needs a positive integer", names[k]);
            return -1;
        }
        switch (k) {
        case 0: c->io.load.limits.max_file_bytes = (uint64_t)v; break;
        case 1: c->io.load.limits.max_kernels = (size_t)v; break;
        case 2: c->io.load.limits.max_edges = (size_t)v; break;
        case 3: c->io.load.limits.max_params = (size_t)v; break;
        case 4: c->io.load.limits.max_expr_length = (size_t)v; break;
        default: c->io.load.limits.max_index_repeat = v; break;
        }
        return 1;
    }
    return 0;
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
        if (o->exact && !strcmp(argv[*i], name)) {
            *v = *i + 1 < argc ? argv[++*i] : NULL;
            return 1;
        }
        if (!o->exact && ((*v = cli_option_value(name, argc, argv, i, &missing)) || missing))
            return 1;
    }
    return 0;
}

/* The option of opts (ended by {NULL}) at argv[*i] into args: 1 when it
 * was one (its value consumed), 0 when not, -1 after a usage error. */
static int cli_opts(const char *cmd, const char *missing, const cli_opt *opts,
                    void *args, int argc, char **argv, int *i)
{
    for (const cli_opt *o = opts; o && o->names; o++) {
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
            if (cli_parse_int64(v, &n) < 0 || n < o->min || n > o->max)
                break;
            *AT(int64_t, args, o) = n;
            return 1;
        case CLI_U64:
            if (cli_parse_u64(v, AT(uint64_t, args, o)) < 0)
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

int cli_args(const cli_cmd *cmd, void *args, cli_common *c, const char **file,
             int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
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
        if ((argv[i][0] == '-' && argv[i][1] != '\0') || !file)
            return cli_usage(cmd->name, cmd->unknown ? cmd->unknown : "unknown option '%s'",
                             argv[i]);
        if (*file)
            return cli_usage(cmd->name, "one %s only ('%s' and '%s')",
                             cmd->file_word ? cmd->file_word : "FILE", *file, argv[i]);
        *file = argv[i];
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
    c->def_name[c->ndefs] = def;     /* name ends at '=' */
    c->def_value[c->ndefs] = eq + 1;
    c->ndefs++;
    return 1;
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
static const cli_opt common_opts[] = {
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
    {NULL}};

/* The common option at argv[*i] (and its value, advancing *i): 1 when it
 * was one, 0 when not, -1 after a usage error. */
static int cli_common_option(cli_common *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    int r;
    if (!strncmp(a, "-D", 2))
        return define(c, argc, argv, i);
    if (!strncmp(a, "-p", 2)) {
        const char *v = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!v || cli_parse_int64(v, &c->p) < 0 || c->p <= 0)
            return cli_usage(c->cmd, "-p needs a positive integer"), -1;
        c->has_p = 1;
        return 1;
    }
    if ((r = cli_opts(c->cmd, NULL, common_opts, c, argc, argv, i)) != 0)
        return r;
    return limit_option(c, argc, argv, i);
}

/* -D values are constant expressions: a name is refused (the parse fails
 * with MMM_EINPUT) and kept in payload, at most 64 characters as the
 * parser's message quotes it. */
static int no_names(const char *name, size_t len, void *payload)
{
    snprintf(payload, 65, "%.*s", (int)(len > 64 ? 64 : len), name);
    return -1;
}

int cli_constant(const char *text, size_t max, mmm_value *out, char *name,
                 mmm_error *err)
{
    mmm_expr *e = NULL;
    mmm_expr_limits lim = {max, 64};
    int rc;
    name[0] = '\0';
    if ((rc = mmm_expr_parse(&e, text, no_names, name, &lim, err)) == 0)
        rc = mmm_expr_eval(e, NULL, 0, out, err);
    mmm_expr_free(e);
    return rc;
}

/* The name of -D NAME=VALUE without the spaces around it, into name. */
static int def_name(const char *def, char *name, size_t size)
{
    const char *eq = strchr(def, '=');
    while (def < eq && isspace((unsigned char)*def))
        def++;
    while (eq > def && isspace((unsigned char)eq[-1]))
        eq--;
    if (eq == def || (size_t)(eq - def) >= size)
        return -1;
    memcpy(name, def, (size_t)(eq - def));
    name[eq - def] = '\0';
    return 0;
}

void cli_no_such_param(const mmm_program *prog, const char *opt,
                       const char *name, const char *advice)
{
    const char *close = mmm_program_closest_param(prog, name);
    size_t i;
    fprintf(stderr, "%s: error: %s %s: the file declares no parameter '%s'",
            prog->file, opt, name, name);
    if (advice) {
        fprintf(stderr, "%s\n", advice);
        return;
    }
    if (close) {
        fprintf(stderr, "; did you mean '%s'?\n", close);
        return;
    }
    if (prog->nparams == 0) {
        fprintf(stderr, " (it declares none)\n");
        return;
    }
    fprintf(stderr, "; it declares ");
    for (i = 0; i < prog->nparams && i < 20; i++)
        fprintf(stderr, "%s'%s'", i ? ", " : "", prog->params[i].name);
    fprintf(stderr, "%s\n", i < prog->nparams ? ", ..." : "");
}

int cli_overrides(const cli_common *c, const mmm_program *prog, int lenient,
                  mmm_override *ov, size_t *nov)
{
    size_t i, n = 0;
    int pslot = mmm_program_find_param(prog, "p");
    for (i = 0; i < c->ndefs; i++) {
        char name[256], used[65];
        mmm_error err;
        int slot, rc;
        if (def_name(c->def_name[i], name, sizeof name) < 0) {
            fprintf(stderr, "mmm %s: -D needs NAME=VALUE (a name of at most 255 "
                            "characters)\n", c->cmd);
            return CLI_FAIL;
        }
        slot = mmm_program_find_param(prog, name);
        if (slot < 0) {
            if (lenient) {
                if (lenient == 1)
                    fprintf(stderr, "%s: note: -D %s ignored: the file "
                                    "declares no such parameter\n",
                            prog->file, name);
                continue;
            }
            cli_no_such_param(prog, "-D", name,
                              strcmp(name, "p") ? NULL
                              : "; the number of SMs p is given with -p P "
                                "(or by the machine file's p)");
            return CLI_FAIL;
        }
        if ((rc = cli_constant(c->def_value[i], 4096, &ov[n].value, used, &err)) < 0) {
            /* A name in the value: -D takes constants, not expressions of
             * the file's parameters. */
            if (rc == MMM_EINPUT && used[0]) {
                fprintf(stderr, "%s: error: -D %s=%s: -D values must be "
                                "constants: '%s' is %s; write a number or an "
                                "expression of numbers (e.g. -D %s=2^20)\n",
                        prog->file, name, c->def_value[i], used,
                        mmm_program_find_param(prog, used) >= 0
                            ? "a parameter of the file" : "a name",
                        name);
                return CLI_FAIL;
            }
            fprintf(stderr, "%s: error: -D %s=%s: %s\n", prog->file, name,
                    c->def_value[i], err.message);
            return CLI_FAIL;
        }
        ov[n++].slot = slot;
    }
    if (c->has_p && pslot >= 0) {
        ov[n].slot = pslot;
        ov[n++].value = mmm_value_int(c->p);
    }
    *nov = n;
    return CLI_OK;
}

/* Read the program in FILE, in whatever format it is (mmm/import.h), with
 * the machine's parameters (machine may be NULL).  Prints the error, the
 * reader's warnings and notes on stderr; CLI_OK or CLI_FAIL.  rep (may be
 * NULL) receives what the reader reported. */
static int cli_read_program(const cli_common *c, const char *path,
                            const mmm_machine *machine, mmm_program **prog,
                            mmm_import_report *rep_out)
{
    mmm_import_options io = c->io;
    mmm_import_report own, *rep = rep_out ? rep_out : &own;
    mmm_error err;
    io.load.machine = machine;
#ifdef MMM_HAVE_DOT
    io.dot_reader = mmm_dot_read;
    io.cuda_dot_reader = mmm_cuda_dot_read;
#endif
    if (mmm_program_read_file(prog, path, &io, rep, &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    if (rep->nwarnings == 1)
        fprintf(stderr, "%s: warning: %s\n", path, rep->warning);
    else if (rep->nwarnings > 1)
        fprintf(stderr, "%s: warning: %s (and %zu more warnings)\n", path,
                rep->warning, rep->nwarnings - 1);
    if (rep->note[0])
        fprintf(stderr, "%s: note: %s\n", path, rep->note);
    return CLI_OK;
}

int cli_load(const cli_common *c, const char *path, int lenient,
             mmm_program **prog, mmm_instance **inst)
{
    return cli_load_full(c, path, lenient, 1, prog, inst, NULL, NULL, NULL);
}

int cli_load_full(const cli_common *c, const char *path, int lenient,
                  int evaluate, mmm_program **prog, mmm_instance **inst,
                  mmm_import_report *rep, mmm_override *ov_out, size_t *nov_out)
{
    mmm_machine *machine = NULL;
    mmm_override own[CLI_MAX_DEFS + 1], *ov = ov_out ? ov_out : own;
    size_t n = 0, *nov = nov_out ? nov_out : &n;
    mmm_error err;
    int rc = CLI_FAIL;

    *prog = NULL;
    *inst = NULL;
    if (c->machine_path &&
        mmm_machine_load_file(&machine, c->machine_path, &c->io.load.limits, &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    if (cli_read_program(c, path, machine, prog, rep) != CLI_OK)
        goto done;
    if (cli_overrides(c, *prog, lenient, ov, nov) != CLI_OK)
        goto done;
    if (mmm_instance_new_flags(inst, *prog, c->instance_flags, &err) < 0) {
        cli_print_error(&err);
        goto done;
    }
    if (evaluate && cli_eval(c, *inst, ov, *nov) != CLI_OK)
        goto done;
    rc = CLI_OK;
done:
    mmm_machine_free(machine);
    if (rc != CLI_OK) {
        mmm_instance_free(*inst);
        mmm_program_free(*prog);
        *inst = NULL;
        *prog = NULL;
    }
    return rc;
}

int cli_eval(const cli_common *c, mmm_instance *inst, const mmm_override *ov,
             size_t nov)
{
    mmm_error err;
    if (mmm_instance_eval(inst, ov, nov, &err) < 0)
        return cli_fail(&err);
    /* -p is an override of a program's p (cli_overrides), or the p of a
     * program that declares none. */
    if (c->has_p && mmm_program_find_param(inst->program, "p") < 0)
        mmm_instance_set_p(inst, c->p);
    return CLI_OK;
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
