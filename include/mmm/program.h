/**
 * mmm/program.h: the program model (a DAG of kernels, each a set of thread
 * blocks with parametric costs), its builder, and the loaders of DAG files
 * and machine files.
 *
 * The structs below are read-only views for the rest of the library and for
 * tools: fields are filled by the builder (mmm_program_add_*) and by
 * mmm_program_finalize, and must not be written by anyone else.  Every
 * pointer inside a program stays valid until mmm_program_free.
 *
 *   mmm_program *prog = NULL;
 *   mmm_error err;
 *   mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
 *   if (mmm_program_load_file(&prog, "dags/poly_div_opt.xml", &opt, &err) < 0)
 *       ... err.file, err.line, err.message ...
 *   ... mmm_instance_new / mmm_instance_eval / mmm_metrics_compute ...
 *   mmm_program_free(prog);
 */
#ifndef MMM_PROGRAM_H
#define MMM_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/attr.h"
#include "mmm/error.h"
#include "mmm/expr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Resource limits: defaults never bother a real user, always protect the
 *  machine.  Zero in a field means "the default". */
typedef struct mmm_limits {
    uint64_t max_file_bytes;   /**< default 1 GiB */
    size_t max_kernels;        /**< default 10,000,000 */
    size_t max_edges;          /**< default 50,000,000 */
    size_t max_params;         /**< default 10,000 */
    size_t max_expr_length;    /**< characters, default 4096 */
    size_t max_depth;          /**< XML nesting and expression nesting, default 64 */
    int64_t max_index_repeat;  /**< largest repeat of a kernel whose
                                    expressions use its index (evaluated copy
                                    by copy), default 10,000,000 */
} mmm_limits;

/** Every field the default. */
#define MMM_LIMITS_INIT {.max_file_bytes = 0}
/** The effective limits: each zero field of in replaced by its default. */
MMM_API mmm_limits mmm_limits_effective(const mmm_limits *in);

/* ------------------------------------------------------------------ */
/* The model                                                          */

/** A parameter: a name with a default value and an optional range. */
typedef struct mmm_param {
    const char *name;
    long line;               /**< 0 for a machine-file parameter */
    const mmm_expr *value;   /**< default value, may use earlier params */
    const mmm_expr *min;     /**< NULL when not given */
    const mmm_expr *max;     /**< NULL when not given */
    const char *value_text;  /**< source text of value (for messages) */
    const char *min_text, *max_text; /**< NULL when not given */
    int from_machine;        /**< 0: the program's; else supplied by the
                                  machine file: MMM_PARAM_MACHINE or
                                  MMM_PARAM_MACHINE_CONST */
} mmm_param;

/** Values of mmm_param.from_machine. */
enum {
    /** A machine parameter of the models (mmm_model_machine_param: U, Z,
     *  p and the TMM's): expressions see it, and a program <param> of its
     *  name declares it with a default, which the machine's value
     *  replaces. */
    MMM_PARAM_MACHINE = 1,
    /** Any other constant of the machine file (the time model's, the
     *  balance principle's, ...): only the models read it
     *  (mmm_program_find_machine_param); expressions do not see it, and a
     *  program <param> of its name is the program's own parameter. */
    MMM_PARAM_MACHINE_CONST = 2
};

/** A constraint on the parameters, e.g. "7*s <= Z". */
typedef struct mmm_constraint {
    const char *text;
    long line;
    const mmm_expr *test;
} mmm_constraint;

/** How a block's global accesses behave (TMM). */
typedef enum mmm_access {
    MMM_ACCESS_COALESCED = 0, /**< threads·(r+w)/C transactions per block */
    MMM_ACCESS_IRREGULAR = 1  /**< one transaction per word */
} mmm_access;

/** An array of global memory the program names (<array name bytes>), for
 *  the accesses that fall in it (mmm_mem_access.array) and the copies
 *  that move it. */
