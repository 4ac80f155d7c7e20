/* parse_int.h: what the loader's files share (src/io/parse*.c, the only files
 * of mmm that include libxml2): the grammar's element and attribute
 * indices, the loader's state, the records a program load hands its
 * builder, and the functions one file calls in another.
 *
 *   parse.c          the grammar tables, attributes, elements, the SAX
 *                    callbacks and the two passes (see its opening comment)
 *   parse_errors.c   libxml2's errors routed into mmm_error, and lines
 *   parse_input.c    the bytes: a file or a buffer, counted against limits
 *   parse_program.c  DAG files: the builder of the records, the public
 *                    mmm_program_load_file/_memory
 *   parse_machine.c  machine files: mmm_machine_load_file/_free
 *
 * The calls go one way: parse_program.c and parse_machine.c call parse.c
 * (handing it their handlers, struct mmm__parse_handlers), which calls
 * parse_errors.c and parse_input.c.
 */
#ifndef MMM_PARSE_INT_H
#define MMM_PARSE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "mmm/program.h"
#include "base/pipe.h"

/* ------------------------------------------------------------------ */
/* The grammar (mirrors dags/mmm.xsd: keep both in step; the tables are
 * in parse.c)                                                          */

enum mmm__parse_elem {
    E_NONE,
    E_PROGRAM,
    E_DESCRIPTION,
    E_PARAM,
    E_CONSTRAINT,
    E_KERNEL,
    E_BLOCKS,
    E_EDGE,
    E_COPY,
    E_ACCESS,
    E_ARRAY,
    E_MACHINE,
    E_MPARAM,
    E_COUNT
};

/* Attribute indices, in the order of each element's table. */
enum { PR_NAME };
enum { PA_NAME, PA_VALUE, PA_MIN, PA_MAX };
enum { CO_TEST };
/* <kernel> and <blocks>: the MMM's attributes, then those of mmm/attr.h
 * (KE_ATTR0 + a, BL_ATTR0 + a for attribute a). */
enum {
    KE_ID, KE_BLOCKS, KE_THREADS, KE_WORK, KE_SPAN, KE_READS, KE_WRITES,
    KE_REPEAT, KE_INDEX, KE_SHARED, KE_ACCESS, KE_TYPE, KE_ATTR0,
    KE_N = KE_ATTR0 + MMM_ATTR_N
};
enum {
    BL_COUNT, BL_WORK, BL_SPAN, BL_READS, BL_WRITES, BL_THREADS, BL_SHARED,
    BL_ACCESS, BL_ATTR0,
    BL_N = BL_ATTR0 + MMM_ATTR_N
};
enum { ED_FROM, ED_TO };
enum { CP_ID, CP_KIND, CP_BYTES, CP_REPEAT, CP_SRC, CP_DST, CP_N };
enum { AC_WORDS, AC_MODE, AC_PATTERN, AC_STRIDE, AC_SCOPE, AC_REGION,
       AC_ARRAY, AC_TAKEN, AC_N };
enum { AR_NAME, AR_BYTES };
enum { MP_NAME, MP_VALUE };
#define MAX_ATTRS 32
_Static_assert(MAX_ATTRS <= 32, "a record's mask has 32 bits");
_Static_assert(KE_N <= MAX_ATTRS && BL_N <= MAX_ATTRS,
               "more attributes of <kernel> than a record's mask holds: "
               "widen record.mask");
#define BIT(i) (1u << (i))

typedef struct mmm__parse_elem_def {
    const char *name;
    const char *const *attrs;
    unsigned required; /* bit i: attrs[i] must be given */
    unsigned names;    /* bit i: [A-Za-z_][A-Za-z0-9_]* */
    unsigned ids;      /* bit i: non-empty, no white space */
    /* enums[i]: the values attribute i may take (NULL-terminated), or
     * NULL (any); enums itself NULL when no attribute is enumerated */
    const char *const *const *enums;
    int text;          /* character content allowed */
    const unsigned char *children;
} mmm__parse_elem_def;

/* ------------------------------------------------------------------ */
/* Loader state                                                        */

enum mmm__parse_mode { MODE_PROGRAM, MODE_MACHINE, MODE_SCHEMA, MODE_FIND };
enum mmm__parse_err_class { CLASS_OTHER, CLASS_SCHEMA };

