/* program_internal.h: the private side of mmm_program (arena, hash tables,
 * deduplicated expressions, the cached series-parallel plan) and the
 * internal antichain entry points shared by program.c, eval.c, metrics.c
 * and antichain.c.  Not installed; tests may include it. */
#ifndef MMM_PROGRAM_INTERNAL_H
#define MMM_PROGRAM_INTERNAL_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/program.h"
#include "base/bigalloc.h"

/* ------------------------------------------------------------------ */
/* Arena: bump allocation of strings, freed all at once.              */

typedef struct mmm__arena_chunk mmm__arena_chunk;
typedef struct mmm__arena {
    mmm__arena_chunk *head;
} mmm__arena;

/* ------------------------------------------------------------------ */
/* Open-addressing table from a string (kernel id, parameter name) to the
 * index of its kernel or parameter, whose record holds the string.  A slot
 * is 8 bytes (the 10^6 ids of a big program take 16 MB): the hash, so
 * that most probes do not touch the string, and the index + 1 (0: an
 * empty slot).  No deletion. */

typedef struct mmm__idslot {
    uint32_t hash;
    uint32_t idx1;
} mmm__idslot;
typedef struct mmm__idtab {
    mmm__idslot *slots;
    size_t cap; /* power of two, or 0 */
    size_t count;
} mmm__idtab;

/* ------------------------------------------------------------------ */
/* A distinct compiled expression.  Identical texts compiled in the same
 * naming context share one entry, so that "4" serves a million kernels.
 * key_ctx is -1 when the text cannot see a kernel index, else the index
 * slot it was compiled against. */

typedef struct mmm__prog_expr {
    const char *text;
    uint64_t hash;
    mmm_expr *expr;
    int32_t key_ctx;
    uint8_t uses_index; /* reads a kernel index slot */
    uint8_t shareable;  /* found through the dedupe table */
} mmm__prog_expr;

#define MMM_NO_EXPR UINT32_MAX

/* Expression ids of one kernel / one class (MMM_NO_EXPR when absent), so
 * that the evaluator can memoize the value of each distinct expression. */
enum { MMM_KX_REPEAT, MMM_KX_THREADS, MMM_KX_BYTES, MMM_KX_N };
enum {
    MMM_CX_COUNT,
    MMM_CX_WORK,
    MMM_CX_SPAN,
    MMM_CX_READS,
    MMM_CX_WRITES,
    MMM_CX_THREADS,
    MMM_CX_SHARED,
    MMM_CX_ATTR0, /* then the attributes of mmm/attr.h, by mmm_attr */
    MMM_CX_N = MMM_CX_ATTR0 + MMM_ATTR_N
};
/* Expression ids of one <access>. */
enum { MMM_AX_WORDS, MMM_AX_STRIDE, MMM_AX_REGION, MMM_AX_TAKEN, MMM_AX_N };


/* ------------------------------------------------------------------ */

/* A value an upper layer computes once from a finalized program and keeps
 * with it (the model knows nothing of what it is): the layer embeds this
 * header first in its own struct.  mmm__program_cache_offer publishes a
 * value atomically, so that two threads analyzing one program may both
 * compute it: the first to offer wins, and the loser's value is disposed
 * of.  The program disposes of the winner when it is freed. */
typedef struct mmm__program_cache_entry {
    void (*dispose)(struct mmm__program_cache_entry *self);
} mmm__program_cache_entry;
mmm__program_cache_entry *mmm__program_cache(const mmm_program *p);
mmm__program_cache_entry *mmm__program_cache_offer(const mmm_program *p,
                                                   mmm__program_cache_entry *e);

struct mmm_program_priv {
    mmm_limits limits; /* effective */
    mmm__arena arena;

    /* Growing arrays behind the public const pointers. */
    mmm_param *params;
    size_t params_cap;
    mmm_constraint *constraints;
    size_t constraints_cap;
    mmm_kernel *kernels;
    size_t kernels_cap;
    mmm_block_class *classes;
    size_t classes_cap;
    mmm_edge *edges;
    size_t edges_cap;
    mmm_array *arrays;
    size_t arrays_cap;
    uint32_t *array_eid;       /* by array: its bytes */
    mmm_mem_access *accesses;
    size_t accesses_cap;
    uint32_t (*access_eid)[MMM_AX_N];
    mmm__idtab array_tab;      /* array names */

