/* test_util.c: the library's shared helpers in src/base/: the XML and JSON
 * escaping of the text buffer, the growable array.
 *
 * Expected values come from outside the escaper: each escaped string is
 * read back by an independent parser (libxml2 for XML, as an attribute
 * value and as element text; jansson for JSON) and must give the original
 * string; the exact bytes of the escapes are written out by hand from the
 * XML 1.0 and RFC 8259 rules; bytes that XML or UTF-8 cannot carry are
 * listed by hand with their replacement. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/error.h"
#include "base/grow.h"
#include "base/text.h"

static char *escaped(void (*put)(mmm__text *, const char *), const char *s)
{
    mmm__text t;
    mmm__text_init(&t);
    put(&t, s);
    char *r = mmm__text_take(&t);
    cr_assert_not_null(r);
    return r;
}

static char *xml_escaped(const char *s)
{
    return escaped(mmm__text_put_xml, s);
}

static char *json_escaped(const char *s)
{
    return escaped(mmm__text_put_json, s);
}

/* The same through a FILE (mmm__fput_*): must equal the buffer's bytes. */
static char *through_file(void (*put)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    put(f, s);
    cr_assert_eq(fclose(f), 0);
    return buf;
}

/* libxml2 reads <a v="E">E</a>: the attribute and the text must both be s. */
static void xml_reads_back(const char *s)
{
    char *e = xml_escaped(s);
    size_t n = 2 * strlen(e) + 32;
    char *doc = malloc(n);
    snprintf(doc, n, "<a v=\"%s\">%s</a>", e, e);
    xmlDocPtr d = xmlReadMemory(doc, (int)strlen(doc), "t.xml", "UTF-8",
                                XML_PARSE_NONET | XML_PARSE_NOERROR |
                                    XML_PARSE_NOWARNING);
    cr_assert_not_null(d, "libxml2 refused %s", doc);
    xmlNodePtr root = xmlDocGetRootElement(d);
    xmlChar *v = xmlGetProp(root, (const xmlChar *)"v");
    xmlChar *c = xmlNodeGetContent(root);
    cr_assert_str_eq((const char *)v, s, "attribute of %s", doc);
    cr_assert_str_eq((const char *)c, s, "text of %s", doc);
    xmlFree(v);
    xmlFree(c);
    xmlFreeDoc(d);
    char *f = through_file(mmm__fput_xml, s);
    cr_assert_str_eq(f, e);
    free(f);
    free(doc);
    free(e);
}

/* jansson reads "E" back as s. */
static void json_reads_back(const char *s)
{
    char *e = json_escaped(s);
    size_t n = strlen(e) + 3;
    char *doc = malloc(n);
    snprintf(doc, n, "\"%s\"", e);
    json_error_t jerr;
    json_t *j = json_loads(doc, JSON_DECODE_ANY, &jerr);
    cr_assert_not_null(j, "jansson refused %s: %s", doc, jerr.text);
    cr_assert(json_is_string(j));
    cr_assert_eq(json_string_length(j), strlen(s));
    cr_assert_str_eq(json_string_value(j), s);
    json_decref(j);
    char *f = through_file(mmm__fput_json, s);
    cr_assert_str_eq(f, e);
    free(f);
    free(doc);
    free(e);
}

/* Text that XML and JSON can both carry. */
static const char *const carried[] = {
    "",
    "plain kernel_1",
    "a&b<c>d\"e'f",
    "&amp; is not an entity here; &#39; neither",
    "tab\there, line\nends\r\nand a lone\rCR",
    "  leading and trailing spaces  ",
    "caf\xc3\xa9 \xe2\x82\xac 10\xc2\xb3 \xf0\x9f\x98\x80 \xe4\xb8\xad", /* é € ³ 😀 中 */
    "\x7f (DEL is a character of XML 1.0)",
    "]]> and -- and <!-- -->",
    "back\\slash and /slash",
};

Test(escape, xml_round_trips_through_libxml2)
{
    for (size_t i = 0; i < sizeof carried / sizeof *carried; i++)
        xml_reads_back(carried[i]);
}

