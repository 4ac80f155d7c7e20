/* parse_errors.c: the loader's errors.  The first one wins and stops the
 * parse; libxml2's (parser, schema validator, and anything it reports
 * through its global handlers, which are ours for the duration of a load)
 * become mmm_error with libxml2's wording tidied to one line.  Lines are
 * those of the '<' that opens the element. */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/parse_int.h"

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* Stop the parse soon: no more SAX events, and end of input at the next
 * read.  Safe from any callback (libxml2 does the same on fatal errors). */
void mmm__parse_halt(mmm__parse_loader *ld)
{
    ld->halted = 1;
    if (ld->ctxt)
        ld->ctxt->disableSAX = 1;
}

static void vfail(mmm__parse_loader *ld, int code, int cls, long line, const char *fmt,
                  va_list ap)
{
    if (!ld->have_err) {
        ld->have_err = 1;
        ld->err_class = cls;
        mmm_error_vset(&ld->err, code, ld->file, line, fmt, ap);
    }
    mmm__parse_halt(ld);
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
void mmm__parse_fail(mmm__parse_loader *ld, int code, int cls, long line, const char *fmt,
                 ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(ld, code, cls, line, fmt, ap);
    va_end(ap);
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

int mmm__xml_at_end(xmlParserCtxtPtr c, int all_read)
{
    if (!all_read || !c || !c->input || !c->input->cur || !c->input->end)
        return 0;
    for (const xmlChar *p = c->input->cur; p < c->input->end; p++)
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
            return 0;
    return 1;
}

#define CUT ": is it cut short?"

/* What to fix for libxml2's common errors, into buf; "" when there is
 * nothing to add to its words (msg, tidied). */
static void advice(char *buf, size_t size, const xmlError *e, int end, const char *msg)
{
    const char *s1 = e->str1 ? e->str1 : "", *s2 = e->str2 ? e->str2 : "";
    buf[0] = '\0';
    switch (e->code) {
    case XML_ERR_DOCUMENT_EMPTY:
        snprintf(buf, size, "no element in the file (is it empty, or not XML?): a DAG "
                            "file is one <program> element");
        break;
    case XML_ERR_DOCUMENT_END:
        snprintf(buf, size, "something follows the end of the root element: a file holds "
                            "one element; remove what comes after its closing tag");
        break;
    case XML_ERR_UNDECLARED_ENTITY:
    case XML_WAR_UNDECLARED_ENTITY:
        snprintf(buf, size, "'&%s;' is not an XML entity: write &amp; for '&' (the others "
                            "are &lt; &gt; &quot; &apos;)", s1);
        break;
    case XML_ERR_ATTRIBUTE_NOT_STARTED:
        snprintf(buf, size, end ? "the file ends inside a tag" CUT
                                : "an attribute's value must be in quotes: name=\"value\"");
        break;
    case XML_ERR_ATTRIBUTE_NOT_FINISHED:
        snprintf(buf, size, end ? "the file ends inside an attribute's value" CUT
                                : "an attribute's value is not closed: its closing quote "
                                  "is missing");
        break;
    case XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
        snprintf(buf, size, "attribute '%s' has no value: write %s=\"...\"", s1, s1);
        break;
    case XML_ERR_ATTRIBUTE_REDEFINED:
        snprintf(buf, size, "attribute '%s' is given twice in one element: keep one", s1);
        break;
    case XML_ERR_COMMENT_NOT_FINISHED:
        snprintf(buf, size, end ? "the file ends inside a comment: is it cut short, or is "
                                  "a --> missing?"
                                : "a comment is not closed: end it with -->");
        break;
    case XML_ERR_HYPHEN_IN_COMMENT:
        snprintf(buf, size, "'--' inside a comment: an XML comment cannot hold two hyphens "
                            "in a row");
        break;
    case XML_ERR_SPACE_REQUIRED: /* "attributes construct error" */
    case XML_ERR_GT_REQUIRED:
        snprintf(buf, size, end ? "the file ends inside a tag" CUT
                                : "a tag is malformed: attributes are name=\"value\" "
                                  "separated by spaces, and a tag ends with > or />");
        break;
    case XML_ERR_TAG_NAME_MISMATCH:
        snprintf(buf, size, "</%s> closes <%s> of line %d: close <%s> with </%s> first, "
                            "or end its tag with />", s2, s1, e->int1, s1, s1);
        break;
    case XML_ERR_TAG_NOT_FINISHED:
        snprintf(buf, size, "the file ends before <%s> of line %d is closed: is it cut "
                            "short, or is a </%s> missing?", s1, e->int1, s1);
        break;
    case XML_ERR_RESERVED_XML_NAME:
        snprintf(buf, size, "the <?xml ...?> declaration must be the first thing in the "
                            "file, before any blank line or text");
        break;
    case XML_ERR_LT_IN_ATTRIBUTE:
        snprintf(buf, size, "a '<' inside an attribute: write &lt; for '<' (and &amp; for "
                            "'&'), e.g. test=\"n &lt; 2^20\"");
        break;
    case XML_ERR_NAME_REQUIRED:
    case XML_ERR_ENTITYREF_SEMICOL_MISSING:
        if (e->code == XML_ERR_ENTITYREF_SEMICOL_MISSING ||
            !strncmp(msg, "xmlParseEntityRef: ", 19))
            snprintf(buf, size, "a '&' that starts no entity reference: write &amp; for "
                                "'&' (and &lt; for '<'), e.g. test=\"a &amp;&amp; b\"");
        else if (!strcmp(msg, "startTag: invalid element name"))
            snprintf(buf, size, end ? "the file ends after a '<'" CUT
                                    : "a '<' that starts no element: write &lt; for '<' "
                                      "in text and attributes");
        break;
    default:
        break;
    }
    if (!buf[0] && end) /* whatever it says, the input stops there */
        snprintf(buf, size, "the file ends here" CUT);
}

void mmm__xml_message(char *buf, size_t size, const xmlError *e, int at_end)
{
    char msg[1024], fix[1024];
    tidy_message(msg, sizeof msg, e && e->message ? e->message : "XML error");
    if (!strncmp(msg, "input is not proper UTF-8, indicate encoding !", 46)) {
        snprintf(buf, size, "the file is not proper UTF-8 (%s): DAG files must be UTF-8 "
                             "(libxml2: input is not proper UTF-8)",
                 msg[46] == ' ' ? msg + 47 : "");
        return;
    }
    advice(fix, sizeof fix, e, at_end, msg);
    if (fix[0]) /* what to fix, then libxml2's words */
        snprintf(buf, size, "%s (libxml2: %s)", fix, msg);
    else
        snprintf(buf, size, "%s", msg);
}

void mmm__parse_xml_error(mmm__parse_loader *ld, const xmlError *e, long line)
{
    char msg[sizeof ld->err.message];
    if (!e || e->level < XML_ERR_ERROR || ld->have_err)
        return;
    /* the parse's context (a schema error's ctxt is the validator's) */
    /* Only the parser's own errors look at its input: an encoding error is
     * raised while libxml2 grows the input buffer, whose old pointers
     * cur and end may then point into freed memory (fuzz_load found it:
     * tests/data/fuzz/fuzz_load/utf16_bom_encoding_error.xml). */
    mmm__xml_message(msg, sizeof msg, e,
                     e->domain == XML_FROM_PARSER &&
                         mmm__xml_at_end(ld->ctxt, ld->src && ld->src->eof));
    mmm__parse_fail(ld, xml_error_code(e), CLASS_OTHER, line, "%s", msg);
}

/* Parser errors (sax->serror).  The data pointer is not reliable (with the
 * schema plugged in it is the plug), the error's context is. */
void mmm__parse_on_error(void *data, xmlErrorPtr e)
{
    (void)data;
    xmlParserCtxtPtr c = e ? e->ctxt : NULL;
    if (c && c->_private)
        mmm__parse_xml_error(c->_private, e, e->line);
}

/* Everything else libxml2 reports while we hold the thread's handler. */
static void on_other_error(void *data, xmlErrorPtr e)
{
    mmm__parse_loader *ld = data;
    mmm__parse_xml_error(ld, e, e ? e->line : 0);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void silent_generic(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

void mmm__parse_guard_begin(mmm__parse_guard *g, mmm__parse_loader *ld)
{
    xmlInitParser();
    g->sfn = xmlStructuredError;
    g->sctx = xmlStructuredErrorContext;
    g->gfn = xmlGenericError;
    g->gctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(ld, on_other_error);
    xmlSetGenericErrorFunc(NULL, silent_generic);
}

void mmm__parse_guard_end(const mmm__parse_guard *g)
{
    xmlSetStructuredErrorFunc(g->sctx, g->sfn);
    xmlSetGenericErrorFunc(g->gctx, g->gfn);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

/* Line of the '<' that opened the tag the parser has just read: the
 * last '<' before the parser's position ('<' cannot occur inside a tag),
 * found by memrchr, and the newlines between it and the position. */
long mmm__parse_tag_line(xmlParserCtxtPtr c)
{
    if (!c || !c->input || !c->input->cur || !c->input->base)
        return 0;
    const xmlChar *base = c->input->base, *p = c->input->cur;
    long line = c->input->line;
    if (p <= base)
        return line;
    const xmlChar *lt = memrchr(base, '<', (size_t)(p - base));
    if (!lt)
        return line;
    for (const xmlChar *q = lt + 1;
         q < p && (q = memchr(q, '\n', (size_t)(p - q))) != NULL; q++)
        line--;
    return line;
}

/* For the schema validator (pass 2): the same convention. */
int mmm__parse_schema_locator(void *ctx, const char **file, unsigned long *line)
{
    mmm__parse_loader *ld = ctx;
    *file = NULL;
    *line = (unsigned long)mmm__parse_tag_line(ld->ctxt);
    return 0;
}
