/* engine.c: the event-driven simulator of greedy list schedules.
 *
 * State: the ready pool (a max-heap of block classes of ready launches, each
 * with its remaining count; a kernel has at most one launch in flight, so a
 * class index names its group), the running batches (a min-heap of "b SMs
 * run blocks of class g until time t"), the free SMs (a count, and their
 * identities when records are kept).
 *
 * An event time t: every batch ending at t ends; launches whose last block
 * ended complete, their successors (or the next launch of the chain) become
 * ready at t; then free SMs take blocks of the highest-priority class,
 * min(free, remaining) at once.  Identical blocks are never expanded:
 *  - wave jump: when the class g on top of the pool is the one that some
 *    running batches run, and nothing else can happen before the next
 *    non-g batch ends (time H), every g batch restarts g at each of its ends
 *    before H; q whole rounds are added to those batches in O(batches);
 *  - launch jump: a launch of a non-varying repeat chain that started alone
 *    on an idle machine lasts D; the following launches would too, so all
 *    but the last are skipped in O(1) (now += n·D).
 * Both are exact (the block-by-block schedule), up to rounding of sums. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"
#include "base/grow.h"
#include "base/abi.h"

#define DEFAULT_MAX_RECORDS ((size_t)1 << 18)
#define DEFAULT_MAX_LAUNCHES ((int64_t)100000000)
#define MAX_BACKOFF 1024u

typedef struct batch {
    double finish;   /* end of its current (last) wave */
    double start;    /* start of its first wave */
    uint64_t seq;    /* creation order: ties of finish are deterministic */
    int64_t nsm;     /* SMs */
    int64_t sm_lo;   /* first SM, -1 when SMs are not tracked */
    int64_t waves;   /* blocks per SM */
    int64_t copy;    /* launch of the kernel */
    uint32_t cls;
} batch;

typedef struct kstate {
    int64_t copy;        /* current launch, 0 before the first */
    int64_t left;        /* unfinished blocks of the current launch */
    int64_t blocks;      /* blocks of the current launch */
    int64_t npred;       /* predecessors not complete */
    double prefix;       /* Σ largest block cost of launches 1..copy */
    double alone_start;  /* start of launch alone_copy */
    int64_t alone_copy;  /* a launch that started alone on an idle machine */
} kstate;

typedef struct cstate {
    int64_t rem;         /* blocks not started */
    int64_t running;     /* SMs running its blocks */
    double cost, prio, ready, random;
    uint32_t kernel;
} cstate;

typedef struct sim {
    const mmm_instance *inst;
    const mmm_program *prog;
    const mmm_sim_policy *policy;
    mmm_sim_result *res;
    mmm_error *err;
    mmm__sim_prep prep;
    kstate *ks;
    cstate *cs;
    mmm_class_val *buf;
    uint32_t *pool;      /* max-heap of class indices */
    size_t npool;
    batch *run;          /* min-heap by (finish, seq) */
    size_t nrun, caprun;
    uint32_t *work;      /* kernels whose next launch starts now */
    size_t nwork;
    uint32_t *done;      /* kernels whose launch completed now */
    size_t ndone;
    size_t kernels_done;
    mmm__sim_smset free_sms;
    int track;
    int64_t p, nfree;
    double now;
    uint64_t seq;
    int64_t launches_run, max_launches;
    size_t max_records, caprec;
    unsigned jump_skip, jump_backoff;
    uint64_t launches_all;    /* launches of the program, for progress */
    mmm_progress_fn progress; /* the caller's, with its payload and what */
    void *progress_payload;
    char what[96];
} sim;

/* ------------------------------------------------------------------ */
/* Heaps                                                              */

/* Does class a go before class b?  Priority, then earlier ready, then
 * declaration order of the kernel, then class order. */
