/* program_ids.c: the program's memory and its id tables: the string
 * arena, the growing arrays (the other files of the model call these, this
 * one calls none of them), and the tables through which kernel ids and
 * parameter names are found (open-addressing hash tables, numbered kernel
 * ids through an array by number). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/program_internal.h"
#include "base/grow.h"

/* ------------------------------------------------------------------ */
/* Growing arrays                                                      */

/* Make room for one more element of size elem in *arr (capacity *cap):
 * the library's growable array (base/grow.h), or, for the arrays that
 * grow with the kernels and edges, doubling with mmm__big_realloc. */
int mmm__program_grow(void *arr, size_t *cap, size_t count, size_t elem)
{
    void **pa = arr;
    void *n = mmm__grow(*pa, cap, count + 1, elem, 16);
    if (!n)
        return MMM_ENOMEM;
    *pa = n;
    return 0;
}

int mmm__program_grow_big(void *arr, size_t *cap, size_t count, size_t elem)
{
    void **pa = arr;
    if (count < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > SIZE_MAX / elem)
        return MMM_ENOMEM;
    void *n = mmm__big_realloc(*pa, count * elem, ncap * elem);
    if (!n)
        return MMM_ENOMEM;
    *pa = n;
    *cap = ncap;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Arena                                                               */

struct mmm__arena_chunk {
    mmm__arena_chunk *next;
    size_t size, used;
    char data[];
};

#define ARENA_MIN_CHUNK ((size_t)4096)
#define ARENA_MAX_CHUNK ((size_t)1 << 20)

static char *arena_alloc(mmm__arena *a, size_t n)
{
    mmm__arena_chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        /* Chunks double up to 1 MiB, so a small program stays small. */
        size_t size = c ? c->size * 2 : ARENA_MIN_CHUNK;
        if (size > ARENA_MAX_CHUNK)
            size = ARENA_MAX_CHUNK;
        if (size < n)
            size = n;
        c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->size = size;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    c->used += n;
    return c->data + c->used - n;
}

static const char *arena_strndup(mmm__arena *a, const char *s, size_t len)
{
    char *d = arena_alloc(a, len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

const char *mmm__arena_strdup(mmm__arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

void mmm__arena_free(mmm__arena *a)
{
    while (a->head) {
        mmm__arena_chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* ------------------------------------------------------------------ */
/* Hashing and the id tables                                           */

uint64_t mmm__hash_mem(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, then a final mix */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3u;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
    return h;
}

/* The hash of a kernel id, which places ids that differ only in a
 * trailing number next to each other: "k8" .. "k15" share one 64-byte line
 * of the table (eight 8-byte slots), "k16" .. "k23" the next line of
 * their own, at a random place.  Programs name kernels in sequence and
 * their edges mostly join kernels declared close together, so adding a
 * kernel or resolving an edge end touches a line of the table that is
 * most likely in cache already, where a hash of the whole string costs a
 * miss (on 10^6 kernels, that miss was most of the cost of adding a kernel
 * or an edge).  Groups of eight keys at random places probe like single
 * keys at the same load.  Ids without a trailing number, or whose number
 * has more than 9 digits, hash as a whole. */
static uint32_t kernel_hash(const char *s, size_t len)
{
    size_t d = len;
    while (d > 0 && len - d < 9 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    if (d == len || (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9'))
        return (uint32_t)mmm__hash_mem(s, len);
    uint32_t v = 0;
    for (size_t i = d; i < len; i++)
        v = v * 10 + (uint32_t)(s[i] - '0');
    uint64_t h = mmm__hash_mem(s, d) + (v >> 3);
    h ^= h >> 31;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 29;
    return ((uint32_t)h & ~(uint32_t)7) | (v & 7);
}

/* Whether id s (len bytes) is "<prefix><number>" with the number written
 * without leading zeros in 1 to 9 digits (not preceded by a digit): its
 * prefix length and number then. */
int mmm__id_number(const char *s, size_t len, size_t *plen, uint32_t *num)
{
    size_t d = len;
    while (d > 0 && len - d < 10 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    size_t digits = len - d;
    if (digits == 0 || digits > 9 || (digits > 1 && s[d] == '0'))
        return 0;
    uint32_t v = 0;
    for (size_t i = d; i < len; i++)
        v = v * 10 + (uint32_t)(s[i] - '0');
    *plen = d;
    *num = v;
    return 1;
}

/* Whether s has the prefix of the numbered ids (plen bytes long). */
int mmm__num_prefix_is(const struct mmm_program_priv *pv, const char *s,
                       size_t plen)
{
    return pv->num_prefix && plen == pv->num_prefix_len &&
           memcmp(s, pv->num_prefix, plen) == 0;
}

int mmm__key_equal(const char *key, const char *s, size_t len)
{
    return strncmp(key, s, len) == 0 && key[len] == '\0';
}

static const char *kernel_id(const struct mmm_program_priv *pv, uint32_t idx)
{
    return pv->kernels[idx].id;
}

const char *mmm__param_name(const struct mmm_program_priv *pv, uint32_t idx)
{
    return pv->params[idx].name;
}

static long idtab_find_h(const struct mmm_program_priv *pv,
                         const mmm__idtab *t, mmm__key_fn key, const char *s,
                         size_t len, uint32_t h)
{
    if (!t->cap)
        return -1;
    size_t mask = t->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const mmm__idslot *sl = &t->slots[i];
        if (!sl->idx1)
            return -1;
        if (sl->hash == h && mmm__key_equal(key(pv, sl->idx1 - 1), s, len))
            return (long)sl->idx1 - 1;
    }
}

long mmm__idtab_find(const struct mmm_program_priv *pv, const mmm__idtab *t,
                     mmm__key_fn key, const char *s, size_t len)
{
    return idtab_find_h(pv, t, key, s, len, (uint32_t)mmm__hash_mem(s, len));
}

static void idtab_place(mmm__idslot *slots, size_t cap, mmm__idslot v)
{
    size_t i = v.hash & (cap - 1);
    while (slots[i].idx1)
        i = (i + 1) & (cap - 1);
    slots[i] = v;
}

/* Insert idx, whose string (absent from the table) hashes to h.  The load
 * stays at most 1/2. */
static int idtab_insert_h(mmm__idtab *t, uint32_t idx, uint32_t h)
{
    if ((t->count + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        mmm__idslot *slots = mmm__big_calloc(cap, sizeof *slots);
        if (!slots)
            return MMM_ENOMEM;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].idx1)
                idtab_place(slots, cap, t->slots[i]);
        mmm__big_free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    mmm__idslot v = {h, idx + 1};
    idtab_place(t->slots, t->cap, v);
    t->count++;
    return 0;
}

int mmm__idtab_insert(mmm__idtab *t, const char *key, uint32_t idx)
{
    return idtab_insert_h(t, idx, (uint32_t)mmm__hash_mem(key, strlen(key)));
}

/* ------------------------------------------------------------------ */
/* Lookups                                                             */

int mmm_program_find_param(const mmm_program *p, const char *name)
{
    if (!p || !name)
        return -1;
    long slot = mmm__idtab_find(p->priv, &p->priv->param_tab,
                                mmm__param_name, name, strlen(name));
    if (slot < 0) /* a constant of the machine file */
        slot = mmm__idtab_find(p->priv, &p->priv->machine_tab,
                               mmm__param_name, name, strlen(name));
    return (int)slot;
}

/* The kernel named s (len bytes), or -1. */
long mmm__kernel_find(const struct mmm_program_priv *pv, const char *s,
                      size_t len)
{
    size_t plen;
    uint32_t num;
    if (mmm__id_number(s, len, &plen, &num) &&
        mmm__num_prefix_is(pv, s, plen)) {
        if (num < pv->num_ident)
            return (long)num;
        if (num < pv->num_cap && pv->num_kernel[num])
            return (long)pv->num_kernel[num] - 1;
        if (!pv->num_in_tab)
            return -1;
    }
    return idtab_find_h(pv, &pv->kernel_tab, kernel_id, s, len,
                        kernel_hash(s, len));
}

/* The kernel of a numbered id (NUL-terminated) read forwards, in one pass
 * and without strlen: the prefix, then 1 to 9 digits without a leading
 * zero, and nothing after them.  (The prefix of numbered ids never ends
 * with a digit, so this is exactly mmm__id_number's form.)  -1 when id is
 * not of that form or is not in the array: the caller then takes the
 * general way. */
long mmm__kernel_find_numbered(const struct mmm_program_priv *pv,
                               const char *id)
{
    const char *pfx = pv->num_prefix;
    size_t plen = pv->num_prefix_len;
    if (!pfx)
        return -1;
    for (size_t i = 0; i < plen; i++) /* pfx holds no NUL: stops at id's */
        if (id[i] != pfx[i])
            return -1;
    const char *d = id + plen;
    if (*d < '0' || *d > '9' || (*d == '0' && d[1] != '\0'))
        return -1;
    uint32_t num = 0;
    for (int n = 0; *d >= '0' && *d <= '9'; d++) {
        if (++n > 9)
            return -1;
        num = num * 10 + (uint32_t)(*d - '0');
    }
    if (*d)
        return -1;
    if (num < pv->num_ident)
        return (long)num;
    if (num < pv->num_cap && pv->num_kernel[num])
        return (long)pv->num_kernel[num] - 1;
    return -1;
}

/* Record kernel idx (its id already in pv->kernels) in the array of
 * numbered ids or in the hash table. */
int mmm__kernel_id_insert(struct mmm_program_priv *pv, size_t idx)
{
    const char *s = pv->kernels[idx].id;
    size_t len = strlen(s), plen;
    uint32_t num;
    int numbered = mmm__id_number(s, len, &plen, &num);
    if (numbered && !pv->num_prefix) {
        pv->num_prefix = s; /* in the arena: lives as long as p */
        pv->num_prefix_len = plen;
    }
    if (numbered && mmm__num_prefix_is(pv, s, plen)) {
        if (num >= pv->num_cap && num < 4 * (idx + 1) + 4096) {
            size_t cap = pv->num_cap ? pv->num_cap : 4096;
            while (cap <= num)
                cap *= 2;
            uint32_t *a = mmm__big_realloc(pv->num_kernel,
                                           pv->num_cap * sizeof *a,
                                           cap * sizeof *a);
            if (!a)
                return MMM_ENOMEM;
            memset(a + pv->num_cap, 0, (cap - pv->num_cap) * sizeof *a);
            pv->num_kernel = a;
            pv->num_cap = cap;
        }
        if (num < pv->num_cap) {
            pv->num_kernel[num] = (uint32_t)idx + 1;
            if (num == idx && pv->num_ident == idx)
                pv->num_ident = idx + 1;
            return 0;
        }
        pv->num_in_tab++;
    }
    return idtab_insert_h(&pv->kernel_tab, (uint32_t)idx,
                          kernel_hash(s, len));
}

long mmm_program_find_kernel(const mmm_program *p, const char *id)
{
    if (!p || !id)
        return -1;
    return mmm__kernel_find(p->priv, id, strlen(id));
}
