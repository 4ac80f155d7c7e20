/* test_hints.c: errors that say what to fix, checked against the schema
 * itself.  Python reads dags/mmm.xsd (not the loader's tables) and lists,
 * for every element of DAG and machine files, its attributes and its child
 * elements; then, for each attribute and each child, a file with that name
 * misspelt (two letters swapped) must fail at the element's line with
 * "did you mean '<the name>'?", and an unknown attribute must list exactly
 * the schema's attributes of that element, in the schema's order — from a
 * file and from memory, with and without the schema's second opinion. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmm/program.h"

#define XSD MMM_DAGS_DIR "/mmm.xsd"

/* One line of the script: kind 'A' (attributes) or 'C' (children), the
 * path of elements from the root, and the names. */
typedef struct entry {
    char kind;
    char path[4][32];
    int depth;
    char names[32][32];
    int nnames;
} entry;

static const char script[] =
    "python3 -c '\n"
    "import xml.etree.ElementTree as E, sys\n"
    "X = \"{http://www.w3.org/2001/XMLSchema}\"\n"
    "r = E.parse(sys.argv[1]).getroot()\n"
    "types = {t.get(\"name\"): t for t in r.findall(X + \"complexType\")}\n"
    "def walk(path, ct):\n"
    "    print(\"A\", \"/\".join(path), \",\".join(a.get(\"name\") for a in ct.findall(X + \"attribute\")))\n"
    "    kids = [e for e in ct.iter(X + \"element\")]\n"
    "    if kids:\n"
    "        print(\"C\", \"/\".join(path), \",\".join(e.get(\"name\") for e in kids))\n"
    "    for e in kids:\n"
    "        t = types.get(e.get(\"type\"))\n"
    "        if t is not None:\n"
    "            walk(path + [e.get(\"name\")], t)\n"
    "for e in r.findall(X + \"element\"):\n"
    "    walk([e.get(\"name\")], e.find(X + \"complexType\"))\n"
    "' " XSD;

static int read_schema(entry *out, int max)
{
    FILE *f = popen(script, "r");
    char line[1024];
    int n = 0;
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f) && n < max) {
        entry *e = &out[n];
        char *path, *names, *tok, *save;
        memset(e, 0, sizeof *e);
        line[strcspn(line, "\n")] = '\0';
        e->kind = line[0];
        path = strtok_r(line + 2, " ", &save);
        names = strtok_r(NULL, " ", &save);
        cr_assert(path && names, "script line '%s'", line);
        for (tok = strtok_r(path, "/", &save); tok; tok = strtok_r(NULL, "/", &save))
            snprintf(e->path[e->depth++], sizeof e->path[0], "%s", tok);
        for (tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            cr_assert_lt(e->nnames, 32, "more than 32 names in '%s'", path);
            snprintf(e->names[e->nnames++], sizeof e->names[0], "%s", tok);
        }
        n++;
    }
    cr_assert_eq(pclose(f), 0, "python3 could not read %s", XSD);
    return n;
}

/* The name with two neighbouring letters swapped (letters 1 and 2, or 2
 * and 3 when those are equal): one edit away from it. */
static void misspell(char *dst, const char *name)
{
    size_t i = name[1] != name[2] ? 1 : 2;
    strcpy(dst, name);
    char c = dst[i];
    dst[i] = dst[i + 1];
    dst[i + 1] = c;
}

/* A file with the elements of path, one a line, the last one carrying
 * `inner` (attributes, or a child element when child).  Ancestors get the
 * attributes they require. */
static void document(char *buf, size_t size, const entry *e, const char *attr,
                     const char *child)
{
    size_t n = 0;
    for (int d = 0; d < e->depth; d++) {
        const char *need = !strcmp(e->path[d], "program") ||
                                   !strcmp(e->path[d], "machine")
                               ? " name=\"t\""
                           : !strcmp(e->path[d], "kernel") ? " id=\"k\""
                           : !strcmp(e->path[d], "blocks")
                               ? " count=\"1\" work=\"1\" span=\"1\""
                               : "";
        int last = d == e->depth - 1;
        n += (size_t)snprintf(buf + n, size - n, "<%s%s", e->path[d],
                              last && attr ? "" : need);
        if (last && attr)
            n += (size_t)snprintf(buf + n, size - n, " %s=\"1\"", attr);
        n += (size_t)snprintf(buf + n, size - n, ">\n");
    }
    if (child)
        n += (size_t)snprintf(buf + n, size - n, "<%s/>\n", child);
    for (int d = e->depth - 1; d >= 0; d--)
        n += (size_t)snprintf(buf + n, size - n, "</%s>\n", e->path[d]);
}