static int pool_before(const sim *s, uint32_t a, uint32_t b)
{
    const cstate *x = &s->cs[a], *y = &s->cs[b];
    if (x->prio != y->prio)
        return x->prio > y->prio;
    if (x->ready != y->ready)
        return x->ready < y->ready;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel;
    return a < b;
}

static void pool_push(sim *s, uint32_t c)
{
    size_t i = s->npool++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!pool_before(s, c, s->pool[up]))
            break;
        s->pool[i] = s->pool[up];
        i = up;
    }
    s->pool[i] = c;
}

static void pool_pop(sim *s)
{
    uint32_t last = s->pool[--s->npool];
    size_t i = 0, n = s->npool;
    for (;;) {
        size_t l = 2 * i + 1, best = l;
        if (l >= n)
            break;
        if (l + 1 < n && pool_before(s, s->pool[l + 1], s->pool[l]))
            best = l + 1;
        if (!pool_before(s, s->pool[best], last))
            break;
        s->pool[i] = s->pool[best];
        i = best;
    }
    if (n > 0)
        s->pool[i] = last;
}

static int run_before(const batch *a, const batch *b)
{
    if (a->finish != b->finish)
        return a->finish < b->finish;
    return a->seq < b->seq;
}

static void run_sift_down(batch *h, size_t n, size_t i)
{
    batch x = h[i];
    for (;;) {
        size_t l = 2 * i + 1, best = l;
        if (l >= n)
            break;
        if (l + 1 < n && run_before(&h[l + 1], &h[l]))
            best = l + 1;
        if (!run_before(&h[best], &x))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = x;
}

static int run_push(sim *s, const batch *b)
{
    size_t i;
    batch *r = mmm__grow(s->run, &s->caprun, s->nrun + 1, sizeof *r, 64);
    if (!r)
        return MMM_ENOMEM;
    s->run = r;
    i = s->nrun++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!run_before(b, &s->run[up]))
            break;
        s->run[i] = s->run[up];
        i = up;
    }
    s->run[i] = *b;
    return MMM_OK;
}

static batch run_pop(sim *s)
{
    batch top = s->run[0];
    s->run[0] = s->run[--s->nrun];
    if (s->nrun > 0)
        run_sift_down(s->run, s->nrun, 0);
    return top;
}

/* ------------------------------------------------------------------ */
/* Records and statistics                                             */

static int record(sim *s, const mmm_sim_record *r)
{
    mmm_sim_result *res = s->res;
    if (!s->track)
        return MMM_OK;
    if (res->nrecords == s->max_records) {
        res->records_truncated = 1;
        return MMM_OK;
    }
    if (res->nrecords == s->caprec) {
        size_t cap = s->caprec ? 2 * s->caprec : 256;
        mmm_sim_record *nr;
        if (cap > s->max_records)
            cap = s->max_records;
        nr = realloc(res->records, cap * sizeof *nr);
        if (!nr)
            return MMM_ENOMEM;
        res->records = nr;
        s->caprec = cap;
    }
    res->records[res->nrecords++] = *r;
    return MMM_OK;
}

/* ------------------------------------------------------------------ */
/* Launches                                                           */

static int oom(sim *s)
{
    return mmm_error_set(s->err, MMM_ENOMEM, NULL, 0, "out of memory");
}

static void kernel_complete(sim *s, uint32_t k)
{
    const mmm_program *prog = s->prog;
    uint32_t e;
    if (s->res->kernels[k].last_end < s->now)
        s->res->kernels[k].last_end = s->now;
    s->kernels_done++;
    for (e = prog->succ_start[k]; e < prog->succ_start[k + 1]; e++) {
        uint32_t t = prog->succ[e];
        if (--s->ks[t].npred == 0)
            s->work[s->nwork++] = t;
    }
}

/* A launch of k ran alone on an idle machine and lasted D: every later
 * launch but the last would last D as well (same blocks, same relative
 * priorities, nothing else can become ready).  Skip them. */