typedef struct mmm_array {
    const char *name;
    long line;
    const mmm_expr *bytes;   /**< its size (count) */
} mmm_array;

/** How the threads of a warp spread one global access (<access pattern>;
 *  docs/format.md, docs/time.md). */
typedef enum mmm_mem_pattern {
    MMM_PATTERN_COALESCED = 0, /**< neighbouring threads `stride` words
                                    apart (1: contiguous) */
    MMM_PATTERN_BROADCAST,     /**< one word for a whole warp (or block) */
    MMM_PATTERN_RANDOM,        /**< addresses spread at random over a region */
    MMM_PATTERN_ATOMIC         /**< atomic read-modify-writes over a region
                                    (one word by default) */
} mmm_mem_pattern;
#define MMM_MEM_NPATTERNS 4

/** "coalesced", "broadcast", "random", "atomic"; NULL out of range. */
MMM_API const char *mmm_mem_pattern_name(mmm_mem_pattern p);
/** The pattern of that name, or -1. */
MMM_API int mmm_mem_pattern_find(const char *name);

/** One global access of a thread (an <access> child of a <kernel> or a
 *  <blocks>): words per thread, read or written, and how a warp spreads
 *  them.  Its expressions are NULL where the file gives none (their
 *  defaults: stride 1, region the array's bytes or 0, taken 1). */
typedef struct mmm_mem_access {
    long line;
    int write;               /**< 0: read; 1: written (an atomic: 1) */
    mmm_mem_pattern pattern;
    int block_scope;         /**< a broadcast across the block, not a warp */
    int32_t array;           /**< index in program->arrays, or -1 */
    const mmm_expr *words;   /**< words per thread (at most), required */
    const mmm_expr *stride;  /**< coalesced: words between neighbours */
    const mmm_expr *region;  /**< random, atomic: bytes they fall in */
    const mmm_expr *taken;   /**< share of the threads that do it */
} mmm_mem_access;

/** One kind of thread block of a kernel: count blocks, each with these
 *  costs.  A kernel given in the minimal form has exactly one class. */
typedef struct mmm_block_class {
    long line;
    const mmm_expr *count;   /**< number of blocks (exact count) */
    const mmm_expr *work;    /**< W(B): local operations of all threads */
    const mmm_expr *span;    /**< S(B): local operations of one thread */
    const mmm_expr *reads;   /**< r: global words read per thread */
    const mmm_expr *writes;  /**< w: global words written per thread */
    const mmm_expr *threads; /**< threads per block; NULL: the kernel's */
    const mmm_expr *shared;  /**< local (shared) words per thread; NULL = 0 */
    mmm_access access;       /**< default coalesced */
    /* The attributes of mmm/attr.h (the time model's): by index, with
     * mmm_block_class_attr(); its accesses with
     * mmm_block_class_accesses(). */
} mmm_block_class;

/** What a node of the DAG is: a kernel (thread blocks), or a copy or a
 *  set of memory done by the copy engines (`<copy>`: cudaMemcpyAsync,
 *  cudaMemsetAsync).  A copy has no block class: the MMM's measures count
 *  it as a kernel without a launch (W, S, O, N, L, K and C add nothing;
 *  dependencies pass through it), and the time model charges its bytes
 *  (docs/time.md). */
typedef enum mmm_copy_kind {
    MMM_COPY_NONE = 0, /**< a kernel */
    MMM_COPY_D2D,      /**< device to device: each byte read and written */
    MMM_COPY_H2D,      /**< host to device, over the host link */
    MMM_COPY_D2H,      /**< device to host, over the host link */
    MMM_COPY_SET       /**< a memset: bytes written on the device */
} mmm_copy_kind;
#define MMM_COPY_NKINDS 5

/** "kernel", "d2d", "h2d", "d2h", "set" (the values of <copy kind>);
 *  NULL out of range. */
MMM_API const char *mmm_copy_kind_name(mmm_copy_kind k);
/** The kind of that name ("d2d", ...; not "kernel"), or -1. */
MMM_API int mmm_copy_kind_find(const char *name);

