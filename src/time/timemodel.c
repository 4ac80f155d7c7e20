/* timemodel.c: the time model (docs/time.md): occupancy, waves, launch
 * costs, latency / issue / bandwidth per wave, the longest kernel path in
 * seconds.  Seconds and cycles are doubles; occupancy, waves and launches
 * are exact integers. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/timemodel.h"
#include "model/program_internal.h"
#include "time/l2.h"
#include "time/limits.h"
#include "time/time_inputs.h"

/* The rows of time_inputs.h, and where each goes in mmm_time_machine. */
typedef struct ti_row {
    const char *name, *unit, *what, *default_text;
    int kind;
    size_t offset;
    double dflt, min, lo, hi, start;
    unsigned flags;
} ti_row;

#define TI_OFFSET_TI_INT(f) offsetof(mmm_time_machine, f)
#define TI_OFFSET_TI_REAL(f) offsetof(mmm_time_machine, f)
#define TI_OFFSET_TI_MODE(f) offsetof(mmm_time_machine, f)
#define TI_OFFSET_TI_FIT(f) \
    (offsetof(mmm_time_machine, c) + MMM_TIME_##f * sizeof(double))

static const ti_row rows[MMM__TI_N] = {
#define ROW_(id, name, kind, field, unit, what, dflt, min, lo, hi, start,   \
             flags, dtext)                                                 \
    {name, unit, what, dtext, kind, TI_OFFSET_##kind(field), dflt, min, lo, \
     hi, start, flags},
    MMM__TIME_INPUTS(ROW_)
#undef ROW_
};

/* The row of each fitted constant, by MMM_TIME_* index. */
#define FIT_ROW_TI_INT(id, f)
#define FIT_ROW_TI_REAL(id, f)
#define FIT_ROW_TI_MODE(id, f)
#define FIT_ROW_TI_FIT(id, f) [MMM_TIME_##f] = MMM__TI_##id,
static const int fit_row[MMM_TIME_NCONST] = {
#define ROW_(id, name, kind, field, ...) FIT_ROW_##kind(id, field)
    MMM__TIME_INPUTS(ROW_)
#undef ROW_
};

const char *mmm__time_input_name(int i)
{
    return i >= 0 && i < MMM__TI_N ? rows[i].name : NULL;
}

const char *mmm__time_input_unit(int i)
{
    return i >= 0 && i < MMM__TI_N ? rows[i].unit : NULL;
}

const char *mmm__time_input_default_text(int i)
{
    return i >= 0 && i < MMM__TI_N ? rows[i].default_text : NULL;
}

unsigned mmm__time_input_flags(int i)
{
    return i >= 0 && i < MMM__TI_N ? rows[i].flags : 0;
}

int mmm__time_input_fitted(int i)
{
    return i >= 0 && i < MMM__TI_N && rows[i].kind == TI_FIT;
}

/* The row of fitted constant i, or NULL. */
static const ti_row *fitted(int i)
{
    return i >= 0 && i < MMM_TIME_NCONST ? &rows[fit_row[i]] : NULL;
}

int mmm_time_const_optional(int i)
{
    return fitted(i) ? (fitted(i)->flags & TI_OPTIONAL) != 0 : 0;
}

double mmm_time_const_start(int i)
{
    return fitted(i) ? fitted(i)->start : 0;
}

const char *mmm_time_const_name(int i)
{
    return fitted(i) ? fitted(i)->name : "?";
}

const char *mmm_time_const_unit(int i)
{
    return fitted(i) ? fitted(i)->unit : "?";
}

const char *mmm_time_const_meaning(int i)
{
    return fitted(i) ? fitted(i)->what : "?";
}

int mmm_time_const_find(const char *name)
{
    for (int i = 0; i < MMM_TIME_NCONST; i++)
        if (!strcmp(fitted(i)->name, name))
            return i;
    return -1;
}

int mmm_time_const_mark(const char *list, int *mark, int value)
{
    int seen[MMM_TIME_NCONST] = {0};
    const char *s = list;
    if (!list || !mark || !*list)
        return -1;
    while (1) {
        size_t n = strcspn(s, ",");
        int i;
        char name[64];
        if (n == 0 || n >= sizeof name)
            return -1;
        memcpy(name, s, n);
        name[n] = '\0';
        if ((i = mmm_time_const_find(name)) < 0)
            return -1;
        seen[i] = 1;
        if (!s[n])
            break;
        s += n + 1;
    }
    for (int i = 0; i < MMM_TIME_NCONST; i++)
        if (seen[i])
            mark[i] = value;
    return 0;
}

void mmm_time_const_bounds(int i, double *lo, double *hi)
{
    *lo = fitted(i) ? fitted(i)->lo : 0;
    *hi = fitted(i) ? fitted(i)->hi : 0;
}

/* The names of the terms and of the limits, by value. */
static const char *const term_names[] = {
    [MMM_TIME_TERM_LATENCY] = "latency", [MMM_TIME_TERM_ISSUE] = "issue",
    [MMM_TIME_TERM_BANDWIDTH] = "bandwidth", [MMM_TIME_TERM_SHARED] = "shared",
    [MMM_TIME_TERM_LAUNCH] = "launch", [MMM_TIME_TERM_BLOCKS] = "blocks",
    [MMM_TIME_TERM_ATOMICS] = "atomics", [MMM_TIME_TERM_L1] = "l1",
    [MMM_TIME_TERM_COPY] = "copy"};
static const char *const limit_names[] = {
    [MMM_TIME_LIMIT_THREADS] = "threads", [MMM_TIME_LIMIT_BLOCKS] = "blocks",
    [MMM_TIME_LIMIT_SHARED] = "shared", [MMM_TIME_LIMIT_REGISTERS] = "registers"};
#define NAMES(a) (sizeof(a) / sizeof *(a))
_Static_assert(NAMES(term_names) == MMM_TIME_NTERMS &&
                   NAMES(limit_names) == MMM_TIME_LIMIT_REGISTERS + 1,
               "a name for every term and every limit");

const char *mmm_time_term_name(mmm_time_term t)
{
    return (unsigned)t < NAMES(term_names) ? term_names[t] : "?";
}

