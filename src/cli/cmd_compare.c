/* cmd_compare.c: placeholder until the compare issue lands; replace this file. */
#include <stdio.h>

#include "cli.h"

int cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mmm compare: not available in this build yet\n");
    return CLI_FAIL;
}
