/* bigalloc.c: allocation of the large arrays of a big program (10^6
 * kernels: arrays of tens of MB) with a hint for transparent huge pages.
 *
 * Filling a fresh array costs one page fault per 4 KiB page; for the 600 MB
 * that the analysis of 10^6 kernels and 3·10^6 edges touches, the faults
 * alone took about a second of CPU on the (virtualized) benchmark machine,
 * more than the parse.  With MADV_HUGEPAGE (Linux, THP in "madvise" or
 * "always" mode) one fault maps 2 MiB.  Elsewhere the hint is a no-op. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "program_internal.h"

/* Below this, huge pages would not pay (and small programs stay small). */
#define BIG ((size_t)1 << 20)

static void hint(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t page = 4096;
    uintptr_t b = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(page - 1);
    if (p && bytes >= BIG && e > b)
        (void)madvise((void *)b, e - b, MADV_HUGEPAGE); /* only a hint */
#else
    (void)p;
    (void)bytes;
#endif
}

void *mmm__big_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    hint(p, bytes);
    return p;
}

void *mmm__big_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    /* calloc: a fresh mapping is known to be zero and is not written, so
     * the hint still comes before the first touch. */
    void *p = calloc(n ? n : 1, size ? size : 1);
    hint(p, n * size);
    return p;
}

void *mmm__big_realloc(void *old, size_t old_bytes, size_t bytes)
{
    if (bytes < BIG || bytes <= old_bytes)
        return realloc(old, bytes ? bytes : 1);
    /* A new block, hinted before the copy touches it (realloc would copy
     * into small pages first). */
    void *p = malloc(bytes);
    if (!p)
        return NULL;
    hint(p, bytes);
    if (old_bytes)
        memcpy(p, old, old_bytes);
    free(old);
    return p;
}
