/* trace.c: libmmm_trace.so, the launch tracer of `mmm profile run`.
 *
 * The CUDA driver loads it into the profiled program when the environment
 * has CUDA_INJECTION64_PATH=/path/to/libmmm_trace.so, and calls its
 * InitializeInjection.  It asks CUPTI's activity API for every kernel
 * launch, memcpy and memset of the process, and at the process's exit
 * writes them, in the order the host issued them (CUPTI's correlation
 * ids), to the file named by MMM_TRACE_FILE:
 *
 *   # mmm launch trace 3
 *   order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,
 *       registers,shared_static,shared_dynamic,bytes,copy,duration_ns,graph,
 *       node,to,event
 *   1,stream,null,7,,,,,,,,,,,,,,,,
 *   2,kernel,_Z6reduceILi256EEvPKfPfi,7,1024,1,1,256,1,1,16,1024,0,,,5312,0,0,,
 *   3,record,,7,,,,,,,,,,,,,,,,1
 *   4,memcpy,,13,,,,,,,,,,4194304,d2d,2048,0,0,,
 *   5,edge,,,,,,,,,,,,,,,4,17,18,
 *
 * kind is kernel, memcpy or memset; name the kernel's mangled name (as
 * `ncu --print-kernel-base mangled` prints it); copy h2d, d2h, d2d, h2h,
 * p2p or other; graph and node the ids CUPTI gives the CUDA graph and its
 * node that ran the launch (0 outside graphs).  After the launches, the
 * graphs' structure as instantiated (cudaGraphInstantiate): "edge" rows,
 * graph the id of the graph instantiated, node and to the ids of the two
 * nodes of one of its edges; "exec" rows, graph that graph's id, node the
 * id of the executable graph made from it; "clone" rows, node a node's id
 * in a clone of a graph (the executable's), to the id of the node it was
 * cloned from.  First the streams' kinds ("stream" rows, the kind in the
 * name column: null for the legacy default stream, blocking for one that
 * synchronizes with it, nonblocking), then among the launches, in issue
 * order, the records of stream order: "record" (cudaEventRecord on a
 * stream), "wait" (cudaStreamWaitEvent), "sync" (the host waits:
 * cudaStreamSynchronize with its stream, cudaEventSynchronize with its
 * event, cudaDeviceSynchronize with neither); event is the id CUPTI gives
 * each recording of an event, which the waits name.  The reader is
 * src/profile/trace.c; docs/profile.md describes the file.
 *
 * It costs the program a few microseconds a launch, where a pass of
 * Nsight Compute that lists launches costs milliseconds: 10^5 launches
 * are listed in about the program's own time.  It prints nothing, and
 * never stops the program: a failure leaves the file with what it has and
 * a line "# error: ..." at its end. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include <cuda.h>
#include <cupti.h>

#define BUF_SIZE (8u << 20)

typedef struct rec {
    uint32_t corr;
    uint8_t kind; /* 0 kernel, 1 memcpy, 2 memset, 3 record, 4 wait, 5 sync,
                     6 stream (copy: its flag: 0 null, 1 blocking, 2
                     nonblocking) */
    uint8_t nostream; /* a sync of the device or of an event */
    uint8_t copy;
    uint16_t regs;
    uint32_t stream, graph;
    uint64_t node;
    int32_t grid[3], block[3], sstatic, sdynamic;
    uint64_t bytes, ns;
    uint64_t event, event_sync; /* records and waits: CUPTI's event id, and
                                   the id of this recording */
    const char *name; /* interned */
} rec;

static rec *recs;
static size_t nrecs, caprecs;

/* The graphs' structure: kind 0 an edge of graph g from a to b, 1 graph g
 * made the executable a, 2 node a cloned from node b. */
typedef struct glink {
    uint8_t kind;
    uint32_t g;
    uint64_t a, b;
} glink;
static glink *links;
static size_t nlinks, caplinks;
static int failed;
static char failure[256];
static char no_order[160]; /* why the trace lacks the records of stream order */

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

static void add_link(uint8_t kind, uint32_t g, uint64_t a, uint64_t b)
{
    if (nlinks == caplinks) {
        size_t nc = caplinks ? 2 * caplinks : 256;
        glink *nl = realloc(links, nc * sizeof *nl);
        if (!nl) {
            fail("out of memory");
            return;
        }
        links = nl;
        caplinks = nc;
    }
    links[nlinks++] = (glink){kind, g, a, b};
}

/* The driver's cuGraphGetEdges, looked up in the process (the driver is
 * loaded: the program runs CUDA), so that the tracer does not link
 * libcuda.so.1 and installs where no driver is (a package build).  The
 * _v2 entry point (CUDA 12.3 and later) takes edge data; the first does
 * not. */