    /* Parallel arrays. */
    mmm_value *machine_value;  /* by param: value when from_machine */
    uint8_t *declared_by_prog; /* by param: the program declared it */
    uint32_t (*kernel_eid)[MMM_KX_N];
    uint32_t (*class_eid)[MMM_CX_N];
    /* by kernel: a copy's kind and arrays (mmm_kernel_copy) */
    struct mmm__kernel_ext {
        uint8_t copy;       /* mmm_copy_kind */
        int32_t src, dst;   /* arrays, -1: none */
        const char *type;   /* mmm_kernel_type (arena), NULL: none */
    } *kernel_ext;
    /* by class: its accesses (mmm_block_class_accesses) */
    struct mmm__class_acc {
        uint32_t first, n;
    } *class_acc;
    uint8_t *kernel_minimal; /* by kernel: its class came from blocks= */

    mmm__idtab param_tab;   /* the names expressions see: the program's
                              parameters and the models' machine ones */
    const char *cost_unit;  /* mmm_program_set_cost_unit's; NULL: cycles */
    mmm__idtab machine_tab; /* the other constants of the machine file
                              (from_machine MMM_PARAM_MACHINE_CONST) */
    mmm__idtab kernel_tab;
    /* Kernel ids "<prefix><number>" with the prefix of the first such id
     * and the number written without leading zeros (at most 9 digits),
     * by number: kernel index + 1 (0: none).  A lookup of such an id is
     * one read of this array, no hash and no string compare.  Numbers too
     * large for the array when added go to kernel_tab (counted in
     * num_in_tab: while it is 0, an id of this form absent from the array
     * is absent). */
    const char *num_prefix; /* NULL until the first numbered id */
    size_t num_prefix_len;
    uint32_t *num_kernel;
    size_t num_cap, num_in_tab;
    /* Kernels 0 .. num_ident-1 have the ids <prefix><their index> (a
     * generated file's k0, k1, ...): such an id below num_ident is its
     * kernel's index, found without reading num_kernel (with edges in
     * random order, that read is a cache miss per edge end). */
    size_t num_ident;
    size_t nindexed;          /* kernels with an index */
    int last_kernel_minimal;  /* the last kernel has its blocks= class */

    /* Distinct expressions (owned), and the dedupe table over them. */
    mmm__prog_expr *exprs;
    size_t nexprs, exprs_cap;
    uint32_t *expr_slots;
    size_t expr_slots_cap;

    /* The kernels (index + 1, 0: none) that the last edge came from and
     * went to: files list edges grouped by source or by target. */
    uint32_t last_from, last_to;

    /* Edges whose ids were unknown when added: resolved by finalize. */
    struct mmm_pending_edge *pending;
    size_t npending, pending_cap;

    /* The last expression error named an unknown parameter, which no
     * hint explained: its name, and the length of the message before
     * the hint (the loader looks for the name later in the file). */
    char unknown_name[65];
    size_t unknown_cut;

    /* Filled by finalize. */
    uint32_t *succ_start, *succ, *pred_start, *pred, *topo;
    int index_topological; /* every edge goes from a lower kernel index to a
                              higher one (the file's order is a topological
                              order) */
    /* What an upper layer derives once from the finalized program (the
     * analysis layer's series-parallel plan): see mmm__program_cache. */
    _Atomic(mmm__program_cache_entry *) cache;
};

/* ------------------------------------------------------------------ */
/* Shared by program.c (the builder), program_ids.c (arena, id tables)
 * and program_graph.c (edges, finalize). */

/* program_ids.c: the arena. */
const char *mmm__arena_strdup(mmm__arena *a, const char *s);
void mmm__arena_free(mmm__arena *a);

/* program_ids.c: the id tables.  The string of entry idx of a table: the
 * kernel's id, the parameter's name. */
typedef const char *(*mmm__key_fn)(const struct mmm_program_priv *pv,
                                   uint32_t idx);
