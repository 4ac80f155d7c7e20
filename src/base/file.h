/* base/file.h: reading an input file whole, or its first bytes.  Internal
 * to the library.  A folder is refused ("cannot read: Is a directory");
 * pipes and other streams are read to their end. */
#ifndef MMM_BASE_FILE_H
#define MMM_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/error.h"

/* The whole file in *out (malloc'd, NUL-terminated; *len excludes the
 * NUL), at most max bytes: a larger one is refused with MMM_ELIMIT ("file
 * too big: ..."), nothing allocated then. */
int mmm__read_whole_file(const char *path, uint64_t max, char **out,
                         size_t *len, mmm_error *err);

/* Up to size bytes from the start of the file (fewer only when the file
 * is shorter) into buf; *got says how many. */
int mmm__read_head(const char *path, char *buf, size_t size, size_t *got,
                   mmm_error *err);

#endif