const char *mmm_time_limit_name(mmm_time_limit l)
{
    return (unsigned)l < NAMES(limit_names) ? limit_names[l] : "?";
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

static int64_t round_up(int64_t a, int64_t unit)
{
    return unit > 1 ? ceil_div(a, unit) * unit : a;
}

int64_t mmm_time_occupancy(const mmm_time_machine *m, int64_t threads,
                           int64_t block_shared, int64_t thread_registers,
                           mmm_time_limit *limit)
{
    mmm_time_limit lim = MMM_TIME_LIMIT_THREADS;
    if (threads <= 0 || m->warp_size <= 0) {
        if (limit)
            *limit = lim;
        return 0;
    }
    int64_t wb = ceil_div(threads, m->warp_size);
    int64_t a = m->sm_threads / (wb * m->warp_size);
    if (m->sm_blocks < a) {
        a = m->sm_blocks;
        lim = MMM_TIME_LIMIT_BLOCKS;
    }
    int64_t sh = round_up(block_shared + m->shared_reserved_bytes,
                          m->shared_granule_bytes);
    if (sh > 0 && m->sm_shared_bytes / sh < a) {
        a = m->sm_shared_bytes / sh;
        lim = MMM_TIME_LIMIT_SHARED;
    }
    if (thread_registers > 0) {
        int64_t parts = m->register_partitions > 0 ? m->register_partitions
                                                   : 1;
        int64_t rw = round_up(thread_registers * m->warp_size,
                              m->register_granule);
        int64_t warps = (m->sm_registers / parts / rw) * parts;
        if (warps / wb < a) {
            a = warps / wb;
            lim = MMM_TIME_LIMIT_REGISTERS;
        }
    }
    if (limit)
        *limit = lim;
    return a < 0 ? 0 : a;
}

/* ------------------------------------------------------------------ */
/* The machine                                                         */

/* The machine's value of `name` (the machine file's, else the program's:
 * mmm_program_find_machine_param) and the line of its declaration. */
static int find_value(const mmm_instance *inst, const char *name,
                      mmm_value *v, long *line)
{
    int slot = mmm_program_find_machine_param(inst->program, name);
    if (slot < 0)
        return 0;
    *v = inst->values[slot];
    *line = inst->program->params[slot].line;
    return 1;
}

static int missing(const mmm_instance *inst, const char *name,
                   const char *what, mmm_error *err)
{
    return mmm_error_set(err, MMM_EINPUT, inst->program->file, 0,
                         "the time model needs the machine parameter '%s' "
                         "(%s): give a machine file (--machine FILE) or "
                         "declare it",
                         name, what);
}

/* An integer hardware limit: required (def < 0) or defaulted; >= min. */
static int get_int(const mmm_instance *inst, const char *name,
                   const char *what, int64_t def, int64_t min, int64_t *out,
                   mmm_error *err)
{
    mmm_value v;
    long line = 0;
    if (!find_value(inst, name, &v, &line)) {
        if (def < 0)
            return missing(inst, name, what, err);
        *out = def;
        return 0;
    }
    if (!v.exact || v.den != 1 || v.num < min)
        return mmm_error_set(err, MMM_EINPUT, inst->program->file, line,
                             "machine parameter '%s' (%s) must be an integer "
                             ">= %lld, not %g",
                             name, what, (long long)min, v.d);
    *out = v.num;
    return 0;
}

static int get_real(const mmm_instance *inst, const char *name,
                    const char *what, int required, double min_excl,
                    double *out, mmm_error *err)
{
    mmm_value v;
    long line = 0;
    if (!find_value(inst, name, &v, &line)) {
        if (required)
            return missing(inst, name, what, err);
        return 0;
    }
    if (!isfinite(v.d) || v.d < 0 || (min_excl >= 0 && v.d <= min_excl))
        return mmm_error_set(err, MMM_EINPUT, inst->program->file, line,
                             "machine parameter '%s' (%s) must be %s, not "
                             "%g",
                             name, what,
                             min_excl >= 0 ? "positive" : "non-negative",
                             v.d);
    *out = v.d;
    return 0;
}

/* The value of row i once read (a later row's default). */
static double row_value(const mmm_time_machine *m, int i)
{
    const char *at = (const char *)m + rows[i].offset;
    if (rows[i].kind == TI_INT)
        return (double)*(const int64_t *)(const void *)at;
    if (rows[i].kind == TI_MODE)
        return (double)*(const int *)(const void *)at;
    return *(const double *)(const void *)at;
}

/* An error at the line that declares machine parameter `name`. */
static int bad_value(const mmm_instance *inst, const char *name, mmm_error *err,
                     const char *fmt, ...)
{
    mmm_value v;
    long line = 0;
    va_list ap;
    find_value(inst, name, &v, &line);
    va_start(ap, fmt);
    int r = mmm_error_vset(err, MMM_EINPUT, inst->program->file, line, fmt, ap);
    va_end(ap);
    return r;
}

int mmm_time_machine_get(mmm_time_machine *m, const mmm_instance *inst,
                         int require_constants, mmm_error *err)
{
    int r;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < MMM__TI_N; i++) {
        const ti_row *t = &rows[i];
        void *at = (char *)m + t->offset;
        int required = t->dflt == TI_REQUIRED;
        double dflt = t->dflt <= -2 ? row_value(m, (int)(-t->dflt) - 2)
                      : required    ? 0
                                    : t->dflt;
        if (t->kind == TI_INT || t->kind == TI_MODE) {
            int64_t v = 0;
            if ((r = get_int(inst, t->name, t->what,
                             required ? -1 : (int64_t)dflt, (int64_t)t->min,
                             &v, err)) < 0)
                return r;
            if (t->kind == TI_INT)
                *(int64_t *)at = v;
            else if (v > 1)
                return mmm_error_set(err, MMM_EINPUT, inst->program->file, 0,
                                     "parameter '%s' (launch mode) must be 0 "
                                     "(stream) or 1 (graph)",
                                     t->name);
            else
                *(int *)at = (int)v;
        } else if (t->kind == TI_REAL) {
            *(double *)at = dflt;
            if ((r = get_real(inst, t->name, t->what, required, t->min,
                              (double *)at, err)) < 0)
                return r;
        } else {
            /* A fitted constant.  The optional ones are 0 when absent:
             * files written before them stay valid. */
            int optional = (t->flags & TI_OPTIONAL) != 0;
            char what[160];
            snprintf(what, sizeof what, "%s, %s", t->what, t->unit);
            *(double *)at = dflt;
            if ((r = get_real(inst, t->name, what,
                              require_constants && !optional,
                              t->lo > 0 && !optional ? 0 : -1, (double *)at,
                              err)) < 0)
                return r;
        }
    }
    if (m->atomic_exposed > 1)
        return bad_value(inst, TI_NAME(ATOMIC_EXPOSED), err,
                         "machine parameter '%s' = %g is more than 1 (a share of the "
                         "shorter time)",
                         TI_NAME(ATOMIC_EXPOSED), m->atomic_exposed);
    /* reads alone at most twice as fast as a copy moves bytes in and out,
       or the writes would take no time */
    double bw = m->c[MMM_TIME_BANDWIDTH], rd = m->read_bytes_per_cycle;
    if (rd > 0 && bw > 0 && !(rd > bw / 2))
        return bad_value(inst, TI_NAME(READ_BYTES_PER_CYCLE), err,
                         "machine parameter '%s' = %g is at most half of %s = %g: a "
                         "copy, which reads and writes each byte, could not take the "
                         "time that bandwidth says; measure both with mmm calibrate",
                         TI_NAME(READ_BYTES_PER_CYCLE), rd,
                         TI_NAME(BANDWIDTH_BYTES_PER_CYCLE), bw);
    return 0;
}

