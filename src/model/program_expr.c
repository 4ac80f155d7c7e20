/* program_expr.c: the program's expressions: names, and every expression
 * text compiled once per scope (a million kernels with blocks="4" share one
 * mmm_expr) through an open-addressing table of the texts; an unknown
 * name's error gets its hint here.  Parameters and kernels (program.c)
 * compile through mmm__prog_compile. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/program_internal.h"
#include "base/suggest.h"
#include "base/text.h"

/* The closest declared parameter to a name (mmm/program.h). */
const char *mmm_program_closest_param(const mmm_program *p, const char *name)
{
    mmm__suggest s;
    size_t i;
    if (!p || !name)
        return NULL;
    mmm__suggest_init(&s, name, strlen(name));
    for (i = 0; i < p->nparams; i++)
        mmm__suggest_try(&s, p->params[i].name);
    return mmm__suggest_best(&s);
}

/* What to add to the message "unknown parameter 'name'" (name[0..len))
 * of an expression that sees the first `limit` parameters of p and, when
 * not NULL, the kernel index `index`: "; 'i' is the index of the repeat of
 * kernel 'k' (line 4), ..." (then 1 is returned: the use is explained),
 * else "; did you mean 'n'?" or the names it could use (0 returned). */
static int unknown_param_hint(char *dst, size_t size, const mmm_program *p,
                              const char *name, size_t len, size_t limit,
                              const char *index)
{
    mmm__suggest s;
    size_t i, n;
    dst[0] = '\0';
    if (len > 64) /* too long to be a slip (base/suggest.c) */
        return 0;
    /* the index of another kernel's repeat */
    for (i = 0; i < p->nkernels; i++) {
        const mmm_kernel *k = &p->kernels[i];
        if (k->index && strlen(k->index) == len && !memcmp(k->index, name, len)) {
            snprintf(dst, size,
                     "; '%.*s' is the index of the repeat of kernel '%.64s' "
                     "(line %ld), known only inside that kernel",
                     (int)len, name, k->id, k->line);
            return 1;
        }
    }
    /* a constant of the machine file, which expressions do not see */
    if (mmm__idtab_find(p->priv, &p->priv->machine_tab, mmm__param_name,
                        name, len) >= 0) {
        char seen[64] = "";
        const char *m;
        for (i = 0; (m = mmm_model_machine_param(i)) != NULL; i++) {
            n = strlen(seen);
            snprintf(seen + n, sizeof seen - n, "%s%s",
                     i == 0 ? "" : mmm_model_machine_param(i + 1) ? ", "
                                                                 : " and ",
                     m);
        }
        snprintf(dst, size,
                 "; '%.*s' is a constant of the machine file, which a "
                 "program's expressions do not see (of a machine, they see "
                 "%s): declare it with <param> to use it",
                 (int)len, name, seen);
        return 0;
    }
    /* the names this expression sees (not the machine's constants) */
    size_t seen = 0;
    mmm__suggest_init(&s, name, len);
    for (i = 0; i < limit && i < p->nparams; i++)
        if (p->params[i].from_machine != MMM_PARAM_MACHINE_CONST) {
            mmm__suggest_try(&s, p->params[i].name);
            seen++;
        }
    mmm__suggest_try(&s, index);
    if (mmm__suggest_best(&s)) {
        snprintf(dst, size, "; did you mean '%s'?", mmm__suggest_best(&s));
        return 0;
    }
    if (seen == 0 && !index) {
        snprintf(dst, size, " (no parameter is declared before this line)");
        return 0;
    }
    snprintf(dst, size, "; known here: ");
    size_t shown = 0;
    for (i = 0; i < limit && i < p->nparams && shown < 12; i++) {
        if (p->params[i].from_machine == MMM_PARAM_MACHINE_CONST)
            continue;
        n = strlen(dst);
        snprintf(dst + n, size - n, "%s%.64s", shown ? ", " : "",
                 p->params[i].name);
        shown++;
    }
    n = strlen(dst);
    if (shown < seen)
        snprintf(dst + n, size - n, ", ...");
    else if (index)
        snprintf(dst + n, size - n, "%s%.64s (this kernel's index)",
                 shown ? ", " : "", index);
    return 0;
}

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Names                                                               */

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

int mmm__prog_is_identifier(const char *s)
{
    if (!is_name_start(*s))
        return 0;
    while (*++s)
        if (!is_name_char(*s))
            return 0;
    return 1;
}

