/*
 * parse.c: the loaders of DAG files (<program>) and machine files
 * (<machine>), and the built-in XML Schema.  The only file of mmm that
 * includes libxml2.  The format is documented in docs/format.md.
 *
 * How a file is read:
 * - libxml2's SAX2 parser streams it through our read callback, which
 *   counts bytes against max_file_bytes; no tree is built, so memory stays
 *   constant apart from what the builder keeps.  (SAX rather than
 *   xmlTextReader: the reader's nodes keep line numbers in 16 bits, so a
 *   10^6-kernel file would get wrong lines past 65535, and the reader
 *   costs twice the time of plain SAX.)
 * - Pass 1 checks every element against the tables below, which mirror
 *   dags/mmm.xsd (unknown element or attribute, missing attribute, name
 *   patterns, the access enumeration, text in element-only content), and
 *   feeds the builder (src/program.c).  libxml2's streaming XSD validator
 *   costs more than the parse itself (1.2 s per 4·10^6 elements), so it is
 *   not run on every file: when pass 1 stops on a schema-class error,
 *   pass 2 parses the input again, up to that line, with the validator
 *   plugged into the SAX stream, and libxml2's message replaces ours when
 *   it is about the same line.  Valid files therefore pay nothing for the
 *   schema, and invalid ones get libxml2's precise wording.
 * - A <!DOCTYPE> is refused in the internalSubset callback, which libxml2
 *   calls before it reads any declaration of the internal subset, so no
 *   entity is ever declared (let alone expanded) and nothing external is
 *   loaded (no XML_PARSE_NOENT, no DTDLOAD, NONET set, HUGE not set).
 * - Each element of a program, once checked, becomes a record that the
 *   builder side (struct builder: start_kernel, program_element, ...) turns
 *   into calls of src/program.c.  The records go through a pipe
 *   (src/pipe.c) that hands them over in chunks, either inline or to a
 *   second thread that builds while libxml2 goes on parsing (big inputs,
 *   see mmm_load_options.threads); the builder shares nothing else with the
 *   parsing side, and its error, when it has one, is the first of the file
 *   (its records all precede the point where the parse stopped).
 * - Errors: the first one wins (libxml2's through structured handlers, so
 *   that libxml2 never prints); once one is recorded, SAX events are
 *   disabled and the read callback reports end of input, so the parser
 *   stops within a few kilobytes.  Lines are those of the '<' that opens
 *   the element, found by scanning back from the parser's position (the
 *   tag is still in libxml2's buffer when its callback runs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include "mmm/program.h"
#include "pipe.h"

/* Generated from dags/mmm.xsd by cmake/embed.cmake. */
const char *mmm__schema_text(void);

const char *mmm_schema_text(void)
{
    return mmm__schema_text();
}

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"
/* Inputs from this size on are built in a second thread (MMM_THREADS_AUTO):
 * below it, the thread costs more than it saves. */
#define PIPE_MIN_BYTES ((uint64_t)1 << 20)
#define PARSE_OPTIONS (XML_PARSE_NONET | XML_PARSE_IGNORE_ENC)

/* ------------------------------------------------------------------ */
/* The grammar (mirrors dags/mmm.xsd: keep both in step)               */

enum elem {
    E_NONE,
    E_PROGRAM,
    E_DESCRIPTION,
    E_PARAM,
    E_CONSTRAINT,
    E_KERNEL,
    E_BLOCKS,
    E_EDGE,
    E_MACHINE,
    E_MPARAM,
    E_COUNT
};

/* Attribute indices, in the order of each element's table. */
enum { PR_NAME };
enum { PA_NAME, PA_VALUE, PA_MIN, PA_MAX };
enum { CO_TEST };
enum {
    KE_ID, KE_BLOCKS, KE_THREADS, KE_WORK, KE_SPAN, KE_READS, KE_WRITES,
    KE_REPEAT, KE_INDEX, KE_SHARED, KE_ACCESS, KE_SHARED_BYTES,
    KE_REGISTERS, KE_BARRIERS, KE_ROUNDS, KE_WAVEFRONTS
};
enum {
    BL_COUNT, BL_WORK, BL_SPAN, BL_READS, BL_WRITES, BL_THREADS, BL_SHARED,
    BL_ACCESS, BL_SHARED_BYTES, BL_REGISTERS, BL_BARRIERS, BL_ROUNDS,
    BL_WAVEFRONTS
};
enum { ED_FROM, ED_TO };
enum { MP_NAME, MP_VALUE };
#define MAX_ATTRS 16
_Static_assert(MAX_ATTRS <= 16, "a record's mask has 16 bits");
#define BIT(i) (1u << (i))

static const char *const program_attrs[] = {"name", NULL};
static const char *const param_attrs[] = {"name", "value", "min", "max",
                                          NULL};
static const char *const constraint_attrs[] = {"test", NULL};
static const char *const kernel_attrs[] = {
    "id", "blocks", "threads", "work", "span", "reads", "writes", "repeat",
    "index", "shared", "access", "shared_bytes", "registers", "barriers",
    "rounds", "wavefronts", NULL};
static const char *const blocks_attrs[] = {
    "count", "work", "span", "reads", "writes", "threads", "shared",
    "access", "shared_bytes", "registers", "barriers", "rounds",
    "wavefronts", NULL};
static const char *const edge_attrs[] = {"from", "to", NULL};
static const char *const mparam_attrs[] = {"name", "value", NULL};
static const char *const no_attrs[] = {NULL};

static const unsigned char program_children[] = {
    E_DESCRIPTION, E_PARAM, E_CONSTRAINT, E_KERNEL, E_EDGE, E_NONE};
static const unsigned char kernel_children[] = {E_BLOCKS, E_NONE};
static const unsigned char machine_children[] = {E_DESCRIPTION, E_MPARAM,
                                                 E_NONE};
static const unsigned char no_children[] = {E_NONE};

typedef struct elem_def {
    const char *name;
    const char *const *attrs;
    unsigned required; /* bit i: attrs[i] must be given */
    unsigned names;    /* bit i: [A-Za-z_][A-Za-z0-9_]* */
    unsigned ids;      /* bit i: non-empty, no white space */
    unsigned access;   /* bit i: coalesced | irregular */
    int text;          /* character content allowed */
    const unsigned char *children;
} elem_def;