/* ------------------------------------------------------------------ */
/* One launch                                                          */

typedef struct launch_cost {
    double exec;          /* execution alone, seconds */
    int64_t waves, resident;
    mmm_time_limit limit;
    mmm_time_term term;
    int l2;               /* its traffic names arrays: the L2 serves some */
    double work;          /* operations of all its threads */
    double dram, l2b;     /* bytes DRAM moves, bytes through the L2 */
} launch_cost;

/* What the launches see of the L2 (docs/time.md, "The L2"): its state,
 * the arrays' bytes, and a buffer for one launch's arrays. */
typedef struct l2_ctx {
    const mmm_time_machine *machine;
    mmm__l2 state;
    const int64_t *array_bytes;
    size_t narrays;
    mmm__l2_use *use;
    size_t nuse;
} l2_ctx;

/* The launch touches array id (its bytes size), reading and writing
 * these bytes of it. */
static void touch(l2_ctx *l, int64_t id, double size, double read,
                  double written)
{
    for (size_t i = 0; i < l->nuse; i++)
        if (l->use[i].id == id) {
            if (size > l->use[i].size)
                l->use[i].size = size;
            l->use[i].read += read;
            l->use[i].written += written;
            return;
        }
    l->use[l->nuse++] = (mmm__l2_use){id, size, read, written};
}

/* Where bytes of a kernel's traffic go: an array it names, else its
 * footprint (fp > 0), else none (the id -1). */
static int64_t home(const l2_ctx *l, int32_t array, double fp, size_t kidx,
                    double *size)
{
    if (array >= 0) {
        *size = (double)l->array_bytes[array];
        return array;
    }
    *size = fp;
    return fp > 0 ? (int64_t)(l->narrays + kidx) : -1;
}

/* *cur becomes c and *term t when c is larger (a tie keeps the earlier
 * term). */
static void take_larger(double *cur, mmm_time_term *term, double c,
                        mmm_time_term t)
{
    if (c > *cur) {
        *cur = c;
        *term = t;
    }
}

static double safe_div(double a, double b)
{
    return b > 0 ? a / b : (a > 0 ? HUGE_VAL : 0);
}

/* Bytes a warp's access moves per useful byte when neighbouring threads
 * access words `stride` words apart: it touches
 * min(warp_size, ceil(warp_size·stride·word_bytes / sector_bytes)) sectors
 * of sector_bytes (1 when coalesced; not given or below 1: coalesced). */
static double spread(const mmm_time_machine *m, double stride)
{
    if (!(stride > 1) || m->word_bytes <= 0 || m->sector_bytes <= 0)
        return 1;
    double w = (double)m->warp_size, useful = w * m->word_bytes;
    double sectors = fmin(w, ceil(w * stride * m->word_bytes /
                                  (double)m->sector_bytes));
    double moved = sectors * (double)m->sector_bytes;
    return moved > useful ? moved / useful : 1;
}

/* Bandwidth bytes of one word read (or written) at a random address over
 * a region of `region` bytes (0: larger than any cache): it is in the L2
 * with probability h = min(1, gather_l2_bytes / region) and costs hit
 * bytes then, else miss (a random word missing the L2 moves more than its
 * sector from DRAM, a written one more again; bench/gpu/gathers.cu). */
static double random_cost(const mmm_time_machine *m, double region,
                          double hit, double miss)
{
    double h = region > 0 ? fmin(1, m->gather_l2_bytes / region) : 0;
    return h * hit + (1 - h) * miss;
}

/* The bandwidth bytes one thread's access moves (its words of the
 * launch), and the atomic operations it adds to *serial, counted as the
 * `atomics` attribute counts them (operations on one word per block).
 * docs/time.md, section 3, "Several accesses per kernel". */
static double access_bytes(const mmm_time_machine *m, const mmm_mem_access *a,
                           const mmm_mem_access_val *v, double T,
                           double *serial)
{
    double w = (double)m->warp_size, q = v->taken, words = v->words;
    double sb = (double)m->sector_bytes;
    switch (a->pattern) {
    case MMM_PATTERN_COALESCED: {
        if (q >= 1)
            return words * m->word_bytes * spread(m, v->stride);
        /* lanes that skip the access leave their sectors untouched: a
         * sector of L lanes moves when one of them is active */
        double k = v->stride > 1 ? v->stride : 1;
        double sectors = fmin(w, ceil(w * k * m->word_bytes / sb));
        if (!(sectors > 0))
            return 0;
        double lanes = w / sectors;
        return words * sectors * sb * (1 - pow(1 - q, lanes)) / w;
    }
    case MMM_PATTERN_BROADCAST: {
        double sharers = a->block_scope ? T : w;
        return sharers > 0 ? words * sb * (1 - pow(1 - q, sharers)) / sharers
                           : 0;
    }
    case MMM_PATTERN_RANDOM:
        return words * q *
               (a->write ? random_cost(m, v->region, m->scatter_hit_bytes,
                                       m->scatter_miss_bytes)
                         : random_cost(m, v->region, m->gather_hit_bytes,
                                       m->gather_miss_bytes));
    case MMM_PATTERN_ATOMIC: {
        /* served one after another on each word: over one word they are
         * the `atomics` of the block; over a region of D words, D at a
         * time, each moving what a scattered word moves */
        double ops = words * q;
        double d = m->word_bytes > 0 ? floor(v->region / m->word_bytes) : 0;
        if (d <= 1) {
            *serial += T * ops;
            return 0;
        }
        *serial += T * ops / d;
        return ops * random_cost(m, v->region, m->scatter_hit_bytes,
                                 m->scatter_miss_bytes);
    }
    }
    return 0;
}

