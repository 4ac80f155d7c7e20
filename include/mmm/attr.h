/**
 * mmm/attr.h: the block attributes beyond the MMM's own, in one table.
 *
 * A <kernel> or <blocks> element has the MMM's attributes (count or
 * blocks, work, span, reads, writes, threads, shared, access: the named
 * fields of mmm_block_class and mmm_class_val) and the ones of this table,
 * which the time model reads (docs/time.md, section 2).  Everything about
 * the latter comes from the table: the loader's list of attributes of
 * <kernel> and <blocks>, what the program builder compiles, what the
 * evaluator checks (an exact integer, or a non-negative number), the
 * values the time model reads (mmm_instance_eval_attrs), and the tests
 * that dags/mmm.xsd, docs/format.md and docs/time.md list the same
 * attributes (tests/vocab_check.py).  The structs never name them: an
 * attribute is an index (mmm_attr), its texts, expressions and values are
 * reached through accessors, so that a new row changes no struct layout.
 *
 * Adding an attribute: one row here (the columns are below), its use in a
 * formula of src/time/timemodel.c, its element in dags/mmm.xsd and its
 * rows in docs/format.md and docs/time.md (ctest vocab says what is
 * missing).  No other file of src/ or include/ spells its name (ctest
 * vocab_names).
 */
#ifndef MMM_ATTR_H
#define MMM_ATTR_H

#include <stddef.h>

#include "mmm/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How the evaluator checks an attribute's value. */
typedef enum mmm_attr_type {
    MMM_ATTR_REAL = 0,   /**< a non-negative number */
    MMM_ATTR_INTEGER = 1 /**< an exact non-negative integer (a count) */
} mmm_attr_type;

/**
 * The table: X(ID, name, type, default, unit, default as documented,
 * meaning).  `default` is the value an absent attribute has
 * (mmm_attr_value.value); the time model computes its own where the
 * documented default says how (shared_bytes, rounds), from `given`.
 * The order is that of the attributes in dags/mmm.xsd.
 */
#define MMM_ATTR_TABLE(X)                                                    \
    X(SHARED_BYTES, "shared_bytes", MMM_ATTR_INTEGER, 0, "bytes",           \
      "`shared`·threads·`word_bytes`",                                      \
      "shared memory per block (static + dynamic)")                         \
    X(REGISTERS, "registers", MMM_ATTR_INTEGER, 0, "registers",             \
      "0 (no register limit)",                                              \
      "32-bit registers per thread (`ptxas -v`)")                           \
    X(BARRIERS, "barriers", MMM_ATTR_REAL, 0, "barriers", "0",              \
      "block-wide barriers on a thread's path")                             \
    X(ROUNDS, "rounds", MMM_ATTR_REAL, 0, "round trips",                    \
      "1 if `reads` > 0, else 0",                                           \
      "dependent global-memory round trips on a thread's path")             \
    X(CHAIN, "chain", MMM_ATTR_REAL, 0, "operations",                     \
      "`span`",                                                             \
      "operations of a thread's longest dependent chain, at most span")      \
    X(WAVEFRONTS, "wavefronts", MMM_ATTR_REAL, 0, "wavefronts", "0",        \
      "shared-memory wavefronts one warp of the block needs")               \
    X(READ_STRIDE, "read_stride", MMM_ATTR_REAL, 1, "words", "1",           \
      "words between the addresses neighbouring threads read in one "       \
      "instruction (1: coalesced)")                                         \
    X(WRITE_STRIDE, "write_stride", MMM_ATTR_REAL, 1, "words", "1",         \
      "the same for global writes")                                         \
    X(ATOMICS, "atomics", MMM_ATTR_REAL, 0, "atomic operations", "0",       \
      "atomic operations of one block on a global word every block of "     \
      "the launch updates")                                                 \
    X(GLOBAL_WAVEFRONTS, "global_wavefronts", MMM_ATTR_REAL, 0,             \
      "wavefronts", "0",                                                    \
      "128-byte lines one warp's global loads and stores touch")            \
    X(GATHERS, "gathers", MMM_ATTR_REAL, 0, "words", "0",                   \
      "of the reads, those at addresses spread at random over a region")    \
    X(GATHER_BYTES, "gather_bytes", MMM_ATTR_REAL, 0, "bytes",              \
      "0 (larger than the L2)",                                             \
      "bytes of the region the gathers and scatters fall in")               \
    X(SCATTERS, "scatters", MMM_ATTR_REAL, 0, "words", "0",                 \
      "of the writes, those at addresses spread at random over that "       \
      "region")                                                             \
    X(FOOTPRINT, "footprint", MMM_ATTR_REAL, 0, "bytes",                    \
      "0 (no L2 modelled for the kernel)",                                  \
      "bytes of distinct global data a launch touches in no <array>; the "  \
      "kernel's launches touch the same")

/** An attribute: its row in the table. */
typedef enum mmm_attr {
#define MMM_ATTR_ENUM_(id, name, type, dflt, unit, dtext, meaning) \
    MMM_ATTR_##id,
    MMM_ATTR_TABLE(MMM_ATTR_ENUM_)
#undef MMM_ATTR_ENUM_
    /** The rows of this build's table.  Size arrays that must match the
     *  library at run time with mmm_attr_count(). */
    MMM_ATTR_N
} mmm_attr;

/** The number of rows of the library's table (MMM_ATTR_N of the library
 *  linked). */
MMM_API size_t mmm_attr_count(void);
/** The attribute's name in DAG files ("registers"), NULL out of range. */
MMM_API const char *mmm_attr_name(mmm_attr a);
/** The attribute of that name, or -1. */
MMM_API int mmm_attr_find(const char *name);
/** How its value is checked (MMM_ATTR_REAL out of range). */
MMM_API mmm_attr_type mmm_attr_type_of(mmm_attr a);
/** The value of an absent attribute (0 out of range). */
MMM_API double mmm_attr_default(mmm_attr a);
/** Its unit ("bytes"), its default as docs/time.md writes it, its meaning
 *  in one line; NULL out of range. */
MMM_API const char *mmm_attr_unit(mmm_attr a);
MMM_API const char *mmm_attr_default_text(mmm_attr a);
MMM_API const char *mmm_attr_meaning(mmm_attr a);

#ifdef __cplusplus
}
#endif
#endif
