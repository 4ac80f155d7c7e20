/* cmd_convert.c: `mmm convert IN -o OUT.xml`: a program read from any
 * format (a task graph: STG, WfCommons, DAX, DOT, CUDA graph DOT) written
 * as mmm's XML, with a comment saying where it came from, so that it can
 * be edited and parametrized.  Kernel values are written evaluated. */
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

int cmd_convert(int argc, char **argv)
{
    static const char *units[] = {"us", "s", "ms", "ns"};
    cli_common c;
    const char *file = NULL, *out = NULL;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_import_report rep;
    mmm_error err;
    char comment[2048];
    int i, rc;

    mmm_error_clear(&err);
    cli_common_init(&c, "convert");
    for (i = 1; i < argc; i++) {
        int r, missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", convert_help);
            cli_print_common_help_except("--format");
            return CLI_OK;
        }
        if ((v = cli_option_value("-o", argc, argv, &i, &missing)) ||
            (!missing &&
             (v = cli_option_value("--output", argc, argv, &i, &missing)))) {
            out = v;
            continue;
        }
        if (missing)
            return cli_usage("convert", "option '%s' needs a value", argv[i]);
        if ((r = cli_common_option(&c, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("convert", "unknown option '%s'", argv[i]);
        if (file)
            return cli_usage("convert", "one IN only ('%s' and '%s')", file,
                             argv[i]);
        file = argv[i];
    }
    if (!file)
        return cli_usage("convert", "missing IN");
    if (!out)
        return cli_usage("convert", "missing -o OUT.xml");
    memset(&rep, 0, sizeof rep);
    if ((rc = cli_load_full(&c, file, 0, 1, &prog, &inst, &rep, NULL, NULL)) != CLI_OK)
        return rc;
    comment_of(comment, sizeof comment, file, &rep,
               units[(unsigned)c.time_unit < 4 ? (unsigned)c.time_unit : 0]);
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