static const elem_def defs[E_COUNT] = {
    [E_NONE] = {"", no_attrs, 0, 0, 0, 0, 0, no_children},
    [E_PROGRAM] = {"program", program_attrs, BIT(PR_NAME), 0, 0, 0, 0,
                   program_children},
    [E_DESCRIPTION] = {"description", no_attrs, 0, 0, 0, 0, 1, no_children},
    [E_PARAM] = {"param", param_attrs, BIT(PA_NAME) | BIT(PA_VALUE),
                 BIT(PA_NAME), 0, 0, 0, no_children},
    [E_CONSTRAINT] = {"constraint", constraint_attrs, BIT(CO_TEST), 0, 0, 0,
                      0, no_children},
    [E_KERNEL] = {"kernel", kernel_attrs, BIT(KE_ID), BIT(KE_INDEX),
                  BIT(KE_ID), BIT(KE_ACCESS), 0, kernel_children},
    [E_BLOCKS] = {"blocks", blocks_attrs,
                  BIT(BL_COUNT) | BIT(BL_WORK) | BIT(BL_SPAN) |
                      BIT(BL_READS) | BIT(BL_WRITES),
                  0, 0, BIT(BL_ACCESS), 0, no_children},
    [E_EDGE] = {"edge", edge_attrs, BIT(ED_FROM) | BIT(ED_TO), 0,
                BIT(ED_FROM) | BIT(ED_TO), 0, 0, no_children},
    [E_MACHINE] = {"machine", program_attrs, BIT(PR_NAME), 0, 0, 0, 0,
                   machine_children},
    [E_MPARAM] = {"param", mparam_attrs, BIT(MP_NAME) | BIT(MP_VALUE),
                  BIT(MP_NAME), 0, 0, 0, no_children},
};

/* ------------------------------------------------------------------ */
/* Loader state                                                        */

enum mode { MODE_PROGRAM, MODE_MACHINE, MODE_SCHEMA };
enum err_class { CLASS_OTHER, CLASS_SCHEMA };

/* Where the bytes come from: a file (fd) or a caller's buffer. */
typedef struct source {
    int fd; /* -1 for memory */
    const char *mem;
    size_t len, pos;
    char *rbuf; /* reads from fd, served to libxml2 (which asks for 4000 */
    size_t rlen, rpos; /* bytes at a time: a syscall each) */
    uint64_t count, max;
    int cr_mode;  /* 0 not yet known, 1 fold CRs (fold_cr), -1 UTF-16 */
    int after_cr; /* the last byte passed on was a CR made LF */
} source;

/* The machine being loaded (mmm_machine.priv points here). */
typedef struct machine_impl {
    mmm_machine pub;
    char *file, *name;
    mmm_machine_param *params;
    mmm_value *values; /* params[i].value, contiguous for mmm_expr_eval */
    size_t cap;
} machine_impl;

#define STACK_MAX 8 /* deeper elements are always refused (unknown) */

/* The side of a program load that builds the program from the records of
 * the parse (see "Records" below): it may run in a thread of its own, so
 * it shares nothing with the parsing side but the file name. */
typedef struct builder {
    _Alignas(64) const char *file; /* lines of its own: see pipe.c */
    mmm_program *prog;
    size_t kernel;       /* index of the open <kernel> */
    long kernel_line;
    int kernel_minimal;  /* it has a blocks attribute */
    size_t kernel_nclasses;
    /* defaults for its <blocks> children: shared, shared_bytes, registers,
     * barriers, rounds, wavefronts (KDEF_N texts, NULL when not given) */
    char *kernel_def[6];
    int kernel_access;   /* -1: not given */
    mmm_error err;       /* the first error */
    int have_err;
} builder;

typedef struct loader {
    enum mode mode;
    const char *file; /* name used in messages */
    mmm_limits lim;
    xmlParserCtxtPtr ctxt;
    source *src;

    mmm_error err; /* the first error */
    int have_err, err_class, halted;

    size_t depth;
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
    builder bld;
    mmm_pipe *pipe;

    /* MODE_MACHINE */
    machine_impl *mach;

    /* MODE_SCHEMA: stop after this line */
    long target_line;
} loader;