/** A kernel, or a chain of `repeat` identical launches of it; or a copy
 *  (mmm_kernel_copy() != MMM_COPY_NONE: no class). */
typedef struct mmm_kernel {
    const char *id;
    long line;
    const mmm_expr *repeat;  /**< NULL = 1 */
    const char *index;       /**< name of the index variable, NULL if none */
    int index_slot;          /**< its variable slot, -1 if none */
    int uses_index;          /**< some expression of the kernel reads it */
    const mmm_expr *threads; /**< threads per block, NULL when not given */
    uint32_t first_class;    /**< its classes: program->classes[first_class
                                  .. first_class + nclasses) */
    uint32_t nclasses;       /**< 0 for a copy */
} mmm_kernel;

/** A dependency: every block of `from` (its last copy) precedes every block
 *  of `to` (its first copy). */
typedef struct mmm_edge {
    uint32_t from, to;
    long line;
} mmm_edge;

struct mmm_program_priv;

typedef struct mmm_program {
    const char *file;        /**< source name used in messages */
    const char *name;        /**< <program name=…> */
    const char *description; /**< "" when absent */
    long line;               /**< line of <program> */

    size_t nparams;
    const mmm_param *params;      /**< in declaration order; machine ones first */
    size_t nslots;                /**< variable slots: params + kernel indices */
    size_t nconstraints;
    const mmm_constraint *constraints;
    size_t nkernels;
    const mmm_kernel *kernels;    /**< in declaration order */
    size_t nclasses;
    const mmm_block_class *classes;
    size_t nedges;
    const mmm_edge *edges;

    /* Filled by mmm_program_finalize: compressed adjacency and a
     * topological order of the kernels (indices into kernels). */
    const uint32_t *succ_start;   /**< nkernels + 1 offsets into succ */
    const uint32_t *succ;
    const uint32_t *pred_start;   /**< nkernels + 1 offsets into pred */
    const uint32_t *pred;
    const uint32_t *topo;         /**< nkernels kernel indices */
    int finalized;

    struct mmm_program_priv *priv;

    /* Added after the fields above (the struct grows at its end). */
    size_t narrays;
    const mmm_array *arrays;      /**< in declaration order */
    size_t naccesses;
    const mmm_mem_access *accesses; /**< of all classes, class by class */
} mmm_program;

/** Slot of a parameter: its index in params (params occupy slots
 *  0..nparams-1): the parameter of that name that expressions see (the
 *  program's, or a model's machine parameter), else the machine file's
 *  constant of that name.  Returns -1 when unknown.  (-D NAME, sweeps and
 *  the columns of a runs file name parameters this way.) */
MMM_API int mmm_program_find_param(const mmm_program *p, const char *name);
/** Slot of a machine parameter as the models read it: the machine file's
 *  value of that name (a constant or a model's machine parameter), else
 *  the program's parameter of that name (a program may describe its own
 *  machine).  Returns -1 when neither has it.  The time model, the TMM
 *  and the balance principle read their machine with it, so that a
 *  program's own `beta` never stands for the machine's. */
MMM_API int mmm_program_find_machine_param(const mmm_program *p,
                                           const char *name);
/** The i-th machine parameter of the models, which a program's
 *  expressions see (the MMM's U, Z and p, the TMM's P, Q, C, L and X);
 *  NULL past the last.  The other names of a machine file are constants
 *  that only the models read (MMM_PARAM_MACHINE_CONST). */
MMM_API const char *mmm_model_machine_param(size_t i);
/** The declared parameter whose name is closest to name (another case, a
 *  typo: about one edit per three characters), for "did you mean"; NULL
 *  when none is close or name is declared. */
MMM_API const char *mmm_program_closest_param(const mmm_program *p,
                                              const char *name);
/** Index of a kernel by id, or -1. */
MMM_API long mmm_program_find_kernel(const mmm_program *p, const char *id);
/** What node k is: MMM_COPY_NONE for a kernel, else the kind of the copy
 *  (MMM_COPY_NONE out of range). */
