/* defines.c: -D NAME=VALUE and -p P as overrides of a program's
 * parameters (mmm_overrides_parse, mmm_instance_eval_p), and the two
 * helpers they share with the sweeps (model/defines.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/notes.h"
#include "mmm/eval.h"
#include "model/defines.h"

/* -D values are constant expressions: a name is refused (the parse fails
 * with MMM_EINPUT) and kept in payload, at most 64 characters as the
 * parser's message quotes it. */
static int no_names(const char *name, size_t len, void *payload)
{
    if (payload)
        snprintf(payload, 65, "%.*s", (int)(len > 64 ? 64 : len), name);
    return -1;
}

int mmm__constant(const char *text, size_t max, mmm_value *out, char *name,
                  mmm_error *err)
{
    mmm_expr *e = NULL;
    mmm_expr_limits lim = {max, 64};
    int rc;
    if (name)
        name[0] = '\0';
    if ((rc = mmm_expr_parse(&e, text, no_names, name, &lim, err)) == 0)
        rc = mmm_expr_eval(e, NULL, 0, out, err);
    mmm_expr_free(e);
    return rc;
}

int mmm__no_param(mmm_error *err, const mmm_program *prog, const char *opt,
                  const char *name, const char *advice)
{
    char tail[800];
    const char *close = mmm_program_closest_param(prog, name);
    size_t i, n;
    if (advice)
        snprintf(tail, sizeof tail, "%s", advice);
    else if (close)
        snprintf(tail, sizeof tail, "; did you mean '%s'?", close);
    else if (prog->nparams == 0)
        snprintf(tail, sizeof tail, " (it declares none)");
    else {
        n = (size_t)snprintf(tail, sizeof tail, "; it declares ");
        for (i = 0; i < prog->nparams && i < 20 && n < sizeof tail; i++)
            n += (size_t)snprintf(tail + n, sizeof tail - n, "%s'%s'", i ? ", " : "",
                                  prog->params[i].name);
        if (n < sizeof tail && i < prog->nparams)
            snprintf(tail + n, sizeof tail - n, ", ...");
    }
    return mmm_error_set(err, MMM_EINPUT, prog->file, 0,
                         "%s %s: the file declares no parameter '%s'%s", opt, name, name,
                         tail);
}

/* The name of NAME=VALUE without the spaces around it, into name. */
static int def_name(const char *def, char *name, size_t size)
{
    const char *eq = strchr(def, '=');
    if (!eq)
        return -1;
    while (def < eq && isspace((unsigned char)*def))
        def++;
    while (eq > def && isspace((unsigned char)eq[-1]))
        eq--;
    if (eq == def || (size_t)(eq - def) >= size)
        return -1;
    memcpy(name, def, (size_t)(eq - def));
    name[eq - def] = '\0';
    return 0;
}

int mmm_overrides_parse(const mmm_program *prog, const char *const *defs,
                        size_t ndefs, int64_t p, int unknown, mmm_override *ov,
                        size_t *nov, mmm_notes *notes, mmm_error *err)
{
    size_t i, n = 0;
    int pslot, rc;
    if (!prog || (ndefs && !defs) || !ov || !nov)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_overrides_parse: missing argument");
    *nov = 0;
    for (i = 0; i < ndefs; i++) {
        char name[256], used[65];
        mmm_error e;
        const char *value = defs[i] ? strchr(defs[i], '=') : NULL;
        int slot;
        if (!value || def_name(defs[i], name, sizeof name) < 0)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "-D needs NAME=VALUE (a name "
                                 "of at most 255 characters)");
        value++;
        slot = mmm_program_find_param(prog, name);
        if (slot < 0) {
            if (unknown == MMM_DEFINE_STRICT)
                return mmm__no_param(err, prog, "-D", name,
                                     strcmp(name, "p") ? NULL
                                     : "; the number of SMs p is given with -p P "
                                       "(or by the machine file's p)");
            if (unknown == MMM_DEFINE_NOTE &&
                mmm__notes_add(notes, "%s: note: -D %s ignored: the file declares "
                               "no such parameter", prog->file, name) < 0)
                return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
            continue;
        }
        if ((rc = mmm__constant(value, 4096, &ov[n].value, used, &e)) < 0) {
            /* A name in the value: -D takes constants, not expressions of
             * the file's parameters. */
            if (rc == MMM_EINPUT && used[0])
                return mmm_error_set(err, MMM_EINPUT, prog->file, 0,
                                     "-D %s=%s: -D values must be constants: '%s' is "
                                     "%s; write a number or an expression of numbers "
                                     "(e.g. -D %s=2^20)", name, value, used,
                                     mmm_program_find_param(prog, used) >= 0
                                         ? "a parameter of the file" : "a name",
                                     name);
            return mmm_error_set(err, rc, prog->file, 0, "-D %s=%s: %s", name, value,
                                 e.message);
        }
        ov[n++].slot = slot;
    }
    pslot = mmm_program_find_param(prog, "p");
    if (p > 0 && pslot >= 0) {
        ov[n].slot = pslot;
        ov[n++].value = mmm_value_int(p);
    }
    *nov = n;
    return 0;
}

int mmm_overrides_declared(const mmm_program *const *progs, size_t nprogs,
                           const char *const *defs, size_t ndefs, mmm_error *err)
{
    if ((nprogs && !progs) || (ndefs && !defs))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_overrides_declared: missing argument");
    for (size_t i = 0, k; i < ndefs; i++) {
        char name[256];
        if (!defs[i] || def_name(defs[i], name, sizeof name) < 0)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "-D needs NAME=VALUE (a name "
                                 "of at most 255 characters)");
        for (k = 0; k < nprogs && mmm_program_find_param(progs[k], name) < 0; k++)
            ;
        if (k < nprogs)
            continue;
        if (nprogs == 2)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "-D %s: neither %s nor %s "
                                 "declares a parameter '%s'", name, progs[0]->file,
                                 progs[1]->file, name);
        if (nprogs == 1)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "-D %s: %s declares no "
                                 "parameter '%s'", name, progs[0]->file, name);
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "-D %s: none of the %zu files "
                             "declares a parameter '%s'", name, nprogs, name);
    }
    return 0;
}

int mmm_instance_eval_p(mmm_instance *inst, const mmm_override *ov, size_t nov,
                        int64_t p, mmm_error *err)
{
    int rc = mmm_instance_eval(inst, ov, nov, err);
    if (rc < 0)
        return rc;
    /* -p is an override of a program's p (mmm_overrides_parse), or the p
     * of a program that declares none. */
    if (p > 0 && mmm_program_find_param(inst->program, "p") < 0)
        mmm_instance_set_p(inst, p);
    return 0;
}