static loader *loader_of(void *user_data)
{
    return ((xmlParserCtxtPtr)user_data)->_private;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* Stop the parse soon: no more SAX events, and end of input at the next
 * read.  Safe from any callback (libxml2 does the same on fatal errors). */
static void halt(loader *ld)
{
    ld->halted = 1;
    if (ld->ctxt)
        ld->ctxt->disableSAX = 1;
}

static void vfail(loader *ld, int code, int cls, long line, const char *fmt,
                  va_list ap)
{
    if (!ld->have_err) {
        ld->have_err = 1;
        ld->err_class = cls;
        mmm_error_vset(&ld->err, code, ld->file, line, fmt, ap);
    }
    halt(ld);
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void fail(loader *ld, int code, int cls, long line, const char *fmt,
                 ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(ld, code, cls, line, fmt, ap);
    va_end(ap);
}

/* The builder's errors (its own, or the program builder's and the
 * expression parser's, whose message is kept and whose file and line are
 * filled in when missing): the first one is kept, and the pipe stops. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void bfail(builder *b, int code, long line, const char *fmt, ...)
{
    if (b->have_err)
        return;
    va_list ap;
    va_start(ap, fmt);
    b->have_err = 1;
    mmm_error_vset(&b->err, code, b->file, line, fmt, ap);
    va_end(ap);
}

static void bfail_with(builder *b, const mmm_error *e, long line)
{
    bfail(b, e->code < 0 ? e->code : MMM_EINPUT,
          e->line > 0 ? e->line : line, "%s", e->message);
}

/* libxml2 messages: one line, no trailing newline or period, sentences
 * starting in lowercase ("Element 'x': This element is not expected." ->
 * "element 'x': this element is not expected"), quoted text untouched. */
static void tidy_message(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    int quoted = 0, start = 1, space = 0;
    for (const char *s = src; *s && n + 2 < size; s++) {
        char c = *s;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            space = n > 0;
            continue;
        }
        if (space)
            dst[n++] = ' ';
        space = 0;
        if (start && !quoted && c >= 'A' && c <= 'Z' && s[1] >= 'a' &&
            s[1] <= 'z')
            c = (char)(c - 'A' + 'a');
        start = 0;
        if (c == '\'' && quoted)
            quoted = 0;
        else if (c == '\'' && (n == 0 || strchr(" ({,=", dst[n - 1])))
            quoted = 1; /* an opening quote, not an apostrophe */
        else if (!quoted && (c == ':' || c == '.' || c == '!' || c == ']'))
            start = s[1] == ' ' || s[1] == '\n';
        dst[n++] = c;
    }
    while (n > 0 && (dst[n - 1] == '.' || dst[n - 1] == ' '))
        n--;
    dst[n] = '\0';
}

static int xml_error_code(const xmlError *e)
{
    switch (e->domain) {
    case XML_FROM_SCHEMASV:
    case XML_FROM_SCHEMASP:
        return MMM_EINPUT;
    case XML_FROM_IO:
        return MMM_EIO;
    case XML_FROM_MEMORY:
        return MMM_ENOMEM;
    default:
        return MMM_EPARSE;
    }
}

static void record_xml_error(loader *ld, const xmlError *e, long line)
{
    char msg[sizeof ld->err.message];
    if (!e || e->level < XML_ERR_ERROR || ld->have_err)
        return;
    tidy_message(msg, sizeof msg, e->message ? e->message : "XML error");
    if (!strncmp(msg, "input is not proper UTF-8, indicate encoding !", 46))
        fail(ld, MMM_EPARSE, CLASS_OTHER, line,
             "input is not proper UTF-8 (%s); DAG files must be UTF-8",
             msg[46] == ' ' ? msg + 47 : "");
    else
        fail(ld, xml_error_code(e), CLASS_OTHER, line, "%s", msg);
}

/* Parser errors (sax->serror).  The data pointer is not reliable (with the
 * schema plugged in it is the plug), the error's context is. */
static void on_parser_error(void *data, xmlErrorPtr e)
{
    (void)data;
    xmlParserCtxtPtr c = e ? e->ctxt : NULL;
    if (c && c->_private)
        record_xml_error(c->_private, e, e->line);
}

/* Everything else libxml2 reports while we hold the thread's handler. */
static void on_other_error(void *data, xmlErrorPtr e)
{
    loader *ld = data;
    record_xml_error(ld, e, e ? e->line : 0);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void silent_generic(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

/* libxml2 prints what no handler catches: route the thread's global
 * handlers to us for the duration of a load, then put them back. */
typedef struct handler_guard {
    xmlStructuredErrorFunc sfn;
    void *sctx;
    xmlGenericErrorFunc gfn;
    void *gctx;
} handler_guard;

static void guard_begin(handler_guard *g, loader *ld)
{
    xmlInitParser();
    g->sfn = xmlStructuredError;
    g->sctx = xmlStructuredErrorContext;
    g->gfn = xmlGenericError;
    g->gctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(ld, on_other_error);
    xmlSetGenericErrorFunc(NULL, silent_generic);
}

static void guard_end(const handler_guard *g)
{
    xmlSetStructuredErrorFunc(g->sctx, g->sfn);
    xmlSetGenericErrorFunc(g->gctx, g->gfn);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

/* Does the 8-byte word w contain byte b?  (The classic zero-byte test on
 * w ^ b·0x01..01.) */
static int word_has(uint64_t w, unsigned char b)
{
    uint64_t x = w ^ (0x0101010101010101ull * b);
    return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0;
}

/* Line of the '<' that opened the tag the parser has just read: scan back
 * from the parser's position ('<' cannot occur inside a tag), eight bytes
 * at a time while they hold neither '<' nor a newline. */
static long tag_line(xmlParserCtxtPtr c)
{
    if (!c || !c->input || !c->input->cur || !c->input->base)
        return 0;
    const xmlChar *base = c->input->base, *p = c->input->cur;
    long line = c->input->line, nl = 0;
    while (p > base) {
        uint64_t w;
        if (p - base >= 8) {
            memcpy(&w, p - 8, 8);
            if (!word_has(w, '<') && !word_has(w, '\n')) {
                p -= 8;
                continue;
            }
        }
        --p;
        if (*p == '<')
            return line - nl;
        if (*p == '\n')
            nl++;
    }
    return line;
}

/* For the schema validator (pass 2): the same convention. */
static int schema_locator(void *ctx, const char **file, unsigned long *line)
{
    loader *ld = ctx;
    *file = NULL;
    *line = (unsigned long)tag_line(ld->ctxt);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

/* libxml2 counts lines on LF alone, so a file with classic Mac line ends
 * (a lone CR) had every error at line 1.  XML reads CR LF and a lone CR as
 * one LF (XML 1.0, section 2.11): do it here and the lines come out right.
 * UTF-16 input (a NUL or a UTF-16 byte order mark in its first two bytes)
 * is left alone, where a byte 0x0D may be half a character.  Returns the
 * new length (shorter by the LFs of CR LF pairs). */
static int fold_cr(source *s, char *buf, int n)
{
    const unsigned char *u = (const unsigned char *)buf;
    int o = 0;
    if (s->cr_mode == 0 && n > 0)
        s->cr_mode = (u[0] == 0xFE || u[0] == 0xFF || u[0] == 0 ||
                      (n > 1 && u[1] == 0)) ? -1 : 1;
    if (s->cr_mode < 0 || n <= 0 ||
        (!s->after_cr && !memchr(buf, '\r', (size_t)n)))
        return n;
    for (int i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n' && s->after_cr) {
            s->after_cr = 0;
            continue;
        }
        s->after_cr = c == '\r';
        buf[o++] = s->after_cr ? '\n' : c;
    }
    return o;
}

#define RBUF_SIZE ((size_t)1 << 18)

/* Up to len bytes from the descriptor, through s->rbuf when it could be
 * allocated; -1 on a read error (errno set). */
static ssize_t read_fd(source *s, char *buf, size_t len)
{
    ssize_t n;
    if (!s->rbuf) {
        do
            n = read(s->fd, buf, len);
        while (n < 0 && errno == EINTR);
        return n;
    }
    if (s->rpos == s->rlen) {
        do
            n = read(s->fd, s->rbuf, RBUF_SIZE);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            return n;
        s->rlen = (size_t)n;
        s->rpos = 0;
    }
    size_t k = s->rlen - s->rpos < len ? s->rlen - s->rpos : len;
    memcpy(buf, s->rbuf + s->rpos, k);
    s->rpos += k;
    return (ssize_t)k;
}

static int read_source(void *ctx, char *buf, int len)
{
    loader *ld = ctx;
    source *s = ld->src;
    ssize_t n;
    if (ld->halted || len <= 0)
        return 0;
again:
    if (s->fd >= 0) {
        n = read_fd(s, buf, (size_t)len);
        if (n < 0) {
            fail(ld, MMM_EIO, CLASS_OTHER, 0, "cannot read: %s",
                 strerror(errno));
            return -1;
        }
    } else {
        size_t left = s->len - s->pos;
        n = (ssize_t)(left < (size_t)len ? left : (size_t)len);
        memcpy(buf, s->mem + s->pos, (size_t)n);
        s->pos += (size_t)n;
    }
    s->count += (uint64_t)n;
    if (s->count > s->max) {
        fail(ld, MMM_ELIMIT, CLASS_OTHER, 0,
             "file too big: over the limit of %llu bytes",
             (unsigned long long)s->max);
        return -1;
    }
    if (n > 0 && (n = fold_cr(s, buf, (int)n)) == 0)
        goto again; /* the chunk was the LF of a CR LF: 0 would mean EOF */
    return (int)n;
}

static int close_source(void *ctx)
{
    (void)ctx; /* the descriptor is closed by its opener */
    return 0;
}

/* Open path for reading and check its size against the limit. */
static int open_file(source *s, const char *path, uint64_t max,
                     mmm_error *err)
{
    struct stat st;
    memset(s, 0, sizeof *s);
    s->max = max;
    s->fd = open(path, O_RDONLY);
    if (s->fd < 0)
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot open: %s",
                             strerror(errno));
    if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(s->fd);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot read: %s",
                             strerror(EISDIR));
    }
    if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size > max) {
        close(s->fd);
        return mmm_error_set(err, MMM_ELIMIT, path, 0,
                             "file too big: %llu bytes (limit %llu)",
                             (unsigned long long)st.st_size,
                             (unsigned long long)max);
    }
    s->rbuf = malloc(RBUF_SIZE); /* without it, plain reads */
    return 0;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */

static int is_name(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static int is_id(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            return 0;
    return 1;
}

static int find_attr(loader *ld, enum elem kind, const xmlChar *name)
{
    const elem_def *d = &defs[kind];
    const xmlChar **known = ld->attr_name[kind];
    for (int i = 0; d->attrs[i]; i++)
        if (known[i] == name)
            return i;
    for (int i = 0; d->attrs[i]; i++)
        if (d->attrs[i][0] == (char)name[0] &&
            !strcmp(d->attrs[i], (const char *)name)) {
            known[i] = name;
            return i;
        }
    return -1;
}

/* Copy an attribute value (SAX2 gives begin/end pointers) as a C string.
 * Without XML_PARSE_NOENT libxml2 hands '&' over as "&#38;" (it expects
 * the tree builder to re-parse the value); nothing else is escaped. */
static char *copy_value(char *dst, const xmlChar *b, const xmlChar *e)
{
    if (!memchr(b, '&', (size_t)(e - b))) {
        memcpy(dst, b, (size_t)(e - b));
        dst[e - b] = '\0';
        return dst + (e - b) + 1;
    }
    while (b < e) {
        if (*b == '&' && e - b >= 5 && !memcmp(b, "&#38;", 5)) {
            *dst++ = '&';
            b += 5;
        } else {
            *dst++ = (char)*b++;
        }
    }
    *dst++ = '\0';
    return dst;
}

static void bad_attr_value(loader *ld, const elem_def *d, int i,
                           const char *v, long line)
{
    unsigned bit = BIT(i);
    const char *why = (d->names & bit)
                          ? "is not a name (letters, digits and '_', not "
                            "starting with a digit)"
                      : (d->ids & bit) ? "must be non-empty without spaces"
                                       : "is not one of 'coalesced', "
                                         "'irregular'";
    fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
         "element '%s', attribute '%s': the value '%.200s' %s", d->name,
         d->attrs[i], v, why);
}

/* Check the attributes of an element against its definition and copy
 * them: vals[i] is attrs[i]'s value or NULL.  Returns 0 or -1 (failed). */
static int collect(loader *ld, enum elem kind, int nattr,
                   const xmlChar **at, long line, const char **vals)
{
    const elem_def *d = &defs[kind];
    int slot[MAX_ATTRS + 2]; /* known ones, each once, + the two xsi: */
    size_t need = 0;
    unsigned seen = 0;
    for (int i = 0; d->attrs[i]; i++)
        vals[i] = NULL;
    for (int i = 0; i < nattr; i++) {
        const xmlChar **a = at + 5 * i;
        int k = -1;
        if (i >= (int)(sizeof slot / sizeof *slot)) {
            fail(ld, MMM_EINPUT, CLASS_OTHER, line,
                 "element '%s': too many attributes", d->name);
            return -1;
        }
        if (!a[2])
            k = find_attr(ld, kind, a[0]);
        else if (!strcmp((const char *)a[2], XSI_NS) &&
                 (!strcmp((const char *)a[0], "schemaLocation") ||
                  !strcmp((const char *)a[0], "noNamespaceSchemaLocation")))
            continue; /* editors' hint to find the schema: harmless */
        if (k < 0) {
            fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
                 "element '%s', attribute '%s%s%s': the attribute is not "
                 "allowed",
                 d->name, a[1] ? (const char *)a[1] : "", a[1] ? ":" : "",
                 (const char *)a[0]);
            return -1;
        }
        slot[i] = k;
        seen |= BIT(k);
        need += (size_t)(a[4] - a[3]) + 1;
    }
    for (int i = 0; d->attrs[i]; i++)
        if ((d->required & BIT(i)) && !(seen & BIT(i))) {
            fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
                 "element '%s': the attribute '%s' is required but missing",
                 d->name, d->attrs[i]);
            return -1;
        }
    if (need > ld->scratch_cap) {
        size_t cap = need < 256 ? 256 : need * 2;
        char *n = realloc(ld->scratch, cap);
        if (!n) {
            fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
            return -1;
        }
        ld->scratch = n;
        ld->scratch_cap = cap;
    }
    char *out = ld->scratch;
    for (int i = 0; i < nattr; i++) {
        const xmlChar **a = at + 5 * i;
        if (a[2])
            continue;
        vals[slot[i]] = out;
        out = copy_value(out, a[3], a[4]);
    }
    for (int i = 0; d->attrs[i]; i++) {
        unsigned bit = BIT(i);
        const char *v = vals[i];
        if (!v || !((d->names | d->ids | d->access) & bit))
            continue;
        if (((d->names & bit) && !is_name(v)) ||
            ((d->ids & bit) && !is_id(v)) ||
            ((d->access & bit) && strcmp(v, "coalesced") &&
             strcmp(v, "irregular"))) {
            bad_attr_value(ld, d, i, v, line);
            return -1;
        }
    }
    return 0;
}

