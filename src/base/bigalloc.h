/* base/bigalloc.h: large arrays (bigalloc.c).  Internal to the library.
 *
 * From 1 MiB on, a block is a mapping of its own with transparent huge
 * pages, grown by mremap without copying (first-touch page faults and
 * copies are a large part of the cost of a 10^6-kernel program).
 * old_bytes: the contents to keep when the block moves.  A block from
 * these must be freed with mmm__big_free. */
#ifndef MMM_BASE_BIGALLOC_H
#define MMM_BASE_BIGALLOC_H

#include <stddef.h>

void *mmm__big_malloc(size_t bytes);
void *mmm__big_calloc(size_t n, size_t size);
void *mmm__big_realloc(void *p, size_t old_bytes, size_t bytes);
void mmm__big_free(void *p);

#endif