/* Load doc as a DAG file or a machine file (by its root), from a file and,
 * for DAG files, from memory, with and without the schema; each must fail
 * at line with every fragment in its message. */
static void expect_failure(const char *doc, int machine, long line,
                           const char *frag1, const char *frag2)
{
    char path[] = "/tmp/mmm_hintsXXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
    close(fd);
    for (int way = 0; way < (machine ? 1 : 4); way++) {
        mmm_error err;
        int rc;
        mmm_error_clear(&err);
        if (machine) {
            mmm_machine *m = NULL;
            rc = mmm_machine_load_file(&m, path, NULL, &err);
            mmm_machine_free(m);
        } else {
            mmm_program *p = NULL;
            mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
            opt.skip_schema = way & 1;
            rc = way & 2 ? mmm_program_load_memory(&p, doc, strlen(doc), "m.xml",
                                                  &opt, &err)
                         : mmm_program_load_file(&p, path, &opt, &err);
            mmm_program_free(p);
        }
        cr_expect_eq(rc, MMM_EINPUT, "%s (way %d): status %d: %s", doc, way, rc,
                     err.message);
        cr_expect_eq(err.line, line, "%s (way %d): line %ld: %s", doc, way,
                     err.line, err.message);
        cr_expect(strstr(err.message, frag1), "%s (way %d): '%s' lacks '%s'", doc,
                  way, err.message, frag1);
        if (frag2)
            cr_expect(strstr(err.message, frag2), "%s (way %d): '%s' lacks '%s'",
                      doc, way, err.message, frag2);
    }
    unlink(path);
}

Test(hints, misspelt_names_of_the_schema, .init = cr_redirect_stderr)
{
    entry es[32];
    int n = read_schema(es, 32), attrs = 0, kids = 0;
    char doc[2048], typo[40], want[120], allowed[800];
    cr_assert_geq(n, 8, "the schema lists %d elements", n);
    for (int i = 0; i < n; i++) {
        const entry *e = &es[i];
        int machine = !strcmp(e->path[0], "machine");
        size_t k = 0;
        k += (size_t)snprintf(allowed + k, sizeof allowed - k, "(allowed: ");
        for (int j = 0; j < e->nnames; j++)
            k += (size_t)snprintf(allowed + k, sizeof allowed - k, "%s%s",
                                  j ? ", " : "", e->names[j]);
        snprintf(allowed + k, sizeof allowed - k, ")");
        for (int j = 0; j < e->nnames; j++) {
            const char *name = e->names[j];
            if (strlen(name) < 3)
                continue; /* "id", "to": any slip is as far from others */
            misspell(typo, name);
            snprintf(want, sizeof want, "did you mean '%s'?", name);
            if (e->kind == 'A') {
                document(doc, sizeof doc, e, typo, NULL);
                expect_failure(doc, machine, e->depth, want, allowed);
                attrs++;
            } else {
                document(doc, sizeof doc, e, NULL, typo);
                expect_failure(doc, machine, e->depth + 1, want, NULL);
                kids++;
            }
        }
    }
    /* kernel 15, blocks 13, param 4, machine param 2, one each for
     * constraint, edge, program, machine; program 5 + kernel 1 + machine 2
     * children */
    cr_expect_geq(attrs, 38, "%d attributes tried", attrs);
    cr_expect_geq(kids, 8, "%d children tried", kids);
    fflush(stderr);
    cr_assert_stderr_eq_str("", "libxml2 printed something");
}

/* Does the schema give element `elem` (of the same root as e) attribute
 * `name`? */
static int has_attr(const entry *es, int n, const entry *e, const char *elem,
                    const char *name)
{
    for (int i = 0; i < n; i++)
        if (es[i].kind == 'A' && !strcmp(es[i].path[0], e->path[0]) &&
            !strcmp(es[i].path[es[i].depth - 1], elem))
            for (int j = 0; j < es[i].nnames; j++)
                if (!strcmp(es[i].names[j], name))
                    return 1;
    return 0;
}

