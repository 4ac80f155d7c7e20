/* spec_text.c: a sweep's axes and baseline from the texts `mmm optimize`
 * takes (mmm_sweep_spec_parse): the parameters found in the program, the
 * values read as constant expressions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/notes.h"
#include "base/split.h"
#include "model/defines.h"
#include "mmm/optimize.h"

/* A value given for option `what` (len bytes of text): MMM_ELIMIT from
 * 512 bytes, MMM_EINVAL when it is not a constant expression. */
static int parse_value(const char *what, const char *text, size_t len,
                       mmm_value *out, mmm_error *err)
{
    char buf[512];
    mmm_error e;
    if (len >= sizeof buf)
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0, "%s: value too long", what);
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (mmm__constant(buf, sizeof buf, out, NULL, &e) < 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "%s '%s': %s", what, buf,
                             e.message);
    return 0;
}

/* The axes of one text: the names of a tuple ("bx,by"), each a name of
 * prog, and where their values go. */
typedef struct tuple {
    size_t first, n;           /* spec->axes[first .. first + n) */
    mmm_sweep_spec *spec;
    size_t npoints;            /* list items read so far */
    mmm_error *err;
} tuple;

/* One item of a tuple list, "8x8": its values split at each 'x' that
 * stands alone (not after a letter or '_', as in max(a,b)) outside
 * parentheses. */
static int tuple_item(const char *item, size_t len, void *payload)
{
    tuple *t = payload;
    size_t part = 0, start = 0, i;
    int depth = 0, rc;
    for (i = 0; i <= len; i++) {
        char c = i < len ? item[i] : '\0', prev = i > 0 ? item[i - 1] : ' ';
        int letter = (prev >= 'a' && prev <= 'z') || (prev >= 'A' && prev <= 'Z') ||
                     prev == '_';
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (i < len && !(c == 'x' && depth == 0 && !letter && t->n > 1))
            continue;
        if (part == t->n)
            break; /* too many parts */
        mmm_sweep_axis *sx = &t->spec->axes[t->first + part++];
        if ((rc = parse_value("--values", item + start, i - start,
                              (mmm_value *)&sx->values[t->npoints], t->err)) < 0)
            return rc;
        start = i + 1;
    }
    if (part != t->n || i <= len)
        return mmm_error_set(t->err, MMM_EINVAL, NULL, 0, "--values '%.*s': a point "
                             "of %zu parameters is %zu values joined by 'x' (8x8)",
                             (int)(len < 200 ? len : 200), item, t->n, t->n);
    for (part = 0; part < t->n; part++)
        t->spec->axes[t->first + part].nvalues = t->npoints + 1;
    t->npoints++;
    return 0;
}

/* --values of the axes first .. first + n: split at top-level commas (not
 * those inside min(a,b)), each item a value (n = 1) or a tuple. */
static int parse_list(mmm_sweep_spec *spec, size_t first, size_t n, const char *text,
                      mmm_error *err)
{
    tuple t = {first, n, spec, 0, err};
    size_t cap = 1;
    for (const char *c = text; *c; c++)
        cap += *c == ',';
    for (size_t a = first; a < first + n; a++) {
        mmm_value *v = malloc(cap * sizeof *v);
        if (!v)
            return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        spec->axes[a].values = v;
        spec->axes[a].nvalues = 0;
        spec->axes[a].tied = a > first;
    }
    return mmm__split_list(text, tuple_item, &t);
}

typedef struct baseline_state {
    mmm_sweep_spec *spec;
    const char *const *names; /* of each axis */
    size_t naxes, next;
    int done[MMM_SWEEP_MAX_AXES];
    mmm_error *err;
} baseline_state;

