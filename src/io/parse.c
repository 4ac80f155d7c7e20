/*
 * parse.c: the loader of DAG files (<program>) and machine files
 * (<machine>): the grammar, the checks of elements and attributes, the SAX
 * callbacks and the passes; and the built-in XML Schema.  With
 * parse_errors.c, parse_input.c, parse_program.c and parse_machine.c
 * (parse_int.h lists who does what) the only files of mmm that include
 * libxml2.  The format is documented in docs/format.md.
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
 *   patterns, the enumerations, text in element-only content), and
 *   feeds the builder (src/model/program.c).  libxml2's streaming XSD validator
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
 *   builder side (struct mmm__parse_builder: start_kernel, program_element, ...) turns
 *   into calls of src/model/program.c.  The records go through a pipe
 *   (src/base/pipe.c) that hands them over in chunks, either inline or to a
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

#include "io/parse_int.h"
#include "base/suggest.h"

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
/* Inputs up to this size are read again after an unknown parameter, for
 * its declaration further down (a second parse: 0.7 s of CPU for 100
 * MiB of kernels in a Debug build). */
#define LOOKAHEAD_MAX_BYTES ((uint64_t)256 << 20)

/* ------------------------------------------------------------------ */
/* The grammar (mirrors dags/mmm.xsd: keep both in step)               */

static const char *const program_attrs[] = {"name", NULL};
static const char *const param_attrs[] = {"name", "value", "min", "max",
                                          NULL};
static const char *const constraint_attrs[] = {"test", NULL};
#define ATTR_NAME_(id, name, type, dflt, unit, dtext, meaning) name,
static const char *const kernel_attrs[] = {
    "id", "blocks", "threads", "work", "span", "reads", "writes", "repeat",
    "index", "shared", "access", "type", MMM_ATTR_TABLE(ATTR_NAME_) NULL};
static const char *const blocks_attrs[] = {
    "count", "work", "span", "reads", "writes", "threads", "shared",
    "access", MMM_ATTR_TABLE(ATTR_NAME_) NULL};
#undef ATTR_NAME_
static const char *const edge_attrs[] = {"from", "to", NULL};
static const char *const copy_attrs[] = {"id", "kind", "bytes", "repeat",
                                         "src", "dst", NULL};
static const char *const access_attrs[] = {"words", "mode", "pattern",
                                           "stride", "scope", "region",
                                           "array", "taken", NULL};
static const char *const array_attrs[] = {"name", "bytes", NULL};
static const char *const mparam_attrs[] = {"name", "value", NULL};
static const char *const no_attrs[] = {NULL};

static const unsigned char program_children[] = {
    E_DESCRIPTION, E_PARAM, E_CONSTRAINT, E_ARRAY, E_KERNEL, E_COPY, E_EDGE,
    E_NONE};

/* The enumerated attributes' values (dags/mmm.xsd's enumerations). */
static const char *const access_values[] = {"coalesced", "irregular", NULL};
static const char *const copy_kind_values[] = {"d2d", "h2d", "d2h", "set",
                                               NULL};
static const char *const mode_values[] = {"read", "write", NULL};
static const char *const pattern_values[] = {"coalesced", "broadcast",
                                             "random", "atomic", NULL};
static const char *const scope_values[] = {"warp", "block", NULL};
static const char *const *const access_enums[AC_N] = {
    [AC_MODE] = mode_values, [AC_PATTERN] = pattern_values,
    [AC_SCOPE] = scope_values};
static const char *const *const kernel_enums[KE_N] = {
    [KE_ACCESS] = access_values};
static const char *const *const blocks_enums[BL_N] = {
    [BL_ACCESS] = access_values};
static const char *const *const copy_enums[CP_N] = {[CP_KIND] =
                                                        copy_kind_values};
static const unsigned char kernel_children[] = {E_BLOCKS, E_ACCESS, E_NONE};
static const unsigned char blocks_children[] = {E_ACCESS, E_NONE};
static const unsigned char machine_children[] = {E_DESCRIPTION, E_MPARAM,
                                                 E_NONE};
static const unsigned char no_children[] = {E_NONE};