typedef CUresult (*edges_v2_fn)(CUgraph, CUgraphNode *, CUgraphNode *, void *, size_t *);
typedef CUresult (*edges_v1_fn)(CUgraph, CUgraphNode *, CUgraphNode *, size_t *);

static CUresult graph_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n)
{
    static edges_v2_fn v2;
    static edges_v1_fn v1;
    static int looked;
    if (!looked) {
        /* the driver the runtime loaded (RTLD_NOLOAD: no other), else
           whatever the process exports */
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        void *h = lib ? lib : RTLD_DEFAULT;
        looked = 1;
        *(void **)&v2 = dlsym(h, "cuGraphGetEdges_v2");
        if (!v2)
            *(void **)&v1 = dlsym(h, "cuGraphGetEdges");
    }
    if (v2)
        return v2(g, from, to, NULL, n);
    if (v1)
        return v1(g, from, to, n);
    return CUDA_ERROR_NOT_FOUND;
}

/* A graph about to be instantiated: its edges; the executable made from
 * it; the nodes cloned into it (instantiation clones the graph). */
static void CUPTIAPI on_resource(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
                                 const void *data)
{
    const CUpti_ResourceData *rd = data;
    const CUpti_GraphData *gd = rd ? (const CUpti_GraphData *)rd->resourceDescriptor : NULL;
    uint32_t gid = 0, xid = 0;
    uint64_t a = 0, b = 0;
    (void)ud;
    if (dom != CUPTI_CB_DOMAIN_RESOURCE || !gd)
        return;
    if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING && gd->graph) {
        size_t n = 0;
        if (cuptiGetGraphId(gd->graph, &gid) != CUPTI_SUCCESS ||
            graph_edges(gd->graph, NULL, NULL, &n) != CUDA_SUCCESS) {
            fail("could not read a graph's edges");
            return;
        }
        CUgraphNode *from = malloc((n ? n : 1) * sizeof *from),
                    *to = malloc((n ? n : 1) * sizeof *to);
        if (!from || !to || graph_edges(gd->graph, from, to, &n) != CUDA_SUCCESS)
            fail("could not read a graph's edges");
        else
            for (size_t i = 0; i < n; i++)
                if (cuptiGetGraphNodeId(from[i], &a) == CUPTI_SUCCESS &&
                    cuptiGetGraphNodeId(to[i], &b) == CUPTI_SUCCESS)
                    add_link(0, gid, a, b);
        free(from);
        free(to);
    } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED && gd->graph && gd->graphExec) {
        if (cuptiGetGraphId(gd->graph, &gid) == CUPTI_SUCCESS &&
            cuptiGetGraphExecId(gd->graphExec, &xid) == CUPTI_SUCCESS)
            add_link(1, gid, xid, 0);
    } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED && gd->node && gd->originalNode) {
        if (cuptiGetGraphNodeId(gd->node, &a) == CUPTI_SUCCESS &&
            cuptiGetGraphNodeId(gd->originalNode, &b) == CUPTI_SUCCESS)
            add_link(2, 0, a, b);
    }
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
            r->node = k->graphNodeId;
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
            r->node = m->graphNodeId;
            r->copy = copy_kind(m->copyKind);
            r->bytes = m->bytes;
            r->ns = m->end > m->start ? m->end - m->start : 0;
        } else if (a->kind == CUPTI_ACTIVITY_KIND_CUDA_EVENT) {
            const CUpti_ActivityCudaEvent2 *e = (const CUpti_ActivityCudaEvent2 *)a;
            if (!(r = new_rec()))
                break;
            r->kind = 3;
            r->corr = e->correlationId;
            r->stream = e->streamId;
            r->event = e->eventId;
            r->event_sync = e->cudaEventSyncId;
        } else if (a->kind == CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) {
            const CUpti_ActivitySynchronization2 *y = (const CUpti_ActivitySynchronization2 *)a;
            if (y->type != CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT &&
                y->type != CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE &&
                y->type != CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE &&
                y->type != CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE)
                continue;
            if (!(r = new_rec()))
                break;
            r->kind = y->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT ? 4 : 5;
            r->corr = y->correlationId;
            r->stream = y->streamId;
            r->nostream = y->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE ||
                          y->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
            if (y->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT ||
                y->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE) {
                r->event = y->cudaEventId;
                r->event_sync = y->cudaEventSyncId;
            }
        } else if (a->kind == CUPTI_ACTIVITY_KIND_STREAM) {
            const CUpti_ActivityStream *t = (const CUpti_ActivityStream *)a;
            uint32_t fl = (uint32_t)t->flag & CUPTI_ACTIVITY_STREAM_CREATE_MASK;
            if (fl != CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL &&
                fl != CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT &&
                fl != CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING)
                continue;
            if (!(r = new_rec()))
                break;
            r->kind = 6;
            r->corr = 0; /* first: a stream's kind holds from the start */
            r->stream = t->streamId;
            r->copy = fl == CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL      ? 0
                      : fl == CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT ? 1
                                                                        : 2;
        } else if (a->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)a;
            if (!(r = new_rec()))
                break;
            r->kind = 2;
            r->corr = m->correlationId;
            r->stream = m->streamId;
            r->graph = m->graphId;
            r->node = m->graphNodeId;
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
    int sx = x->kind != 6, sy = y->kind != 6; /* the streams' kinds first */
    if (sx != sy)
        return sx - sy;
    return (x->corr > y->corr) - (x->corr < y->corr);
}

