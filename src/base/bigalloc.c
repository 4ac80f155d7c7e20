/* bigalloc.c: the large arrays of a big program (10^6 kernels: arrays of
 * tens of MB), in mappings of their own.
 *
 * Why: on the benchmark machine (a virtual machine) the first touch of
 * fresh memory is a large part of the cost of analysing 10^6 kernels: with
 * 4 KiB pages the faults of its 600 MB took about a second of CPU, more
 * than the parse.  So a large block
 *  - is an anonymous mapping with MADV_HUGEPAGE (one fault maps 2 MiB when
 *    transparent huge pages are in "madvise" or "always" mode), and
 *  - grows with mremap, which moves page tables instead of copying into
 *    fresh pages.  (glibc's realloc does that only for the blocks it maps
 *    itself, and it maps only blocks above a threshold that rises to 32 MiB
 *    as blocks are freed: below it, each doubling of an array copied it
 *    into new memory.)
 * Small blocks, other systems and sanitizer builds (whose checks want
 * malloc) use malloc.  Every block has a header, so mmm__big_free knows
 * which; a block from here must be freed with mmm__big_free, not free (an
 * ASan build reports the mistake). */
#define _GNU_SOURCE /* mremap, MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bigalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif

#if defined(__linux__) && !defined(SANITIZED)
#include <sys/mman.h>
#define MAPPING 1
#endif

/* The header keeps the array 64-byte aligned (a cache line). */
#define HEAD ((size_t)64)
typedef struct big_head {
    size_t map; /* length of the mapping, 0 for a malloc block */
} big_head;

/* Below this a block comes from malloc: huge pages would not pay, and a
 * small program stays small. */
#define BIG ((size_t)1 << 20)
#define PAGE ((size_t)4096)

static void *user_of(big_head *h)
{
    return (char *)h + HEAD;
}

static big_head *head_of(void *p)
{
    return (big_head *)(void *)((char *)p - HEAD);
}

#ifdef MAPPING
/* Header + bytes, rounded up to pages, or to whole huge pages from 2 MiB
 * on: Linux aligns an anonymous mapping of whole huge pages on a huge-page
 * boundary (at mmap and at mremap), so every page of it can be huge and a
 * move keeps them whole.  0 on overflow. */
static size_t map_len(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    if (bytes > SIZE_MAX - HEAD - huge)
        return 0;
    if (HEAD + bytes >= huge) /* whole huge pages: the kernel aligns them */
        return (HEAD + bytes + huge - 1) & ~(huge - 1);
    return (HEAD + bytes + PAGE - 1) & ~(PAGE - 1);
}

static big_head *map_new(size_t bytes)
{
    size_t len = map_len(bytes);
    if (!len)
        return NULL;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(m, len, MADV_HUGEPAGE); /* only a hint */
#endif
    big_head *h = m;
    h->map = len;
    return h;
}
#endif

static big_head *heap_new(size_t bytes, int zero)
{
    if (bytes > SIZE_MAX - HEAD)
        return NULL;
    big_head *h = zero ? calloc(1, HEAD + bytes) : malloc(HEAD + bytes);
    if (h)
        h->map = 0;
    return h;
}

static void *block_new(size_t bytes, int zero)
{
    big_head *h = NULL;
#ifdef MAPPING
    if (bytes >= BIG)
        h = map_new(bytes); /* a fresh mapping reads as zeros */
    else
#endif
        h = heap_new(bytes, zero);
    return h ? user_of(h) : NULL;
}

void *mmm__big_malloc(size_t bytes)
{
    return block_new(bytes, 0);
}

void *mmm__big_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return block_new(n * size, 1);
}

void *mmm__big_realloc(void *p, size_t old_bytes, size_t bytes)
{
    if (!p)
        return mmm__big_malloc(bytes);
    big_head *h = head_of(p);
#ifdef MAPPING
    if (h->map) {
        size_t len = map_len(bytes);
        if (!len)
            return NULL;
        if (len == h->map)
            return p;
        void *m = mremap(h, h->map, len, MREMAP_MAYMOVE);
        if (m == MAP_FAILED)
            return NULL;
        h = m; /* the huge-page advice moves with the mapping */
        h->map = len;
        return user_of(h);
    }
    if (bytes >= BIG) { /* from malloc into a mapping: the last copy */
        void *n = mmm__big_malloc(bytes);
        if (!n)
            return NULL;
        memcpy(n, p, old_bytes < bytes ? old_bytes : bytes);
        mmm__big_free(p);
        return n;
    }
#endif
    (void)old_bytes;
    if (bytes > SIZE_MAX - HEAD)
        return NULL;
    h = realloc(h, HEAD + bytes);
    return h ? user_of(h) : NULL;
}

void mmm__big_free(void *p)
{
    if (!p)
        return;
    big_head *h = head_of(p);
#ifdef MAPPING
    if (h->map) {
        munmap(h, h->map);
        return;
    }
#endif
    free(h);
}
