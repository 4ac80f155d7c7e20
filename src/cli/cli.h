/* cli.h: what the subcommands share.  The CLI includes only the public
 * headers of libmmm (ctest `layers` checks it) and links the public
 * library: it parses the arguments, loads, computes and hands the results
 * to the library's writers (mmm/output.h), which print them.  This file is
 * private to src/cli/. */
#ifndef MMM_CLI_H
#define MMM_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmm/mmm.h"
#include "mmm/import.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

#define CLI_MAX_DEFS 256

/* Options every command that reads a program understands:
 *   -D NAME=VALUE  --machine FILE  -p P  --format text|json|csv
 *   --max-file-bytes N --max-kernels N --max-edges N --max-params N
 *   --max-expr-length N --max-index-repeat N --threads 1|2|auto
 *   --input-format F --time-unit U --negative-cost error|zero
 *   --cost-attr NAME --costs FILE */
typedef struct cli_common {
    const char *cmd;                 /* "analyze", ... for messages */
    const char *machine_path;
    int has_p;
    int64_t p;
    mmm_format format;
    size_t ndefs;
    const char *defs[CLI_MAX_DEFS];  /* -D NAME=VALUE */
    mmm_launch launch;               /* --launch (time model) */
    unsigned instance_flags;         /* MMM_INSTANCE_*: set by the command */
    mmm_import_options io;           /* limits, --threads, --input-format,
                                        --time-unit, --negative-cost,
                                        --cost-attr, --costs */
    const char **files;              /* a command taking FILE...: them */
    size_t nfiles;
    int progress, tty;               /* --progress; stderr a terminal */
} cli_common;

void cli_common_init(cli_common *c, const char *cmd);

/* ---- A command's options, as a table ---- */
enum {
    CLI_FLAG,   /* int = 1; no value */
    CLI_STR,    /* const char * = the value */
    CLI_INT,    /* int64_t, from min to max */
    CLI_U64,    /* uint64_t, no sign */
    CLI_CHOICE, /* int = the index of the value in choices */
    CLI_FN      /* fn(the field, value): 0, -1 (say bad) or -2 (said why) */
};

typedef struct cli_opt {
    const char *names; /* "--seed", or the names of one option: "-o|--output" */
    int kind;
    size_t off;        /* the field, offsetof(the command's arguments, field) */
    const char *bad;   /* usage message for a wrong value ("%s": the value) */
    int64_t min, max;  /* CLI_INT */
    const char *choices;                 /* CLI_CHOICE: "text|json|csv" */
    int (*fn)(void *field, const char *value); /* CLI_FN */
    const char *missing; /* message when no value follows ("%s": the option);
                            NULL: the command's, else bad */
} cli_opt;

typedef struct cli_cmd {
    const char *name;        /* for messages: "analyze" */
    const char *help;        /* --help prints it, then the common options' */
    const char *help_except; /* ...all of them (""), all but this one ("-p"),
                                or none (NULL) */
    void (*print_help)(void);/* instead of help, when set */
    const cli_opt *opts;     /* the command's options, ended by {NULL} */
    const char *missing;     /* message for one without its value ("%s") */
    /* before the options: 1 consumed, 0 not, -1 usage error said */
    int (*special)(void *args, int argc, char **argv, int *i);
    const char *unknown;     /* NULL: "unknown option '%s'" */
    const char *file_word;   /* NULL: "FILE" */
    int many;                /* FILE...: into the cli_common's files */
    const char *also;        /* the names special reads ("--from|--to") */
} cli_cmd;

/* --model M (a CLI_FN, into an unsigned: mmm_models_parse). */
int cli_models(void *models, const char *v);

/* Every argument of a command: --help (prints it, returns -1), then
 * special, the command's options, the common options (c, may be NULL);
 * another one starting with '-' is unknown, else it is the one FILE
 * (file, required; NULL: no FILE).  CLI_OK, or CLI_USAGE after the
 * message. */
int cli_args(const cli_cmd *cmd, void *args, cli_common *c, const char **file,
             int argc, char **argv);

/* The argument of option `name` at argv[*i], written "--opt ARG" or
 * "--opt=ARG" (advancing *i past ARG in the first form).  Returns NULL when
 * argv[*i] is not that option, or when it has no argument: then *missing
 * is set to 1. */
const char *cli_option_value(const char *name, int argc, char **argv, int *i,
                             int *missing);

/* Help text for the common options (for each command's --help). */
extern const char cli_common_help[];

/* Open FILE (mmm_program_open) with the machine file, -D and -p, and
 * evaluate it (unless evaluate is 0: optimize's sweep evaluates).  A -D
 * name the file does not declare is an error (lenient MMM_DEFINE_STRICT)
 * or skipped (MMM_DEFINE_NOTE: compare).  Prints the notes and the error;
 * CLI_OK or CLI_FAIL.  On success the caller owns *prog and *inst; what
 * the reader reported goes to *rep and the overrides of -D and -p to ov
 * (CLI_MAX_DEFS + 1 entries) and *nov (each may be NULL). */
int cli_load_full(const cli_common *c, const char *path, int lenient,
                  int evaluate, mmm_program **prog, mmm_instance **inst,
                  mmm_import_report *rep, mmm_override *ov, size_t *nov);
/* The progress function for a library call (payload: c): on a terminal
 * or with --progress, else NULL. */
mmm_progress_fn cli_progress(cli_common *c);
/* The options of mmm_program_open for c's -D, -p, --machine, ... */
void cli_open_options(const cli_common *c, int lenient, int evaluate,
                      mmm_open_options *opt);
/* An mmm_file_fn (payload: the cli_common): the notes, then the error (a
 * -D name as "mmm CMD: message"), on stderr. */
void cli_on_file(void *c, const char *path, const mmm_notes *notes, const mmm_error *err);
/* Print the notes (a line each on stderr), dispose of them and return
 * status. */
int cli_noted(mmm_notes *notes, int status);

/* Print "FILE:LINE: error: message" to stderr. */
void cli_print_error(const mmm_error *err);
/* Print "mmm CMD: message\nTry 'mmm CMD --help'." and return CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* 1 when s ends with suffix, ignoring case (a file named g.SVG is an SVG
 * file). */
int cli_has_suffix(const char *s, const char *suffix);
/* 1 when path names a picture: .svg, .png or .pdf. */
int cli_picture(const char *path);
/* A --plot OUT (opt) of cmd this build draws (NULL: none): CLI_OK, else
 * CLI_USAGE or CLI_FAIL after the message. */
int cli_plot_path(const char *cmd, const char *opt, const char *path);
/* Flush stdout: CLI_OK, or CLI_FAIL after message on stderr. */
int cli_flushed(const char *message);

/* Once per run, on stderr: some integer lost digits as a double. */
void cli_note_inexact(const char *file, const mmm_metrics *m);

/* Print err ("FILE:LINE: error: message") and return CLI_FAIL. */
int cli_fail(const mmm_error *err);

/* Subcommands. */
int cmd_analyze(int argc, char **argv);
int cmd_optimize(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_roofline(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_profile(int argc, char **argv);

#endif