MMM_API mmm_copy_kind mmm_kernel_copy(const mmm_program *p, size_t k);
/** The type of kernel k: what kind of task it is (a WfCommons task's
 *  category, a Pegasus DAX job's transformation, a kernel's type="..."),
 *  NULL when none was given.  Pictures group and colour kernels by it. */
MMM_API const char *mmm_kernel_type(const mmm_program *p, size_t k);
/** The expression of copy k's bytes per call, NULL for a kernel. */
MMM_API const mmm_expr *mmm_kernel_copy_bytes(const mmm_program *p, size_t k);
/** The arrays copy k reads and writes: indices in program->arrays, -1
 *  where it names none (both -1 for a kernel). */
MMM_API void mmm_kernel_copy_arrays(const mmm_program *p, size_t k,
                                    int32_t *src, int32_t *dst);
/** The accesses of block class c (program->classes[c]): how many, the
 *  first of them being program->accesses[*first] (may be NULL); 0 when
 *  the class has none (its reads and writes are as given) or c is out of
 *  range. */
MMM_API size_t mmm_block_class_accesses(const mmm_program *p, size_t c,
                                        size_t *first);
/** The expression of attribute a (mmm/attr.h) of block class c
 *  (program->classes[c]), NULL when the file does not give it (or c or a
 *  is out of range). */
MMM_API const mmm_expr *mmm_block_class_attr(const mmm_program *p, size_t c,
                                             mmm_attr a);

/* ------------------------------------------------------------------ */
/* Builder (used by the XML loader, by tests and generators)           */

/** A new empty program.  file is the name used in messages. */
MMM_API int mmm_program_new(mmm_program **out, const char *file,
                            const mmm_limits *limits, mmm_error *err);
MMM_API void mmm_program_free(mmm_program *p);

MMM_API int mmm_program_set_name(mmm_program *p, const char *name, long line,
                                 mmm_error *err);
MMM_API int mmm_program_set_description(mmm_program *p, const char *text,
                                         mmm_error *err);
/** The unit the program's costs are in, for the outputs to name: NULL
 *  (the default) for the model's machine cycles, else a unit ("us", "ms",
 *  "s", "ns") or a phrase ("the file's unit") that a task-graph reader
 *  sets (mmm_taskgraph_finish).  Copied; may be set after finalize. */
MMM_API int mmm_program_set_cost_unit(mmm_program *p, const char *unit,
                                      mmm_error *err);
/** The unit set by mmm_program_set_cost_unit, or NULL (machine cycles). */
MMM_API const char *mmm_program_cost_unit(const mmm_program *p);

/** Declare a parameter.  value_text may use parameters declared earlier.
 *  min_text/max_text may be NULL.  Duplicate names are an error, except a
 *  program parameter redeclaring a machine one (the machine value wins). */
MMM_API int mmm_program_add_param(mmm_program *p, const char *name,
                                  const char *value_text, const char *min_text,
                                  const char *max_text, long line, mmm_error *err);
/** A parameter of the machine file (see mmm_machine), declared before the
 *  program's own.  A machine parameter of the models (U, Z, p, the TMM's)
 *  is visible to expressions, and its value overrides a program default
 *  of the same name; any other name is a constant of the machine
 *  (MMM_PARAM_MACHINE_CONST), which expressions do not see and which a
 *  program parameter of the same name does not touch. */
MMM_API int mmm_program_add_machine_param(mmm_program *p, const char *name,
                                          mmm_value value, mmm_error *err);

MMM_API int mmm_program_add_constraint(mmm_program *p, const char *test_text,
                                       long line, mmm_error *err);

/** Texts of one <access>; NULL for an absent optional attribute. */
typedef struct mmm_access_spec {
    long line;
    const char *words;       /**< required */
    int write;               /**< 0 read, 1 write (ignored for an atomic) */
    mmm_mem_pattern pattern;
    int block_scope;         /**< broadcast: across the block */
    const char *stride, *region, *taken;
    const char *array;       /**< a declared array's name */
} mmm_access_spec;