static const mmm__parse_elem_def defs[E_COUNT] = {
    [E_NONE] = {"", no_attrs, 0, 0, 0, 0, 0, no_children},
    [E_PROGRAM] = {"program", program_attrs, BIT(PR_NAME), 0, 0, 0, 0,
                   program_children},
    [E_DESCRIPTION] = {"description", no_attrs, 0, 0, 0, 0, 1, no_children},
    [E_PARAM] = {"param", param_attrs, BIT(PA_NAME) | BIT(PA_VALUE),
                 BIT(PA_NAME), 0, 0, 0, no_children},
    [E_CONSTRAINT] = {"constraint", constraint_attrs, BIT(CO_TEST), 0, 0, 0,
                      0, no_children},
    [E_KERNEL] = {"kernel", kernel_attrs, BIT(KE_ID), BIT(KE_INDEX),
                  BIT(KE_ID), kernel_enums, 0, kernel_children},
    [E_BLOCKS] = {"blocks", blocks_attrs,
                  BIT(BL_COUNT) | BIT(BL_WORK) | BIT(BL_SPAN), 0, 0,
                  blocks_enums, 0, blocks_children},
    [E_EDGE] = {"edge", edge_attrs, BIT(ED_FROM) | BIT(ED_TO), 0,
                BIT(ED_FROM) | BIT(ED_TO), 0, 0, no_children},
    [E_COPY] = {"copy", copy_attrs,
                BIT(CP_ID) | BIT(CP_KIND) | BIT(CP_BYTES),
                BIT(CP_SRC) | BIT(CP_DST), BIT(CP_ID), copy_enums, 0,
                no_children},
    [E_ACCESS] = {"access", access_attrs, BIT(AC_WORDS), BIT(AC_ARRAY), 0,
                  access_enums, 0, no_children},
    [E_ARRAY] = {"array", array_attrs, BIT(AR_NAME) | BIT(AR_BYTES),
                 BIT(AR_NAME), 0, 0, 0, no_children},
    [E_MACHINE] = {"machine", program_attrs, BIT(PR_NAME), 0, 0, 0, 0,
                   machine_children},
    [E_MPARAM] = {"param", mparam_attrs, BIT(MP_NAME) | BIT(MP_VALUE),
                  BIT(MP_NAME), 0, 0, 0, no_children},
};

/* ------------------------------------------------------------------ */
/* Loader state                                                        */