/* Does text contain the identifier name as a token?  Conservative: a
 * function name equal to it counts too (that only costs sharing). */
static int has_token(const char *text, const char *name)
{
    size_t len = strlen(name);
    const char *s = text;
    while (*s) {
        if (is_name_start(*s)) {
            const char *b = s;
            while (is_name_char(*s))
                s++;
            if ((size_t)(s - b) == len && memcmp(b, name, len) == 0)
                return 1;
        } else if ((*s >= '0' && *s <= '9') || *s == '.') {
            /* a number, with its exponent: "1e6" holds no name "e6" */
            while ((*s >= '0' && *s <= '9') || *s == '.')
                s++;
            if (*s == 'e' || *s == 'E') {
                s++;
                if (*s == '+' || *s == '-')
                    s++;
                while (*s >= '0' && *s <= '9')
                    s++;
            }
        } else {
            s++;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */

typedef struct resolve_ctx {
    const struct mmm_program_priv *priv;
    const char *index; /* kernel index name visible, or NULL */
    int index_slot;
    size_t limit;      /* only parameters with slot < limit are visible */
    const char *hidden_index; /* an index name that is not visible here */
    int saw_hidden;
    const char *unknown; /* the name that is not known, for the message */
    size_t unknown_len;
} resolve_ctx;

static int resolve(const char *name, size_t len, void *payload)
{
    resolve_ctx *c = payload;
    if (c->index && mmm__key_equal(c->index, name, len))
        return c->index_slot;
    long slot = mmm__idtab_find(c->priv, &c->priv->param_tab,
                                mmm__param_name, name, len);
    if (slot >= 0 && (size_t)slot < c->limit)
        return (int)slot;
    if (c->hidden_index && mmm__key_equal(c->hidden_index, name, len))
        c->saw_hidden = 1;
    c->unknown = name;
    c->unknown_len = len;
    return -1;
}

static uint64_t expr_hash(const char *text, int32_t ctx)
{
    uint64_t h = mmm__hash_mem(text, strlen(text));
    return h ^ ((uint64_t)(uint32_t)(ctx + 1) * 0x9e3779b97f4a7c15u);
}

static long expr_find(const struct mmm_program_priv *pv, const char *text,
                      int32_t ctx, uint64_t h)
{
    if (!pv->expr_slots_cap)
        return -1;
    size_t mask = pv->expr_slots_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t v = pv->expr_slots[i];
        if (!v)
            return -1;
        const mmm__prog_expr *e = &pv->exprs[v - 1];
        if (e->hash == h && e->key_ctx == ctx && strcmp(e->text, text) == 0)
            return (long)(v - 1);
    }
}

static void expr_place(uint32_t *slots, size_t cap, uint32_t id, uint64_t h)
{
    size_t i = h & (cap - 1);
    while (slots[i])
        i = (i + 1) & (cap - 1);
    slots[i] = id + 1;
}

static int expr_table_add(struct mmm_program_priv *pv, uint32_t id)
{
    if ((pv->nexprs + 1) * 2 > pv->expr_slots_cap) {
        size_t cap = pv->expr_slots_cap ? pv->expr_slots_cap * 2 : 64;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return MMM_ENOMEM;
        for (size_t i = 0; i < pv->expr_slots_cap; i++)
            if (pv->expr_slots[i]) {
                uint32_t old = pv->expr_slots[i] - 1;
                expr_place(slots, cap, old, pv->exprs[old].hash);
            }
        free(pv->expr_slots);
        pv->expr_slots = slots;
        pv->expr_slots_cap = cap;
    }
    expr_place(pv->expr_slots, pv->expr_slots_cap, id, pv->exprs[id].hash);
    return 0;
}

mmm__expr_scope mmm__prog_params_scope(const mmm_program *p)
{
    mmm__expr_scope s = {NULL, -1, p->nparams, NULL};
    return s;
}

/* "?" (white space around it allowed): a skeleton's cost left to be
 * measured by mmm profile (docs/profile.md). */
static int is_left_to_measure(const char *text)
{
    text += strspn(text, " \t\r\n");
    if (*text++ != '?')
        return 0;
    return text[strspn(text, " \t\r\n")] == '\0';
}

/* Compile text in scope (or find it compiled already); *id receives the
 * expression id.  Errors get the file and line. */
static int compile_text(mmm_program *p, uint32_t *id, const char *text,
                        const mmm__expr_scope *scope, long line, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    int shareable = scope->limit == p->nparams;
    int32_t ctx = scope->index && has_token(text, scope->index)
                      ? scope->index_slot
                      : -1;
    uint64_t h = expr_hash(text, ctx);
    if (shareable) {
        long found = expr_find(pv, text, ctx, h);
        if (found >= 0) {
            *id = (uint32_t)found;
            return 0;
        }
    }
    if (pv->nexprs >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, line,
                             "too many distinct expressions");
    if (mmm__program_grow(&pv->exprs, &pv->exprs_cap, pv->nexprs,
                          sizeof *pv->exprs) < 0)
        return nomem(err);

    resolve_ctx rc = {pv, scope->index, scope->index_slot, scope->limit,
                      scope->hidden_index, 0, NULL, 0};
    mmm_expr_limits lim = {pv->limits.max_expr_length, pv->limits.max_depth};
    mmm_error sub;
    mmm_expr *e = NULL;
    mmm_error_clear(&sub);
    int r = mmm_expr_parse(&e, text, resolve, &rc, &lim, &sub);
    if (r < 0 && is_left_to_measure(text))
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "'?' is a cost left to be measured: this file is a "
                             "skeleton; fill it in with 'mmm profile build "
                             "POINTS.csv --skeleton %s -o OUT.xml' (docs/profile.md)",
                             p->file);
    if (r < 0) {
        if (rc.saw_hidden)
            return mmm_error_set(err, r, p->file, line,
                                 "%s (a kernel's repeat cannot use its own "
                                 "index '%s')",
                                 sub.message, scope->hidden_index);
        if (rc.unknown && r == MMM_EINPUT) {
            /* a close name, another kernel's index; the loader looks
             * for a declaration later in the file (unknown_name) */
            char hint[512];
            size_t len = strlen(sub.message);
            if (!unknown_param_hint(hint, sizeof hint, p, rc.unknown,
                                         rc.unknown_len, scope->limit,
                                         scope->index) &&
                rc.unknown_len < sizeof pv->unknown_name) {
                memcpy(pv->unknown_name, rc.unknown, rc.unknown_len);
                pv->unknown_name[rc.unknown_len] = '\0';
                pv->unknown_cut = len;
            }
            return mmm_error_set(err, r, p->file, line, "%s%s", sub.message,
                                 hint);
        }
        return mmm_error_set(err, r, p->file, line, "%s", sub.message);
    }
    const char *t = mmm__arena_strdup(&pv->arena, text);
    if (!t) {
        mmm_expr_free(e);
        return nomem(err);
    }
    mmm__prog_expr *en = &pv->exprs[pv->nexprs];
    en->text = t;
    en->hash = h;
    en->expr = e;
    en->key_ctx = ctx;
    en->uses_index = scope->index && mmm_expr_uses(e, scope->index_slot);
    en->shareable = (uint8_t)shareable;
    *id = (uint32_t)pv->nexprs++;
    if (shareable && expr_table_add(pv, *id) < 0)
        return nomem(err);
    return 0;
}

/* Compile an optional text: MMM_NO_EXPR when absent. */
int mmm__prog_compile_opt(mmm_program *p, uint32_t *id, const char *text,
                          const mmm__expr_scope *scope, long line,
                          mmm_error *err)
{
    *id = MMM_NO_EXPR;
    return text ? mmm__prog_compile(p, id, text, scope, line, err) : 0;
}

const mmm_expr *mmm__prog_expr_of(const mmm_program *p, uint32_t id)
{
    return id == MMM_NO_EXPR ? NULL : p->priv->exprs[id].expr;
}

/* An expression kept and quoted on one line: an attribute written over
 * several lines reaches here with its line breaks as runs of spaces
 * (the XML parser's normalization), which messages would repeat. */
int mmm__prog_compile(mmm_program *p, uint32_t *id, const char *text,
                      const mmm__expr_scope *scope, long line, mmm_error *err)
{
    char small[256], *buf = small;
    size_t len;
    int r;
    if (!mmm__needs_one_line(text))
        return compile_text(p, id, text, scope, line, err);
    len = strlen(text);
    if (len >= sizeof small && !(buf = malloc(len + 1)))
        return nomem(err);
    mmm__one_line(buf, text);
    r = compile_text(p, id, buf, scope, line, err);
    if (buf != small)
        free(buf);
    return r;
}