/** Texts of one block class; NULL for an absent optional attribute. */
typedef struct mmm_class_spec {
    long line;
    const char *count;    /**< required for a <blocks> child */
    const char *work, *span, *reads, *writes; /**< required */
    const char *threads;  /**< optional */
    const char *shared;   /**< optional */
    mmm_access access;
    /** The attributes of mmm/attr.h: NULL (none given), or an array of
     *  mmm_attr_count() texts indexed by mmm_attr, NULL where not given. */
    const char *const *attr;
} mmm_class_spec;

/** Texts of a kernel.  When the kernel has <blocks> children, blocks/work/
 *  span/reads/writes are NULL here and the classes are added with
 *  mmm_program_add_class; otherwise they form its single class. */
typedef struct mmm_kernel_spec {
    const char *id;
    long line;
    const char *repeat;   /**< NULL = 1 */
    const char *index;    /**< NULL = none */
    const char *threads;  /**< NULL = not given */
    const char *blocks, *work, *span, *reads, *writes;
    const char *shared;
    mmm_access access;
    /** The attributes of mmm/attr.h of its single class (as in
     *  mmm_class_spec.attr); ignored with <blocks> children. */
    const char *const *attr;
} mmm_kernel_spec;

/** Set the type of kernel k (mmm_kernel_type; NULL or "": none), before
 *  mmm_program_finalize.  The text is copied. */
MMM_API int mmm_program_set_kernel_type(mmm_program *p, size_t k, const char *type,
                                        mmm_error *err);
/** Add a kernel; *index_out (may be NULL) receives its index. */
MMM_API int mmm_program_add_kernel(mmm_program *p, const mmm_kernel_spec *spec,
                                   size_t *index_out, mmm_error *err);
/** Texts of a copy (<copy>): a node of the DAG that moves or sets bytes
 *  (mmm_copy_kind), joined to kernels and copies by edges like a kernel. */
typedef struct mmm_copy_spec {
    const char *id;      /**< unique among kernels and copies */
    long line;
    mmm_copy_kind kind;  /**< not MMM_COPY_NONE */
    const char *bytes;   /**< bytes per call (count), required */
    const char *repeat;  /**< NULL = 1: a chain of identical calls */
    const char *src, *dst; /**< the arrays it reads and writes (declared
                                before), NULL: none named */
} mmm_copy_spec;

/** Declare an array (<array name bytes>): name as a parameter's, unique
 *  among the arrays; bytes may use the parameters declared before. */
MMM_API int mmm_program_add_array(mmm_program *p, const char *name,
                                  const char *bytes_text, long line,
                                  mmm_error *err);
/** Index of an array by name, or -1. */
MMM_API long mmm_program_find_array(const mmm_program *p, const char *name);

/** Add a copy; *index_out (may be NULL) receives its index among the
 *  kernels (program->kernels). */
MMM_API int mmm_program_add_copy(mmm_program *p, const mmm_copy_spec *spec,
                                 size_t *index_out, mmm_error *err);
/** Add a block class to kernel `kernel`, which must be the last kernel
 *  added. */
MMM_API int mmm_program_add_class(mmm_program *p, size_t kernel,
                                  const mmm_class_spec *spec, mmm_error *err);
/** mmm_program_add_kernel and mmm_program_add_class with the global
 *  accesses of the class (<access> children): with naccesses > 0, the
 *  spec's reads and writes must be NULL and are their sums (the words of
 *  the reads; of the writes and atomics), and the attributes an access
 *  says itself (the strides, gathers, scatters, gather_bytes) must not be
 *  given.  A kernel with <blocks> children takes its accesses with its
 *  classes. */
