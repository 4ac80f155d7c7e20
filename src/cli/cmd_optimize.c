/* cmd_optimize.c: placeholder until the optimize issue lands; replace this file. */
#include <stdio.h>

#include "cli.h"

int cmd_optimize(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mmm optimize: not available in this build yet\n");
    return CLI_FAIL;
}