/* The fields from grid_x to to of a row that has none of them, and the
 * comma before event. */
#define NO_LAUNCH ",,,,,,,,,,,,,,,,"

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
    static const char *const flags[] = {"null", "blocking", "nonblocking"};
    qsort(recs, nrecs, sizeof *recs, by_corr);
    /* an event's recordings by the id CUPTI gives each (which the waits
       name), where every record and wait has one; else by the event's id */
    int by_sync = 1;
    for (size_t i = 0; i < nrecs; i++)
        if ((recs[i].kind == 3 || recs[i].kind == 4 || (recs[i].kind == 5 && recs[i].event)) &&
            !recs[i].event_sync)
            by_sync = 0;
    fprintf(f, "# mmm launch trace 3\n"
               "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
               "registers,shared_static,shared_dynamic,bytes,copy,duration_ns,graph,node,to,"
               "event\n");
    if (no_order[0])
        fprintf(f, "# note: %s\n", no_order);
    for (size_t i = 0; i < nrecs; i++) {
        const rec *r = &recs[i];
        uint64_t ev = by_sync ? r->event_sync : r->event;
        if (r->kind == 0)
            fprintf(f, "%zu,kernel,%s,%" PRIu32 ",%d,%d,%d,%d,%d,%d,%u,%d,%d,,,%" PRIu64
                       ",%" PRIu32 ",%" PRIu64 ",,\n",
                    i + 1, r->name, r->stream, r->grid[0], r->grid[1], r->grid[2],
                    r->block[0], r->block[1], r->block[2], (unsigned)r->regs, r->sstatic,
                    r->sdynamic, r->ns, r->graph, r->node);
        else if (r->kind <= 2)
            fprintf(f, "%zu,%s,,%" PRIu32 ",,,,,,,,,,%" PRIu64 ",%s,%" PRIu64 ",%" PRIu32
                       ",%" PRIu64 ",,\n",
                    i + 1, kinds[r->kind], r->stream, r->bytes, copies[r->copy], r->ns,
                    r->graph, r->node);
        else if (r->kind == 6)
            fprintf(f, "%zu,stream,%s,%" PRIu32 NO_LAUNCH "\n", i + 1, flags[r->copy],
                    r->stream);
        else if (r->kind == 5 && r->nostream && !r->event) /* the device */
            fprintf(f, "%zu,sync,," NO_LAUNCH "\n", i + 1);
        else if (r->kind == 5 && r->nostream) /* an event */
            fprintf(f, "%zu,sync,," NO_LAUNCH "%" PRIu64 "\n", i + 1, ev);
        else if (r->kind == 5) /* a stream */
            fprintf(f, "%zu,sync,,%" PRIu32 NO_LAUNCH "\n", i + 1, r->stream);
        else
            fprintf(f, "%zu,%s,,%" PRIu32 NO_LAUNCH "%" PRIu64 "\n", i + 1,
                    r->kind == 3 ? "record" : "wait", r->stream, ev);
    }
    for (size_t i = 0; i < nlinks; i++) {
        static const char *const lk[] = {"edge", "exec", "clone"};
        const glink *l = &links[i];
        if (l->kind == 1)
            fprintf(f, "%zu,exec,,,,,,,,,,,,,,,%" PRIu32 ",%" PRIu64 ",,\n", nrecs + i + 1,
                    l->g, l->a);
        else
            fprintf(f, "%zu,%s,,,,,,,,,,,,,,,%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",\n",
                    nrecs + i + 1, lk[l->kind], l->g, l->a, l->b);
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
    /* stream order beyond one stream: without it, each stream's own order */
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CUDA_EVENT) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_STREAM) != CUPTI_SUCCESS)
        snprintf(no_order, sizeof no_order,
                 "CUPTI refused the records of events, waits and streams: edges follow "
                 "each stream's own order");
    CUpti_SubscriberHandle sub;
    if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_resource, NULL) != CUPTI_SUCCESS ||
        cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RESOURCE) != CUPTI_SUCCESS)
        fail("CUPTI refused the graph callbacks");
    atexit(write_trace);
    return 1;
}