/* Gathers count among the reads and scatters among the writes: a part
 * larger than its whole is an error of the file. */
static int part_of(const mmm_program *prog, long line, const mmm_kernel *kr,
                   mmm_attr a, double p, const char *whole, double w,
                   mmm_error *err)
{
    const char *part = mmm_attr_name(a);
    if (!(p > w))
        return 0;
    return mmm_error_set(err, MMM_EINPUT, prog->file, line,
                         "kernel '%s': %s = %g is more than its %s = %g "
                         "(%s count among the %s)",
                         kr->id, part, p, whole, w, part, whole);
}

/* What keeps a block off an SM: the limit mmm_time_occupancy names. */
static mmm_time_excess sm_excess(mmm_time_limit l)
{
    return l == MMM_TIME_LIMIT_SHARED      ? MMM_TIME_OVER_SM_SHARED
           : l == MMM_TIME_LIMIT_REGISTERS ? MMM_TIME_OVER_SM_REGISTERS
                                           : MMM_TIME_OVER_SM_THREADS;
}

int mmm__time_block_fits(const mmm_time_machine *m, const mmm_program *prog,
                         const mmm_kernel *kr, long line,
                         const mmm_class_val *v, const mmm_attr_value *at,
                         const char *whose, int64_t *resident,
                         mmm_time_limit *limit, mmm_time_excess *excess,
                         mmm_error *err)
{
    int64_t T = v->threads;
    mmm_time_limit l = MMM_TIME_LIMIT_THREADS;
    *excess = MMM_TIME_FITS;
    if (T > m->block_threads) {
        *excess = MMM_TIME_OVER_BLOCK_THREADS;
        return mmm_error_set(err, MMM_EINPUT, prog->file, line,
                             "kernel '%s': %lld threads per block, more "
                             "than %sblock_threads = %lld",
                             kr->id, (long long)T, whose,
                             (long long)m->block_threads);
    }
    /* shared_bytes, when not given: shared words per thread */
    double shd = at[MMM_ATTR_SHARED_BYTES].given
                     ? at[MMM_ATTR_SHARED_BYTES].value
                     : ceil(v->shared * (double)T * m->word_bytes);
    if (shd > (double)m->block_shared_bytes) {
        *excess = MMM_TIME_OVER_BLOCK_SHARED;
        return mmm_error_set(err, MMM_EINPUT, prog->file, line,
                             "kernel '%s': %.0f bytes of shared memory "
                             "per block, more than %s"
                             "block_shared_bytes = %lld",
                             kr->id, shd, whose,
                             (long long)m->block_shared_bytes);
    }
    int64_t a = mmm_time_occupancy(m, T, (int64_t)shd,
                                   (int64_t)at[MMM_ATTR_REGISTERS].value, &l);
    if (a <= 0) {
        *excess = sm_excess(l);
        return mmm_error_set(err, MMM_EINPUT, prog->file, line,
                             "kernel '%s': a block of %lld threads "
                             "cannot be resident on an SM (limited by "
                             "%s)",
                             kr->id, (long long)T,
                             mmm_time_limit_name(l));
    }
    *resident = a;
    *limit = l;
    return MMM_OK;
}

/* What DRAM takes to read rd and write wr bytes streamed, in bytes of
 * the copy bandwidth B (bandwidth_bytes_per_cycle, a copy's bytes read
 * plus written): reads alone stream at R (read_bytes_per_cycle), writes
 * alone at W (set_bytes_per_s, a memset), and mixing them costs what a
 * copy shows beyond both, a turnaround share p x(1 - x) of the bytes, x
 * the share read: cost = B (rd/R + wr/W + p rd wr / (rd + wr)), p = 4
 * (1/B - 1/(2R) - 1/(2W)), so that a copy costs its bytes.  Without R
 * every byte costs one (as before R was measured); without W, W = B. */
static double dram_cost(const mmm_time_machine *m, double rd, double wr)
{
    double B = m->c[MMM_TIME_BANDWIDTH], R = m->read_bytes_per_cycle,
           W = m->set_bytes_per_s > 0 && m->clock_hz > 0 ? m->set_bytes_per_s / m->clock_hz : 0;
    if (!(B > 0) || !(R > 0) || rd + wr <= 0)
        return rd + wr;
    W = W > 0 ? W : B;
    double p = 4 * (1 / B - 1 / (2 * R) - 1 / (2 * W));
    if (p < 0)
        p = 0; /* a copy no slower than reads and writes alone: no turnaround */
    return B * (rd / R + wr / W + p * rd * wr / (rd + wr));
}

/* One launch of kernel kr: its classes cv[0 .. nc), their attributes
 * of mmm/attr.h, attr[c * MMM_ATTR_N + a], and their accesses, acc[0 ..)
 * class after class. */