Test(escape, json_round_trips_through_jansson)
{
    for (size_t i = 0; i < sizeof carried / sizeof *carried; i++)
        json_reads_back(carried[i]);
}

/* The exact bytes, from the rules in base/text.h. */
Test(escape, xml_bytes)
{
    static const char *const cases[][2] = {
        {"a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&#39;f"},
        {"t\tn\nr\r", "t&#9;n&#10;r&#13;"},
        {"caf\xc3\xa9", "caf\xc3\xa9"},
        {"\xf0\x9f\x98\x80!", "\xf0\x9f\x98\x80!"},
        {"\x7f", "\x7f"},
        /* C0 controls other than tab, LF, CR: not characters of XML 1.0 */
        {"a\x01" "b\x1f" "c\x0b" "d\x0c", "a?b?c?d?"},
        /* broken UTF-8: a lone continuation byte, a truncated sequence, a
         * lead byte before ASCII, bytes that never occur */
        {"\x80x", "?x"},
        {"\xe2\x82", "??"},
        {"\xc3(", "?("},
        {"\xfe\xff", "??"},
        /* overlong '/' (C0 AF), overlong NUL (E0 80 80), a surrogate
         * (U+D800 as ED A0 80), past U+10FFFF (F4 90 80 80) */
        {"\xc0\xaf", "??"},
        {"\xe0\x80\x80", "???"},
        {"\xed\xa0\x80", "???"},
        {"\xf4\x90\x80\x80", "????"},
        /* U+FFFE and U+FFFF are well-formed UTF-8 but not XML characters;
         * U+FFFD and U+10FFFF are both */
        {"\xef\xbf\xbe|\xef\xbf\xbf", "???|???"},
        {"\xef\xbf\xbd\xf4\x8f\xbf\xbf", "\xef\xbf\xbd\xf4\x8f\xbf\xbf"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *e = xml_escaped(cases[i][0]);
        cr_assert_str_eq(e, cases[i][1], "case %zu", i);
        free(e);
        char *f = through_file(mmm__fput_xml, cases[i][0]);
        cr_assert_str_eq(f, cases[i][1], "case %zu (FILE)", i);
        free(f);
    }
}

Test(escape, json_bytes)
{
    static const char *const cases[][2] = {
        {"a\"b\\c/d", "a\\\"b\\\\c/d"},
        {"n\nr\rt\t", "n\\nr\\rt\\t"},
        {"\x01\x08\x0c\x1f", "\\u0001\\u0008\\u000c\\u001f"},
        {"<&>'", "<&>'"},
        {"\x7f", "\x7f"},
        {"caf\xc3\xa9 \xef\xbf\xbe", "caf\xc3\xa9 \xef\xbf\xbe"}, /* U+FFFE: fine in JSON */
        {"\x80x\xc3(\xed\xa0\x80", "?x?(???"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *e = json_escaped(cases[i][0]);
        cr_assert_str_eq(e, cases[i][1], "case %zu", i);
        free(e);
    }
}

/* What XML cannot carry comes back from libxml2 as the '?' it was
 * replaced with, and the document stays well-formed. */
Test(escape, xml_replacements_stay_well_formed)
{
    char *e = xml_escaped("a\x01\x80\xef\xbf\xbe" "b");
    char doc[128];
    snprintf(doc, sizeof doc, "<a v=\"%s\">%s</a>", e, e);
    xmlDocPtr d = xmlReadMemory(doc, (int)strlen(doc), "t.xml", "UTF-8",
                                XML_PARSE_NONET | XML_PARSE_NOERROR);
    cr_assert_not_null(d);
    xmlChar *c = xmlNodeGetContent(xmlDocGetRootElement(d));
    cr_assert_str_eq((const char *)c, "a?????b");
    xmlFree(c);
    xmlFreeDoc(d);
    free(e);
}

Test(escape, xml_comment)
{
    static const char *const cases[][2] = {
        {"a--b", "a- -b"},
        {"a---b", "a- - -b"},
        {"ends with -", "ends with - "},
        {"", ""},
        {"tab\tcr\rnl\n\x01 caf\xc3\xa9", "tab?cr?nl\n? caf\xc3\xa9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *f = through_file(mmm__fput_xml_comment, cases[i][0]);
        cr_assert_str_eq(f, cases[i][1], "case %zu", i);
        /* and libxml2 reads the comment back */
        char doc[256];
        snprintf(doc, sizeof doc, "<a><!--%s--></a>", f);
        xmlDocPtr d = xmlReadMemory(doc, (int)strlen(doc), "t.xml", "UTF-8",
                                    XML_PARSE_NONET | XML_PARSE_NOERROR);
        cr_assert_not_null(d, "libxml2 refused %s", doc);
        xmlFreeDoc(d);
        free(f);
    }
}

Test(escape, utf8_char_lengths)
{
    unsigned cp = 0;
    cr_assert_eq(mmm__utf8_char((const unsigned char *)"A", &cp), 1);
    cr_assert_eq(cp, 0x41);
    cr_assert_eq(mmm__utf8_char((const unsigned char *)"\xc3\xa9", &cp), 2);
    cr_assert_eq(cp, 0xE9);
    cr_assert_eq(mmm__utf8_char((const unsigned char *)"\xe2\x82\xac", &cp), 3);
    cr_assert_eq(cp, 0x20AC);
    cr_assert_eq(mmm__utf8_char((const unsigned char *)"\xf0\x9f\x98\x80", &cp), 4);
    cr_assert_eq(cp, 0x1F600);
    cr_assert_eq(mmm__utf8_char((const unsigned char *)"\xc3", NULL), 0);
    cr_assert_eq(mmm__xml_char((const unsigned char *)"\x01"), 0);
    cr_assert_eq(mmm__xml_char((const unsigned char *)"\t"), 1);
}

/* The text buffer: appends, printf past its small buffer, take. */
Test(text, buffer)
{
    mmm__text t;
    mmm__text_init(&t);
    char big[1000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    mmm__text_put(&t, "<");
    mmm__text_printf(&t, "%d-%s", 42, big);
    mmm__text_putn(&t, "ab", 1);
    char *s = mmm__text_take(&t);
    cr_assert_eq(strlen(s), 1 + 3 + 999 + 1);
    cr_assert_eq(strncmp(s, "<42-xxx", 7), 0);
    cr_assert_eq(s[strlen(s) - 1], 'a');
    cr_assert_null(t.s);
    free(s);
    /* an empty buffer takes as "" */
    s = mmm__text_take(&t);
    cr_assert_str_eq(s, "");
    free(s);
}

/* The growable array: doubling from `first`, contents kept, overflow
 * refused with the old array and capacity untouched. */
Test(grow, doubles_and_refuses_overflow)
{
    int *a = NULL;
    size_t cap = 0, seen[8], nseen = 0;
    for (int i = 0; i < 100; i++) {
        size_t before = cap;
        int *n = mmm__grow(a, &cap, (size_t)i + 1, sizeof *n, 4);
        cr_assert_not_null(n);
        a = n;
        a[i] = i * i;
        if (cap != before)
            seen[nseen++] = cap;
    }
    /* 4, 8, 16, 32, 64, 128: each a doubling of the last */
    cr_assert_eq(nseen, 6);
    for (size_t k = 0; k < nseen; k++)
        cr_assert_eq(seen[k], (size_t)4 << k);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(a[i], i * i);
    /* a size past SIZE_MAX bytes */
    size_t old = cap;
    cr_assert_null(mmm__grow(a, &cap, SIZE_MAX / 2, sizeof *a, 4));
    cr_assert_eq(cap, old);
    cr_assert_null(mmm__grow(a, &cap, SIZE_MAX, 1, 4));
    cr_assert_eq(cap, old);
    /* enough room: the same array */
    cr_assert_eq(mmm__grow(a, &cap, 10, sizeof *a, 4), a);
    free(a);
}

/* Two parallel arrays: both grow together, contents kept. */
Test(grow, two_parallel_arrays)
{
    double *x = NULL;
    int64_t *y = NULL;
    size_t cap = 0;
    for (int i = 0; i < 50; i++) {
        cr_assert_eq(mmm__grow2(&x, &y, &cap, (size_t)i + 1, sizeof *x, sizeof *y, 2), 0);
        cr_assert_geq(cap, (size_t)i + 1);
        x[i] = i / 2.0;
        y[i] = -i;
    }
    cr_assert_eq(cap, 64); /* 2, 4, ..., 64 */
    for (int i = 0; i < 50; i++)
        cr_assert(x[i] == i / 2.0 && y[i] == -i);
    size_t old = cap;
    cr_assert_eq(mmm__grow2(&x, &y, &cap, SIZE_MAX / 2, sizeof *x, sizeof *y, 2), MMM_ENOMEM);
    cr_assert_eq(cap, old);
    free(x);
    free(y);
}

/* mmm_closest: the public "did you mean" of `mmm analyse`, `--fromat`. */
Test(closest, slips_and_non_slips)
{
    const char *cmds[] = {"analyze", "optimize", "compare", NULL, "simulate"};
    const char *opts[] = {"--format", "--machine", "--seed"};
    cr_expect_str_eq(mmm_closest("analyse", cmds, 5), "analyze");
    cr_expect_str_eq(mmm_closest("Analyze", cmds, 5), "analyze");
    cr_expect_str_eq(mmm_closest("simualte", cmds, 5), "simulate");
    cr_expect_str_eq(mmm_closest("--fromat", opts, 3), "--format");
    cr_expect_null(mmm_closest("analyze", cmds, 5));   /* a known name */
    cr_expect_null(mmm_closest("frobnicate", cmds, 5)); /* nothing close */
    cr_expect_null(mmm_closest("--x", opts, 3));
    cr_expect_null(mmm_closest(NULL, cmds, 5));
    cr_expect_null(mmm_closest("analyse", NULL, 5));
    cr_expect_null(mmm_closest("analyse", cmds, 0));
}

/* mmm_parse_int64, mmm_parse_u64: the whole decimal integers of a command
 * line (limits of int64 and uint64 from their closed forms). */
Test(parse_num, whole_integers_only)
{
    int64_t v = 7;
    uint64_t u = 7;
    cr_expect_eq(mmm_parse_int64("-42", &v), 0);
    cr_expect_eq(v, -42);
    cr_expect_eq(mmm_parse_int64("9223372036854775807", &v), 0);
    cr_expect_eq(v, INT64_MAX);
    cr_expect_eq(mmm_parse_int64("-9223372036854775808", &v), 0);
    cr_expect_eq(v, INT64_MIN);
    v = 7;
    cr_expect_eq(mmm_parse_int64("9223372036854775808", &v), -1);
    cr_expect_eq(mmm_parse_int64("", &v), -1);
    cr_expect_eq(mmm_parse_int64(" 1", &v), -1);
    cr_expect_eq(mmm_parse_int64("1 ", &v), -1);
    cr_expect_eq(mmm_parse_int64("1.5", &v), -1);
    cr_expect_eq(mmm_parse_int64("0x10", &v), -1);
    cr_expect_eq(mmm_parse_int64(NULL, &v), -1);
    cr_expect_eq(v, 7, "untouched on failure");
    cr_expect_eq(mmm_parse_u64("18446744073709551615", &u), 0);
    cr_expect_eq(u, UINT64_MAX);
    u = 7;
    cr_expect_eq(mmm_parse_u64("18446744073709551616", &u), -1);
    cr_expect_eq(mmm_parse_u64("-1", &u), -1);
    cr_expect_eq(mmm_parse_u64(" -1", &u), -1, "no wrap through a space");
    cr_expect_eq(mmm_parse_u64("+", &u), -1);
    cr_expect_eq(u, 7);
}