static int launch_jump(sim *s, uint32_t k)
{
    kstate *ks = &s->ks[k];
    const mmm_kernel_val *kv = &s->inst->kernels[k];
    int64_t n = kv->repeat - ks->copy - 1;
    double d = s->now - ks->alone_start, end = s->now + (double)n * d;
    double busy = (double)n * s->prep.busy1[k];
    mmm_sim_kernel_stat *st = &s->res->kernels[k];
    mmm_sim_record r;
    int rc;

    memset(&r, 0, sizeof r);
    r.start = s->now;
    r.end = end;
    r.sm_first = 0;
    /* A launch started on an idle machine uses the lowest SMs only. */
    r.sm_count = ks->blocks < s->p ? ks->blocks : s->p;
    r.copy = ks->copy + 1;
    r.copies = n;
    r.kernel = k;
    r.kind = MMM_SIM_LAUNCHES;
    if ((rc = record(s, &r)) < 0)
        return rc;
    st->busy += busy;
    st->blocks += n * ks->blocks;
    st->last_end = end;
    s->res->busy += busy;
    s->res->launch_jumps++;
    ks->copy += n;
    s->now = end;
    return MMM_OK;
}

static int launch_complete(sim *s, uint32_t k)
{
    kstate *ks = &s->ks[k];
    const mmm_kernel_val *kv = &s->inst->kernels[k];
    if (ks->copy >= kv->repeat) {
        kernel_complete(s, k);
        return MMM_OK;
    }
    if (ks->alone_copy == ks->copy && !kv->varies && kv->repeat - ks->copy >= 2
        && s->nrun == 0 && s->npool == 0 && s->nwork == 0 && s->ndone == 0) {
        int rc = launch_jump(s, k);
        if (rc < 0)
            return rc;
    }
    s->work[s->nwork++] = k;
    return MMM_OK;
}

/* The classes of launch ks->copy + 1 of kernel k. */
static int launch_classes(sim *s, uint32_t k, const mmm_class_val **out)
{
    const mmm_kernel *kd = &s->prog->kernels[k];
    int rc;
    if (!s->inst->kernels[k].varies) {
        *out = &s->inst->classes[kd->first_class];
        return MMM_OK;
    }
    rc = mmm_instance_eval_copy(s->inst, k, s->ks[k].copy, s->buf, s->err);
    if (rc < 0)
        return rc;
    *out = s->buf;
    return MMM_OK;
}

static int launch_start(sim *s, uint32_t k)
{
    const mmm_kernel *kd = &s->prog->kernels[k];
    const mmm_kernel_val *kv = &s->inst->kernels[k];
    kstate *ks = &s->ks[k];
    const mmm_class_val *cv;
    mmm_sim_group g;
    double cmax = 0.0;
    int64_t blocks = 0;
    uint32_t c;
    int rc;

    if (kv->repeat == 0) { /* no launch at all: a pass-through */
        kernel_complete(s, k);
        return MMM_OK;
    }
    if (++s->launches_run > s->max_launches)
        return mmm_error_set(s->err, MMM_ELIMIT, s->prog->file, kd->line,
                             "the simulation would run more than %lld launches "
                             "one by one (kernel '%s' has %lld); raise the limit "
                             "(--max-launches)", (long long)s->max_launches,
                             kd->id, (long long)kv->repeat);
    ks->copy++;
    if ((rc = launch_classes(s, k, &cv)) < 0)
        return rc;
    for (c = 0; c < kd->nclasses; c++) {
        blocks += cv[c].count;
        if (cv[c].count > 0 && cv[c].cost > cmax)
            cmax = cv[c].cost;
    }
    ks->prefix += cmax;
    ks->blocks = ks->left = blocks;
    if (blocks == 0) {
        if (!kv->varies)
            ks->copy = kv->repeat; /* every launch is empty */
        s->done[s->ndone++] = k;
        return MMM_OK;
    }
    memset(&g, 0, sizeof g);
    g.kernel = k;
    g.copy = ks->copy;
    g.ready_time = s->now;
    g.launch_blocks = blocks;
    g.tail = s->prep.tail[k]
             + (kv->varies ? s->prep.kchain[k] - ks->prefix
                           : (double)(kv->repeat - ks->copy) * s->prep.cmax[k]);
    if (g.tail < s->prep.tail[k])
        g.tail = s->prep.tail[k]; /* rounding of kchain - prefix */
    for (c = 0; c < kd->nclasses; c++) {
        uint32_t ci = kd->first_class + c;
        cstate *cs = &s->cs[ci];
        if (cv[c].count == 0)
            continue;
        g.klass = ci;
        g.count = cv[c].count;
        g.cost = cv[c].cost;
        g.random = cs->random;
        cs->rem = cv[c].count;
        cs->running = 0;
        cs->cost = cv[c].cost;
        cs->ready = s->now;
        cs->prio = s->policy->priority(&g);
        pool_push(s, ci);
    }
    return MMM_OK;
}