/* Where the bytes come from: a file (fd) or a caller's buffer. */
typedef struct mmm__parse_source {
    int fd; /* -1 for memory */
    const char *mem;
    size_t len, pos;
    char *rbuf; /* reads from fd, served to libxml2 (which asks for 4000 */
    size_t rlen, rpos; /* bytes at a time: a syscall each) */
    uint64_t count, max;
    int cr_mode;  /* 0 not yet known, 1 fold CRs (fold_cr), -1 UTF-16 */
    int after_cr; /* the last byte passed on was a CR made LF */
    int eof;      /* every byte has been handed to libxml2 */
} mmm__parse_source;

/* The machine being loaded (mmm_machine.priv points here). */
typedef struct mmm__machine_impl {
    mmm_machine pub;
    char *file, *name;
    mmm_machine_param *params;
    mmm_value *values; /* params[i].value, contiguous for mmm_expr_eval */
    size_t cap;
} mmm__machine_impl;

#define STACK_MAX 8 /* deeper elements are always refused (unknown) */

/* The side of a program load that builds the program from the records of
 * the parse (see "Records" below): it may run in a thread of its own, so
 * it shares nothing with the parsing side but the file name. */
typedef struct mmm__parse_builder {
    _Alignas(64) const char *file; /* lines of its own: see pipe.c */
    mmm_program *prog;
    size_t kernel;       /* index of the open <kernel> */
    long kernel_line;
    int kernel_minimal;  /* it has a blocks attribute */
    size_t kernel_nclasses;
    /* defaults for its <blocks> children: shared, then the attributes of
     * mmm/attr.h (KDEF_N texts, NULL when not given) */
    char *kernel_def[1 + MMM_ATTR_N];
    int kernel_access;   /* -1: not given */
    /* A kernel or <blocks> whose reads and writes its <access> children
     * give: its texts are kept (pending: 1 a kernel, 2 a <blocks>) until
     * the record of its end, with the accesses. */
    int pending;
    int kernel_complete, blocks_complete; /* gave reads and writes */
    char *pend_text[MAX_ATTRS];
    long pend_line;
    mmm_access_spec *acc;
    char *(*acc_text)[5]; /* words, stride, region, array, taken */
    size_t nacc, acc_cap;
    mmm_error err;       /* the first error */
    int have_err;
} mmm__parse_builder;

typedef struct mmm__parse_loader {
    enum mmm__parse_mode mode;
    const char *file; /* name used in messages */
    mmm_limits lim;
    xmlParserCtxtPtr ctxt;
    mmm__parse_source *src;

    mmm_error err; /* the first error */
    int have_err, err_class, halted;

    size_t depth;
    int open_kernel_minimal; /* the open <kernel> has blocks=, reads= and
                                writes=: the builder needs no record of its
                                end */
    int open_blocks_pending; /* the open <blocks> lacks reads= or writes=:
                                its <access> children give them, and the
                                builder needs a record of its end */
    unsigned char stack[STACK_MAX];
    /* libxml2 hands names over interned in the parser's dictionary (one
     * pointer per distinct name), so once a name has matched, the next
     * ones are recognized by their pointer, without strcmp. */
    const xmlChar *elem_name[E_COUNT];
    const xmlChar *attr_name[E_COUNT][MAX_ATTRS];
    char *scratch; /* attribute values of the current element */
    size_t scratch_cap;
    char *text; /* <description> text */
    size_t text_len, text_cap;
    long description_line;

    /* MODE_PROGRAM: each element becomes a record for the builder */
    mmm__parse_builder bld;
    mmm__pipe *pipe;

    /* MODE_MACHINE */
    mmm__machine_impl *mach;

    /* MODE_PROGRAM, MODE_MACHINE: what the caller of the load hands the
     * parse (below) */
    const struct mmm__parse_handlers *on;

    /* MODE_SCHEMA: stop after this line */
    long target_line;
    /* what our message adds to the error (a close name, the allowed
     * ones): kept when pass 2 takes libxml2's wording of the same error */
    char hint[640];
    /* the error named a parameter that is not declared (yet): its name,
     * and the length of the message before any hint; MODE_FIND: the
     * name looked for, and found_line the line of its <param> */
    char unknown_name[65];
    size_t unknown_cut;
    long found_line;
} mmm__parse_loader;

