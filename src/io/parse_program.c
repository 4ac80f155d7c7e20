/* parse_program.c: DAG files (<program>).  Each checked element of the
 * parse becomes a record (below) that the builder turns into calls of
 * src/model/program.c, inline or in a second thread (src/base/pipe.c); and the public
 * entry points mmm_program_load_file and mmm_program_load_memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/parse_int.h"
#include "model/program_internal.h"
#include "base/abi.h"

/* The builder's errors (its own, or the program builder's and the
 * expression parser's, whose message is kept and whose file and line are
 * filled in when missing): the first one is kept, and the pipe stops. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void bfail(mmm__parse_builder *b, int code, long line, const char *fmt, ...)
{
    if (b->have_err)
        return;
    va_list ap;
    va_start(ap, fmt);
    b->have_err = 1;
    mmm_error_vset(&b->err, code, b->file, line, fmt, ap);
    va_end(ap);
}

static void bfail_with(mmm__parse_builder *b, const mmm_error *e, long line)
{
    bfail(b, e->code < 0 ? e->code : MMM_EINPUT,
          e->line > 0 ? e->line : line, "%s", e->message);
}

static mmm_access access_of(const char *v, mmm_access dflt)
{
    if (!v)
        return dflt;
    return strcmp(v, "irregular") ? MMM_ACCESS_COALESCED
                                  : MMM_ACCESS_IRREGULAR;
}

/* The kernel attributes its <blocks> children inherit, in the order of
 * builder.kernel_def: shared, then those of mmm/attr.h. */
#define KDEF_N (1 + MMM_ATTR_N)

static int kdef_ke(int i)
{
    return i == 0 ? KE_SHARED : KE_ATTR0 + i - 1;
}

static void kernel_defs_free(mmm__parse_builder *b)
{
    for (int i = 0; i < KDEF_N; i++) {
        free(b->kernel_def[i]);
        b->kernel_def[i] = NULL;
    }
}

/* ---- kernels and blocks whose <access> children give their reads and
 * writes: kept until the record of their end ---- */

static void pending_free(mmm__parse_builder *b)
{
    for (int i = 0; i < MAX_ATTRS; i++) {
        free(b->pend_text[i]);
        b->pend_text[i] = NULL;
    }
    for (size_t i = 0; i < b->nacc; i++)
        for (int j = 0; j < 5; j++)
            free(b->acc_text[i][j]);
    b->nacc = 0;
    b->pending = 0;
}

static void builder_free(mmm__parse_builder *b)
{
    pending_free(b);
    free(b->acc);
    free(b->acc_text);
    b->acc = NULL;
    b->acc_text = NULL;
    b->acc_cap = 0;
}

/* Keep the n texts of v (a kernel's or a <blocks>'s) until its end. */
static int pending_start(mmm__parse_builder *b, int what, const char **v,
                         int n, long line)
{
    pending_free(b);
    for (int i = 0; i < n; i++)
        if (v[i] && !(b->pend_text[i] = strdup(v[i]))) {
            bfail(b, MMM_ENOMEM, line, "out of memory");
            return -1;
        }
    b->pending = what;
    b->pend_line = line;
    return 0;
}

static void add_access(mmm__parse_builder *b, const char **v, long line,
                       int in_blocks)
{
    const char *id = b->prog->nkernels ? b->prog->kernels[b->kernel].id : "";
    if (b->pending != (in_blocks ? 2 : 1)) {
        if (in_blocks || b->kernel_complete)
            bfail(b, MMM_EINPUT, line,
                  "%skernel '%s' gives reads and writes and <access> "
                  "children: its reads and writes are the sums of the "
                  "accesses' words (leave them out)",
                  in_blocks ? "<blocks> of " : "", id);
        else
            bfail(b, MMM_EINPUT, line,
                  "kernel '%s' has <blocks> children: its <access> children "
                  "go inside each <blocks>",
                  id);
        return;
    }
    if (b->nacc == b->acc_cap) {
        size_t cap = b->acc_cap ? 2 * b->acc_cap : 8;
        mmm_access_spec *a = realloc(b->acc, cap * sizeof *a);
        if (a)
            b->acc = a;
        char *(*t)[5] = a ? realloc(b->acc_text, cap * sizeof *t) : NULL;
        if (!t) {
            bfail(b, MMM_ENOMEM, line, "out of memory");
            return;
        }
        b->acc_text = t;
        b->acc_cap = cap;
    }
    mmm_access_spec *a = &b->acc[b->nacc];
    char **t = b->acc_text[b->nacc];
    const int keep[5] = {AC_WORDS, AC_STRIDE, AC_REGION, AC_ARRAY, AC_TAKEN};
    memset(a, 0, sizeof *a);
    for (int j = 0; j < 5; j++)
        t[j] = NULL;
    b->nacc++;
    for (int j = 0; j < 5; j++)
        if (v[keep[j]] && !(t[j] = strdup(v[keep[j]]))) {
            bfail(b, MMM_ENOMEM, line, "out of memory");
            return;
        }
    a->line = line;
    a->words = t[0];
    a->stride = t[1];
    a->region = t[2];
    a->array = t[3];
    a->taken = t[4];
    a->write = v[AC_MODE] && !strcmp(v[AC_MODE], "write");
    a->pattern = v[AC_PATTERN] ? (mmm_mem_pattern)mmm_mem_pattern_find(v[AC_PATTERN])
                               : MMM_PATTERN_COALESCED;
    a->block_scope = v[AC_SCOPE] && !strcmp(v[AC_SCOPE], "block");
}