/* Launch completions and the launches they make ready, to a fixed point
 * (launches without blocks complete at once). */
static int settle(sim *s)
{
    int rc;
    while (s->ndone > 0 || s->nwork > 0) {
        if (s->ndone > 0) {
            if ((rc = launch_complete(s, s->done[--s->ndone])) < 0)
                return rc;
        } else if ((rc = launch_start(s, s->work[--s->nwork])) < 0) {
            return rc;
        }
    }
    return MMM_OK;
}

/* The machine is idle and one fresh launch of a repeat chain is all that is
 * ready: note when it starts, launch_complete may jump its successors. */
static void note_alone(sim *s)
{
    uint32_t k;
    size_t i;
    if (s->nrun != 0 || s->npool == 0)
        return;
    k = s->cs[s->pool[0]].kernel;
    if (s->inst->kernels[k].varies || s->ks[k].copy >= s->inst->kernels[k].repeat)
        return;
    for (i = 0; i < s->npool; i++)
        if (s->cs[s->pool[i]].kernel != k || s->cs[s->pool[i]].ready != s->now)
            return;
    s->ks[k].alone_start = s->now;
    s->ks[k].alone_copy = s->ks[k].copy;
}

/* ------------------------------------------------------------------ */
/* Dispatch and completion                                            */

static int start_batch(sim *s, uint32_t c, int64_t n, int64_t lo)
{
    cstate *cs = &s->cs[c];
    mmm_sim_kernel_stat *st = &s->res->kernels[cs->kernel];
    batch b;
    b.finish = s->now + cs->cost;
    b.start = s->now;
    b.seq = s->seq++;
    b.nsm = n;
    b.sm_lo = lo;
    b.waves = 1;
    b.copy = s->ks[cs->kernel].copy;
    b.cls = c;
    if (st->first_start > s->now)
        st->first_start = s->now;
    s->res->batches++;
    return run_push(s, &b);
}

/* Greedy: while an SM is free and a block is ready, start blocks of the
 * class on top of the pool, as many as possible at once. */
static int dispatch(sim *s)
{
    while (s->nfree > 0 && s->npool > 0) {
        uint32_t c = s->pool[0];
        cstate *cs = &s->cs[c];
        int64_t n = cs->rem < s->nfree ? cs->rem : s->nfree;
        int rc;
        if (!s->track) {
            if ((rc = start_batch(s, c, n, -1)) < 0)
                return rc;
        } else {
            int64_t left = n, lo, got;
            while (left > 0 && (got = mmm__sim_smset_take(&s->free_sms, left, &lo)) > 0) {
                if ((rc = start_batch(s, c, got, lo)) < 0)
                    return rc;
                left -= got;
            }
        }
        cs->rem -= n;
        cs->running += n;
        s->nfree -= n;
        if (cs->rem == 0)
            pool_pop(s);
    }
    return MMM_OK;
}