static mmm__parse_loader *loader_of(void *user_data)
{
    return ((xmlParserCtxtPtr)user_data)->_private;
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

static int find_attr(mmm__parse_loader *ld, enum mmm__parse_elem kind, const xmlChar *name)
{
    const mmm__parse_elem_def *d = &defs[kind];
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

/* The elements of the file being read (DAG or machine file). */
static int in_mode(const mmm__parse_loader *ld, enum mmm__parse_elem k)
{
    if (ld->mode == MODE_MACHINE)
        return k == E_MACHINE || k == E_DESCRIPTION || k == E_MPARAM;
    return k != E_NONE && k != E_MACHINE && k != E_MPARAM && k < E_COUNT;
}

/* When no name is close: "; 'count' is an attribute of <blocks>" (attr),
 * or "; <blocks> goes inside <kernel>", appended to dst when name belongs
 * to another element of the file. */
static void elsewhere_hint(char *dst, size_t size, const mmm__parse_loader *ld,
                           enum mmm__parse_elem here, const char *name, int attr)
{
    size_t n = strlen(dst);
    if (!name || strstr(dst, "did you mean"))
        return;
    for (int k = E_NONE + 1; k < E_COUNT; k++) {
        if (!in_mode(ld, (enum mmm__parse_elem)k) || k == (int)here)
            continue;
        if (attr) {
            for (int i = 0; defs[k].attrs[i]; i++)
                if (!strcmp(defs[k].attrs[i], name)) {
                    snprintf(dst + n, size - n, "; '%s' is an attribute of <%s>",
                             name, defs[k].name);
                    return;
                }
        } else {
            for (const unsigned char *c = defs[k].children; *c != E_NONE; c++)
                if (!strcmp(defs[*c].name, name)) {
                    snprintf(dst + n, size - n, "; <%s> goes inside <%s>", name,
                             defs[k].name);
                    return;
                }
        }
    }
}

/* "; did you mean 'span'?" when name is close to one of names (NULL-
 * terminated), then, when list, " (allowed: a, b, ...)": into dst, which
 * stays "" when there is nothing to add.  name NULL: no suggestion. */
static void name_hint(char *dst, size_t size, const char *name,
                      const char *const *names, int list)
{
    size_t n;
    dst[0] = '\0';
    if (name) {
        mmm__suggest s;
        mmm__suggest_init(&s, name, strlen(name));
        for (size_t i = 0; names[i]; i++)
            mmm__suggest_try(&s, names[i]);
        const char *best = mmm__suggest_best(&s);
        if (best)
            snprintf(dst, size, "; did you mean '%s'?", best);
    }
    if (!list || !names[0])
        return;
    n = strlen(dst);
    snprintf(dst + n, size - n, " (allowed: ");
    for (size_t i = 0; names[i]; i++) {
        n = strlen(dst);
        snprintf(dst + n, size - n, "%s%s", i ? ", " : "", names[i]);
    }
    n = strlen(dst);
    snprintf(dst + n, size - n, ")");
}

/* The values attribute i of d may take, or NULL (any). */
static const char *const *enum_values(const mmm__parse_elem_def *d, int i)
{
    return d->enums ? d->enums[i] : NULL;
}

static int in_enum(const char *const *values, const char *v)
{
    for (; *values; values++)
        if (!strcmp(*values, v))
            return 1;
    return 0;
}

static void bad_attr_value(mmm__parse_loader *ld, const mmm__parse_elem_def *d, int i,
                           const char *v, long line)
{
    unsigned bit = BIT(i);
    char why[160] = "is not one of ";
    const char *const *values = enum_values(d, i);
    if (d->names & bit)
        snprintf(why, sizeof why, "is not a name (letters, digits and '_', "
                                  "not starting with a digit)");
    else if (d->ids & bit)
        snprintf(why, sizeof why, "must be non-empty without spaces");
    else
        for (size_t k = 0; values && values[k]; k++) {
            size_t n = strlen(why);
            snprintf(why + n, sizeof why - n, "%s'%s'", k ? ", " : "",
                     values[k]);
        }
    mmm__parse_fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
         "element '%s', attribute '%s': the value '%.200s' %s", d->name,
         d->attrs[i], v, why);
}

/* Check the attributes of an element against its definition and copy
 * them: vals[i] is attrs[i]'s value or NULL.  With to_pipe (an element of
 * a program), the copies are the values of the element's record, written
 * in attribute order straight into the pipe behind its header, and the
 * record is committed once they are checked.  Returns 0 or -1 (failed). */
static int collect(mmm__parse_loader *ld, enum mmm__parse_elem kind, int nattr,
                   const xmlChar **at, long line, const char **vals,
                   int to_pipe)
{
    const mmm__parse_elem_def *d = &defs[kind];
    int slot[MAX_ATTRS + 2]; /* known ones, each once, + the two xsi: */
    int at_of[MAX_ATTRS];    /* attribute i is at[at_of[i]], or -1 */
    size_t need = 0;
    unsigned seen = 0;
    for (int i = 0; d->attrs[i]; i++) {
        vals[i] = NULL;
        at_of[i] = -1;
    }
    for (int i = 0; i < nattr; i++) {
        const xmlChar **a = at + 5 * i;
        int k = -1;
        if (i >= (int)(sizeof slot / sizeof *slot)) {
            mmm__parse_fail(ld, MMM_EINPUT, CLASS_OTHER, line,
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
            const char *an = a[1] ? NULL : (const char *)a[0];
            name_hint(ld->hint, sizeof ld->hint, an, d->attrs, 0);
            elsewhere_hint(ld->hint, sizeof ld->hint, ld, kind, an, 1);
            name_hint(ld->hint + strlen(ld->hint),
                      sizeof ld->hint - strlen(ld->hint), NULL, d->attrs, 1);
            mmm__parse_fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
                 "element '%s', attribute '%s%s%s': the attribute is not "
                 "allowed%s",
                 d->name, a[1] ? (const char *)a[1] : "", a[1] ? ":" : "",
                 (const char *)a[0], ld->hint);
            return -1;
        }
        slot[i] = k;
        at_of[k] = i;
        seen |= BIT(k);
        need += (size_t)(a[4] - a[3]) + 1;
    }
    for (int i = 0; d->attrs[i]; i++)
        if ((d->required & BIT(i)) && !(seen & BIT(i))) {
            mmm__parse_fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
                 "element '%s': the attribute '%s' is required but missing",
                 d->name, d->attrs[i]);
            return -1;
        }
    char *rec = NULL, *out;
    if (to_pipe) {
        size_t size = sizeof(mmm__parse_record) + need;
        rec = size <= UINT32_MAX ? mmm__pipe_reserve(ld->pipe, size) : NULL;
        if (!rec) {
            mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
            return -1;
        }
        out = rec + sizeof(mmm__parse_record);
    } else {
        if (need > ld->scratch_cap) {
            size_t cap = need < 256 ? 256 : need * 2;
            char *n = realloc(ld->scratch, cap);
            if (!n) {
                mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, line,
                                "out of memory");
                return -1;
            }
            ld->scratch = n;
            ld->scratch_cap = cap;
        }
        out = ld->scratch;
    }
    for (int i = 0; d->attrs[i]; i++)
        if (at_of[i] >= 0) {
            const xmlChar **a = at + 5 * at_of[i];
            vals[i] = out;
            out = copy_value(out, a[3], a[4]);
        }
    for (int i = 0; d->attrs[i]; i++) {
        unsigned bit = BIT(i);
        const char *v = vals[i];
        const char *const *values = enum_values(d, i);
        if (!v || (!((d->names | d->ids) & bit) && !values))
            continue;
        if (((d->names & bit) && !is_name(v)) ||
            ((d->ids & bit) && !is_id(v)) || (values && !in_enum(values, v))) {
            bad_attr_value(ld, d, i, v, line);
            return -1; /* a record reserved is not committed */
        }
    }
    if (to_pipe) {
        mmm__parse_record r;
        memset(&r, 0, sizeof r);
        r.size = (uint32_t)(out - rec);
        r.kind = (unsigned)(kind == E_ACCESS && ld->depth >= 2 &&
                                    ld->stack[ld->depth - 2] == E_BLOCKS
                                ? R_ACCESS_IN_BLOCKS
                                : kind) &
                 0xffu;
        r.mask = seen;
        r.line = (uint64_t)(line < 0 ? 0 : line);
        memcpy(rec, &r, sizeof r);
        mmm__pipe_commit(ld->pipe, r.size);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Elements                                                            */

static enum mmm__parse_elem root_kind(const mmm__parse_loader *ld)
{
    return ld->mode == MODE_MACHINE ? E_MACHINE : E_PROGRAM;
}

/* The kind of element `name` under parent (E_NONE at the root), or E_NONE
 * when it is not allowed there. */
static enum mmm__parse_elem child_kind(mmm__parse_loader *ld, enum mmm__parse_elem parent,
                            const xmlChar *name)
{
    if (parent == E_NONE) {
        enum mmm__parse_elem r = root_kind(ld);
        return !strcmp((const char *)name, defs[r].name) ? r : E_NONE;
    }
    const unsigned char *c;
    for (c = defs[parent].children; *c != E_NONE; c++)
        if (ld->elem_name[*c] == name)
            return (enum mmm__parse_elem)*c;
    for (c = defs[parent].children; *c != E_NONE; c++)
        if (!strcmp(defs[*c].name, (const char *)name)) {
            ld->elem_name[*c] = name;
            return (enum mmm__parse_elem)*c;
        }
    return E_NONE;
}

static void unexpected_element(mmm__parse_loader *ld, enum mmm__parse_elem parent,
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
        mmm__parse_fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
             "element '%s': the root element must be <%s>%s", qname, want,
             hint);
        return;
    }
    const char *names[E_COUNT];
    size_t nn = 0;
    for (const unsigned char *c = defs[parent].children; *c != E_NONE; c++) {
        size_t n = strlen(expected);
        snprintf(expected + n, sizeof expected - n, "%s%s",
                 n ? ", " : "", defs[*c].name);
        names[nn++] = defs[*c].name;
    }
    names[nn] = NULL;
    /* libxml2's wording lists the expected names: only the close one is
     * added to it */
    name_hint(ld->hint, sizeof ld->hint, prefix ? NULL : (const char *)local,
              names, 0);
    elsewhere_hint(ld->hint, sizeof ld->hint, ld, parent,
                   prefix ? NULL : (const char *)local, 0);
    if (expected[0])
        mmm__parse_fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
             "element '%s': this element is not expected inside <%s> "
             "(expected one of: %s)%s",
             qname, defs[parent].name, expected, ld->hint);
    else
        mmm__parse_fail(ld, MMM_EINPUT, CLASS_SCHEMA, line,
             "element '%s': this element is not expected (<%s> has no "
             "child elements)",
             qname, defs[parent].name);
}

