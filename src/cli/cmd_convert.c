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
    "usage: mmm convert IN... -o OUT.xml|DIR [OPTIONS]\n"
    "\n"
    "Read a program in any format mmm reads (told by its content: mmm XML,\n"
    "STG, WfCommons JSON, Pegasus DAX, a DOT task graph or a CUDA graph DOT)\n"
    "and write it as mmm's XML, with a comment saying where it came from.\n"
    "Each task is a kernel of one block whose work and span are its cost.\n"
    "Kernel values are written evaluated (with -D and --machine applied).\n"
    "Several files (or -o naming a folder): each IN becomes DIR/BASE.xml (its\n"
    "name without its extension); a file that fails is skipped, the exit\n"
    "status says so.\n"
    "\n"
    "  -o, --output OUT     file to write (atomically; '-' writes to stdout),\n"
    "                       or a folder (made when several files are given)\n";

typedef struct convert_args {
    cli_common c;
    const char *file, *out;
} convert_args;

static const cli_opt convert_opts[] = {
    {"-o|--output", CLI_STR, offsetof(convert_args, out), NULL, .fn = NULL}, {NULL}};

static const cli_cmd convert_cmd = {"convert", convert_help, "--format",
                                    .opts = convert_opts,
                                    .missing = "option '%s' needs a value",
                                    .file_word = "IN", .many = 1};

int cmd_convert(int argc, char **argv)
{
    convert_args a = {.file = NULL};
    mmm_convert_options opt = MMM_CONVERT_OPTIONS_INIT;
    mmm_error err;
    size_t failed = 0;
    int rc;

    cli_common_init(&a.c, "convert");
    if ((rc = cli_args(&convert_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (!a.out)
        return cli_usage("convert", "missing -o OUT.xml");
    if (a.c.nfiles > 1 && !strcmp(a.out, "-"))
        return cli_usage("convert", "several files go into a folder (-o DIR), not to stdout");
    cli_open_options(&a.c, MMM_DEFINE_STRICT, 1, &opt.open);
    opt.out_stream = stdout;
    opt.on_file = cli_on_file;
    opt.payload = &a.c;
    if (mmm_convert_files(a.c.files, a.c.nfiles, a.out, &opt, &failed, &err) < 0)
        return cli_fail(&err);
    return failed ? CLI_FAIL : CLI_OK;
}