static int complete_batch(sim *s, const batch *b)
{
    cstate *cs = &s->cs[b->cls];
    kstate *ks = &s->ks[cs->kernel];
    mmm_sim_kernel_stat *st = &s->res->kernels[cs->kernel];
    int64_t blocks = b->nsm * b->waves;
    double busy = (double)blocks * cs->cost;

    s->nfree += b->nsm;
    cs->running -= b->nsm;
    ks->left -= blocks;
    st->busy += busy;
    st->blocks += blocks;
    if (st->last_end < b->finish)
        st->last_end = b->finish;
    s->res->busy += busy;
    if (ks->left == 0)
        s->done[s->ndone++] = cs->kernel;
    if (s->track) {
        mmm_sim_record r;
        if (mmm__sim_smset_put(&s->free_sms, b->sm_lo, b->sm_lo + b->nsm) < 0)
            return oom(s);
        memset(&r, 0, sizeof r);
        r.start = b->start;
        r.end = b->finish;
        r.sm_first = b->sm_lo;
        r.sm_count = b->nsm;
        r.waves = b->waves;
        r.copy = b->copy;
        r.copies = 1;
        r.kernel = cs->kernel;
        r.klass = b->cls;
        r.kind = MMM_SIM_BLOCKS;
        if (record(s, &r) < 0)
            return oom(s);
    }
    return MMM_OK;
}

/* ------------------------------------------------------------------ */
/* Wave jump                                                          */

/* Rounds q that the batches of class g can add before time h: the last
 * restart, at tmax + (q-1)c, must come strictly before h (at h a launch may
 * complete and change the pool). */
static int64_t rounds_before(double tmax, double c, double h, int64_t q)
{
    double x;
    int64_t qt;
    if (h == HUGE_VAL)
        return q;
    if (tmax >= h)
        return 0;
    if (c <= 0.0)
        return q;
    x = (h - tmax) / c;
    qt = x >= (double)q ? q : (int64_t)ceil(x);
    while (qt >= 1 && !(tmax + (double)(qt - 1) * c < h))
        qt--;
    return qt;
}

static void wave_jump(sim *s)
{
    uint32_t g;
    cstate *cs;
    double tmax = -HUGE_VAL, h = HUGE_VAL;
    int64_t q;
    size_t i;

    if (s->npool == 0)
        return;
    g = s->pool[0];
    cs = &s->cs[g];
    if (cs->running == 0 || cs->rem < cs->running)
        return;
    if (s->jump_skip > 0) { /* recent attempts failed: back off */
        s->jump_skip--;
        return;
    }
    for (i = 0; i < s->nrun; i++) {
        if (s->run[i].cls == g) {
            if (s->run[i].finish > tmax)
                tmax = s->run[i].finish;
        } else if (s->run[i].finish < h) {
            h = s->run[i].finish;
        }
    }
    q = rounds_before(tmax, cs->cost, h, cs->rem / cs->running);
    if (q < 1) {
        s->jump_backoff = s->jump_backoff ? 2 * s->jump_backoff : 1;
        if (s->jump_backoff > MAX_BACKOFF)
            s->jump_backoff = MAX_BACKOFF;
        s->jump_skip = s->jump_backoff;
        return;
    }
    s->jump_backoff = 0;
    for (i = 0; i < s->nrun; i++)
        if (s->run[i].cls == g) {
            s->run[i].finish += (double)q * cs->cost;
            s->run[i].waves += q;
        }
    for (i = s->nrun / 2; i-- > 0;)
        run_sift_down(s->run, s->nrun, i);
    cs->rem -= q * cs->running;
    if (cs->rem == 0)
        pool_pop(s);
    s->res->wave_jumps++;
}

/* ------------------------------------------------------------------ */
/* Setup and the main loop                                            */