/* An attribute of one element written on another that does not take it:
 * a close name of that element, or the element it belongs to (one that
 * takes it in the schema). */
Test(hints, attribute_of_another_element, .init = cr_redirect_stderr)
{
    entry es[32];
    int n = read_schema(es, 32), tried = 0;
    char doc[2048];
    for (int i = 0; i < n; i++)
        for (int f = 0; f < n; f++) {
            const entry *e = &es[i], *on = &es[f];
            if (e->kind != 'A' || on->kind != 'A' || f == i ||
                strcmp(e->path[0], on->path[0]))
                continue;
            for (int j = 0; j < e->nnames; j++) {
                const char *name = e->names[j];
                if (has_attr(es, n, on, on->path[on->depth - 1], name))
                    continue;
                document(doc, sizeof doc, on, name, NULL);
                mmm_error err;
                mmm_program *p = NULL;
                mmm_machine *m = NULL;
                char path[] = "/tmp/mmm_hintsXXXXXX";
                int fd = mkstemp(path);
                cr_assert_geq(fd, 0);
                cr_assert_eq(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
                close(fd);
                int rc = !strcmp(on->path[0], "machine")
                             ? mmm_machine_load_file(&m, path, NULL, &err)
                             : mmm_program_load_file(&p, path, NULL, &err);
                unlink(path);
                mmm_machine_free(m);
                mmm_program_free(p);
                cr_expect_eq(rc, MMM_EINPUT, "%s: %s", doc, err.message);
                const char *at = strstr(err.message, "' is an attribute of <");
                char owner[32] = "";
                if (at)
                    sscanf(at + strlen("' is an attribute of <"), "%31[a-z]", owner);
                cr_expect(strstr(err.message, "did you mean '") ||
                              (at && has_attr(es, n, on, owner, name)),
                          "%s: %s", doc, err.message);
                tried++;
            }
        }
    cr_expect_geq(tried, 40, "%d tried", tried);
}

/* A name nowhere near any allowed one: no guess, only the list. */
Test(hints, no_guess_when_nothing_is_close)
{
    const char *doc = "<program name='t'>\n"
                      "<edge from='a' weight='2' to='b'/>\n</program>\n";
    mmm_program *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_load_memory(&p, doc, strlen(doc), "e.xml", NULL,
                                         &err),
                 MMM_EINPUT);
    cr_assert_eq(err.line, 2);
    cr_assert_str_eq(err.message, "element 'edge', attribute 'weight': the "
                                  "attribute 'weight' is not allowed (allowed: "
                                  "from, to)");
}

/* The declaration further down is found in a big file built by a second
 * thread too, and from memory. */
Test(hints, declared_later_in_a_big_file)
{
    size_t cap = 1 << 22, n = 0;
    char *buf = malloc(cap);
    long line = 1, use_line, decl_line;
    mmm_program *p = NULL;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    char want[160];
    cr_assert_not_null(buf);
    n += (size_t)sprintf(buf + n, "<program name='big'>\n");
    line++;
    for (int i = 0; i < 30000; i++, line++)
        n += (size_t)sprintf(buf + n, "<kernel id='k%d' blocks='1' work='1' "
                                      "span='1' reads='0' writes='0'/>\n", i);
    use_line = line++;
    n += (size_t)sprintf(buf + n, "<kernel id='late' blocks='tile' work='1' "
                                  "span='1' reads='0' writes='0'/>\n");
    for (int i = 0; i < 100; i++, line++)
        n += (size_t)sprintf(buf + n, "<edge from='k%d' to='k%d'/>\n", i, i + 1);
    decl_line = line++;
    n += (size_t)sprintf(buf + n, "<param name='tile' value='4'/>\n</program>\n");
    cr_assert_lt(n, cap);
    opt.threads = MMM_THREADS_ON;
    cr_assert_eq(mmm_program_load_memory(&p, buf, n, "big.xml", &opt, &err),
                 MMM_EINPUT);
    cr_assert_eq(err.line, use_line);
    snprintf(want, sizeof want, "unknown parameter 'tile' (it is declared later, "
                                "at line %ld: declare", decl_line);
    cr_assert(strstr(err.message, want), "'%s' lacks '%s'", err.message, want);
    free(buf);
}