static int launch(const mmm_time_machine *m, const mmm_program *prog,
                  size_t kidx, const mmm_class_val *cv,
                  const mmm_attr_value *attr, const mmm_mem_access_val *acc,
                  l2_ctx *l2, launch_cost *out, mmm_error *err)
{
    const mmm_kernel *kr = &prog->kernels[kidx];
    size_t nc = kr->nclasses;
    size_t ai = 0; /* the first access of class c in acc */
    int64_t N = 0, A = INT64_MAX;
    double lat = 0, issue = 0, bytes = 0, wave = 0, gwave = 0, atomics = 0;
    /* the traffic by where it goes: streamed bytes in no array (read,
     * written), words at random addresses (their own costs, g and s) */
    double unnamed_r = 0, unnamed_w = 0, random = 0;
    /* the streamed bytes DRAM reads and writes, which dram_cost weighs
     * (the words at random addresses, `random`, cost their own bytes) */
    double s_rd = 0, s_wr = 0;
    mmm_time_limit lim = MMM_TIME_LIMIT_THREADS;
    memset(out, 0, sizeof *out);
    l2->nuse = 0;
    for (size_t c = 0; c < nc; c++) {
        const mmm_class_val *v = &cv[c];
        const mmm_attr_value *at = attr + c * MMM_ATTR_N;
        const mmm_block_class *bc = &prog->classes[kr->first_class + c];
        const mmm_mem_access_val *av = acc + ai;
        size_t first, naccesses = mmm_block_class_accesses(
                          prog, kr->first_class + c, &first);
        long line = bc->line;
        ai += naccesses;
        if (v->count <= 0)
            continue;
        int64_t T = v->threads;
        if (T <= 0)
            return mmm_error_set(err, MMM_EINPUT, prog->file, line,
                                 "kernel '%s': the time model needs the "
                                 "threads per block (threads=...)",
                                 kr->id);
        int64_t a;
        mmm_time_limit l;
        mmm_time_excess x;
        int r = mmm__time_block_fits(m, prog, kr, line, v, at, "the machine's ", &a, &l,
                                     &x, err);
        if (r < 0)
            return r;
        if (a < A) {
            A = a;
            lim = l;
        }
        int64_t wb = ceil_div(T, m->warp_size);
        /* Without rounds, a thread's loads are taken to be independent
         * (issued together, as the compiler does for an unrolled loop):
         * one round trip if it reads at all. */
        double rounds = at[MMM_ATTR_ROUNDS].given
                            ? at[MMM_ATTR_ROUNDS].value
                            : (v->reads > 0);
        double gathers = at[MMM_ATTR_GATHERS].value,
               scatters = at[MMM_ATTR_SCATTERS].value,
               region = at[MMM_ATTR_GATHER_BYTES].value;
        /* The latency term follows a thread's longest dependent chain;
         * without one the path's every instruction (span) is taken to
         * wait for the one before it. */
        double dep = at[MMM_ATTR_CHAIN].given ? at[MMM_ATTR_CHAIN].value
                                                : v->span;
        if (dep > v->span)
            return mmm_error_set(err, MMM_EINPUT, prog->file, line,
                                 "kernel '%s': chain = %g is more than its "
                                 "span = %g (the dependent chain is part of "
                                 "the thread's path)",
                                 kr->id, dep, v->span);
        double cl = m->c[MMM_TIME_OP] * dep +
                    m->c[MMM_TIME_MEM_LATENCY] * rounds +
                    at[MMM_ATTR_BARRIERS].value *
                        (m->c[MMM_TIME_SYNC] +
                         m->c[MMM_TIME_SYNC_WARP] * (double)wb);
        if (cl > lat)
            lat = cl;
        issue += (double)v->count * (double)wb * v->work / (double)T;
        if ((r = part_of(prog, line, kr, MMM_ATTR_GATHERS, gathers, "reads",
                         v->reads, err)) < 0 ||
            (r = part_of(prog, line, kr, MMM_ATTR_SCATTERS, scatters,
                         "writes", v->writes, err)) < 0)
            return r;
        double fp = at[MMM_ATTR_FOOTPRINT].value, size;
        double threads = (double)v->count * (double)T;
        if (naccesses > 0) {
            /* its accesses, each by its pattern, say its traffic */
            double per_thread = 0, serial = 0;
            for (size_t i = 0; i < naccesses; i++) {
                const mmm_mem_access *ma = &prog->accesses[first + i];
                double b = access_bytes(m, ma, &av[i], (double)T, &serial);
                int streamed = ma->pattern == MMM_PATTERN_COALESCED ||
                               ma->pattern == MMM_PATTERN_BROADCAST;
                int64_t id = home(l2, ma->array, fp, kidx, &size);
                per_thread += b;
                if (streamed)
                    *(ma->write ? &s_wr : &s_rd) += threads * b;
                if (!streamed) {
                    random += threads * b;
                    if (id >= 0)
                        touch(l2, id, size, 0, 0);
                } else if (id < 0) {
                    *(ma->write ? &unnamed_w : &unnamed_r) += threads * b;
                } else {
                    touch(l2, id, size, ma->write ? 0 : threads * b,
                          ma->write ? threads * b : 0);
                }
            }
            bytes += threads * per_thread;
            atomics += (double)v->count * serial;
        } else {
            /* the shorthand: one access for the reads and one for the
             * writes, with their strides, the gathered and scattered
             * words apart */
            double rd = m->word_bytes * (v->reads - gathers) *
                        spread(m, at[MMM_ATTR_READ_STRIDE].value),
                   wr = m->word_bytes * (v->writes - scatters) *
                        spread(m, at[MMM_ATTR_WRITE_STRIDE].value),
                   rn = gathers * random_cost(m, region, m->gather_hit_bytes,
                                              m->gather_miss_bytes) +
                        scatters * random_cost(m, region, m->scatter_hit_bytes,
                                               m->scatter_miss_bytes);
            bytes += threads * (rd + wr + rn);
            s_rd += threads * rd, s_wr += threads * wr;
            random += threads * rn;
            int64_t id = home(l2, -1, fp, kidx, &size);
            if (id >= 0)
                touch(l2, id, size, threads * rd, threads * wr);
            else
                unnamed_r += threads * rd, unnamed_w += threads * wr;
        }
        wave += (double)v->count * (double)wb * at[MMM_ATTR_WAVEFRONTS].value;
        atomics += (double)v->count * at[MMM_ATTR_ATOMICS].value;
        gwave += (double)v->count * (double)wb *
                 at[MMM_ATTR_GLOBAL_WAVEFRONTS].value;
        N += v->count;
        out->work += (double)v->count * v->work;
    }
    if (N == 0)
        return 0; /* nothing launched */
    double ipb = issue / (double)N, bpb = bytes / (double)N,
           wbpb = (dram_cost(m, s_rd, s_wr) + random) / (double)N,
           wpb = wave / (double)N, gpb = gwave / (double)N;
    double ipc = m->c[MMM_TIME_ISSUE], bw = m->c[MMM_TIME_BANDWIDTH];
    /* With arrays: what the L2 serves, what DRAM moves (misses and
     * write-backs), and every byte through the L2 at its own bandwidth.
     * Without: the traffic at DRAM's bandwidth, as before; it still takes
     * room in the L2. */
    double dpb = 0, wdpb = 0, apb = 0,
           l2bw = m->l2_bytes_per_cycle > 0 ? m->l2_bytes_per_cycle : bw;
    mmm__l2_cost lc2;
    if (mmm__l2_launch(&l2->state, l2->use, l2->nuse, unnamed_r, unnamed_w, &lc2) < 0)
        return mmm_error_set(err, MMM_ENOMEM, prog->file, 0, "out of memory");
    out->l2 = l2->nuse > 0;
    if (out->l2) {
        dpb = (lc2.dram + random) / (double)N;
        wdpb = (dram_cost(m, lc2.dram - lc2.dram_written, lc2.dram_written) + random) /
               (double)N;
        apb = (lc2.l2 + random) / (double)N;
    } else if (lc2.writeback > 0) {
        bpb = (bytes + lc2.writeback) / (double)N; /* dirty data it evicted */
        wbpb = (dram_cost(m, s_rd, s_wr + lc2.writeback) + random) / (double)N;
    }
    /* the traffic the bandwidth terms below charge, for the roofline */
    out->dram = out->l2 ? dpb * (double)N : bpb * (double)N;
    out->l2b = out->l2 ? apb * (double)N : bpb * (double)N;
    int64_t slots = A * m->p;
    int64_t nf = N / slots, rem = N % slots;
    double cyc = 0, best = -1;
    mmm_time_term term = MMM_TIME_TERM_LATENCY;
    for (int w = 0; w < 2; w++) {
        int64_t n = w == 0 ? (nf > 0 ? slots : 0) : rem;
        int64_t times = w == 0 ? nf : 1;
        if (n == 0 || times == 0)
            continue;
        double a = (double)ceil_div(n, m->p);
        double ci = safe_div(a * ipb, ipc),
               cb = out->l2 ? fmax(safe_div((double)n * wdpb, bw),
                                   safe_div((double)n * apb, l2bw))
                            : safe_div((double)n * wbpb, bw);
        /* A warp waits for its conflicted shared accesses before the
         * operations that depend on them: the shared-memory time adds to
         * the critical path instead of hiding behind it. */
        double cs = safe_div(a * wpb, m->shared_wavefronts_per_cycle);
        if (cs > 0)
            cs += lat;
        /* The SM starts its blocks one after another. */
        double ck = a * m->c[MMM_TIME_BLOCK];
        /* The L1 passes one 128-byte line per cycle for the global
         * accesses and the shared ones alike (one data path). */
        double cg = gpb > 0 ? safe_div(a * (wpb + gpb),
                                       m->shared_wavefronts_per_cycle)
                            : 0;
        /* A wave's critical path and its memory transfer overlap only in
         * part: the shorter adds latency_exposed of itself to the longer
         * (a round's words arrive over the transfer time after the
         * latency). */
        double mem = fmax(lat, cb) + m->c[MMM_TIME_EXPOSED] * fmin(lat, cb);
        double cw = mem;
        mmm_time_term t = cb > lat ? MMM_TIME_TERM_BANDWIDTH
                                   : MMM_TIME_TERM_LATENCY;
        take_larger(&cw, &t, ci, MMM_TIME_TERM_ISSUE);
        take_larger(&cw, &t, cs, MMM_TIME_TERM_SHARED);
        take_larger(&cw, &t, ck, MMM_TIME_TERM_BLOCKS);
        take_larger(&cw, &t, cg, MMM_TIME_TERM_L1);
        if (cw * (double)times > best) {
            best = cw * (double)times;
            term = t;
        }
        cyc += cw * (double)times;
    }
    /* Atomic operations on one word are served one after another, beside
     * the waves: the launch lasts at least as long as they take, and the
     * shorter of the two is hidden only in part (atomic_exposed). */
    double ca = atomics * m->c[MMM_TIME_ATOMIC], hidden = fmin(ca, cyc);
    take_larger(&cyc, &term, ca, MMM_TIME_TERM_ATOMICS);
    cyc += m->atomic_exposed * hidden;
    out->exec = cyc / m->clock_hz;
    out->waves = nf + (rem > 0);
    out->resident = A;
    out->limit = lim;
    out->term = term;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Copies and sets                                                     */

double mmm_time_copy_seconds(const mmm_time_machine *m, mmm_copy_kind kind,
                             double bytes)
{
    /* Without their own rates, a copy on the device moves each byte in
     * and out of memory at the kernels' bandwidth, a set writes it. */
    double bw = m->c[MMM_TIME_BANDWIDTH] * m->clock_hz, rate = 0,
           fixed = m->copy_s;
    switch (kind) {
    case MMM_COPY_D2D:
        rate = m->copy_d2d_bytes_per_s > 0 ? m->copy_d2d_bytes_per_s : bw / 2;
        break;
    case MMM_COPY_SET:
        rate = m->set_bytes_per_s > 0 ? m->set_bytes_per_s : bw;
        fixed = m->set_s;
        break;
    case MMM_COPY_H2D:
        rate = m->copy_h2d_bytes_per_s;
        fixed = m->copy_host_s;
        break;
    case MMM_COPY_D2H:
        rate = m->copy_d2h_bytes_per_s;
        fixed = m->copy_d2h_s;
        break;
    default:
        return 0;
    }
    return fixed + safe_div(bytes, rate);
}

/* ------------------------------------------------------------------ */
/* The program                                                         */

/* times launches like lc: their operations and traffic into tk. */
static void add_traffic(mmm_time_kernel *tk, const launch_cost *lc, double times)
{
    tk->work += times * lc->work;
    tk->dram_bytes += times * lc->dram;
    tk->l2_bytes += times * lc->l2b;
}

/* One launch (copy j) of kernel k: its values, then its cost. */
static int eval_launch(const mmm_instance *inst, size_t k, int64_t j,
                       mmm_class_val *cv, mmm_attr_value *av,
                       mmm_mem_access_val *acc, l2_ctx *l2, launch_cost *lc,
                       mmm_error *err)
{
    int r;
    if ((r = mmm_instance_eval_copy(inst, k, j, cv, err)) < 0 ||
        (r = mmm_instance_eval_attrs(inst, k, j, av, err)) < 0 ||
        (r = mmm_instance_eval_accesses(inst, k, j, acc, err)) < 0)
        return r;
    return launch(l2->machine, inst->program, k, cv, av, acc, l2, lc, err);
}

/* A copy's arrays: it reads its source and writes its destination. */
static int copy_l2(l2_ctx *l2, size_t k, double bytes,
                   const mmm_program *prog, mmm_error *err)
{
    mmm__l2_cost ignored;
    int32_t src, dst;
    mmm_kernel_copy_arrays(prog, k, &src, &dst);
    l2->nuse = 0;
    if (src >= 0)
        touch(l2, src, (double)l2->array_bytes[src], bytes, 0);
    if (dst >= 0)
        touch(l2, dst, (double)l2->array_bytes[dst], 0, bytes);
    if (l2->nuse == 0)
        return 0;
    if (mmm__l2_launch(&l2->state, l2->use, l2->nuse, 0, 0, &ignored) < 0)
        return mmm_error_set(err, MMM_ENOMEM, prog->file, 0, "out of memory");
    return 0;
}

/* The launches of a repeat after the first (lc, which ended at *t_end,
 * the host having issued *issued launches) when the L2 serves them:
 * launch by launch while the L2's state changes, each after the
 * previous; then the rest, identical, in closed form.  The kernel's
 * execution and its terms' seconds are added to tk and term (the first
 * launch's included).  At most 8 launches go one by one. */
static int repeat_l2(mmm__l2 *prev, const mmm_instance *inst, size_t k,
                     mmm_class_val *cv, mmm_attr_value *av,
                     mmm_mem_access_val *acc, l2_ctx *l2, launch_cost *lc,
                     double *t_end, double *issued, double pace, double gap,
                     mmm_time_kernel *tk, double *term, mmm_error *err)
{
    int64_t rep = inst->kernels[k].repeat, j;
    int r;
    tk->exec_seconds += lc->exec;
    term[lc->term] += lc->exec;
    add_traffic(tk, lc, 1);
    for (j = 2; j <= rep; j++) {
        if (mmm__l2_copy(prev, &l2->state) < 0)
            return mmm_error_set(err, MMM_ENOMEM, inst->program->file, 0,
                                 "out of memory");
        if ((r = eval_launch(inst, k, j, cv, av, acc, l2, lc, err)) < 0)
            return r;
        *issued += 1;
        *t_end = fmax(*issued * pace, *t_end + gap) + lc->exec;
        tk->exec_seconds += lc->exec;
        term[lc->term] += lc->exec;
        add_traffic(tk, lc, 1);
        if (j == 8 || mmm__l2_same(prev, &l2->state))
            break;
    }
    if (j < rep) { /* the rest cost what launch j cost */
        double rest = (double)(rep - j);
        *t_end = fmax(*t_end + rest * (gap + lc->exec),
                      (*issued + rest) * pace + lc->exec);
        *issued += rest;
        tk->exec_seconds += rest * lc->exec;
        term[lc->term] += rest * lc->exec;
        add_traffic(tk, lc, rest);
    }
    return 0;
}

void mmm_time_dispose(mmm_time *t)
{
    if (!t)
        return;
    free(t->kernels);
    free(t->path);
    free(t->each_launch);
    memset(t, 0, sizeof *t);
}

/* Launch j of a kernel whose launches differ, listed in out (until
 * MMM_TIME_MAX_LISTED are). */
static int list_launch(mmm_time *out, mmm_time_kernel *tk, int64_t j,
                       const mmm_class_val *cv, size_t nc, double seconds,
                       const launch_cost *lc)
{
    mmm_time_launch *l;
    if (out->neach >= MMM_TIME_MAX_LISTED) {
        out->each_cut = 1;
        return 0;
    }
    /* room for 16, then doubled each time it is full (a power of two) */
    if (out->neach == 0 || (out->neach >= 16 && (out->neach & (out->neach - 1)) == 0)) {
        size_t cap = out->neach ? 2 * out->neach : 16;
        if (!(l = realloc(out->each_launch, cap * sizeof *l)))
            return MMM_ENOMEM;
        out->each_launch = l;
    }
    l = &out->each_launch[out->neach++];
    memset(l, 0, sizeof *l);
    l->index = j;
    for (size_t c = 0; c < nc; c++)
        l->blocks += cv[c].count > 0 ? cv[c].count : 0;
    l->seconds = seconds;
    l->exec_seconds = lc->exec;
    l->waves = lc->waves;
    l->resident = lc->resident;
    l->limit = lc->limit;
    l->dominant = lc->term;
    tk->nlisted++;
    return 0;
}

int mmm_time_compute(mmm_time *out, const mmm_instance *inst,
                     const mmm_time_machine *mach, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    size_t nk = prog->nkernels, maxc = 1, maxa = 0;
    double *dist = NULL, (*term_s)[MMM_TIME_NTERMS] = NULL;
    long *from = NULL;
    mmm_class_val *cv = NULL;
    mmm_attr_value *av = NULL;
    mmm_mem_access_val *acc = NULL;
    l2_ctx l2;
    mmm__l2 rl; /* the L2 before a launch of a repeat */
    int r = 0;

    memset(out, 0, sizeof *out);
    if (mach)
        out->machine = *mach;
    else if ((r = mmm_time_machine_get(&out->machine, inst, 1, err)) < 0)
        return r;
    const mmm_time_machine *m = &out->machine;
    for (size_t k = 0; k < nk; k++) {
        const mmm_kernel *kr = &prog->kernels[k];
        size_t na = 0;
        if (kr->nclasses > maxc)
            maxc = kr->nclasses;
        for (uint32_t c = 0; c < kr->nclasses; c++)
            na += mmm_block_class_accesses(prog, kr->first_class + c, NULL);
        if (na > maxa)
            maxa = na;
    }
    out->nkernels = nk;
    out->kernels = calloc(nk ? nk : 1, sizeof *out->kernels);
    dist = calloc(nk ? nk : 1, sizeof *dist);
    from = malloc((nk ? nk : 1) * sizeof *from);
    term_s = calloc(nk ? nk : 1, sizeof *term_s);
    cv = malloc(maxc * sizeof *cv);
    av = malloc(maxc * MMM_ATTR_N * sizeof *av);
    acc = malloc((maxa ? maxa : 1) * sizeof *acc);
    mmm__l2_init(&l2.state, m->l2_bytes);
    mmm__l2_init(&rl, m->l2_bytes);
    l2.machine = m;
    l2.array_bytes = inst->array_bytes;
    l2.narrays = prog->narrays;
    l2.use = malloc((maxa + 2) * sizeof *l2.use);
    if (!out->kernels || !dist || !from || !term_s || !cv || !av || !acc ||
        !l2.use) {
        r = mmm_error_set(err, MMM_ENOMEM, prog->file, 0, "out of memory");
        goto fail;
    }
    /* Launches in the host's order: the i-th is issued at i·launch_s
     * (stream; a replayed graph has every launch issued at 0); a launch
     * starts when it is issued and launch_graph_s after the end of what it
     * depends on (its kernel's previous launch, else its predecessors'
     * last), and ends its execution later.  dist[k]: the end of k's last
     * launch (docs/time.md, section 3). */
    const double gap = m->c[MMM_TIME_LAUNCH_GRAPH];
    const double pace = m->graph ? 0 : m->c[MMM_TIME_LAUNCH];
    /* The host issues launches in the file's order when every dependency
     * points forward in it (as a program's launches are written), else in
     * the topological order. */
    const int in_file_order = prog->priv->index_topological;
    double issued = 0; /* launches issued so far */
    long end = -1;
    for (size_t i = 0; i < nk; i++) {
        size_t k = in_file_order ? i : prog->topo[i];
        const mmm_kernel *kr = &prog->kernels[k];
        const mmm_kernel_val *kv = &inst->kernels[k];
        mmm_time_kernel *tk = &out->kernels[k];
        double ready = 0;
        from[k] = -1;
        for (uint32_t e = prog->pred_start[k]; e < prog->pred_start[k + 1];
             e++) {
            uint32_t q = prog->pred[e];
            if (from[k] < 0 || dist[q] > ready) {
                ready = dist[q];
                from[k] = (long)q;
            }
        }
        int64_t copies = kv->varies ? kv->repeat : (kv->repeat > 0 ? 1 : 0);
        double t_end = ready;
        tk->launches = kv->repeat;
        tk->first_launch = out->neach;
        for (int64_t j = 1; j <= copies; j++) {
            launch_cost lc;
            if (mmm_kernel_copy(prog, k) != MMM_COPY_NONE) {
                /* a copy or a set: its bytes at its kind's rate; the L2
                 * holds what it moved */
                double bytes = (double)mmm_instance_copy_bytes(inst, k);
                memset(&lc, 0, sizeof lc);
                lc.exec = mmm_time_copy_seconds(m, mmm_kernel_copy(prog, k),
                                                bytes);
                lc.term = MMM_TIME_TERM_COPY;
                if ((r = copy_l2(&l2, k, bytes, prog, err)) < 0)
                    goto fail;
            } else if ((r = eval_launch(inst, k, j, cv, av, acc, &l2, &lc,
                                        err)) < 0)
                goto fail;
            issued += 1;
            double t_1 = fmax(issued * pace, t_end + gap) + lc.exec;
            if (kv->varies) {
                if ((r = list_launch(out, tk, j, cv, kr->nclasses, t_1 - t_end, &lc)) < 0) {
                    mmm_error_set(err, r, prog->file, 0, "out of memory");
                    goto fail;
                }
                t_end = t_1;
                tk->exec_seconds += lc.exec;
                term_s[k][lc.term] += lc.exec;
                add_traffic(tk, &lc, 1);
            } else if (lc.l2 && kv->repeat > 1) {
                /* the L2 may serve the second launch what the first
                 * brought: launch by launch until the L2 holds the same
                 * after a launch as before it (the second, by the
                 * policy), then the rest in closed form from there */
                if ((r = repeat_l2(&rl, inst, k, cv, av, acc, &l2, &lc,
                                   &t_1, &issued, pace, gap, tk, term_s[k],
                                   err)) < 0)
                    goto fail;
                t_end = t_1;
            } else {
                /* repeat identical launches, each after the previous:
                 * the end is the later of the GPU's pace from the first
                 * and the host's issue of the last. */
                double rep = (double)kv->repeat;
                issued += rep - 1;
                t_end = fmax(t_1 + (rep - 1) * (gap + lc.exec),
                             issued * pace + lc.exec);
                tk->exec_seconds += rep * lc.exec;
                term_s[k][lc.term] += rep * lc.exec;
                add_traffic(tk, &lc, rep);
            }
            if (lc.waves > tk->waves)
                tk->waves = lc.waves;
            if (lc.resident > 0 &&
                (tk->resident == 0 || lc.resident < tk->resident)) {
                tk->resident = lc.resident;
                tk->limit = lc.limit;
            }
        }
        dist[k] = t_end;
        tk->seconds = t_end - ready;
        term_s[k][MMM_TIME_TERM_LAUNCH] += fmax(0, tk->seconds - tk->exec_seconds);
        int best = 0;
        for (int t = 1; t < MMM_TIME_NTERMS; t++)
            if (term_s[k][t] > term_s[k][best])
                best = t;
        tk->dominant = (mmm_time_term)best;
        out->launches += kv->repeat;
        if (end < 0 || dist[k] > dist[end])
            end = (long)k;
    }
    if (end >= 0) {
        double on_path[MMM_TIME_NTERMS] = {0};
        size_t len = 0;
        for (long k = end; k >= 0; k = from[k])
            len++;
        out->path = malloc(len * sizeof *out->path);
        if (!out->path) {
            r = mmm_error_set(err, MMM_ENOMEM, prog->file, 0,
                              "out of memory");
            goto fail;
        }
        out->path_len = len;
        for (long k = end; k >= 0; k = from[k]) {
            out->path[--len] = (uint32_t)k;
            for (int t = 0; t < MMM_TIME_NTERMS; t++)
                on_path[t] += term_s[k][t];
        }
        out->seconds = dist[end] + (m->graph ? 0 : m->c[MMM_TIME_START]);
        int best = 0;
        for (int t = 1; t < MMM_TIME_NTERMS; t++)
            if (on_path[t] > on_path[best])
                best = t;
        out->dominant = (mmm_time_term)best;
    }
    free(dist);
    free(from);
    free(term_s);
    free(cv);
    free(av);
    free(acc);
    free(l2.use);
    mmm__l2_dispose(&l2.state);
    mmm__l2_dispose(&rl);
    return 0;
fail:
    free(dist);
    free(from);
    free(term_s);
    free(cv);
    free(av);
    free(acc);
    free(l2.use);
    mmm__l2_dispose(&l2.state);
    mmm__l2_dispose(&rl);
    mmm_time_dispose(out);
    return r;
}