void mmm__parse_start_description(mmm__parse_loader *ld, long line)
{
    if (ld->description_line > 0) {
        mmm__parse_fail(ld, MMM_EINPUT, CLASS_OTHER, line,
             "a second <description> (the first is at line %ld)",
             ld->description_line);
        return;
    }
    ld->description_line = line;
    ld->text_len = 0;
}

/* ------------------------------------------------------------------ */
/* SAX callbacks                                                       */

static void on_start(void *ud, const xmlChar *local, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **ns,
                     int nattr, int ndefaulted, const xmlChar **attrs)
{
    mmm__parse_loader *ld = loader_of(ud);
    const char *vals[MAX_ATTRS];
    (void)nns;
    (void)ns;
    (void)ndefaulted;
    if (ld->halted)
        return;
    if (ld->pipe && mmm__pipe_stopped(ld->pipe)) { /* the builder failed */
        mmm__parse_halt(ld);
        return;
    }
    long line = mmm__parse_tag_line(ld->ctxt);
    if (ld->mode == MODE_FIND) { /* a later <param name=...> */
        if (line >= ld->target_line && !strcmp((const char *)local, "param"))
            for (int i = 0; i < nattr; i++) {
                const xmlChar **a = attrs + 5 * i;
                size_t n = (size_t)(a[4] - a[3]);
                if (!a[2] && !strcmp((const char *)a[0], "name") &&
                    n == strlen(ld->unknown_name) &&
                    !memcmp(a[3], ld->unknown_name, n)) {
                    ld->found_line = line;
                    mmm__parse_halt(ld);
                }
            }
        return;
    }
    if (ld->mode == MODE_SCHEMA) { /* pass 2: the validator does the work */
        if (line > ld->target_line)
            mmm__parse_halt(ld);
        return;
    }
    if (ld->depth >= ld->lim.max_depth) {
        mmm__parse_fail(ld, MMM_ELIMIT, CLASS_OTHER, line,
             "elements nested too deep (more than %zu levels)",
             ld->lim.max_depth);
        return;
    }
    enum mmm__parse_elem parent = ld->depth ? (enum mmm__parse_elem)ld->stack[ld->depth - 1]
                                 : E_NONE;
    enum mmm__parse_elem kind = (uri || ld->depth >= STACK_MAX)
                         ? E_NONE
                         : child_kind(ld, parent, local);
    if (kind == E_NONE) {
        unexpected_element(ld, parent, local, prefix, line);
        return;
    }
    ld->stack[ld->depth++] = (unsigned char)kind;
    int to_pipe = ld->mode == MODE_PROGRAM && kind != E_DESCRIPTION;
    if (collect(ld, kind, nattr, attrs, line, vals, to_pipe) < 0)
        return;
    if (ld->mode != MODE_PROGRAM)
        ld->on->element(ld, kind, vals, line);
    else if (kind == E_DESCRIPTION)
        mmm__parse_start_description(ld, line);
    else if (kind == E_KERNEL)
        ld->open_kernel_minimal = vals[KE_BLOCKS] && vals[KE_READS] &&
                                  vals[KE_WRITES];
    else if (kind == E_BLOCKS)
        ld->open_blocks_pending = !vals[BL_READS] || !vals[BL_WRITES];
}