static mmm_access access_of(const char *v, mmm_access dflt)
{
    if (!v)
        return dflt;
    return strcmp(v, "irregular") ? MMM_ACCESS_COALESCED
                                  : MMM_ACCESS_IRREGULAR;
}

/* ------------------------------------------------------------------ */
/* Elements                                                            */

static enum elem root_kind(const loader *ld)
{
    return ld->mode == MODE_MACHINE ? E_MACHINE : E_PROGRAM;
}

/* The kind of element `name` under parent (E_NONE at the root), or E_NONE
 * when it is not allowed there. */
static enum elem child_kind(loader *ld, enum elem parent,
                            const xmlChar *name)
{
    if (parent == E_NONE) {
        enum elem r = root_kind(ld);
        return !strcmp((const char *)name, defs[r].name) ? r : E_NONE;
    }
    const unsigned char *c;
    for (c = defs[parent].children; *c != E_NONE; c++)
        if (ld->elem_name[*c] == name)
            return (enum elem)*c;
    for (c = defs[parent].children; *c != E_NONE; c++)
        if (!strcmp(defs[*c].name, (const char *)name)) {
            ld->elem_name[*c] = name;
            return (enum elem)*c;
        }
    return E_NONE;
}

static void unexpected_element(loader *ld, enum elem parent,
                               const xmlChar *local, const xmlChar *prefix,
                               long line)
{
    char qname[256], expected[160] = "";
    snprintf(qname, sizeof qname, "%s%s%s", prefix ? (const char *)prefix : "",
             prefix ? ":" : "", (const char *)local);
    if (parent == E_NONE) {
        const char *want = defs[root_kind(ld)].name;
        const char *hint = "";
        if (ld->mode == MODE_PROGRAM && !strcmp(qname, "machine"))
            hint = " (this is a machine file: use --machine)";
        else if (ld->mode == MODE_MACHINE && !strcmp(qname, "program"))
            hint = " (this is a DAG file, not a machine file)";
        fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
             "element '%s': the root element must be <%s>%s", qname, want,
             hint);
        return;
    }
    for (const unsigned char *c = defs[parent].children; *c != E_NONE; c++) {
        size_t n = strlen(expected);
        snprintf(expected + n, sizeof expected - n, "%s%s",
                 n ? ", " : "", defs[*c].name);
    }
    if (expected[0])
        fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
             "element '%s': this element is not expected inside <%s> "
             "(expected one of: %s)",
             qname, defs[parent].name, expected);
    else
        fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
             "element '%s': this element is not expected (<%s> has no "
             "child elements)",
             qname, defs[parent].name);
}

