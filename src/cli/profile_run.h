/* profile_run.h: what cmd_profile.c and profile_run.c share (private to
 * src/cli/). */
#ifndef MMM_CLI_PROFILE_RUN_H
#define MMM_CLI_PROFILE_RUN_H

#include <stdint.h>

#include "mmm/profile.h"

/* `mmm profile run ...` (argv[0] is "run"). */
int cli_profile_run(int argc, char **argv);
/* Build from points (with skeleton and name, each may be NULL) and write
 * out (NULL or "-": stdout); the build's notes on stderr.  CLI_OK or
 * CLI_FAIL, the error printed. */
int cli_profile_build(const char *points, const char *skeleton, const char *name,
                      const char *out, uint64_t max_bytes);
/* The build's notes, one "mmm profile: ..." line each on stderr. */
void cli_profile_notes(const mmm_profile *p);

#endif
