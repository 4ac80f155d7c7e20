/**
 * mmm/eval.h: binding parameter values and evaluating a program.
 *
 * An instance holds the parameter values and, for every kernel (a chain of
 * `repeat` launches counts as one kernel), its aggregated measures.  It is
 * reusable: mmm_instance_eval may be called again with other overrides
 * (the optimizer does that millions of times) and costs O(kernels +
 * classes), plus O(repeat) for a kernel whose expressions use its index.
 * Blocks are never expanded.
 */
#ifndef MMM_EVAL_H
#define MMM_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A parameter override (-D NAME=VALUE, a sweep value). */
typedef struct mmm_override {
    int slot;          /**< mmm_program_find_param(); must be valid */
    mmm_value value;
} mmm_override;

/** One block class of one launch, evaluated. */
typedef struct mmm_class_val {
    int64_t count;     /**< blocks of this class in one launch */
    int64_t threads;   /**< threads per block, 0 when not given */
    double work;       /**< W(B) */
    double span;       /**< S(B) */
    double reads;      /**< r per thread */
    double writes;     /**< w per thread */
    double shared;     /**< local words per thread (TMM), 0 if not given */
    double overhead;   /**< O(B) = (r + w)·U */
    double cost;       /**< S(B) + O(B) */
    mmm_access access;
    /* The attributes of mmm/attr.h (the time model's) are not here:
     * mmm_instance_eval_attrs() gives them. */
    /** work, span, overhead and cost as exact integers, each valid when
     *  its bit MMM_EXACT_W, _S, _O, _C is set in exact (the value is an
     *  integer of the exact arithmetic and fits 64 bits). */
    int64_t work_i, span_i, overhead_i, cost_i;
    unsigned exact;
    int lost;             /**< an integer value past 2^53 was only known as a
                               double (exact arithmetic overflowed) */
} mmm_class_val;

/** Bits of the `exact` fields: which of W, S, O, C is an exact integer. */
enum { MMM_EXACT_W = 1u, MMM_EXACT_S = 2u, MMM_EXACT_O = 4u, MMM_EXACT_C = 8u,
       MMM_EXACT_ALL = 15u };

/** A kernel (all its launches), evaluated. */
typedef struct mmm_kernel_val {
    int64_t repeat;      /**< k launches in a chain (1 without repeat) */
    int varies;          /**< launches differ (the index is used) */
    int64_t blocks;      /**< blocks of one launch; when launches differ,
                              the largest launch */
    int64_t N;           /**< blocks of all launches */
    int64_t L;           /**< launches with at least one block: the blocks
                              on the longest block path through it */
    int64_t K;           /**< largest antichain inside: max blocks of a
                              launch */
    double W;            /**< work of all launches */
    double S;            /**< span: sum over launches of max S(B) */
    double O;            /**< overhead of all launches */
    double C;            /**< max over its blocks of S(B) + O(B) */
    /** W, S, O, C as exact integers, each valid when its MMM_EXACT_* bit
     *  is set in exact: the doubles above round past 2^53, these do not. */
    int64_t W_i, S_i, O_i, C_i;
    unsigned exact;
    int lost;            /**< an integer measure past 2^53 is known only as
                              a double (it overflowed 64 bits, or an input
                              value did) */
} mmm_kernel_val;

typedef struct mmm_instance {
    const mmm_program *program;
    size_t nvalues;
    mmm_value *values;         /**< by slot; params are 0..nparams-1 */
    size_t nkernels;
    mmm_kernel_val *kernels;   /**< by kernel index */
    mmm_class_val *classes;    /**< by class index: the first launch's
                                    values (copy 1); NULL for an instance
                                    made with MMM_INSTANCE_NO_CLASSES */
    double U;                  /**< value of parameter U */
    int has_p;                 /**< p is known */
    int64_t p;                 /**< number of SMs when has_p */
    int64_t *array_bytes;      /**< by array (program->arrays) */
} mmm_instance;

/** Allocate an instance for a finalized program (no evaluation yet). */
MMM_API int mmm_instance_new(mmm_instance **out, const mmm_program *p,
                             mmm_error *err);

/** Flags of mmm_instance_new_flags. */
enum {
    /** Keep the measures of each kernel but not the values of its block
     *  classes: classes stays NULL (each kernel's classes are evaluated
     *  into a scratch launch and summed), which saves
     *  sizeof(mmm_class_val) per class, most of the evaluation's memory
     *  and first-touch time on a program of 10^6 kernels.
     *  mmm_instance_eval_copy still works (it evaluates the classes); the
     *  functions that read classes (mmm_tmm_compute, mmm_balance_compute,
     *  mmm_simulate, mmm_program_write_xml) refuse such an instance
     *  (MMM_EINVAL). */
    MMM_INSTANCE_NO_CLASSES = 1u
};

/** mmm_instance_new with flags (MMM_INSTANCE_*, 0: the same as
 *  mmm_instance_new). */
MMM_API int mmm_instance_new_flags(mmm_instance **out, const mmm_program *p,
                                   unsigned flags, mmm_error *err);
MMM_API void mmm_instance_free(mmm_instance *inst);

/**
 * Evaluate all parameters (overrides win over machine values, which win
 * over defaults), check min/max ranges and constraints (MMM_EINFEASIBLE
 * quoting the violated constraint and its line), evaluate every kernel.
 * Counts must be exact non-negative integers (MMM_EINFEASIBLE naming
 * kernel, attribute and line, suggesting ceil()); sums of counts that
 * overflow 64 bits are MMM_EOVERFLOW naming the quantity.  p comes from a
 * parameter named "p" when the program has one (it must be a positive
 * integer).  U must be declared when some block reads or writes.
 * On error the instance content is unspecified but it stays reusable.
 */