/* Queue a record of nvals values (NULL: absent) for the builder. */
static void emit(mmm__parse_loader *ld, int kind, const char *const *v, size_t nvals,
                 long line)
{
    size_t len[MAX_ATTRS], size = sizeof(mmm__parse_record);
    mmm__parse_record r;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < nvals; i++) {
        len[i] = v[i] ? strlen(v[i]) + 1 : 0;
        size += len[i];
        if (v[i])
            r.mask |= BIT(i);
    }
    char *at = size <= UINT32_MAX ? mmm__pipe_reserve(ld->pipe, size) : NULL;
    if (!at) {
        mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
        return;
    }
    r.size = (uint32_t)size;
    r.kind = (unsigned)kind & 0xffu;
    r.line = (uint64_t)(line < 0 ? 0 : line);
    memcpy(at, &r, sizeof r);
    char *p = at + sizeof r;
    for (size_t i = 0; i < nvals; i++)
        if (v[i]) {
            memcpy(p, v[i], len[i]);
            p += len[i];
        }
    mmm__pipe_commit(ld->pipe, size);
}

static void on_end(void *ud, const xmlChar *local, const xmlChar *prefix,
                   const xmlChar *uri)
{
    mmm__parse_loader *ld = loader_of(ud);
    (void)local;
    (void)prefix;
    (void)uri;
    if (ld->halted || ld->mode >= MODE_SCHEMA || ld->depth == 0)
        return;
    enum mmm__parse_elem kind = (enum mmm__parse_elem)ld->stack[--ld->depth];
    if (ld->mode != MODE_PROGRAM)
        return;
    if (kind == E_KERNEL) {
        /* only a kernel of <blocks> children has something to check at
         * its end (that it has one), and one whose <access> children give
         * its reads and writes */
        if (!ld->open_kernel_minimal)
            emit(ld, R_END_KERNEL, NULL, 0, 0);
    } else if (kind == E_BLOCKS) {
        if (ld->open_blocks_pending)
            emit(ld, R_END_BLOCKS, NULL, 0, 0);
        ld->open_blocks_pending = 0;
    } else if (kind == E_DESCRIPTION) {
        const char *text = ld->text_len ? ld->text : "";
        emit(ld, R_DESCRIPTION, &text, 1, ld->description_line);
    }
}

