/* cmd_roofline.c: `mmm roofline FILE`: each kernel's arithmetic intensity
 * and predicted throughput under the machine's roofs (mmm/roofline.h);
 * mmm_write_roofline prints them, the drawing module draws them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mmm/roofline.h"

static const char roofline_help[] =
    "usage: mmm roofline FILE [--machine FILE] [-D NAME=VALUE]...\n"
    "                         [-o OUT.svg|png|pdf] [--format text|json|csv]\n\n"
    "The roofline of the program's kernels under the time model (docs/roofline.md):\n"
    "the machine's compute roof (issue_per_cycle x warp_size x p x clock_hz\n"
    "operations/s), its DRAM roof (bandwidth_bytes_per_cycle x clock_hz bytes/s)\n"
    "and, when it gives l2_bytes_per_cycle, its L2 roof; then per kernel its\n"
    "operations, DRAM bytes, arithmetic intensity (operations per DRAM byte),\n"
    "the throughput the model predicts (operations / predicted execution time),\n"
    "the roof at its intensity, the fraction of it attained, the roof that\n"
    "bounds it and the time model's dominant term.  Kernels without operations\n"
    "(copies, sets) are left out.  The machine parameters come from --machine\n"
    "(dags/machines/) or the program's own parameters.\n\n"
    "options:\n"
    "  -o, --output OUT     draw the roofline: log-log axes, the roofs, each\n"
    "                       kernel a point labelled with its id (.svg, .png, .pdf)\n";

typedef struct roofline_args {
    cli_common c;
    const char *file, *out;
} roofline_args;

static const cli_opt roofline_opts[] = {
    {"-o|--output", CLI_STR, offsetof(roofline_args, out), NULL, .fn = NULL}, {NULL}};

static const cli_cmd roofline_cmd = {"roofline", roofline_help, "", .opts = roofline_opts,
                                     .missing = "option '%s' needs a value"};

int cmd_roofline(int argc, char **argv)
{
    roofline_args a = {.file = NULL};
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_writer *w = NULL;
    mmm_time t = {.kernels = NULL};
    mmm_roofline r = {.kernels = NULL};
    mmm_error err;
    int rc;

    cli_common_init(&a.c, "roofline");
    if ((rc = cli_args(&roofline_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if ((rc = cli_plot_path("roofline", "-o", a.out)) != CLI_OK ||
        (rc = cli_load_full(&a.c, a.file, 0, 1, &prog, &inst, NULL, NULL, NULL)) != CLI_OK)
        return rc;
    if (mmm_models_time(&t, inst, a.c.launch, &err) < 0 ||
        mmm_roofline_compute(&r, &t, inst, &err) < 0 ||
        mmm_writer_new(&w, stdout, a.c.format, &err) < 0 ||
        mmm_write_roofline(w, prog, a.file, &r, &err) < 0 ||
        (a.out && mmm_roofline_plot_write(&r, prog, NULL, a.out, &err) < 0))
        rc = cli_fail(&err);
    if (cli_flushed("mmm roofline: error writing the output\n") != CLI_OK)
        rc = CLI_FAIL;
    mmm_writer_free(w);
    mmm_roofline_dispose(&r);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