MMM_API int mmm_program_add_kernel_accesses(mmm_program *p,
                                            const mmm_kernel_spec *spec,
                                            const mmm_access_spec *accesses,
                                            size_t naccesses,
                                            size_t *index_out, mmm_error *err);
MMM_API int mmm_program_add_class_accesses(mmm_program *p, size_t kernel,
                                           const mmm_class_spec *spec,
                                           const mmm_access_spec *accesses,
                                           size_t naccesses, mmm_error *err);
/** Add an edge by kernel ids; ids may name kernels added later (resolved by
 *  finalize, which reports a dangling edge at its line). */
MMM_API int mmm_program_add_edge(mmm_program *p, const char *from, const char *to,
                                 long line, mmm_error *err);

/**
 * Resolve edges (a dangling edge is MMM_EINPUT at its line; a duplicate
 * edge is harmless), reject self-loops and cycles (MMM_ECYCLE; the message
 * names the kernels on one cycle: "cycle: a -> b -> c -> a"), build the
 * adjacency and the topological order, and freeze the program.  Must be
 * called once before evaluation; the builder refuses calls after it.
 */
MMM_API int mmm_program_finalize(mmm_program *p, mmm_error *err);

/* ------------------------------------------------------------------ */
/* Machine files: <machine name="…"><param name="U" value="…"/>…</machine> */

typedef struct mmm_machine_param {
    const char *name;
    mmm_value value;
    long line;
} mmm_machine_param;

typedef struct mmm_machine {
    const char *file;
    const char *name;
    size_t nparams;
    const mmm_machine_param *params;
    void *priv;
} mmm_machine;

MMM_API int mmm_machine_load_file(mmm_machine **out, const char *path,
                                  const mmm_limits *limits, mmm_error *err);
MMM_API void mmm_machine_free(mmm_machine *m);

/* ------------------------------------------------------------------ */
/* Loading DAG files (libxml2, validated against the built-in XSD)      */

/** Whether a load builds the program in a second thread while libxml2
 *  parses (the results and errors are the same either way). */
typedef enum mmm_threads {
    MMM_THREADS_AUTO = 0, /**< for inputs of 1 MiB and more, with 2+ CPUs */
    MMM_THREADS_OFF,      /**< one thread */
    MMM_THREADS_ON        /**< two threads, whatever the input */
} mmm_threads;

typedef struct mmm_load_options {
    unsigned int version; /**< MMM_LOAD_OPTIONS_VERSION (the INIT macro, mmm_load_options_init) */
    mmm_limits limits;
    const mmm_machine *machine; /**< its params are declared first; NULL */
    int skip_schema;            /**< 1: do not validate against the XSD */
    mmm_threads threads;        /**< default MMM_THREADS_AUTO */
} mmm_load_options;

/** The defaults (a NULL options pointer means the same).  In C++ or
 *  through a binding, call mmm_load_options_init instead. */
/** The version of mmm_load_options this header declares. */
#define MMM_LOAD_OPTIONS_VERSION 1
#define MMM_LOAD_OPTIONS_INIT \
    {.version = MMM_LOAD_OPTIONS_VERSION, .limits = MMM_LIMITS_INIT, .machine = NULL, .skip_schema = 0, \
     .threads = MMM_THREADS_AUTO}
/** Set *opt to the defaults (MMM_LOAD_OPTIONS_INIT). */
MMM_API void mmm_load_options_init(mmm_load_options *opt);

/** Parse, validate and finalize a DAG file.  Errors carry file and line. */
MMM_API int mmm_program_load_file(mmm_program **out, const char *path,
                                  const mmm_load_options *opt, mmm_error *err);
/** The same from memory; name is used in messages. */
MMM_API int mmm_program_load_memory(mmm_program **out, const char *buf, size_t len,
                                    const char *name, const mmm_load_options *opt,
                                    mmm_error *err);

/** The XSD text built into the library (the same as dags/mmm.xsd). */
MMM_API const char *mmm_schema_text(void);

#ifdef __cplusplus
}
#endif
#endif