static void on_text(void *ud, const xmlChar *ch, int len)
{
    mmm__parse_loader *ld = loader_of(ud);
    if (ld->halted || ld->mode >= MODE_SCHEMA || ld->depth == 0 || len <= 0)
        return;
    enum mmm__parse_elem kind = (enum mmm__parse_elem)ld->stack[ld->depth - 1];
    if (defs[kind].text) {
        size_t need = ld->text_len + (size_t)len + 1;
        if (need > ld->text_cap) {
            size_t cap = need < 256 ? 256 : 2 * need;
            char *n = realloc(ld->text, cap);
            if (!n) {
                mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, 0, "out of memory");
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
    mmm__parse_fail(ld, MMM_EINPUT, CLASS_OTHER, line,
         "element '%s': text is not allowed here (found '%.*s')",
         defs[kind].name, n, (const char *)ch + i);
}

/* Refuse any DOCTYPE before libxml2 reads its internal subset. */
static void on_doctype(void *ud, const xmlChar *name, const xmlChar *ext,
                       const xmlChar *sys)
{
    mmm__parse_loader *ld = loader_of(ud);
    (void)name;
    (void)ext;
    (void)sys;
    mmm__parse_fail(ld, MMM_EPARSE, CLASS_OTHER, mmm__parse_tag_line(ld->ctxt),
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
    sax->serror = mmm__parse_on_error;
}

/* ------------------------------------------------------------------ */
/* Passes                                                              */

/* One streaming parse of src; errors go to ld->err. */
static void run_parse(mmm__parse_loader *ld, mmm__parse_source *src, xmlSchemaValidCtxtPtr vctxt)
{
    xmlSAXHandler sax;
    xmlSchemaSAXPlugPtr plug = NULL;
    init_sax(&sax);
    ld->src = src;
    /* user_data NULL: libxml2 passes the context itself to callbacks. */
    xmlParserCtxtPtr c = xmlCreateIOParserCtxt(&sax, NULL, mmm__parse_read,
                                               mmm__parse_close, ld,
                                               XML_CHAR_ENCODING_NONE);
    if (!c) {
        mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, 0, "cannot create an XML parser");
        return;
    }
    c->_private = ld;
    ld->ctxt = c;
    /* a new dictionary: names interned by another parse mean nothing */
    memset(ld->elem_name, 0, sizeof ld->elem_name);
    memset(ld->attr_name, 0, sizeof ld->attr_name);
    xmlCtxtUseOptions(c, PARSE_OPTIONS);
    if (vctxt) {
        xmlSchemaValidateSetLocator(vctxt, mmm__parse_schema_locator, ld);
        plug = xmlSchemaSAXPlug(vctxt, &c->sax, &c->userData);
        if (!plug)
            mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, 0, "cannot start the schema "
                                                 "validator");
    }
    if (!ld->halted)
        xmlParseDocument(c);
    if (!ld->have_err && !c->wellFormed)
        mmm__parse_fail(ld, MMM_EPARSE, CLASS_OTHER, c->input ? c->input->line : 0,
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
    mmm__parse_loader *ld = data;
    mmm__parse_xml_error(ld, e, e ? e->line : 0);
}

/* The input of a load again, for a second pass: 0, or -1 when it cannot
 * be read twice (a pipe, stdin). */
static int open_again(mmm__parse_source *src, const char *path, const char *mem,
                      size_t len, uint64_t max)
{
    mmm_error e;
    if (path) {
        struct stat st;
        if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
            mmm__parse_open_file(src, path, max, &e) < 0)
            return -1;
    } else {
        memset(src, 0, sizeof *src);
        src->fd = -1;
        src->mem = mem;
        src->len = len;
        src->max = max;
    }
    return 0;
}

/* After a load that failed on a parameter that was not declared
 * (first->unknown_name): when the file declares it further down, say so,
 * in place of the hints that followed the message. */
void mmm__parse_declared_later(mmm__parse_loader *first, const char *path,
                               const char *mem, size_t len, mmm_error *err)
{
    mmm__parse_loader ld;
    mmm__parse_source src;
    mmm__parse_guard g;
    size_t cut = first->unknown_cut;
    struct stat st;
    if (!err || !first->unknown_name[0] || cut > strlen(err->message))
        return;
    /* a name never declared costs a second parse of the whole input: not
     * for the biggest ones */
    if ((path ? (stat(path, &st) == 0 ? (uint64_t)st.st_size : UINT64_MAX)
              : (uint64_t)len) > LOOKAHEAD_MAX_BYTES)
        return;
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_FIND;
    ld.file = first->file;
    ld.lim = first->lim;
    ld.target_line = err->line;
    memcpy(ld.unknown_name, first->unknown_name, sizeof ld.unknown_name);
    if (open_again(&src, path, mem, len, ld.lim.max_file_bytes) < 0)
        return;
    mmm__parse_guard_begin(&g, &ld);
    run_parse(&ld, &src, NULL);
    mmm__parse_guard_end(&g);
    if (src.fd >= 0)
        close(src.fd);
    free(src.rbuf);
    if (ld.found_line > 0)
        snprintf(err->message + cut, sizeof err->message - cut,
                 " (it is declared later, at line %ld: declare a parameter "
                 "before the expressions that use it)",
                 ld.found_line);
}

/* Pass 2: parse again with the XSD validator plugged in, up to the line
 * of pass 1's schema-class error, and take libxml2's message when it
 * reports the same line.  (For text in element-only content libxml2 gives
 * the line of the element, ours names the text and its line: ours stays.) */
static void schema_second_opinion(mmm__parse_loader *first, const char *path,
                                  const char *mem, size_t len)
{
    mmm__parse_loader ld;
    mmm__parse_source src;
    const char *xsd = mmm_schema_text();
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_SCHEMA;
    ld.file = first->file;
    ld.lim = first->lim;
    ld.target_line = first->err.line;
    if (open_again(&src, path, mem, len, ld.lim.max_file_bytes) < 0)
        return;
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
            ld.err.line == first->err.line) {
            size_t n = strlen(ld.err.message);
            if (first->hint[0] && !strstr(ld.err.message, first->hint))
                snprintf(ld.err.message + n, sizeof ld.err.message - n, "%s",
                         first->hint);
            first->err = ld.err;
        }
        xmlSchemaFreeValidCtxt(vc);
    }
    xmlSchemaFree(schema);
    if (src.fd >= 0)
        close(src.fd);
    free(src.rbuf);
}

void mmm__parse_loader_dispose(mmm__parse_loader *ld)
{
    free(ld->scratch);
    free(ld->text);
}

/* Run pass 1 over path (or mem), then pass 2 when pass 1 stopped on a
 * schema-class error.  Returns 0 or the error code (err filled). */
int mmm__parse_load(mmm__parse_loader *ld, const char *path, const char *mem, size_t len,
                int skip_schema, int threads, mmm_error *err)
{
    mmm__parse_source src;
    mmm__parse_guard g;
    uint64_t bytes = len;
    if (path) {
        int r = mmm__parse_open_file(&src, path, ld->lim.max_file_bytes, err);
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
        if (!(ld->pipe = mmm__pipe_open(threaded, hint, ld->on->build_records,
                                        &ld->bld))) {
            if (src.fd >= 0)
                close(src.fd);
            free(src.rbuf);
            return mmm_error_set(err, MMM_ENOMEM, ld->file, 0,
                                 "out of memory");
        }
    }
    mmm__parse_guard_begin(&g, ld);
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
    mmm__parse_guard_end(&g);
    if (ld->have_err) {
        if (err)
            *err = ld->err;
        return ld->err.code;
    }
    return 0;
}
