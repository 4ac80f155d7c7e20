/* trace.c: libmmm_trace.so, the launch tracer of `mmm profile run`.
 *
 * The CUDA driver loads it into the profiled program when the environment
 * has CUDA_INJECTION64_PATH=/path/to/libmmm_trace.so, and calls its
 * InitializeInjection.  It asks CUPTI's activity API for every kernel
 * launch, memcpy and memset of the process, and at the process's exit
 * writes them, in the order the host issued them (CUPTI's correlation
 * ids), to the file named by MMM_TRACE_FILE:
 *
 *   # mmm launch trace 1
 *   order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,
 *       registers,shared_static,shared_dynamic,bytes,copy,duration_ns,graph
 *   1,kernel,_Z6reduceILi256EEvPKfPfi,7,1024,1,1,256,1,1,16,1024,0,,,5312,0
 *   2,memcpy,,7,,,,,,,,,,4194304,d2d,2048,0
 *
 * kind is kernel, memcpy or memset; name the kernel's mangled name (as
 * `ncu --print-kernel-base mangled` prints it); copy h2d, d2h, d2d, h2h,
 * p2p or other; graph the CUDA graph's id (0 outside graphs).  The reader
 * is src/profile/trace.c; docs/profile.md describes the file.
 *
 * It costs the program a few microseconds a launch, where a pass of
 * Nsight Compute that lists launches costs milliseconds: 10^5 launches
 * are listed in about the program's own time.  It prints nothing, and
 * never stops the program: a failure leaves the file with what it has and
 * a line "# error: ..." at its end. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#define BUF_SIZE (8u << 20)

typedef struct rec {
    uint32_t corr;
    uint8_t kind; /* 0 kernel, 1 memcpy, 2 memset */
    uint8_t copy;
    uint16_t regs;
    uint32_t stream, graph;
    int32_t grid[3], block[3], sstatic, sdynamic;
    uint64_t bytes, ns;
    const char *name; /* interned */
} rec;

static rec *recs;
static size_t nrecs, caprecs;
static int failed;
static char failure[256];

/* Kernel names, interned (CUPTI's own strings live as long as its
 * records' buffers). */
static char **names;
static size_t nnames, capnames;

static const char *intern(const char *s)
{
    if (!s)
        return "";
    for (size_t i = nnames; i-- > 0;) /* the last ones first: launches repeat */
        if (!strcmp(names[i], s))
            return names[i];
    if (nnames == capnames) {
        size_t nc = capnames ? 2 * capnames : 64;
        char **nn = realloc(names, nc * sizeof *nn);
        if (!nn)
            return NULL;
        names = nn;
        capnames = nc;
    }
    char *d = strdup(s);
    if (!d)
        return NULL;
    names[nnames++] = d;
    return d;
}

static void fail(const char *what)
{
    if (!failed)
        snprintf(failure, sizeof failure, "%s", what);
    failed = 1;
}

static rec *new_rec(void)
{
    if (nrecs == caprecs) {
        size_t nc = caprecs ? 2 * caprecs : 4096;
        rec *nr = realloc(recs, nc * sizeof *nr);
        if (!nr) {
            fail("out of memory");
            return NULL;
        }
        recs = nr;
        caprecs = nc;
    }
    rec *r = &recs[nrecs++];
    memset(r, 0, sizeof *r);
    return r;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUF_SIZE);
    *size = *buffer ? BUF_SIZE : 0;
    *max_records = 0;
    if (!*buffer)
        fail("out of memory for CUPTI's buffers");
}

static uint8_t copy_kind(uint8_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return 1;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return 2;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return 3;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return 4;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return 5;
    default: return 6;
    }
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    CUpti_Activity *a = NULL;
    size_t dropped = 0;
    (void)ctx;
    (void)stream_id;
    (void)size;
    while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) {
        rec *r;
        if (a->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            a->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)a;
            if (!(r = new_rec()))
                break;
            r->kind = 0;
            r->corr = k->correlationId;
            r->stream = k->streamId;
            r->graph = k->graphId;
            r->grid[0] = k->gridX, r->grid[1] = k->gridY, r->grid[2] = k->gridZ;
            r->block[0] = k->blockX, r->block[1] = k->blockY, r->block[2] = k->blockZ;
            r->regs = k->registersPerThread;
            r->sstatic = k->staticSharedMemory;
            r->sdynamic = k->dynamicSharedMemory;
            r->ns = k->end > k->start ? k->end - k->start : 0;
            if (!(r->name = intern(k->name)))
                fail("out of memory");
        } else if (a->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)a;
            if (!(r = new_rec()))
                break;
            r->kind = 1;
            r->corr = m->correlationId;
            r->stream = m->streamId;
            r->graph = m->graphId;
            r->copy = copy_kind(m->copyKind);
            r->bytes = m->bytes;
            r->ns = m->end > m->start ? m->end - m->start : 0;
        } else if (a->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)a;
            if (!(r = new_rec()))
                break;
            r->kind = 2;
            r->corr = m->correlationId;
            r->stream = m->streamId;
            r->graph = m->graphId;
            r->bytes = m->bytes;
            r->ns = m->end > m->start ? m->end - m->start : 0;
        }
    }
    if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
        dropped)
        fail("CUPTI dropped records");
    free(buffer);
}

static int by_corr(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    return (x->corr > y->corr) - (x->corr < y->corr);
}

static void write_trace(void)
{
    static const char *const kinds[] = {"kernel", "memcpy", "memset"};
    static const char *const copies[] = {"", "h2d", "d2h", "d2d", "h2h", "p2p", "other"};
    const char *path = getenv("MMM_TRACE_FILE");
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    qsort(recs, nrecs, sizeof *recs, by_corr);
    fprintf(f, "# mmm launch trace 1\n"
               "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
               "registers,shared_static,shared_dynamic,bytes,copy,duration_ns,graph\n");
    for (size_t i = 0; i < nrecs; i++) {
        const rec *r = &recs[i];
        if (r->kind == 0)
            fprintf(f, "%zu,kernel,%s,%" PRIu32 ",%d,%d,%d,%d,%d,%d,%u,%d,%d,,,%" PRIu64
                       ",%" PRIu32 "\n",
                    i + 1, r->name, r->stream, r->grid[0], r->grid[1], r->grid[2],
                    r->block[0], r->block[1], r->block[2], (unsigned)r->regs, r->sstatic,
                    r->sdynamic, r->ns, r->graph);
        else
            fprintf(f, "%zu,%s,,%" PRIu32 ",,,,,,,,,,%" PRIu64 ",%s,%" PRIu64 ",%" PRIu32 "\n",
                    i + 1, kinds[r->kind], r->stream, r->bytes, copies[r->copy], r->ns,
                    r->graph);
    }
    if (failed)
        fprintf(f, "# error: %s\n", failure);
    fclose(f);
}

int InitializeInjection(void);

__attribute__((visibility("default"))) int InitializeInjection(void)
{
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS)
        fail("CUPTI refused the activity kinds");
    atexit(write_trace);
    return 1;
}