static void start_description(loader *ld, long line)
{
    if (ld->description_line > 0) {
        fail(ld, MMM_EINPUT, CLASS_OTHER, line,
             "a second <description> (the first is at line %ld)",
             ld->description_line);
        return;
    }
    ld->description_line = line;
    ld->text_len = 0;
}

/* The kernel attributes its <blocks> children inherit, in the order of
 * builder.kernel_def, and the <blocks> attributes of the same names. */
#define KDEF_N 6
static const int kdef_ke[KDEF_N] = {KE_SHARED, KE_SHARED_BYTES, KE_REGISTERS,
                                    KE_BARRIERS, KE_ROUNDS, KE_WAVEFRONTS};
static const int kdef_bl[KDEF_N] = {BL_SHARED, BL_SHARED_BYTES, BL_REGISTERS,
                                    BL_BARRIERS, BL_ROUNDS, BL_WAVEFRONTS};

static void kernel_defs_free(builder *b)
{
    for (int i = 0; i < KDEF_N; i++) {
        free(b->kernel_def[i]);
        b->kernel_def[i] = NULL;
    }
}

static void start_kernel(builder *b, const char **v, long line)
{
    mmm_kernel_spec ks;
    mmm_error e;
    memset(&ks, 0, sizeof ks);
    ks.id = v[KE_ID];
    ks.line = line;
    ks.repeat = v[KE_REPEAT];
    ks.index = v[KE_INDEX];
    ks.threads = v[KE_THREADS];
    ks.blocks = v[KE_BLOCKS];
    ks.work = v[KE_WORK];
    ks.span = v[KE_SPAN];
    ks.reads = v[KE_READS];
    ks.writes = v[KE_WRITES];
    b->kernel_minimal = v[KE_BLOCKS] != NULL;
    b->kernel_line = line;
    b->kernel_nclasses = 0;
    kernel_defs_free(b);
    b->kernel_access = -1;
    if (b->kernel_minimal) {
        ks.shared = v[KE_SHARED];
        ks.access = access_of(v[KE_ACCESS], MMM_ACCESS_COALESCED);
        ks.shared_bytes = v[KE_SHARED_BYTES];
        ks.registers = v[KE_REGISTERS];
        ks.barriers = v[KE_BARRIERS];
        ks.rounds = v[KE_ROUNDS];
        ks.wavefronts = v[KE_WAVEFRONTS];
    } else {
        /* Several kinds of block: shared, access and the time model's
         * attributes are their defaults. */
        for (int i = 0; i < KDEF_N; i++)
            if (v[kdef_ke[i]] &&
                !(b->kernel_def[i] = strdup(v[kdef_ke[i]]))) {
                bfail(b, MMM_ENOMEM, line, "out of memory");
                return;
            }
        if (v[KE_ACCESS])
            b->kernel_access = (int)access_of(v[KE_ACCESS], 0);
    }
    mmm_error_clear(&e);
    if (mmm_program_add_kernel(b->prog, &ks, &b->kernel, &e) < 0)
        bfail_with(b, &e, line);
}

static void start_blocks(builder *b, const char **v, long line)
{
    mmm_class_spec cs;
    mmm_error e;
    memset(&cs, 0, sizeof cs);
    cs.line = line;
    cs.count = v[BL_COUNT];
    cs.work = v[BL_WORK];
    cs.span = v[BL_SPAN];
    cs.reads = v[BL_READS];
    cs.writes = v[BL_WRITES];
    cs.threads = v[BL_THREADS];
    {
        const char **dst[KDEF_N] = {&cs.shared, &cs.shared_bytes,
                                    &cs.registers, &cs.barriers, &cs.rounds,
                                    &cs.wavefronts};
        for (int i = 0; i < KDEF_N; i++)
            *dst[i] = v[kdef_bl[i]] ? v[kdef_bl[i]] : b->kernel_def[i];
    }
    cs.access = access_of(v[BL_ACCESS], b->kernel_access < 0
                                            ? MMM_ACCESS_COALESCED
                                            : (mmm_access)b->kernel_access);
    mmm_error_clear(&e);
    if (mmm_program_add_class(b->prog, b->kernel, &cs, &e) < 0)
        bfail_with(b, &e, line);
    else
        b->kernel_nclasses++;
}

static void end_kernel(builder *b)
{
    if (!b->kernel_minimal && b->kernel_nclasses == 0)
        bfail(b, MMM_EINPUT, b->kernel_line,
             "kernel '%s' has no blocks (give blocks=... or <blocks> "
             "children)",
             b->prog->kernels[b->kernel].id);
    kernel_defs_free(b);
}

static void program_element(builder *b, enum elem kind, const char **v,
                            long line)
{
    mmm_error e;
    int r = 0;
    mmm_error_clear(&e);
    switch (kind) {
    case E_PROGRAM:
        r = mmm_program_set_name(b->prog, v[PR_NAME], line, &e);
        break;
    case E_PARAM:
        r = mmm_program_add_param(b->prog, v[PA_NAME], v[PA_VALUE],
                                  v[PA_MIN], v[PA_MAX], line, &e);
        break;
    case E_CONSTRAINT:
        r = mmm_program_add_constraint(b->prog, v[CO_TEST], line, &e);
        break;
    case E_KERNEL:
        start_kernel(b, v, line);
        break;
    case E_BLOCKS:
        start_blocks(b, v, line);
        break;
    case E_EDGE:
        r = mmm_program_add_edge(b->prog, v[ED_FROM], v[ED_TO], line, &e);
        break;
    default:
        break;
    }
    if (r < 0)
        bfail_with(b, &e, line);
}

/* ------------------------------------------------------------------ */
/* Records: what the parse hands the builder through the pipe           */

/* Record kinds: an element kind (its start tag, with its attributes), or
 * one of these. */
enum { R_END_KERNEL = E_COUNT, R_DESCRIPTION };

/* A record: this header, then the present values in attribute order,
 * each with its terminating NUL.  Records are packed (no alignment): the
 * header is copied out with memcpy.  16 bytes of header keep an edge's
 * record near 32 bytes: the records of a big file cross from one core to
 * the other, and their volume matters. */
