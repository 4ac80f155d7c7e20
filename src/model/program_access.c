/* program_access.c: the <access> children of a block class (a thread's
 * global accesses, each with its pattern: docs/format.md), compiled in the
 * scope of the class's kernel, and the sums of their words that stand for
 * the class's reads and writes.  The program builder (program.c) stores
 * what this file compiles; the arrays the accesses name are looked up
 * here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/program_internal.h"

static const char *const pattern_names[MMM_MEM_NPATTERNS] = {
    [MMM_PATTERN_COALESCED] = "coalesced", [MMM_PATTERN_BROADCAST] = "broadcast",
    [MMM_PATTERN_RANDOM] = "random", [MMM_PATTERN_ATOMIC] = "atomic"};

const char *mmm_mem_pattern_name(mmm_mem_pattern pt)
{
    return (unsigned)pt < MMM_MEM_NPATTERNS ? pattern_names[pt] : NULL;
}

int mmm_mem_pattern_find(const char *name)
{
    for (int i = 0; name && i < MMM_MEM_NPATTERNS; i++)
        if (!strcmp(pattern_names[i], name))
            return i;
    return -1;
}

static const char *array_key(const struct mmm_program_priv *pv, uint32_t idx)
{
    return pv->arrays[idx].name;
}

long mmm__array_find(const struct mmm_program_priv *pv, const char *name)
{
    if (!name || !pv->array_tab.cap)
        return -1;
    return mmm__idtab_find(pv, &pv->array_tab, array_key, name, strlen(name));
}

void mmm__access_dispose(mmm__class_accesses *ca)
{
    free(ca->a);
    free(ca->eid);
    memset(ca, 0, sizeof *ca);
}

/* "(t1) + (t2)": the texts of the accesses whose write flag is `write`
 * summed, "0" when none. */
static char *sum_text(const mmm_access_spec *specs, size_t n, int write)
{
    size_t len = 2;
    for (size_t i = 0; i < n; i++)
        if (specs[i].write == write)
            len += strlen(specs[i].words) + 5;
    char *s = malloc(len), *o = s;
    if (!s)
        return NULL;
    *o = '\0';
    for (size_t i = 0; i < n; i++)
        if (specs[i].write == write)
            o += sprintf(o, "%s(%s)", o == s ? "" : " + ", specs[i].words);
    if (o == s)
        strcpy(s, "0");
    return s;
}

/* An attribute given beside an access that says it (its name, or NULL). */
static const char *shorthand_given(const char *const *attr)
{
    static const mmm_attr own[] = {MMM_ATTR_READ_STRIDE, MMM_ATTR_WRITE_STRIDE,
                                   MMM_ATTR_GATHERS, MMM_ATTR_SCATTERS,
                                   MMM_ATTR_GATHER_BYTES};
    for (size_t i = 0; attr && i < sizeof own / sizeof *own; i++)
        if (attr[own[i]])
            return mmm_attr_name(own[i]);
    return NULL;
}

/* An attribute that the access's pattern does not read. */
static int misplaced(mmm_program *p, const mmm_access_spec *a, const char *id,
                     const char *attr, const char *which, mmm_error *err)
{
    return mmm_error_set(err, MMM_EINPUT, p->file, a->line,
                         "kernel '%s': <access> attribute '%s' applies to "
                         "%s accesses, not %s",
                         id, attr, which, mmm_mem_pattern_name(a->pattern));
}

static int check_spec(mmm_program *p, const mmm_access_spec *a, const char *id,
                      mmm_error *err)
{
    if (!a->words)
        return mmm_error_set(err, MMM_EINPUT, p->file, a->line,
                             "kernel '%s': an <access> lacks attribute "
                             "'words'",
                             id);
    if ((unsigned)a->pattern >= MMM_MEM_NPATTERNS)
        return mmm_error_set(err, MMM_EINVAL, p->file, a->line,
                             "kernel '%s': access pattern %d unknown", id,
                             (int)a->pattern);
    if (a->stride && a->pattern != MMM_PATTERN_COALESCED)
        return misplaced(p, a, id, "stride", "coalesced", err);
    if (a->block_scope && a->pattern != MMM_PATTERN_BROADCAST)
        return misplaced(p, a, id, "scope", "broadcast", err);
    if (a->region && a->pattern != MMM_PATTERN_RANDOM &&
        a->pattern != MMM_PATTERN_ATOMIC)
        return misplaced(p, a, id, "region", "random and atomic", err);
    return 0;
}

int mmm__access_compile(mmm_program *p, const mmm_access_spec *specs,
                        size_t n, const char *const *attr,
                        const mmm__expr_scope *sc, const char *id,
                        mmm__class_accesses *out, char **reads,
                        char **writes, mmm_error *err)
{
    const struct mmm_program_priv *pv = p->priv;
    mmm_access_spec *norm = NULL;
    const char *own = shorthand_given(attr);
    int r = 0;
    memset(out, 0, sizeof *out);
    *reads = *writes = NULL;
    if (own)
        return mmm_error_set(err, MMM_EINPUT, p->file, specs[0].line,
                             "kernel '%s' has <access> children and the "
                             "attribute '%s', which an access says itself "
                             "(stride, pattern random, region): give it on "
                             "the access",
                             id, own);
    out->a = calloc(n, sizeof *out->a);
    out->eid = calloc(n, sizeof *out->eid);
    norm = malloc(n * sizeof *norm);
    if (!out->a || !out->eid || !norm) {
        r = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    out->n = n;
    for (size_t i = 0; i < n && r == 0; i++) {
        const mmm_access_spec *a = &specs[i];
        mmm_mem_access *o = &out->a[i];
        const char *texts[MMM_AX_N] = {a->words, a->stride, a->region,
                                       a->taken};
        if ((r = check_spec(p, a, id, err)) < 0)
            break;
        norm[i] = *a;
        norm[i].write = a->pattern == MMM_PATTERN_ATOMIC ? 1 : a->write != 0;
        o->line = a->line;
        o->write = norm[i].write;
        o->pattern = a->pattern;
        o->block_scope = a->block_scope != 0;
        o->array = -1;
        if (a->array && (o->array = (int32_t)mmm__array_find(pv, a->array)) < 0) {
            r = mmm_error_set(err, MMM_EINPUT, p->file, a->line,
                              "kernel '%s': <access> names array '%s', which "
                              "is not declared (declare it before with "
                              "<array name=\"%s\" bytes=\"...\"/>)",
                              id, a->array, a->array);
            break;
        }
        for (int x = 0; x < MMM_AX_N && r == 0; x++)
            r = x == MMM_AX_WORDS
                    ? mmm__prog_compile(p, &out->eid[i][x], texts[x], sc,
                                        a->line, err)
                    : mmm__prog_compile_opt(p, &out->eid[i][x], texts[x], sc,
                                            a->line, err);
        if (r == 0) {
            o->words = mmm__prog_expr_of(p, out->eid[i][MMM_AX_WORDS]);
            o->stride = mmm__prog_expr_of(p, out->eid[i][MMM_AX_STRIDE]);
            o->region = mmm__prog_expr_of(p, out->eid[i][MMM_AX_REGION]);
            o->taken = mmm__prog_expr_of(p, out->eid[i][MMM_AX_TAKEN]);
        }
    }
    if (r == 0 && (!(*reads = sum_text(norm, n, 0)) ||
                   !(*writes = sum_text(norm, n, 1))))
        r = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
done:
    free(norm);
    if (r < 0) {
        free(*reads);
        free(*writes);
        *reads = *writes = NULL;
        mmm__access_dispose(out);
    }
    return r;
}