static void start_kernel(mmm__parse_builder *b, const char **v, long line)
{
    mmm_kernel_spec ks;
    mmm_error e;
    memset(&ks, 0, sizeof ks);
    ks.id = v[KE_ID];
    ks.line = line;
    ks.repeat = v[KE_REPEAT];
    ks.index = v[KE_INDEX];
    ks.threads = v[KE_THREADS];
    ks.blocks = v[KE_BLOCKS];
    ks.work = v[KE_WORK];
    ks.span = v[KE_SPAN];
    ks.reads = v[KE_READS];
    ks.writes = v[KE_WRITES];
    b->kernel_minimal = v[KE_BLOCKS] != NULL;
    b->kernel_line = line;
    b->kernel_nclasses = 0;
    kernel_defs_free(b);
    b->kernel_access = -1;
    b->kernel_complete = b->kernel_minimal && v[KE_READS] && v[KE_WRITES];
    if (b->kernel_minimal && !b->kernel_complete) {
        /* its accesses give its reads and writes: built at its end */
        pending_start(b, 1, v, KE_N, line);
        return;
    }
    if (b->kernel_minimal) {
        ks.shared = v[KE_SHARED];
        ks.access = access_of(v[KE_ACCESS], MMM_ACCESS_COALESCED);
        ks.attr = v + KE_ATTR0;
    } else {
        /* Several kinds of block: shared, access and the time model's
         * attributes are their defaults. */
        for (int i = 0; i < KDEF_N; i++)
            if (v[kdef_ke(i)] &&
                !(b->kernel_def[i] = strdup(v[kdef_ke(i)]))) {
                bfail(b, MMM_ENOMEM, line, "out of memory");
                return;
            }
        if (v[KE_ACCESS])
            b->kernel_access = (int)access_of(v[KE_ACCESS], 0);
    }
    mmm_error_clear(&e);
    if (mmm_program_add_kernel(b->prog, &ks, &b->kernel, &e) < 0 ||
        mmm_program_set_kernel_type(b->prog, b->kernel, v[KE_TYPE], &e) < 0)
        bfail_with(b, &e, line);
}

/* The kernel kept until its end, with its accesses. */
static void end_pending_kernel(mmm__parse_builder *b)
{
    const char *v[MAX_ATTRS];
    mmm_kernel_spec ks;
    mmm_error e;
    for (int i = 0; i < MAX_ATTRS; i++)
        v[i] = b->pend_text[i];
    memset(&ks, 0, sizeof ks);
    ks.id = v[KE_ID];
    ks.line = b->pend_line;
    ks.repeat = v[KE_REPEAT];
    ks.index = v[KE_INDEX];
    ks.threads = v[KE_THREADS];
    ks.blocks = v[KE_BLOCKS];
    ks.work = v[KE_WORK];
    ks.span = v[KE_SPAN];
    ks.reads = v[KE_READS];
    ks.writes = v[KE_WRITES];
    ks.shared = v[KE_SHARED];
    ks.access = access_of(v[KE_ACCESS], MMM_ACCESS_COALESCED);
    ks.attr = v + KE_ATTR0;
    mmm_error_clear(&e);
    if (mmm_program_add_kernel_accesses(b->prog, &ks, b->acc, b->nacc,
                                        &b->kernel, &e) < 0 ||
        mmm_program_set_kernel_type(b->prog, b->kernel, v[KE_TYPE], &e) < 0)
        bfail_with(b, &e, b->pend_line);
    pending_free(b);
}