typedef struct record {
    uint32_t size;  /* bytes, with the strings */
    uint16_t kind;
    uint16_t mask;  /* bit i: value i is present */
    int64_t line;
} record;

/* Queue a record of nvals values (NULL: absent) for the builder. */
static void emit(loader *ld, int kind, const char *const *v, size_t nvals,
                 long line)
{
    size_t len[MAX_ATTRS], size = sizeof(record);
    record r;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < nvals; i++) {
        len[i] = v[i] ? strlen(v[i]) + 1 : 0;
        size += len[i];
        if (v[i])
            r.mask |= (uint16_t)BIT(i);
    }
    char *at = size <= UINT32_MAX ? mmm__pipe_reserve(ld->pipe, size) : NULL;
    if (!at) {
        fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
        return;
    }
    r.size = (uint32_t)size;
    r.kind = (uint16_t)kind;
    r.line = line;
    memcpy(at, &r, sizeof r);
    char *p = at + sizeof r;
    for (size_t i = 0; i < nvals; i++)
        if (v[i]) {
            memcpy(p, v[i], len[i]);
            p += len[i];
        }
    mmm__pipe_commit(ld->pipe, size);
}

/* The pipe's consumer: build from a chunk of records, in order.  Returns
 * non-zero (stop) at the first error. */
static int build_records(void *ctx, char *data, size_t len)
{
    builder *b = ctx;
    size_t pos = 0;
    while (pos < len && !b->have_err) {
        record r;
        const char *v[MAX_ATTRS];
        memcpy(&r, data + pos, sizeof r);
        const char *p = data + pos + sizeof r;
        for (size_t i = 0; i < MAX_ATTRS; i++) {
            v[i] = NULL;
            if (r.mask & BIT(i)) {
                v[i] = p;
                p += strlen(p) + 1;
            }
        }
        if (r.kind == R_END_KERNEL) {
            end_kernel(b);
        } else if (r.kind == R_DESCRIPTION) {
            mmm_error e;
            mmm_error_clear(&e);
            if (mmm_program_set_description(b->prog, v[0], &e) < 0)
                bfail_with(b, &e, (long)r.line);
        } else {
            program_element(b, (enum elem)r.kind, v, (long)r.line);
        }
        pos += r.size;
    }
    return b->have_err;
}

static size_t nattrs(enum elem kind)
{
    size_t n = 0;
    while (defs[kind].attrs[n])
        n++;
    return n;
}

/* ------------------------------------------------------------------ */
/* Machine files                                                       */

static int machine_resolve(const char *name, size_t len, void *payload)
{
    const machine_impl *m = payload;
    for (size_t i = 0; i < m->pub.nparams; i++)
        if (strlen(m->params[i].name) == len &&
            !memcmp(m->params[i].name, name, len))
            return (int)i;
    return -1;
}

static void machine_param(loader *ld, const char **v, long line)
{
    machine_impl *m = ld->mach;
    mmm_expr_limits el = {ld->lim.max_expr_length, ld->lim.max_depth};
    mmm_expr *x = NULL;
    mmm_value val;
    mmm_error e;
    int r;
    int old = machine_resolve(v[MP_NAME], strlen(v[MP_NAME]), m);
    if (old >= 0) {
        fail(ld, MMM_EINPUT, CLASS_OTHER, line,
             "duplicate parameter '%s' (first at line %ld)", v[MP_NAME],
             m->params[old].line);
        return;
    }
    if (m->pub.nparams >= ld->lim.max_params) {
        fail(ld, MMM_ELIMIT, CLASS_OTHER, line,
             "more than %zu parameters (raise the limit with --max-params)",
             ld->lim.max_params);
        return;
    }
    mmm_error_clear(&e);
    r = mmm_expr_parse(&x, v[MP_VALUE], machine_resolve, m, &el, &e);
    if (r == 0)
        r = mmm_expr_eval(x, m->values, m->pub.nparams, &val, &e);
    mmm_expr_free(x);
    if (r < 0) {
        fail(ld, r, CLASS_OTHER, line, "parameter '%s': %s", v[MP_NAME],
             e.message);
        return;
    }
    if (m->pub.nparams == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        mmm_machine_param *p = realloc(m->params, cap * sizeof *p);
        if (p)
            m->params = p;
        mmm_value *vs = p ? realloc(m->values, cap * sizeof *vs) : NULL;
        if (!vs) {
            fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
            return;
        }
        m->values = vs;
        m->cap = cap;
    }
    mmm_machine_param *mp = &m->params[m->pub.nparams];
    if (!(mp->name = strdup(v[MP_NAME]))) {
        fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
        return;
    }
    mp->value = val;
    mp->line = line;
    m->values[m->pub.nparams++] = val;
    m->pub.params = m->params;
}

static void machine_element(loader *ld, enum elem kind, const char **v,
                            long line)
{
    if (kind == E_MACHINE) {
        free(ld->mach->name);
        if (!(ld->mach->name = strdup(v[PR_NAME])))
            fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
        ld->mach->pub.name = ld->mach->name;
    } else if (kind == E_DESCRIPTION) {
        start_description(ld, line);
    } else if (kind == E_MPARAM) {
        machine_param(ld, v, line);
    }
}

/* ------------------------------------------------------------------ */
/* SAX callbacks                                                       */

static void on_start(void *ud, const xmlChar *local, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **ns,
                     int nattr, int ndefaulted, const xmlChar **attrs)
{
    loader *ld = loader_of(ud);
    const char *vals[MAX_ATTRS];
    (void)nns;
    (void)ns;
    (void)ndefaulted;
    if (ld->halted)
        return;
    if (ld->pipe && mmm__pipe_stopped(ld->pipe)) { /* the builder failed */
        halt(ld);
        return;
    }
    long line = tag_line(ld->ctxt);
    if (ld->mode == MODE_SCHEMA) { /* pass 2: the validator does the work */
        if (line > ld->target_line)
            halt(ld);
        return;
    }
    if (ld->depth >= ld->lim.max_depth) {
        fail(ld, MMM_ELIMIT, CLASS_OTHER, line,
             "elements nested too deep (more than %zu levels)",
             ld->lim.max_depth);
        return;
    }
    enum elem parent = ld->depth ? (enum elem)ld->stack[ld->depth - 1]
                                 : E_NONE;
    enum elem kind = (uri || ld->depth >= STACK_MAX)
                         ? E_NONE
                         : child_kind(ld, parent, local);
    if (kind == E_NONE) {
        unexpected_element(ld, parent, local, prefix, line);
        return;
    }
    ld->stack[ld->depth++] = (unsigned char)kind;
    if (collect(ld, kind, nattr, attrs, line, vals) < 0)
        return;
    if (ld->mode != MODE_PROGRAM)
        machine_element(ld, kind, vals, line);
    else if (kind == E_DESCRIPTION)
        start_description(ld, line);
    else
        emit(ld, kind, vals, nattrs(kind), line);
}

