/* cmd_simulate.c: placeholder until the simulate issue lands; replace this file. */
#include <stdio.h>

#include "cli.h"

int cmd_simulate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mmm simulate: not available in this build yet\n");
    return CLI_FAIL;
}
