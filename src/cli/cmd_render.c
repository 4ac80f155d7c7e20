/* cmd_render.c: placeholder until the render issue lands; replace this file. */
#include <stdio.h>

#include "cli.h"

int cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mmm render: not available in this build yet\n");
    return CLI_FAIL;
}