static int baseline_item(const char *start, size_t len, void *payload)
{
    baseline_state *b = payload;
    const char *val = start, *eq = memchr(start, '=', len);
    size_t ax = b->next;
    int rc;
    if (eq) {
        size_t nlen = (size_t)(eq - start);
        for (ax = 0; ax < b->naxes; ax++)
            if (strlen(b->names[ax]) == nlen && !strncmp(b->names[ax], start, nlen))
                break;
        if (ax == b->naxes)
            return mmm_error_set(b->err, MMM_EINVAL, NULL, 0, "--baseline names '%.*s', "
                                 "which is not swept", (int)nlen, start);
        val = eq + 1;
    }
    if (ax >= b->naxes || b->done[ax])
        return mmm_error_set(b->err, MMM_EINVAL, NULL, 0, "--baseline needs one value "
                             "per swept parameter (%zu)", b->naxes);
    if ((rc = parse_value("--baseline", val, (size_t)(start + len - val),
                          &b->spec->baseline[ax], b->err)) < 0)
        return rc;
    b->done[ax] = 1;
    b->next = ax + 1;
    return 0;
}

/* --baseline "V,V" (in the order of the parameters) or "NAME=V,NAME=V". */
static int parse_baseline(mmm_sweep_spec *spec, const char *const *names, size_t naxes,
                          const char *text, mmm_error *err)
{
    baseline_state b = {spec, names, naxes, 0, {0}, err};
    int rc;
    if ((rc = mmm__split_list(text, baseline_item, &b)) != 0)
        return rc;
    for (size_t a = 0; a < naxes; a++)
        if (!b.done[a])
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--baseline gives no value "
                                 "for '%s'", names[a]);
    spec->has_baseline = 1;
    return 0;
}

/* --param p where the file declares no p: how to look at p instead. */
static int no_p(const mmm_program *prog, mmm_error *err)
{
    char advice[800];
    snprintf(advice, sizeof advice,
             ": p, the number of SMs, comes from -p or the machine file; to "
             "see the program over p, run 'mmm scale %.200s -p 1..64' "
             "(bounds, simulated makespan and speedup at each p) or 'mmm "
             "simulate %.200s -p 1,2,4'; to sweep p here, give --machine FILE "
             "(one that sets p) or declare it in the file: <param name=\"p\" "
             "value=\"2\" min=\"1\"/>",
             prog->file, prog->file);
    return mmm__no_param(err, prog, "--param", "p", advice);
}

/* Axis a of the spec: its parameter, name, found in prog (a -D of it
 * noted). */
static int find_axis(mmm_sweep_spec *spec, size_t a, const char *name,
                     const mmm_program *prog, mmm_notes *notes, mmm_error *err)
{
    mmm_sweep_axis *sx = &spec->axes[a];
    sx->slot = mmm_program_find_param(prog, name);
    if (sx->slot < 0)
        return strcmp(name, "p") ? mmm__no_param(err, prog, "--param", name, NULL)
                                 : no_p(prog, err);
    for (size_t k = 0; k < spec->nfixed; k++) {
        /* mmm_overrides_parse puts -p's override last */
        int dash_p = spec->has_p && k == spec->nfixed - 1 && !strcmp(name, "p");
        if (spec->fixed[k].slot == sx->slot &&
            mmm__notes_add(notes, "%s: note: %s%s ignored: %s is swept", prog->file,
                           dash_p ? "-p" : "-D ", dash_p ? "" : name, name) < 0)
            return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    return 0;
}

/* The range of axis a from its texts: --from, --to, --step ("*K": a
 * factor). */
static int parse_range(mmm_sweep_axis *sx, const mmm_sweep_axis_text *ax, mmm_error *err)
{
    const char *step = ax->step;
    int rc;
    if (step) {
        while (*step == ' ')
            step++;
        sx->geometric = *step == '*';
        step += sx->geometric;
    }
    if ((ax->from && (rc = parse_value("--from", ax->from, strlen(ax->from), &sx->from,
                                       err)) < 0) ||
        (ax->to && (rc = parse_value("--to", ax->to, strlen(ax->to), &sx->to, err)) < 0) ||
        (step && (rc = parse_value("--step", step, strlen(step), &sx->step, err)) < 0))
        return rc;
    if (step && !sx->geometric && sx->step.d == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--step must not be 0");
    if (sx->geometric && !(sx->step.d > 0 && sx->step.d != 1))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--step '%s': a factor must be "
                             "positive and not 1", ax->step);
    sx->has_from = ax->from != NULL;
    sx->has_to = ax->to != NULL;
    sx->has_step = step != NULL;
    return 0;
}

/* The axes of text ax from spec->axes[*n] on: one parameter, or a tuple
 * of them ("bx,by"), whose names go to names[] (in buf). */
static int parse_text(mmm_sweep_spec *spec, size_t *n, const mmm_sweep_axis_text *ax,
                      const mmm_program *prog, const char **names, char *buf,
                      mmm_notes *notes, mmm_error *err)
{
    size_t first = *n, len = strlen(ax->name);
    int rc;
    memcpy(buf, ax->name, len + 1);
    for (char *name = buf, *end; name; name = end) {
        if ((end = strchr(name, ',')) != NULL)
            *end++ = '\0';
        if (*n == MMM_SWEEP_MAX_AXES)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "at most %d swept "
                                 "parameters", MMM_SWEEP_MAX_AXES);
        names[*n] = name;
        if ((rc = find_axis(spec, (*n)++, name, prog, notes, err)) < 0)
            return rc;
    }
    if (*n - first > 1 && (ax->from || ax->to || ax->step || !ax->values))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--param %s takes a list of "
                             "tuples (--values 8x8,16x16), not a range", ax->name);
    if (ax->values)
        return parse_list(spec, first, *n - first, ax->values, err);
    return parse_range(&spec->axes[first], ax, err);
}