static void on_end(void *ud, const xmlChar *local, const xmlChar *prefix,
                   const xmlChar *uri)
{
    loader *ld = loader_of(ud);
    (void)local;
    (void)prefix;
    (void)uri;
    if (ld->halted || ld->mode == MODE_SCHEMA || ld->depth == 0)
        return;
    enum elem kind = (enum elem)ld->stack[--ld->depth];
    if (ld->mode != MODE_PROGRAM)
        return;
    if (kind == E_KERNEL) {
        emit(ld, R_END_KERNEL, NULL, 0, 0);
    } else if (kind == E_DESCRIPTION) {
        const char *text = ld->text_len ? ld->text : "";
        emit(ld, R_DESCRIPTION, &text, 1, ld->description_line);
    }
}

static void on_text(void *ud, const xmlChar *ch, int len)
{
    loader *ld = loader_of(ud);
    if (ld->halted || ld->mode == MODE_SCHEMA || ld->depth == 0 || len <= 0)
        return;
    enum elem kind = (enum elem)ld->stack[ld->depth - 1];
    if (defs[kind].text) {
        size_t need = ld->text_len + (size_t)len + 1;
        if (need > ld->text_cap) {
            size_t cap = need < 256 ? 256 : 2 * need;
            char *n = realloc(ld->text, cap);
            if (!n) {
                fail(ld, MMM_ENOMEM, CLASS_OTHER, 0, "out of memory");
                return;
            }
            ld->text = n;
            ld->text_cap = cap;
        }
        memcpy(ld->text + ld->text_len, ch, (size_t)len);
        ld->text_len += (size_t)len;
        ld->text[ld->text_len] = '\0';
        return;
    }
    int i = 0;
    while (i < len && (ch[i] == ' ' || ch[i] == '\t' || ch[i] == '\n' ||
                       ch[i] == '\r'))
        i++;
    if (i == len)
        return;
    /* The parser stands at the end of the text: count back to its first
     * visible character. */
    long line = ld->ctxt->input->line;
    for (int j = i; j < len; j++)
        line -= ch[j] == '\n';
    int n = 0;
    while (i + n < len && n < 40 && ch[i + n] != '\n' && ch[i + n] != '<')
        n++;
    fail(ld, MMM_EINPUT, CLASS_OTHER, line,
         "element '%s': text is not allowed here (found '%.*s')",
         defs[kind].name, n, (const char *)ch + i);
}

/* Refuse any DOCTYPE before libxml2 reads its internal subset. */
static void on_doctype(void *ud, const xmlChar *name, const xmlChar *ext,
                       const xmlChar *sys)
{
    loader *ld = loader_of(ud);
    (void)name;
    (void)ext;
    (void)sys;
    fail(ld, MMM_EPARSE, CLASS_OTHER, tag_line(ld->ctxt),
         "DOCTYPE is not allowed (no entities or DTDs in DAG files)");
    /* Stop now (libxml2's API for SAX callbacks): with SAX merely disabled
     * libxml2 would still record the internal subset's entities ("expat
     * compatibility") and check their expansion when referenced. */
    xmlStopParser(ld->ctxt);
}

static void init_sax(xmlSAXHandler *sax)
{
    memset(sax, 0, sizeof *sax);
    sax->initialized = XML_SAX2_MAGIC;
    sax->internalSubset = on_doctype;
    sax->startElementNs = on_start;
    sax->endElementNs = on_end;
    sax->characters = on_text;
    sax->ignorableWhitespace = on_text;
    sax->cdataBlock = on_text;
    sax->serror = on_parser_error;
}

/* ------------------------------------------------------------------ */
/* Passes                                                              */

/* One streaming parse of src; errors go to ld->err. */
static void run_parse(loader *ld, source *src, xmlSchemaValidCtxtPtr vctxt)
{
    xmlSAXHandler sax;
    xmlSchemaSAXPlugPtr plug = NULL;
    init_sax(&sax);
    ld->src = src;
    /* user_data NULL: libxml2 passes the context itself to callbacks. */
    xmlParserCtxtPtr c = xmlCreateIOParserCtxt(&sax, NULL, read_source,
                                               close_source, ld,
                                               XML_CHAR_ENCODING_NONE);
    if (!c) {
        fail(ld, MMM_ENOMEM, CLASS_OTHER, 0, "cannot create an XML parser");
        return;
    }
    c->_private = ld;
    ld->ctxt = c;
    /* a new dictionary: names interned by another parse mean nothing */
    memset(ld->elem_name, 0, sizeof ld->elem_name);
    memset(ld->attr_name, 0, sizeof ld->attr_name);
    xmlCtxtUseOptions(c, PARSE_OPTIONS);
    if (vctxt) {
        xmlSchemaValidateSetLocator(vctxt, schema_locator, ld);
        plug = xmlSchemaSAXPlug(vctxt, &c->sax, &c->userData);
        if (!plug)
            fail(ld, MMM_ENOMEM, CLASS_OTHER, 0, "cannot start the schema "
                                                 "validator");
    }
    if (!ld->halted)
        xmlParseDocument(c);
    if (!ld->have_err && !c->wellFormed)
        fail(ld, MMM_EPARSE, CLASS_OTHER, c->input ? c->input->line : 0,
             "malformed XML");
    if (plug)
        xmlSchemaSAXUnplug(plug);
    /* libxml2 may build a document for entity declarations even in SAX
     * mode; there should be none (DOCTYPEs stop the parse), but never
     * leak it. */
    if (c->myDoc)
        xmlFreeDoc(c->myDoc);
    c->myDoc = NULL;
    ld->ctxt = NULL;
    xmlFreeParserCtxt(c);
}

static void on_schema_error(void *data, xmlErrorPtr e)
{
    loader *ld = data;
    record_xml_error(ld, e, e ? e->line : 0);
}

/* Pass 2: parse again with the XSD validator plugged in, up to the line
 * of pass 1's schema-class error, and take libxml2's message when it
 * reports the same line.  (For text in element-only content libxml2 gives
 * the line of the element, ours names the text and its line: ours stays.) */
