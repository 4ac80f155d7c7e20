/* cmd_convert.c: `mmm convert IN -o OUT.xml`: a program read from any
 * format (a task graph: STG, WfCommons, DAX, DOT, CUDA graph DOT) written
 * as mmm's XML, with a comment saying where it came from, so that it can
 * be edited and parametrized.  Kernel values are written evaluated. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char convert_help[] =
    "usage: mmm convert IN -o OUT.xml [OPTIONS]\n"
    "\n"
    "Read a program in any format mmm reads (told by its content: mmm XML,\n"
    "STG, WfCommons JSON, Pegasus DAX, a DOT task graph or a CUDA graph DOT)\n"
    "and write it as mmm's XML, with a comment saying where it came from.\n"
    "Each task is a kernel of one block whose work and span are its cost.\n"
    "Kernel values are written evaluated (with -D and --machine applied).\n"
    "\n"
    "  -o, --output OUT     file to write (atomically; '-' writes to stdout)\n";

/* The comment at the head of the file: where it came from. */
static void comment_of(char *buf, size_t size, const char *in,
                       const mmm_import_report *rep, const char *unit)
{
    size_t n = 0;
    n += (size_t)snprintf(buf + n, size - n, "  Converted by mmm " MMM_VERSION_STRING
                          " from %s\n  (%s", in,
                          mmm_input_format_name(rep->format));
    if (n < size && rep->format != MMM_INPUT_MMM)
        n += (size_t)snprintf(buf + n, size - n, ": %zu tasks, %zu distinct edges",
                              rep->ntasks, rep->nedges);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, ").");
    if (n < size && (rep->format == MMM_INPUT_WFCOMMONS || rep->format == MMM_INPUT_DAX))
        n += (size_t)snprintf(buf + n, size - n,
                              "\n  Runtimes in seconds written as integers in %s.",
                              unit);
    if (n < size && rep->format != MMM_INPUT_MMM && rep->format != MMM_INPUT_CUDA_DOT)
        n += (size_t)snprintf(buf + n, size - n,
                              "\n  Each task is a kernel of one block: work = span = "
                              "its cost, no memory traffic.");
    if (n < size && rep->note[0])
        snprintf(buf + n, size - n, "\n  Note: %s", rep->note);
}

typedef struct convert_args {
    cli_common c;
    const char *file, *out;
} convert_args;

static const cli_opt convert_opts[] = {
    {"-o|--output", CLI_STR, offsetof(convert_args, out), NULL, .exact = 0}, {NULL}};

static const cli_cmd convert_cmd = {"convert", convert_help, "--format",
                                    .opts = convert_opts,
                                    .missing = "option '%s' needs a value",
                                    .file_word = "IN"};

int cmd_convert(int argc, char **argv)
{
    static const char *units[] = {"us", "s", "ms", "ns"};
    convert_args a = {.file = NULL};
    const char *file, *out;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_import_report rep;
    mmm_error err;
    char comment[2048];
    int rc;

    mmm_error_clear(&err);
    cli_common_init(&a.c, "convert");
    if ((rc = cli_args(&convert_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    file = a.file;
    out = a.out;
    if (!file)
        return cli_usage("convert", "missing IN");
    if (!out)
        return cli_usage("convert", "missing -o OUT.xml");
    memset(&rep, 0, sizeof rep);
    if ((rc = cli_load_full(&a.c, file, 0, 1, &prog, &inst, &rep, NULL, NULL)) != CLI_OK)
        return rc;
    comment_of(comment, sizeof comment, file, &rep,
               units[(unsigned)a.c.time_unit < 4 ? (unsigned)a.c.time_unit : 0]);
    if (!strcmp(out, "-") ? mmm_program_write_xml(stdout, inst, comment, &err) < 0 ||
                                fflush(stdout) != 0
                          : mmm_program_save_xml(out, inst, comment, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
