/* cmd_report.c: placeholder until the report issue lands; replace this file. */
#include <stdio.h>

#include "cli.h"

int cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mmm report: not available in this build yet\n");
    return CLI_FAIL;
}