static void schema_second_opinion(loader *first, const char *path,
                                  const char *mem, size_t len)
{
    loader ld;
    source src;
    mmm_error e;
    const char *xsd = mmm_schema_text();
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_SCHEMA;
    ld.file = first->file;
    ld.lim = first->lim;
    ld.target_line = first->err.line;
    if (path) {
        /* Only a regular file can be read twice (not a pipe or stdin). */
        struct stat st;
        if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
            open_file(&src, path, ld.lim.max_file_bytes, &e) < 0)
            return;
    } else {
        memset(&src, 0, sizeof src);
        src.fd = -1;
        src.mem = mem;
        src.len = len;
        src.max = ld.lim.max_file_bytes;
    }
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(xsd,
                                                          (int)strlen(xsd));
    xmlSchemaPtr schema = NULL;
    xmlSchemaValidCtxtPtr vc = NULL;
    if (pc) {
        xmlSchemaSetParserStructuredErrors(pc, on_schema_error, &ld);
        schema = xmlSchemaParse(pc);
        xmlSchemaFreeParserCtxt(pc);
    }
    if (schema && !ld.have_err && (vc = xmlSchemaNewValidCtxt(schema))) {
        xmlSchemaSetValidStructuredErrors(vc, on_schema_error, &ld);
        run_parse(&ld, &src, vc);
        if (ld.have_err && ld.err.code == MMM_EINPUT &&
            ld.err.line == first->err.line)
            first->err = ld.err;
        xmlSchemaFreeValidCtxt(vc);
    }
    xmlSchemaFree(schema);
    if (src.fd >= 0)
        close(src.fd);
    free(src.rbuf);
}

static void loader_dispose(loader *ld)
{
    free(ld->scratch);
    free(ld->text);
    kernel_defs_free(&ld->bld);
}

/* Run pass 1 over path (or mem), then pass 2 when pass 1 stopped on a
 * schema-class error.  Returns 0 or the error code (err filled). */
static int load(loader *ld, const char *path, const char *mem, size_t len,
                int skip_schema, int threads, mmm_error *err)
{
    source src;
    handler_guard g;
    uint64_t bytes = len;
    if (path) {
        int r = open_file(&src, path, ld->lim.max_file_bytes, err);
        if (r < 0)
            return r;
        struct stat st;
        bytes = fstat(src.fd, &st) == 0 && S_ISREG(st.st_mode)
                    ? (uint64_t)st.st_size
                    : 0;
    } else {
        memset(&src, 0, sizeof src);
        src.fd = -1;
        src.mem = mem;
        src.len = len;
        src.max = ld->lim.max_file_bytes;
        if ((uint64_t)len > src.max)
            return mmm_error_set(err, MMM_ELIMIT, ld->file, 0,
                                 "file too big: %zu bytes (limit %llu)", len,
                                 (unsigned long long)src.max);
    }
    if (ld->mode == MODE_PROGRAM) {
        /* A second thread builds while libxml2 parses, for big inputs. */
        int threaded = threads == MMM_THREADS_ON ||
                       (threads == MMM_THREADS_AUTO &&
                        bytes >= PIPE_MIN_BYTES && mmm__pipe_cpus_available());
        size_t hint = bytes == 0 || bytes > SIZE_MAX ? SIZE_MAX /* unknown */
                                                     : (size_t)bytes;
        if (!(ld->pipe = mmm__pipe_open(threaded, hint, build_records,
                                        &ld->bld))) {
            if (src.fd >= 0)
                close(src.fd);
            free(src.rbuf);
            return mmm_error_set(err, MMM_ENOMEM, ld->file, 0,
                                 "out of memory");
        }
    }
    guard_begin(&g, ld);
    run_parse(ld, &src, NULL);
    if (src.fd >= 0)
        close(src.fd);
    free(src.rbuf);
    if (ld->pipe) {
        /* The builder's records all come before the point where the parse
         * stopped, so its error, if any, is the first one. */
        mmm__pipe_close(ld->pipe);
        ld->pipe = NULL;
        if (ld->bld.have_err) {
            ld->have_err = 1;
            ld->err_class = CLASS_OTHER;
            ld->err = ld->bld.err;
        }
    }
    if (ld->have_err && ld->err_class == CLASS_SCHEMA && !skip_schema)
        schema_second_opinion(ld, path, mem, len);
    guard_end(&g);
    if (ld->have_err) {
        if (err)
            *err = ld->err;
        return ld->err.code;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Public entry points                                                 */

static int load_program(mmm_program **out, const char *path,
                        const char *mem, size_t len, const char *name,
                        const mmm_load_options *opt, mmm_error *err)
{
    mmm_load_options dflt = MMM_LOAD_OPTIONS_INIT;
    loader ld;
    int r;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no output pointer");
    *out = NULL;
    if (!opt)
        opt = &dflt;
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_PROGRAM;
    ld.file = name;
    ld.lim = mmm_limits_effective(&opt->limits);
    ld.bld.file = name;
    ld.bld.kernel_access = -1;
    if ((r = mmm_program_new(&ld.bld.prog, name, &opt->limits, err)) < 0)
        return r;
    if (opt->machine) {
        const mmm_machine *m = opt->machine;
        for (size_t i = 0; i < m->nparams; i++)
            if ((r = mmm_program_add_machine_param(
                     ld.bld.prog, m->params[i].name, m->params[i].value,
                     err)) < 0) {
                mmm_program_free(ld.bld.prog);
                return r;
            }
    }
    r = load(&ld, path, mem, len, opt->skip_schema, opt->threads, err);
    loader_dispose(&ld);
    if (r == 0 && (r = mmm_program_finalize(ld.bld.prog, err)) < 0 && err) {
        if (!err->file[0])
            snprintf(err->file, sizeof err->file, "%s", name);
    }
    if (r < 0) {
        mmm_program_free(ld.bld.prog);
        return r;
    }
    *out = ld.bld.prog;
    return 0;
}

int mmm_program_load_file(mmm_program **out, const char *path,
                          const mmm_load_options *opt, mmm_error *err)
{
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    return load_program(out, path, NULL, 0, path, opt, err);
}

int mmm_program_load_memory(mmm_program **out, const char *buf, size_t len,
                            const char *name, const mmm_load_options *opt,
                            mmm_error *err)
{
    if (!buf && len)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no buffer");
    return load_program(out, NULL, buf ? buf : "", len,
                        name ? name : "<memory>", opt, err);
}

void mmm_machine_free(mmm_machine *m)
{
    if (!m)
        return;
    machine_impl *mi = m->priv;
    if (!mi) /* not made by mmm_machine_load_file */
        return;
    for (size_t i = 0; i < mi->pub.nparams; i++)
        free((char *)mi->params[i].name);
    free(mi->params);
    free(mi->values);
    free(mi->file);
    free(mi->name);
    free(mi);
}

int mmm_machine_load_file(mmm_machine **out, const char *path,
                          const mmm_limits *limits, mmm_error *err)
{
    loader ld;
    int r;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "no output pointer");
    *out = NULL;
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    machine_impl *m = calloc(1, sizeof *m);
    if (!m || !(m->file = strdup(path))) {
        free(m);
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    }
    m->pub.priv = m;
    m->pub.file = m->file;
    m->pub.name = "";
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_MACHINE;
    ld.file = path;
    ld.lim = mmm_limits_effective(limits);
    ld.mach = m;
    r = load(&ld, path, NULL, 0, 0, MMM_THREADS_OFF, err);
    loader_dispose(&ld);
    if (r < 0) {
        mmm_machine_free(&m->pub);
        return r;
    }
    *out = &m->pub;
    return 0;
}