static void add_blocks(mmm__parse_builder *b, const char **v, long line,
                       const mmm_access_spec *acc, size_t nacc)
{
    mmm_class_spec cs;
    mmm_error e;
    memset(&cs, 0, sizeof cs);
    cs.line = line;
    cs.count = v[BL_COUNT];
    cs.work = v[BL_WORK];
    cs.span = v[BL_SPAN];
    cs.reads = v[BL_READS];
    cs.writes = v[BL_WRITES];
    cs.threads = v[BL_THREADS];
    const char *attr[MMM_ATTR_N];
    cs.shared = v[BL_SHARED] ? v[BL_SHARED] : b->kernel_def[0];
    for (int a = 0; a < MMM_ATTR_N; a++)
        attr[a] = v[BL_ATTR0 + a] ? v[BL_ATTR0 + a] : b->kernel_def[1 + a];
    cs.attr = attr;
    cs.access = access_of(v[BL_ACCESS], b->kernel_access < 0
                                            ? MMM_ACCESS_COALESCED
                                            : (mmm_access)b->kernel_access);
    mmm_error_clear(&e);
    if (mmm_program_add_class_accesses(b->prog, b->kernel, &cs, acc, nacc,
                                       &e) < 0)
        bfail_with(b, &e, line);
    else
        b->kernel_nclasses++;
}

static void start_blocks(mmm__parse_builder *b, const char **v, long line)
{
    if (b->pending == 1) { /* its kernel waits for its accesses */
        bfail(b, MMM_EINPUT, line,
              "kernel '%s' has both a blocks attribute and <blocks> children",
              b->pend_text[KE_ID] ? b->pend_text[KE_ID] : "");
        return;
    }
    b->blocks_complete = v[BL_READS] && v[BL_WRITES];
    if (!b->blocks_complete)
        pending_start(b, 2, v, BL_N, line); /* its accesses give them */
    else
        add_blocks(b, v, line, NULL, 0);
}

static void end_pending_blocks(mmm__parse_builder *b)
{
    const char *v[MAX_ATTRS];
    for (int i = 0; i < MAX_ATTRS; i++)
        v[i] = b->pend_text[i];
    add_blocks(b, v, b->pend_line, b->acc, b->nacc);
    pending_free(b);
}

static void end_kernel(mmm__parse_builder *b)
{
    if (b->pending == 1) {
        end_pending_kernel(b);
        return;
    }
    if (!b->kernel_minimal && b->kernel_nclasses == 0)
        bfail(b, MMM_EINPUT, b->kernel_line,
             "kernel '%s' has no blocks (give blocks=... or <blocks> "
             "children)",
             b->prog->kernels[b->kernel].id);
    kernel_defs_free(b);
}

static void program_element(mmm__parse_builder *b, enum mmm__parse_elem kind, const char **v,
                            long line)
{
    mmm_error e;
    int r = 0;
    mmm_error_clear(&e);
    switch (kind) {
    case E_PROGRAM:
        r = mmm_program_set_name(b->prog, v[PR_NAME], line, &e);
        break;
    case E_PARAM:
        r = mmm_program_add_param(b->prog, v[PA_NAME], v[PA_VALUE],
                                  v[PA_MIN], v[PA_MAX], line, &e);
        break;
    case E_CONSTRAINT:
        r = mmm_program_add_constraint(b->prog, v[CO_TEST], line, &e);
        break;
    case E_KERNEL:
        start_kernel(b, v, line);
        break;
    case E_BLOCKS:
        start_blocks(b, v, line);
        break;
    case E_EDGE:
        r = mmm_program_add_edge(b->prog, v[ED_FROM], v[ED_TO], line, &e);
        break;
    case E_ARRAY:
        r = mmm_program_add_array(b->prog, v[AR_NAME], v[AR_BYTES], line, &e);
        break;
    case E_ACCESS:
        add_access(b, v, line, 0);
        break;
    case E_COPY: {
        mmm_copy_spec cs = {v[CP_ID], line,
                            (mmm_copy_kind)mmm_copy_kind_find(v[CP_KIND]),
                            v[CP_BYTES], v[CP_REPEAT], v[CP_SRC], v[CP_DST]};
        r = mmm_program_add_copy(b->prog, &cs, NULL, &e);
        break;
    }
    default:
        break;
    }
    if (r < 0)
        bfail_with(b, &e, line);
}

