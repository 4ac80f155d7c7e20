/* import_wfcommons.c: WfCommons workflow instances (WfFormat JSON), read
 * with jansson (the only file that includes it).
 *
 *   schema 1.5 and later: workflow.specification.tasks[] {id, name,
 *       parents[], children[]} and workflow.execution.tasks[] {id,
 *       runtimeInSeconds}
 *   older schemas: workflow.tasks[] or workflow.jobs[] {name, id?,
 *       parents[], children[]?, runtimeInSeconds or runtime}
 *
 * A task is named by its id (its name when it has none); parents and
 * children may name a task by id or by name.  Runtimes are in seconds. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "io/import_internal.h"

typedef struct wf {
    const char *buf;
    size_t len;
    const char *file;
    mmm_taskgraph *g;
    json_t *by_name; /* name -> id, for names that differ from their id */
} wf;

/* The line of the first "text" (quoted) in the file: where a task is
 * first named, for messages (the DOM keeps no positions). */
static long line_of(const wf *w, const char *text)
{
    size_t n = strlen(text);
    long line = 1;
    const char *p = w->buf, *end = w->buf + w->len;
    if (n == 0 || n + 2 > w->len)
        return 0;
    for (; p + n + 2 <= end; p++) {
        if (*p == '\n')
            line++;
        else if (*p == '"' && p[n + 1] == '"' && !memcmp(p + 1, text, n))
            return line;
    }
    return 0;
}

static int fail(const wf *w, int code, const char *task, const char *fmt,
                const char *a, mmm_error *err)
{
    return mmm_error_set(err, code, w->file, task ? line_of(w, task) : 0, fmt,
                         a);
}

