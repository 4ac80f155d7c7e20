/* helpers/shell.h: run a shell command built printf-style, for the tests
 * that drive the mmm binary or a converter (rsvg-convert, pdftoppm)
 * through the shell.  Header-only (static inline), like mmm_run.h. */
#ifndef MMM_TEST_SHELL_H
#define MMM_TEST_SHELL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

/* The command's exit status, or -1 when it did not exit normally (a
 * signal) or did not fit in the buffer. */
__attribute__((format(printf, 1, 2)))
static inline int run(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    int n, st;
    va_start(ap, fmt);
    n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof cmd)
        return -1;
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