static int sim_init(sim *s, mmm_sim_result *res, const mmm_instance *inst,
                    const mmm_sim_options *opt, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    size_t nk = prog->nkernels, nc = prog->nclasses, i;
    uint64_t rng;
    int rc;

    memset(s, 0, sizeof *s);
    s->inst = inst;
    s->prog = prog;
    s->res = res;
    s->err = err;
    s->policy = opt->policy ? opt->policy : &mmm_sim_policy_fifo;
    s->p = opt->p > 0 ? opt->p : (inst->has_p ? inst->p : 0);
    if (s->p <= 0)
        return mmm_error_set(err, MMM_EINVAL, prog->file, 0,
                             "the number of SMs p is unknown (give -p P)");
    s->nfree = s->p;
    s->track = opt->record != 0;
    s->max_records = opt->max_records ? opt->max_records : DEFAULT_MAX_RECORDS;
    s->max_launches = opt->max_launches > 0 ? opt->max_launches : DEFAULT_MAX_LAUNCHES;
    if ((s->progress = MMM__PROGRESS(opt, 2))) {
        s->progress_payload = opt->progress_payload;
        snprintf(s->what, sizeof s->what, "simulating %s on %lld SMs", s->policy->name,
                 (long long)s->p);
        for (i = 0; i < nk; i++) /* the launches to run (saturating) */
            s->launches_all += (uint64_t)inst->kernels[i].repeat <= UINT64_MAX - s->launches_all
                                   ? (uint64_t)inst->kernels[i].repeat
                                   : UINT64_MAX - s->launches_all;
        s->progress(s->progress_payload, s->what, 0, s->launches_all);
    }
    if ((rc = mmm__sim_prep_init(&s->prep, inst, err)) < 0)
        return rc;
    s->ks = calloc(nk ? nk : 1, sizeof *s->ks);
    s->cs = calloc(nc ? nc : 1, sizeof *s->cs);
    s->buf = calloc(s->prep.max_classes ? s->prep.max_classes : 1, sizeof *s->buf);
    s->pool = malloc((nc ? nc : 1) * sizeof *s->pool);
    s->work = malloc((nk ? nk : 1) * sizeof *s->work);
    s->done = malloc((nk ? nk : 1) * sizeof *s->done);
    res->kernels = calloc(nk ? nk : 1, sizeof *res->kernels);
    if (!s->ks || !s->cs || !s->buf || !s->pool || !s->work || !s->done
        || !res->kernels || mmm__sim_smset_init(&s->free_sms, s->p) < 0)
        return oom(s);
    res->nkernels = nk;
    for (i = 0; i < nk; i++) {
        s->ks[i].npred = prog->pred_start[i + 1] - prog->pred_start[i];
        res->kernels[i].first_start = HUGE_VAL;
    }
    rng = opt->seed;
    for (i = 0; i < nc; i++) {
        s->cs[i].kernel = 0;
        s->cs[i].random = sim_rng_unit(&rng);
    }
    for (i = 0; i < nk; i++) {
        uint32_t c;
        for (c = 0; c < prog->kernels[i].nclasses; c++)
            s->cs[prog->kernels[i].first_class + c].kernel = (uint32_t)i;
    }
    /* Sources become ready at 0; the stack pops the last first, so push in
     * reverse to start them in declaration order (only the order of
     * evaluation errors depends on it). */
    for (i = nk; i-- > 0;)
        if (s->ks[i].npred == 0)
            s->work[s->nwork++] = (uint32_t)i;
    return MMM_OK;
}

static void sim_dispose(sim *s)
{
    mmm__sim_prep_dispose(&s->prep);
    free(s->ks);
    free(s->cs);
    free(s->buf);
    free(s->pool);
    free(s->run);
    free(s->work);
    free(s->done);
    mmm__sim_smset_dispose(&s->free_sms);
}

/* One decision point at s->now. */
static int step(sim *s)
{
    int rc;
    if ((rc = settle(s)) < 0)
        return rc;
    note_alone(s);
    if ((rc = dispatch(s)) < 0)
        return rc;
    wave_jump(s);
    return MMM_OK;
}