uint64_t mmm__hash_mem(const char *s, size_t len);
/* key is the len bytes at s (key is NUL-terminated, s need not be). */
int mmm__key_equal(const char *key, const char *s, size_t len);
const char *mmm__param_name(const struct mmm_program_priv *pv, uint32_t idx);
long mmm__idtab_find(const struct mmm_program_priv *pv, const mmm__idtab *t,
                     mmm__key_fn key, const char *s, size_t len);
int mmm__idtab_insert(mmm__idtab *t, const char *key, uint32_t idx);
int mmm__id_number(const char *s, size_t len, size_t *plen, uint32_t *num);
int mmm__num_prefix_is(const struct mmm_program_priv *pv, const char *s,
                       size_t plen);
long mmm__kernel_find(const struct mmm_program_priv *pv, const char *s,
                      size_t len);
long mmm__kernel_find_numbered(const struct mmm_program_priv *pv,
                               const char *id);
int mmm__kernel_id_insert(struct mmm_program_priv *pv, size_t idx);

/* machine_params.c: the machine parameters of the models (U, Z, p and
 * the TMM's), which expressions see; the others of a machine file are
 * constants only the models read.  The parameter expressions see by that
 * name (a program's or a model's machine parameter), or -1. */
int mmm__model_param_is(const char *name);
int mmm__param_find_visible(const mmm_program *p, const char *name);

/* program_ids.c: growing arrays (grow_big: with mmm__big_realloc). */
int mmm__program_grow(void *arr, size_t *cap, size_t count, size_t elem);
int mmm__program_grow_big(void *arr, size_t *cap, size_t count,
                          size_t elem);

/* program.c: the builder's state check and the public views of the
 * arrays. */
int mmm__program_check_open(const mmm_program *p, mmm_error *err);
void mmm__program_sync_views(mmm_program *p);

/* Expression id -> entry (for the evaluator). */
static inline const mmm__prog_expr *
mmm__expr_entry(const mmm_program *p, uint32_t id)
{
    return &p->priv->exprs[id];
}


/* program_expr.c: where an expression is compiled (the kernel index it may
 * read, the parameters it sees), and the compiler every builder call uses:
 * each text is compiled once per scope; *id receives the expression id;
 * errors get the file and line. */
typedef struct mmm__expr_scope {
    const char *index;     /* visible index name, or NULL */
    int index_slot;
    size_t limit;          /* visible parameters: slots < limit */
    const char *hidden_index;
} mmm__expr_scope;
int mmm__prog_is_identifier(const char *s);
mmm__expr_scope mmm__prog_params_scope(const mmm_program *p);
int mmm__prog_compile(mmm_program *p, uint32_t *id, const char *text,
                      const mmm__expr_scope *scope, long line, mmm_error *err);
/* An optional text: MMM_NO_EXPR when absent. */
int mmm__prog_compile_opt(mmm_program *p, uint32_t *id, const char *text,
                          const mmm__expr_scope *scope, long line,
                          mmm_error *err);
const mmm_expr *mmm__prog_expr_of(const mmm_program *p, uint32_t id);

/* program_access.c: the <access> children of a class, compiled before
 * the class is appended (program.c stores them).  The texts of its
 * accesses in the scope of the class's kernel: the accesses with their
 * expression ids into out (n entries), the words of the reads and of the
 * writes (and atomics) summed into *reads and *writes (malloc'ed texts:
 * "(w1) + (w2)", "0" when none), or an error naming the kernel (id) and
 * the access's line.  The attributes of mmm/attr.h that an access says
 * on its own (the strides, the gathers and scatters and their region)
 * must not be given beside (attr, NULL: none). */
typedef struct mmm__class_accesses {
    mmm_mem_access *a;
    uint32_t (*eid)[MMM_AX_N];
    size_t n;
} mmm__class_accesses;
int mmm__access_compile(mmm_program *p, const mmm_access_spec *specs,
                        size_t n, const char *const *attr,
                        const mmm__expr_scope *sc, const char *id,
                        mmm__class_accesses *out, char **reads,
                        char **writes, mmm_error *err);
void mmm__access_dispose(mmm__class_accesses *ca);
/* The array of that name, or -1. */
long mmm__array_find(const struct mmm_program_priv *pv, const char *name);

#endif