/* The loader's caller (parse_program.c, parse_machine.c) hands parse.c
 * what to do with the checked elements, in ld->on: parse.c calls these
 * and nothing else of those files, which call it (the calls between the
 * files go one way: tests/layers_check.py). */
typedef struct mmm__parse_handlers {
    /* MODE_PROGRAM: the pipe's consumer, which builds from a chunk of
     * records (ctx: &ld->bld); non-zero stops the pipe */
    int (*build_records)(void *ctx, char *data, size_t len);
    /* MODE_MACHINE: an element, checked, with its attribute values */
    void (*element)(mmm__parse_loader *ld, enum mmm__parse_elem kind, const char **v, long line);
} mmm__parse_handlers;

/* libxml2 prints what no handler catches: route the thread's global
 * handlers to us for the duration of a load, then put them back. */
typedef struct mmm__parse_guard {
    xmlStructuredErrorFunc sfn;
    void *sctx;
    xmlGenericErrorFunc gfn;
    void *gctx;
} mmm__parse_guard;

/* ------------------------------------------------------------------ */
/* Records: what the parse hands the builder through the pipe           */

/* Record kinds: an element kind (its start tag, with its attributes), or
 * one of these. */
enum { R_END_KERNEL = E_COUNT, R_DESCRIPTION, R_END_BLOCKS,
       R_ACCESS_IN_BLOCKS /* an <access> record whose parent is <blocks> */ };
_Static_assert(R_ACCESS_IN_BLOCKS < 256, "a record's kind has 8 bits");

/* A record: this header, then the present values in attribute order,
 * each with its terminating NUL.  Records are packed (no alignment): the
 * header is copied out with memcpy.  16 bytes of header keep an edge's
 * record near 32 bytes: the records of a big file cross from one core to
 * the other, and their volume matters. */
typedef struct mmm__parse_record {
    uint32_t size;          /* bytes, with the strings */
    uint32_t mask;          /* bit i: value i is present */
    uint64_t kind : 8;      /* enum mmm__parse_elem, or R_* */
    uint64_t line : 56;     /* the element's line (>= 0) */
} mmm__parse_record;
_Static_assert(sizeof(mmm__parse_record) == 16, "a record's header is 16 bytes");

/* ------------------------------------------------------------------ */
/* Across the files                                                    */

/* parse_errors.c */
void mmm__parse_halt(mmm__parse_loader *ld);
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
void mmm__parse_fail(mmm__parse_loader *ld, int code, int cls, long line, const char *fmt, ...);
/* libxml2's error e as one line into buf: what to fix, then libxml2's own
 * words "(libxml2: ...)" (its words alone when there is nothing to add);
 * at_end: the parser has met the end of the input (mmm__xml_at_end). */
void mmm__xml_message(char *buf, size_t size, const xmlError *e, int at_end);
/* 1 when all the input has been read (all_read) and only white space is
 * left after the parser's position in c: a file cut short. */
int mmm__xml_at_end(xmlParserCtxtPtr c, int all_read);
void mmm__parse_xml_error(mmm__parse_loader *ld, const xmlError *e, long line);
void mmm__parse_on_error(void *data, xmlErrorPtr e);
void mmm__parse_guard_begin(mmm__parse_guard *g, mmm__parse_loader *ld);
void mmm__parse_guard_end(const mmm__parse_guard *g);
long mmm__parse_tag_line(xmlParserCtxtPtr c);
int mmm__parse_schema_locator(void *ctx, const char **file, unsigned long *line);

/* parse_input.c */
int mmm__parse_read(void *ctx, char *buf, int len);
int mmm__parse_close(void *ctx);
int mmm__parse_open_file(mmm__parse_source *s, const char *path, uint64_t max, mmm_error *err);

/* parse.c (ld->on set by the caller) */
void mmm__parse_start_description(mmm__parse_loader *ld, long line);
int mmm__parse_load(mmm__parse_loader *ld, const char *path, const char *mem, size_t len,
                    int skip_schema, int threads, mmm_error *err);
void mmm__parse_loader_dispose(mmm__parse_loader *ld);
void mmm__parse_declared_later(mmm__parse_loader *first, const char *path,
                               const char *mem, size_t len, mmm_error *err);

#endif