static int run_loop(sim *s)
{
    int rc;
    if ((rc = step(s)) < 0)
        return rc;
    while (s->nrun > 0) {
        double t = s->run[0].finish;
        s->now = t;
        if ((++s->res->events & 0x3fff) == 0 && s->progress)
            s->progress(s->progress_payload, s->what, (uint64_t)s->launches_run,
                        s->launches_all);
        while (s->nrun > 0 && s->run[0].finish == t) {
            batch b = run_pop(s);
            if ((rc = complete_batch(s, &b)) < 0)
                return rc;
        }
        if ((rc = step(s)) < 0)
            return rc;
    }
    if (s->kernels_done != s->prog->nkernels || s->npool != 0)
        return mmm_error_set(s->err, MMM_EINVAL, s->prog->file, 0,
                             "internal error: the simulation stopped with "
                             "%zu of %zu kernels complete",
                             s->kernels_done, s->prog->nkernels);
    return MMM_OK;
}

static void finish_result(sim *s)
{
    mmm_sim_result *r = s->res;
    double p = (double)s->p;
    size_t k;
    r->policy = s->policy;
    r->p = s->p;
    r->makespan = s->now;
    r->total = s->prep.total;
    r->critical_path = s->prep.critical_path;
    r->lower_bound = r->total / p > r->critical_path ? r->total / p
                                                     : r->critical_path;
    r->graham = r->total / p + (1.0 - 1.0 / p) * r->critical_path;
    r->idle = p * r->makespan - r->total;
    if (r->idle < 0.0 && r->idle > -MMM_SIM_REL_TOL * r->total)
        r->idle = 0.0; /* rounding */
    r->utilization = r->makespan > 0.0 ? r->total / (p * r->makespan) : 1.0;
    r->blocks = s->prep.blocks;
    r->launches = s->prep.launches;
    for (k = 0; k < r->nkernels; k++)
        if (r->kernels[k].first_start == HUGE_VAL)
            r->kernels[k].first_start = r->kernels[k].last_end;
}

/* Every block must have run exactly once: a cheap guard against a bug in
 * the closed forms. */
static int check_blocks(sim *s)
{
    int64_t ran = 0;
    size_t k;
    for (k = 0; k < s->res->nkernels; k++)
        ran += s->res->kernels[k].blocks;
    if (ran != s->prep.blocks)
        return mmm_error_set(s->err, MMM_EINVAL, s->prog->file, 0,
                             "internal error: %lld blocks ran, the program has %lld",
                             (long long)ran, (long long)s->prep.blocks);
    return MMM_OK;
}

int mmm_simulate(mmm_sim_result *out, const mmm_instance *inst,
                 const mmm_sim_options *opt, mmm_error *err)
{
    static const mmm_sim_options defaults = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result res;
    sim s;
    int rc;

    if (!out || !inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_simulate: missing argument");
    MMM__CHECK_VERSION(opt, mmm_sim_options, SIM_OPTIONS, err);
    if (!opt)
        opt = &defaults;
    memset(&res, 0, sizeof res);
    res.seed = opt->seed;
    rc = sim_init(&s, &res, inst, opt, err);
    if (rc == MMM_OK)
        rc = run_loop(&s);
    if (rc == MMM_OK)
        rc = check_blocks(&s);
    if (rc == MMM_OK)
        finish_result(&s);
    if (s.progress)
        s.progress(s.progress_payload, NULL, 0, 0);
    sim_dispose(&s);
    if (rc < 0) {
        mmm_sim_result_dispose(&res);
        return rc;
    }
    *out = res;
    return MMM_OK;
}

void mmm_sim_result_dispose(mmm_sim_result *r)
{
    if (!r)
        return;
    free(r->kernels);
    free(r->records);
    memset(r, 0, sizeof *r);
}
