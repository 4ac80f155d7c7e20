/* helpers/slurp.h: a whole file read into memory, for the tests. */
#ifndef MMM_TEST_SLURP_H
#define MMM_TEST_SLURP_H

#include <stddef.h>

/* The bytes of path, NUL-terminated (malloc'ed; the caller frees them);
 * *len (when len is not NULL) gets their number.  A file that cannot be
 * read fails the current test. */
char *slurp(const char *path, size_t *len);

#endif