/* ------------------------------------------------------------------ */
/* Records: what the parse hands the builder through the pipe           */

/* The pipe's consumer: build from a chunk of records, in order.  Returns
 * non-zero (stop) at the first error. */
static int build_records(void *ctx, char *data, size_t len)
{
    mmm__parse_builder *b = ctx;
    size_t pos = 0;
    while (pos < len && !b->have_err) {
        mmm__parse_record r;
        const char *v[MAX_ATTRS] = {NULL};
        memcpy(&r, data + pos, sizeof r);
        const char *p = data + pos + sizeof r;
        for (unsigned m = r.mask; m; m &= m - 1) {
            v[__builtin_ctz(m)] = p;
            p += strlen(p) + 1;
        }
        if (r.kind == R_END_KERNEL) {
            end_kernel(b);
        } else if (r.kind == R_END_BLOCKS) {
            end_pending_blocks(b);
        } else if (r.kind == R_ACCESS_IN_BLOCKS) {
            add_access(b, v, (long)r.line, 1);
        } else if (r.kind == R_DESCRIPTION) {
            mmm_error e;
            mmm_error_clear(&e);
            if (mmm_program_set_description(b->prog, v[0], &e) < 0)
                bfail_with(b, &e, (long)r.line);
        } else {
            program_element(b, (enum mmm__parse_elem)r.kind, v, (long)r.line);
        }
        pos += r.size;
    }
    return b->have_err;
}

static const mmm__parse_handlers program_handlers = {build_records, NULL};

static int load_program(mmm_program **out, const char *path,
                        const char *mem, size_t len, const char *name,
                        const mmm_load_options *opt, mmm_error *err)
{
    mmm_load_options dflt = MMM_LOAD_OPTIONS_INIT;
    mmm__parse_loader ld;
    int r;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no output pointer");
    *out = NULL;
    MMM__CHECK_VERSION(opt, mmm_load_options, LOAD_OPTIONS, err);
    if (!opt)
        opt = &dflt;
    memset(&ld, 0, sizeof ld);
    ld.mode = MODE_PROGRAM;
    ld.on = &program_handlers;
    ld.file = name;
    ld.lim = mmm_limits_effective(&opt->limits);
    ld.bld.file = name;
    ld.bld.kernel_access = -1;
    if ((r = mmm_program_new(&ld.bld.prog, name, &opt->limits, err)) < 0)
        return r;
    if (opt->machine) {
        const mmm_machine *m = opt->machine;
        for (size_t i = 0; i < m->nparams; i++)
            if ((r = mmm_program_add_machine_param(
                     ld.bld.prog, m->params[i].name, m->params[i].value,
                     err)) < 0) {
                mmm_program_free(ld.bld.prog);
                return r;
            }
    }
    r = mmm__parse_load(&ld, path, mem, len, opt->skip_schema, opt->threads, err);
    if (r < 0 && ld.bld.have_err) {
        const struct mmm_program_priv *pv = ld.bld.prog->priv;
        memcpy(ld.unknown_name, pv->unknown_name, sizeof ld.unknown_name);
        ld.unknown_cut = pv->unknown_cut;
        mmm__parse_declared_later(&ld, path, mem, len, err);
    }
    mmm__parse_loader_dispose(&ld);
    kernel_defs_free(&ld.bld);
    builder_free(&ld.bld);
    if (r == 0 && (r = mmm_program_finalize(ld.bld.prog, err)) < 0 && err) {
        if (!err->file[0])
            snprintf(err->file, sizeof err->file, "%s", name);
    }
    if (r < 0) {
        mmm_program_free(ld.bld.prog);
        return r;
    }
    *out = ld.bld.prog;
    return 0;
}

int mmm_program_load_file(mmm_program **out, const char *path,
                          const mmm_load_options *opt, mmm_error *err)
{
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    return load_program(out, path, NULL, 0, path, opt, err);
}

int mmm_program_load_memory(mmm_program **out, const char *buf, size_t len,
                            const char *name, const mmm_load_options *opt,
                            mmm_error *err)
{
    if (!buf && len)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no buffer");
    return load_program(out, NULL, buf ? buf : "", len,
                        name ? name : "<memory>", opt, err);
}
