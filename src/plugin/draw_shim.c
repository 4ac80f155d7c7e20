/* draw_shim.c: the public drawing functions (mmm/render.h, plot.h, gantt.h,
 * report.h) as the binary sees them: the plugin's loader, a static library
 * the binary links (mmm_draw_shim).  The binary links the core only; each
 * function here loads the drawing plugin on first use (see draw_plugin.h
 * for where it is looked for), looks the real function up by its name
 * once, and calls it.  So `mmm analyze` and the
 * other commands that do not draw never load Graphviz, PLplot, cairo or
 * pango, and a build without the drawing module still links: its drawing
 * functions fail with a message that says why.
 *
 * The DOT readers (cgraph) come through the plugin the same way.
 * A CLI file that calls a drawing function not listed below fails to link:
 * add one DRAW_FN line for it.  mmm_draw_available is the shim's own: it
 * loads the plugin (the drawing library's says 1). */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmm/gantt.h"
#include "mmm/output.h"
#include "mmm/plot.h"
#include "mmm/render.h"
#include "mmm/report.h"
#include "mmm/roofline.h"
#include "mmm/scale.h"
#include "mmm/sweep_plot.h"
#include "mmm/version.h"
#include "plugin/draw_plugin.h"
#ifdef MMM_DOT_IN_PLUGIN
#include "mmm/import_dot.h"
#endif

#ifndef MMM_PLUGIN_REL
#define MMM_PLUGIN_REL "../lib/mmm"
#endif

static void *plugin;
static int tried;
static char why[PATH_MAX + 256];

/* Open path; 1 when it is the plugin of this version, else 0 with why. */
static int try_open(const char *path)
{
    const char *(*version)(void);
    void *h, *sym;
    if (access(path, F_OK) != 0) {
        snprintf(why, sizeof why, "drawing module not found (%s)", path);
        return 0;
    }
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "cannot load the drawing module: %s",
                 e ? e : path);
        return 0;
    }
    sym = dlsym(h, "mmm_draw_plugin_version");
    if (sym)
        memcpy(&version, &sym, sizeof version);
    if (!sym || strcmp(version(), mmm_version()) != 0) {
        snprintf(why, sizeof why, "%s is not the drawing module of mmm %s",
                 path, mmm_version());
        dlclose(h);
        return 0;
    }
    plugin = h;
    return 1;
}

static void load(void)
{
    char exe[PATH_MAX], path[PATH_MAX + 64];
    const char *env = getenv(MMM_DRAW_PLUGIN_ENV);
    ssize_t n;
    char *slash;
    tried = 1;
    if (!MMM_HAVE_DRAWING) {
        snprintf(why, sizeof why, "this mmm was built without its drawing "
                 "module (Graphviz was not found, or -DMMM_DRAWING=OFF)");
        return;
    }
    if (env && *env) {
        try_open(env);
        return;
    }
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(why, sizeof why, "cannot find the drawing module: "
                 "/proc/self/exe is unreadable; set " MMM_DRAW_PLUGIN_ENV);
        return;
    }
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, sizeof path, "%s/%s/%s", exe, MMM_PLUGIN_REL,
             MMM_DRAW_PLUGIN_FILE);
    if (try_open(path))
        return;
    snprintf(path, sizeof path, "%s/%s", exe, MMM_DRAW_PLUGIN_FILE);
    if (access(path, F_OK) == 0)
        try_open(path);
}

int mmm_draw_available(const char **reason)
{
    if (!tried)
        load();
    if (reason)
        *reason = plugin ? NULL : why;
    return plugin != NULL;
}

static void *draw_sym(const char *name)
{
    void *p;
    if (!mmm_draw_available(NULL))
        return NULL;
    p = dlsym(plugin, name);
    if (!p)
        snprintf(why, sizeof why, "the drawing module has no %s", name);
    return p;
}

static int unavailable(mmm_error *err)
{
    return mmm_error_set(err, MMM_EINVAL, NULL, 0, "%s", why);
}

/* ret name params: look name up once (ISO C has no cast from an object
 * pointer to a function pointer: copy the bytes), then call it; without
 * the plugin, run `fallback`. */
