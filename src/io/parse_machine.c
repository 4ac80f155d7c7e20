/* parse_machine.c: machine files (<machine>: named constant parameters,
 * docs/format.md), loaded in one pass by the same loader as DAG files. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "io/parse_int.h"
#include "base/suggest.h"

/* ------------------------------------------------------------------ */
/* Machine files                                                       */

static int machine_resolve(const char *name, size_t len, void *payload)
{
    const mmm__machine_impl *m = payload;
    for (size_t i = 0; i < m->pub.nparams; i++)
        if (strlen(m->params[i].name) == len &&
            !memcmp(m->params[i].name, name, len))
            return (int)i;
    return -1;
}

/* The same, remembering the name it does not know. */
typedef struct machine_scope {
    const mmm__machine_impl *m;
    const char *unknown;
    size_t unknown_len;
} machine_scope;

static int machine_resolve_noting(const char *name, size_t len, void *payload)
{
    machine_scope *sc = payload;
    int r = machine_resolve(name, len, (void *)sc->m);
    if (r < 0) {
        sc->unknown = name;
        sc->unknown_len = len;
    }
    return r;
}

/* A close name for an unknown one (into ld->hint), and the name for
 * mmm__parse_declared_later. */
static void machine_unknown(mmm__parse_loader *ld, const machine_scope *sc,
                            size_t cut)
{
    mmm__suggest s;
    const mmm__machine_impl *m = sc->m;
    ld->hint[0] = '\0';
    if (sc->unknown_len >= sizeof ld->unknown_name)
        return;
    memcpy(ld->unknown_name, sc->unknown, sc->unknown_len);
    ld->unknown_name[sc->unknown_len] = '\0';
    ld->unknown_cut = cut;
    mmm__suggest_init(&s, sc->unknown, sc->unknown_len);
    for (size_t i = 0; i < m->pub.nparams; i++)
        mmm__suggest_try(&s, m->params[i].name);
    if (mmm__suggest_best(&s))
        snprintf(ld->hint, sizeof ld->hint, "; did you mean '%s'?",
                 mmm__suggest_best(&s));
}

static void machine_param(mmm__parse_loader *ld, const char **v, long line)
{
    mmm__machine_impl *m = ld->mach;
    mmm_expr_limits el = {ld->lim.max_expr_length, ld->lim.max_depth};
    mmm_expr *x = NULL;
    mmm_value val;
    mmm_error e;
    int r;
    int old = machine_resolve(v[MP_NAME], strlen(v[MP_NAME]), m);
    if (old >= 0) {
        mmm__parse_fail(ld, MMM_EINPUT, CLASS_OTHER, line,
             "duplicate parameter '%s' (first at line %ld)", v[MP_NAME],
             m->params[old].line);
        return;
    }
    if (m->pub.nparams >= ld->lim.max_params) {
        mmm__parse_fail(ld, MMM_ELIMIT, CLASS_OTHER, line,
             "more than %zu parameters (raise the limit with --max-params)",
             ld->lim.max_params);
        return;
    }
    mmm_error_clear(&e);
    machine_scope sc = {m, NULL, 0};
    r = mmm_expr_parse(&x, v[MP_VALUE], machine_resolve_noting, &sc, &el, &e);
    if (r == 0)
        r = mmm_expr_eval(x, m->values, m->pub.nparams, &val, &e);
    mmm_expr_free(x);
    if (r < 0) {
        if (sc.unknown && !ld->have_err) {
            char base[sizeof e.message + 300];
            snprintf(base, sizeof base, "parameter '%.200s': %s", v[MP_NAME],
                     e.message);
            machine_unknown(ld, &sc, strlen(base));
            mmm__parse_fail(ld, r, CLASS_OTHER, line, "%s%s", base, ld->hint);
            return;
        }
        mmm__parse_fail(ld, r, CLASS_OTHER, line, "parameter '%s': %s", v[MP_NAME],
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
            mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
            return;
        }
        m->values = vs;
        m->cap = cap;
    }
    mmm_machine_param *mp = &m->params[m->pub.nparams];
    if (!(mp->name = strdup(v[MP_NAME]))) {
        mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
        return;
    }
    mp->value = val;
    mp->line = line;
    m->values[m->pub.nparams++] = val;
    m->pub.params = m->params;
}

static void machine_element(mmm__parse_loader *ld, enum mmm__parse_elem kind, const char **v,
                            long line)
{
    if (kind == E_MACHINE) {
        free(ld->mach->name);
        if (!(ld->mach->name = strdup(v[PR_NAME])))
            mmm__parse_fail(ld, MMM_ENOMEM, CLASS_OTHER, line, "out of memory");
        ld->mach->pub.name = ld->mach->name;
    } else if (kind == E_DESCRIPTION) {
        mmm__parse_start_description(ld, line);
    } else if (kind == E_MPARAM) {
        machine_param(ld, v, line);
    }
}

static const mmm__parse_handlers machine_handlers = {NULL, machine_element};

void mmm_machine_free(mmm_machine *m)
{
    if (!m)
        return;
    mmm__machine_impl *mi = m->priv;
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
    mmm__parse_loader ld;
    int r;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "no output pointer");
    *out = NULL;
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    mmm__machine_impl *m = calloc(1, sizeof *m);
    if (!m || !(m->file = strdup(path))) {
        free(m);
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    }
    m->pub.priv = m;
    m->pub.file = m->file;
    m->pub.name = "";
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_MACHINE;
    ld.on = &machine_handlers;
    ld.file = mmm__input_name(path);
    ld.lim = mmm_limits_effective(limits);
    ld.mach = m;
    r = mmm__parse_load(&ld, path, NULL, 0, 0, MMM_THREADS_OFF, err);
    if (r < 0)
        mmm__parse_declared_later(&ld, path, NULL, 0, err);
    mmm__parse_loader_dispose(&ld);
    if (r < 0) {
        mmm_machine_free(&m->pub);
        return r;
    }
    *out = &m->pub;
    return 0;
}