MMM_API int mmm_instance_eval(mmm_instance *inst, const mmm_override *ov,
                              size_t nov, mmm_error *err);

/** Set p directly (for programs that do not declare it; -p P).  p > 0. */
MMM_API void mmm_instance_set_p(mmm_instance *inst, int64_t p);

/* ------------------------------------------------------------------ */
/* -D NAME=VALUE and -p P                                               */

/** What mmm_overrides_parse does with a definition whose name the
 *  program does not declare. */
enum {
    MMM_DEFINE_STRICT = 0, /**< an error (MMM_EINPUT) */
    MMM_DEFINE_NOTE = 1,   /**< skipped, with a note */
    MMM_DEFINE_QUIET = 2   /**< skipped */
};

/**
 * The overrides of the definitions defs[0 .. ndefs), each "NAME=VALUE" as
 * -D takes it (spaces around NAME ignored; VALUE a constant expression of
 * at most 4096 characters: 2^20, 1/2, 1e6), for program prog, into
 * ov[0 .. *nov) in order; then, when p > 0 (-p P) and prog declares a
 * parameter p, its override last.  ov must hold ndefs + 1 entries.
 * Errors: MMM_EINVAL without a file for a definition without "NAME=" or
 * with a name of 256 characters or more; at prog's file, MMM_EINPUT for
 * a name prog does not declare (with unknown MMM_DEFINE_STRICT: the
 * message names the closest declared name or lists them) and for a value
 * that names a parameter, the expression's status for another value.  A
 * name skipped with MMM_DEFINE_NOTE adds "FILE: note: -D NAME ignored:
 * the file declares no such parameter" to notes (may be NULL).
 */
MMM_API int mmm_overrides_parse(const mmm_program *prog, const char *const *defs,
                                size_t ndefs, int64_t p, int unknown,
                                mmm_override *ov, size_t *nov, mmm_notes *notes,
                                mmm_error *err);

/** Each definition's NAME (as mmm_overrides_parse reads it) declared by
 *  at least one of progs[0 .. nprogs) (`mmm compare A B -D n=...`, each
 *  side skipping the names it lacks): 0, or MMM_EINVAL without a file,
 *  "-D n: neither A nor B declares a parameter 'n'" (with one program,
 *  "A declares no parameter 'n'"; with more, "none of the N files ..."). */
MMM_API int mmm_overrides_declared(const mmm_program *const *progs, size_t nprogs,
                                   const char *const *defs, size_t ndefs,
                                   mmm_error *err);

/** mmm_instance_eval with ov, then, when p > 0 and the program declares
 *  no parameter p, mmm_instance_set_p with p: an instance evaluated with
 *  the overrides of mmm_overrides_parse and the same p. */
MMM_API int mmm_instance_eval_p(mmm_instance *inst, const mmm_override *ov,
                                size_t nov, int64_t p, mmm_error *err);

/**
 * The classes of launch `copy` (1..repeat) of kernel k: out must hold
 * program->kernels[k].nclasses values.  For a kernel that does not use its index
 * this is the same for every copy.  Only reads inst (the launch's index is
 * set in a private copy of its values): threads may call it on one
 * instance at once.
 */
MMM_API int mmm_instance_eval_copy(const mmm_instance *inst, size_t k, int64_t copy,
                                   mmm_class_val *out, mmm_error *err);

/** The value of one attribute of mmm/attr.h for one block class. */
typedef struct mmm_attr_value {
    double value; /**< the file's value, or mmm_attr_default() */
    int given;    /**< the file gives it (for the class or its kernel) */
} mmm_attr_value;

/**
 * The attributes of mmm/attr.h of the classes of launch `copy`
 * (1..repeat) of kernel k: with n the library's number of attributes
 * (mmm_attr_count), out must hold program->kernels[k].nclasses * n
 * values, and attribute a of the kernel's class c is out[c * n + a].
 * Values are checked as the evaluation checks them (mmm_instance_eval
 * fails on the same ones).  Only reads inst: threads may call it on one
 * instance at once, as mmm_instance_eval_copy.
 */
MMM_API int mmm_instance_eval_attrs(const mmm_instance *inst, size_t k,
                                    int64_t copy, mmm_attr_value *out,
                                    mmm_error *err);

/** Copy k's bytes per call, as evaluated (0 for a kernel, or k out of
 *  range). */
MMM_API int64_t mmm_instance_copy_bytes(const mmm_instance *inst, size_t k);

/** One <access> of one launch, evaluated (its defaults filled in). */
typedef struct mmm_mem_access_val {
    double words;   /**< words per thread (at most) */
    double stride;  /**< coalesced: words between neighbours (default 1) */
    double region;  /**< random, atomic: bytes they fall in (default: the
                         array's bytes, else 0) */
    double taken;   /**< share of the threads that do it (default 1) */
} mmm_mem_access_val;

/**
 * The accesses of launch `copy` (1..repeat) of kernel k, class after
 * class: out must hold the kernel's accesses (the sum of its classes'
 * naccesses); the first class's first access is out[0].  Checked as the
 * evaluation checks them (words, stride and region non-negative, taken
 * from 0 to 1).  Only reads inst, as mmm_instance_eval_attrs.
 */
MMM_API int mmm_instance_eval_accesses(const mmm_instance *inst, size_t k,
                                       int64_t copy, mmm_mem_access_val *out,
                                       mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