int mmm_sweep_spec_parse(mmm_sweep_spec *spec, const mmm_program *prog,
                         const mmm_sweep_axis_text *axes, size_t naxes,
                         const char *baseline, mmm_notes *notes, mmm_error *err)
{
    const char *names[MMM_SWEEP_MAX_AXES];
    char *buf = NULL;
    size_t total = 0, n = 0, at = 0;
    int rc = 0;
    if (!spec || !prog || !axes || naxes == 0 || naxes > MMM_SWEEP_MAX_AXES)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_sweep_spec_parse: missing argument");
    for (size_t a = 0; a < naxes; a++) {
        if (!axes[a].name)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                 "mmm_sweep_spec_parse: an axis without a name");
        total += strlen(axes[a].name) + 1;
    }
    MMM__CHECK_VERSION(spec, mmm_sweep_spec, SWEEP_SPEC, err);
    spec->naxes = 0;
    memset(spec->axes, 0, sizeof spec->axes);
    spec->has_baseline = 0;
    if (spec->objective == MMM_OBJECTIVE_BOUND && !spec->has_p &&
        mmm_program_find_param(prog, "p") < 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "--objective bound needs p: give "
                             "-p P (%s declares no parameter p)", prog->file);
    if (!(buf = malloc(total)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    for (size_t a = 0; a < naxes && rc == 0; a++) {
        rc = parse_text(spec, &n, &axes[a], prog, names, buf + at, notes, err);
        at += strlen(axes[a].name) + 1;
    }
    spec->naxes = n;
    for (size_t a = 0; a < n && rc == 0; a++)
        for (size_t b = 0; b < a && rc == 0; b++)
            if (spec->axes[a].slot == spec->axes[b].slot)
                rc = mmm_error_set(err, MMM_EINVAL, NULL, 0, "--param %s given twice",
                                   names[a]);
    if (rc == 0 && baseline)
        rc = parse_baseline(spec, names, n, baseline, err);
    free(buf);
    if (rc < 0)
        mmm_sweep_spec_dispose(spec);
    return rc;
}

void mmm_sweep_spec_dispose(mmm_sweep_spec *spec)
{
    if (!spec)
        return;
    for (size_t a = 0; a < MMM_SWEEP_MAX_AXES; a++) {
        free((void *)spec->axes[a].values);
        spec->axes[a].values = NULL;
        spec->axes[a].nvalues = 0;
    }
}
