/* cmd_convert.c: `mmm convert IN -o OUT.xml`: a program read from any
 * format (a task graph: STG, WfCommons, DAX, DOT, CUDA graph DOT) written
 * as mmm's XML, with a comment saying where it came from, so that it can
 * be edited and parametrized (mmm_import_comment says where from).  Kernel
 * values are written evaluated. */
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
    if (!out)
        return cli_usage("convert", "missing -o OUT.xml");
    memset(&rep, 0, sizeof rep);
    if ((rc = cli_load_full(&a.c, file, 0, 1, &prog, &inst, &rep, NULL, NULL)) != CLI_OK)
        return rc;
    mmm_import_comment(comment, sizeof comment, file, &rep, a.c.io.time_unit);
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