#define DRAW_FN(ret, name, params, args, fallback)                           \
    ret name params                                                           \
    {                                                                         \
        static ret (*fn) params;                                              \
        if (!fn) {                                                            \
            void *p = draw_sym(#name);                                        \
            if (!p) {                                                         \
                fallback;                                                     \
            }                                                                 \
            memcpy(&fn, &p, sizeof fn);                                       \
        }                                                                     \
        return fn args;                                                       \
    }

DRAW_FN(int, mmm_render_format_parse, (mmm_render_format *out, const char *name),
        (out, name), return MMM_EINVAL)
DRAW_FN(int, mmm_render_format_from_path, (mmm_render_format *out, const char *path),
        (out, path), return MMM_EINVAL)
DRAW_FN(int, mmm_render_level_parse, (mmm_render_level *out, const char *name),
        (out, name), return MMM_EINVAL)
DRAW_FN(int, mmm_render_color_parse, (mmm_render_color *out, const char *name),
        (out, name), return MMM_EINVAL)
DRAW_FN(const char *, mmm_render_format_name, (mmm_render_format f), (f), return "?")
DRAW_FN(int, mmm_render_memory,
        (char **out, size_t *len_out, const mmm_instance *inst,
         const mmm_metrics *m, const mmm_render_options *opt, mmm_error *err),
        (out, len_out, inst, m, opt, err), return unavailable(err))
DRAW_FN(int, mmm_render_file,
        (const char *path, const mmm_instance *inst, const mmm_metrics *m,
         const mmm_render_options *opt, mmm_error *err),
        (path, inst, m, opt, err), return unavailable(err))

DRAW_FN(int, mmm_plot_curve_init,
        (mmm_plot_curve *c, const char *label, uint64_t expected, size_t max_points),
        (c, label, expected, max_points), return MMM_EINVAL)
DRAW_FN(int, mmm_plot_curve_add, (mmm_plot_curve *c, double x, double y),
        (c, x, y), return MMM_EINVAL)
DRAW_FN(int, mmm_plot_curve_finish, (mmm_plot_curve *c), (c), return MMM_EINVAL)
/* Disposing never loads the plugin: without it no curve can have been
 * initialized (the command disposes its zeroed curves even when it drew
 * nothing). */
void mmm_plot_curve_dispose(mmm_plot_curve *c)
{
    static void (*fn)(mmm_plot_curve *);
    if (!plugin)
        return;
    if (!fn) {
        void *p = draw_sym("mmm_plot_curve_dispose");
        if (!p)
            return;
        memcpy(&fn, &p, sizeof fn);
    }
    fn(c);
}
DRAW_FN(int, mmm_plot_available, (void), (), return 0)
DRAW_FN(int, mmm_plot_write, (const mmm_plot *plot, const char *path, mmm_error *err),
        (plot, path, err), return unavailable(err))

DRAW_FN(int, mmm_gantt_write,
        (const char *path, const mmm_sim_result *r, const mmm_program *prog,
         const mmm_gantt_options *opt, mmm_error *err),
        (path, r, prog, opt, err), return unavailable(err))
DRAW_FN(int, mmm_gantt_png_available, (void), (), return 0)
DRAW_FN(int, mmm_gantt_pdf_available, (void), (), return 0)

DRAW_FN(int, mmm_report_html,
        (char **out, size_t *len_out, const mmm_instance *inst,
         const mmm_metrics *m, const mmm_report_options *opt, mmm_error *err),
        (out, len_out, inst, m, opt, err), return unavailable(err))
DRAW_FN(int, mmm_report_write,
        (const char *path, const mmm_instance *inst, const mmm_metrics *m,
         const mmm_report_options *opt, mmm_error *err),
        (path, inst, m, opt, err), return unavailable(err))

DRAW_FN(int, mmm_speedup_plot_write,
        (const mmm_speedup *s, const char *program_name, const char *path,
         mmm_error *err),
        (s, program_name, path, err), return unavailable(err))
DRAW_FN(int, mmm_speedup_plot_write_measured,
        (const mmm_speedup *s, const mmm_speedup_measured *m, const char *program_name,
         const char *path, mmm_error *err),
        (s, m, program_name, path, err), return unavailable(err))

DRAW_FN(int, mmm_fit_plot_write,
        (const mmm_fit_report *r, const char *path, mmm_error *err),
        (r, path, err), return unavailable(err))
DRAW_FN(int, mmm_roofline_plot_write,
        (const mmm_roofline *r, const mmm_program *prog, const char *title,
         const char *path, mmm_error *err),
        (r, prog, title, path, err), return unavailable(err))

DRAW_FN(int, mmm_sweep_plot_new,
        (mmm_sweep_plot **out, const mmm_program *prog,
         const mmm_sweep_result *plan, uint64_t npoints, mmm_error *err),
        (out, prog, plan, npoints, err), return unavailable(err))
DRAW_FN(int, mmm_sweep_plot_add, (mmm_sweep_plot *sp, const mmm_sweep_point *pt),
        (sp, pt), return MMM_EINVAL)
DRAW_FN(int, mmm_sweep_plot_write,
        (mmm_sweep_plot *sp, const mmm_sweep_result *res, mmm_instance *inst,
         const mmm_sweep_spec *spec, const char *path, mmm_error *err),
        (sp, res, inst, spec, path, err), return unavailable(err))

/* Freeing never loads the plugin: without it nothing was made. */
void mmm_sweep_plot_free(mmm_sweep_plot *sp)
{
    static void (*fn)(mmm_sweep_plot *);
    if (!plugin)
        return;
    if (!fn) {
        void *p = draw_sym("mmm_sweep_plot_free");
        if (!p)
            return;
        memcpy(&fn, &p, sizeof fn);
    }
    fn(sp);
}

#ifdef MMM_DOT_IN_PLUGIN
/* The DOT readers need cgraph: they live in the plugin too, so that only a
 * command that reads a DOT file loads it. */
DRAW_FN(int, mmm_dot_read,
        (mmm_program **out, const char *buf, size_t len, const char *name,
         const mmm_import_options *opt, mmm_import_report *rep, mmm_error *err),
        (out, buf, len, name, opt, rep, err), return unavailable(err))
DRAW_FN(int, mmm_cuda_dot_read,
        (mmm_program **out, const char *buf, size_t len, const char *name,
         const mmm_import_options *opt, mmm_import_report *rep, mmm_error *err),
        (out, buf, len, name, opt, rep, err), return unavailable(err))
#endif