static const char *str_member(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static const char *task_id(json_t *t)
{
    const char *id = str_member(t, "id");
    return id && *id ? id : str_member(t, "name");
}

/* A parent or child reference: an id, or a name of a task whose id
 * differs. */
static const char *resolve(const wf *w, const char *ref)
{
    json_t *v;
    if (mmm_program_find_kernel(mmm_taskgraph_program(w->g), ref) >= 0)
        return ref;
    v = json_object_get(w->by_name, ref);
    return v ? json_string_value(v) : ref;
}

static int edges_of(wf *w, json_t *t, const char *key, int parents,
                    mmm_error *err)
{
    json_t *list = json_object_get(t, key), *v;
    const char *id = task_id(t);
    size_t i;
    if (!list || json_is_null(list))
        return 0;
    if (!json_is_array(list))
        return fail(w, MMM_EINPUT, id,
                    "task '%s': its parents and children must be lists of "
                    "task ids",
                    id, err);
    json_array_foreach(list, i, v) {
        const char *ref = json_is_string(v) ? json_string_value(v) : NULL;
        const char *other;
        int r;
        if (!ref)
            return fail(w, MMM_EINPUT, id,
                        "task '%s': a parent or child is not a task id "
                        "(a string)",
                        id, err);
        other = resolve(w, ref);
        r = parents ? mmm_taskgraph_add_edge(w->g, other, id, 0, err)
                    : mmm_taskgraph_add_edge(w->g, id, other, 0, err);
        if (r < 0) {
            if (err && err->line == 0)
                err->line = line_of(w, id);
            return r;
        }
    }
    return 0;
}

static int runtime_of(const wf *w, json_t *t, const char *id, int *has,
                      double *out, mmm_error *err)
{
    static const char *keys[] = {"runtimeInSeconds", "runtime"};
    *has = 0;
    for (int k = 0; k < 2; k++) {
        json_t *v = json_object_get(t, keys[k]);
        if (!v || json_is_null(v))
            continue;
        if (!json_is_number(v))
            return fail(w, MMM_EINPUT, id,
                        "task '%s': its runtime is not a number", id, err);
        *out = json_number_value(v);
        *has = 1;
        return 0;
    }
    return 0;
}

/* The type of a task: its category (schemas before 1.5, and some later
 * files), else the program its execution ran (1.5: command.program). */
static const char *type_of(json_t *t, json_t *exec)
{
    const char *c = str_member(t, "category");
    json_t *cmd = exec ? json_object_get(exec, "command") : NULL;
    if (c && *c)
        return c;
    if (exec && (c = str_member(exec, "category")) && *c)
        return c;
    return json_is_object(cmd) ? str_member(cmd, "program") : NULL;
}

static int add_task(wf *w, json_t *t, json_t *exec, double runtime, int has,
                    size_t *missing, mmm_error *err)
{
    const char *id = task_id(t), *name = str_member(t, "name");
    long line;
    int r;
    if (!json_is_object(t) || !id || !*id)
        return mmm_error_set(err, MMM_EINPUT, w->file, 0,
                             "a task has neither an id nor a name");
    if (!has) {
        if ((*missing)++ == 0)
            mmm_taskgraph_warn(w->g, "task '%s' has no runtime: read as 0",
                               id);
        runtime = 0;
    }
    if ((r = mmm_taskgraph_add_task(w->g, id, runtime, MMM_COST_SECONDS, 0,
                                    err)) < 0) {
        line = line_of(w, id);
        if (err && err->line == 0)
            err->line = line;
        return r;
    }
    if ((r = mmm_taskgraph_task_type(w->g, type_of(t, exec), err)) < 0)
        return r;
    /* the id's own value is shared (no new string: the CLI's JSON writer
     * has a json_string of its own) */
    if (name && strcmp(name, id) &&
        json_object_set(w->by_name, name, json_object_get(t, "id")) < 0)
        return mmm_error_set(err, MMM_ENOMEM, w->file, 0, "out of memory");
    return 0;
}

static int read_tasks(wf *w, json_t *tasks, json_t *exec, mmm_error *err)
{
    json_t *t, *runtimes = NULL;
    size_t i, missing = 0;
    int r = 0;
    if (exec) {
        /* execution.tasks[]: id -> runtime */
        json_t *e;
        if (!json_is_array(exec))
            return mmm_error_set(err, MMM_EINPUT, w->file,
                                 line_of(w, "execution"),
                                 "workflow.execution.tasks must be a list");
        if (!(runtimes = json_object()))
            return mmm_error_set(err, MMM_ENOMEM, w->file, 0,
                                 "out of memory");
        json_array_foreach(exec, i, e) {
            const char *id = json_is_object(e) ? task_id(e) : NULL;
            if (!id) {
                r = mmm_error_set(err, MMM_EINPUT, w->file,
                                  line_of(w, "execution"),
                                  "an execution task has no id");
                goto done;
            }
            if (json_object_set(runtimes, id, e) < 0) {
                r = mmm_error_set(err, MMM_ENOMEM, w->file, 0,
                                  "out of memory");
                goto done;
            }
        }
    }
    json_array_foreach(tasks, i, t) {
        json_t *src = t;
        double rt = 0;
        int has = 0;
        if (!json_is_object(t)) {
            r = mmm_error_set(err, MMM_EINPUT, w->file, 0,
                              "task %zu of the workflow is not an object",
                              i + 1);
            goto done;
        }
        if (runtimes && task_id(t))
            src = json_object_get(runtimes, task_id(t));
        if (src && (r = runtime_of(w, src, task_id(t) ? task_id(t) : "?",
                                   &has, &rt, err)) < 0)
            goto done;
        if ((r = add_task(w, t, src != t ? src : NULL, rt, has, &missing, err)) < 0)
            goto done;
    }
    if (missing > 1)
        mmm_taskgraph_warn(w->g, "%zu tasks have no runtime: read as 0",
                           missing);
    json_array_foreach(tasks, i, t) {
        if ((r = edges_of(w, t, "parents", 1, err)) < 0 ||
            (r = edges_of(w, t, "children", 0, err)) < 0)
            goto done;
    }
done:
    json_decref(runtimes);
    return r;
}

int mmm__read_wfcommons(mmm_program **out, const char *buf, size_t len,
                        const char *name, const mmm_import_options *opt,
                        mmm_import_report *rep, mmm_error *err)
{
    wf w = {buf, len, name, NULL, NULL};
    json_error_t je;
    json_t *root, *wfl, *spec, *tasks, *exec = NULL;
    const char *title;
    int r;

    *out = NULL;
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return mmm_error_set(err, MMM_EPARSE, name, je.line > 0 ? je.line : 0,
                             "not valid JSON: %s", je.text);
    wfl = json_object_get(root, "workflow");
    if (!json_is_object(wfl)) {
        json_decref(root);
        return mmm_error_set(err, MMM_EINPUT, name, 1,
                             "JSON without a \"workflow\" object: not a "
                             "WfCommons instance");
    }
    spec = json_object_get(wfl, "specification");
    if (json_is_object(spec)) {
        json_t *ex = json_object_get(wfl, "execution");
        tasks = json_object_get(spec, "tasks");
        if (json_is_object(ex))
            exec = json_object_get(ex, "tasks");
    } else {
        tasks = json_object_get(wfl, "tasks");
        if (!tasks)
            tasks = json_object_get(wfl, "jobs");
    }
    if (!json_is_array(tasks)) {
        json_decref(root);
        return mmm_error_set(err, MMM_EINPUT, name, 1,
                             "the workflow has no list of tasks "
                             "(workflow.specification.tasks, workflow.tasks "
                             "or workflow.jobs)");
    }
    title = str_member(root, "name");
    r = mmm_taskgraph_new(&w.g, name, title, opt, rep, err);
    if (r == 0 && !(w.by_name = json_object()))
        r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
    if (r == 0)
        r = read_tasks(&w, tasks, exec, err);
    if (r == 0) {
        r = mmm_taskgraph_finish(w.g, out, err);
        w.g = NULL;
    }
    mmm_taskgraph_free(w.g);
    json_decref(w.by_name);
    json_decref(root);
    return r;
}
