/* base/file.h: reading an input file whole, or its first bytes.  Internal
 * to the library.  A folder is refused ("cannot read: Is a directory");
 * pipes and other streams are read to their end. */
#ifndef MMM_BASE_FILE_H
#define MMM_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/error.h"

/* "-" is standard input, everywhere a file is read: its name in messages
 * is "<stdin>" (mmm__input_name gives path's), and mmm__open_read opens it
 * (a dup of descriptor 0, closed as any other) or path read-only: -1 with
 * errno set on failure.  Standard input can be read once only. */
const char *mmm__input_name(const char *path);
int mmm__open_read(const char *path);

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
