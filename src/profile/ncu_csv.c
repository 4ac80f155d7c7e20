/* ncu_csv.c: the raw CSV page of Nsight Compute (`ncu --csv --page raw`),
 * the only file of mmm that knows ncu's format: its columns, its metric
 * names and its units (mmm/profile.h, docs/profile.md).
 *
 * The page is a table: a header of column names ("ID", "Process ID",
 * "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block
 * Size", "Grid Size", "Device", "CC", then one column per metric), a row
 * of units (empty under the fixed columns: "byte", "inst", "nsecond", or
 * scaled ones, "Kbyte", "usecond", unless ncu ran with --print-units
 * base), then one row per profiled launch, every field quoted, numbers
 * with thousands separators ("1,234,567").  Around the table, when ncu
 * wrote to its standard output, come the program's own lines and ncu's
 * "==PROF==" lines; an "==ERROR==" line means the capture failed.
 *
 * Each mmm_ncu_quantity is read from the first of its alternatives (one
 * metric, or a sum or difference of metrics) whose columns the file has:
 * a targeted capture (mmm_ncu_metric_list) has the first; a `--set full`
 * capture may name them otherwise.  Columns mmm does not use are ignored.
 * A value is exact in its metric's base unit; one ncu scaled to a unit
 * with a prefix ("2.10 Mbyte") was rounded by ncu and is inexact.  With
 * --print-metric-instances and ncu's default units, the cells with
 * instances ("256 (0: 256)") are scaled value by value, not as their
 * column's unit says: one without a decimal point is in the base unit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "base/file.h"
#include "base/grow.h"

#define NCU_MAX_BYTES (1ull << 30)
#define NCU_MAX_COLS 100000u
#define NQ MMM_NCU_NQUANTITIES

/* Each quantity: its name, whether ncu reports it without replaying the
 * kernel (launch statistics), and its alternatives: metric names separated
 * by spaces, each added, or subtracted when it starts with '-'. */
static const struct qdef {
    const char *name;
    int launch;
    const char *alt[3];
} qdefs[NQ] = {
    [MMM_NCU_BLOCKS] = {"blocks", 1, {"launch__grid_size"}},
    [MMM_NCU_THREADS] = {"threads", 1, {"launch__block_size"}},
    [MMM_NCU_REGISTERS] = {"registers_per_thread", 1, {"launch__registers_per_thread"}},
    [MMM_NCU_SHARED_STATIC] = {"shared_static_bytes", 1,
                               {"launch__shared_mem_per_block_static"}},
    [MMM_NCU_SHARED_DYNAMIC] = {"shared_dynamic_bytes", 1,
                                {"launch__shared_mem_per_block_dynamic"}},
    [MMM_NCU_WARPS] = {"warps", 0,
                       {"smsp__warps_launched.sum", "sm__warps_launched.sum"}},
    [MMM_NCU_WARP_INST] = {"warp_instructions", 0,
                           {"smsp__inst_executed.sum", "sm__inst_executed.sum"}},
    [MMM_NCU_THREAD_INST] = {"thread_instructions", 0,
                             {"smsp__thread_inst_executed.sum",
                              "sm__thread_inst_executed.sum"}},
    /* without the bytes: the warp-level instructions, each taken as 32
     * threads loading 4 bytes (exact for full warps of 32-bit accesses) */
    [MMM_NCU_LOAD_BYTES] = {"load_bytes", 0,
                            {"smsp__sass_data_bytes_mem_global_op_ld.sum",
                             "sm__sass_data_bytes_mem_global_op_ld.sum",
                             "smsp__sass_inst_executed_op_global_ld.sum*128"}},
    [MMM_NCU_STORE_BYTES] = {"store_bytes", 0,
                             {"smsp__sass_data_bytes_mem_global_op_st.sum",
                              "sm__sass_data_bytes_mem_global_op_st.sum",
                              "smsp__sass_inst_executed_op_global_st.sum*128"}},
    [MMM_NCU_ATOMIC_BYTES] = {"atomic_bytes", 0,
                              {"smsp__sass_data_bytes_mem_global_op_atom.sum "
                               "smsp__sass_data_bytes_mem_global_op_red.sum"}},
    [MMM_NCU_ATOMIC_INST] = {"atomic_instructions", 0,
                             {"smsp__sass_inst_executed_op_global_atom.sum "
                              "smsp__sass_inst_executed_op_global_red.sum"}},
    /* the BAR instructions among the warp-level instructions per opcode
     * (written with --print-metric-instances details) */
    [MMM_NCU_BARRIER_INST] = {"barrier_instructions", 0,
                              {"sass__inst_executed_per_opcode[BAR]"}},
    [MMM_NCU_SHARED_WAVEFRONTS] = {"shared_wavefronts", 0,
                                   {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum "
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum "
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum "
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}},
    [MMM_NCU_GLOBAL_WAVEFRONTS] = {"l1_global_wavefronts", 0,
                                   {"l1tex__t_output_wavefronts_pipe_lsu_mem_global.sum",
                                    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum "
                                    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st.sum"}},
    [MMM_NCU_LOAD_SECTORS] = {"load_sectors", 0,
                              {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}},
    [MMM_NCU_STORE_SECTORS] = {"store_sectors", 0,
                               {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}},
    [MMM_NCU_L2_READ_SECTORS] = {"l2_read_sectors", 0,
                                 {"lts__t_sectors_srcunit_tex_op_read.sum"}},
    [MMM_NCU_L2_READ_HITS] = {"l2_read_hit_sectors", 0,
                              {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"}},
    [MMM_NCU_L2_WRITE_SECTORS] = {"l2_write_sectors", 0,
                                  {"lts__t_sectors_srcunit_tex_op_write.sum"}},
    [MMM_NCU_DRAM_READ_BYTES] = {"dram_read_bytes", 0, {"dram__bytes_read.sum"}},
    [MMM_NCU_DRAM_WRITE_BYTES] = {"dram_write_bytes", 0, {"dram__bytes_write.sum"}},
    [MMM_NCU_DURATION_NS] = {"duration_ns", 0, {"gpu__time_duration.sum"}},
};

/* The metric lists for --metrics: the first alternative of each quantity
 * (metrics ncu 2025.3 knows on an H200: an unknown name fails the run). */
static const char launch_list[] =
    "launch__grid_size,launch__block_size,launch__registers_per_thread,"
    "launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic";
static const char full_list[] =
    "launch__grid_size,launch__block_size,launch__registers_per_thread,"
    "launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,"
    "smsp__warps_launched.sum,smsp__inst_executed.sum,"
    "smsp__thread_inst_executed.sum,"
    "smsp__sass_data_bytes_mem_global_op_ld.sum,"
    "smsp__sass_data_bytes_mem_global_op_st.sum,"
    "smsp__sass_data_bytes_mem_global_op_atom.sum,"
    "smsp__sass_data_bytes_mem_global_op_red.sum,"
    "smsp__sass_inst_executed_op_global_atom.sum,"
    "smsp__sass_inst_executed_op_global_red.sum,"
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,"
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
    "lts__t_sectors_srcunit_tex_op_read.sum,"
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
    "lts__t_sectors_srcunit_tex_op_write.sum,"
    "dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,"
    "sass__inst_executed_per_opcode";

typedef struct launch {
    long line;
    int64_t id;
    char *kernel;
    char *stream;
    uint32_t have;   /* bit q: quantity q measured */
    mmm_value v[NQ];
    uint32_t graph;  /* a launch trace's: the graph and node that ran it */
    uint64_t node;
} launch;

struct mmm_ncu_capture {
    char *file;
    launch *l;
    size_t n, cap;
    mmm__copy *copies; /* a launch trace's copies and sets */
    size_t ncopies, capcopies;
    mmm__graph_link *links; /* and its graphs' structure */
    size_t nlinks, caplinks;
    mmm__sync *syncs; /* and its records of stream order */
    size_t nsyncs, capsyncs;
    char source[NQ][256]; /* "" when the file has none of its alternatives */
};

/* How one column's cells become a number of the quantity's unit. */
typedef struct column_unit {
    mmm_value factor; /* multiply by it: 1000^k */
    int k;
    int exact;        /* 0: ncu scaled the value, and may have rounded it */
} column_unit;

/* The columns one quantity is read from in the current table. */
typedef struct qcols {
    size_t n;
    size_t col[4];
    int sign[4];
    int64_t mult[4];   /* "name*K": the metric times K */
    char inst[4][32];  /* "name[I]": its instance I ("" for the total) */
    char name[4][128]; /* the metrics, for messages */
} qcols;

typedef struct table {
    size_t ncols;
    long header_line;
    long c_id, c_kernel, c_context, c_stream, c_block, c_grid;
    qcols q[NQ];
    column_unit *unit; /* per column */
} table;

const char *mmm_ncu_metric_list(mmm_ncu_set set)
{
    return set == MMM_NCU_SET_LAUNCH ? launch_list : full_list;
}

const char *mmm__ncu_hint(mmm_ncu_quantity q)
{
    if (q == MMM_NCU_BARRIER_INST)
        return "sass__inst_executed_per_opcode, written with "
               "--print-metric-instances details";
    return (unsigned)q < NQ ? qdefs[q].alt[0] : "";
}

const char *mmm_ncu_quantity_name(mmm_ncu_quantity q)
{
    return (unsigned)q < NQ ? qdefs[q].name : NULL;
}

void mmm_ncu_free(mmm_ncu_capture *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->l[i].kernel);
        free(c->l[i].stream);
    }
    free(c->l);
    free(c->copies);
    free(c->links);
    free(c->syncs);
    free(c->file);
    free(c);
}

/* ------------------------------------------------------------------ */
/* Captures made by other readers (a launch trace: trace.c)           */

/* Append *L, whose kernel and stream were just allocated (NULL when that
 * failed), to c; on failure free them. */
static int push_launch(mmm_ncu_capture *c, launch *L, mmm_error *err)
{
    launch *l = L->kernel && L->stream
                    ? mmm__grow(c->l, &c->cap, c->n + 1, sizeof *c->l, 64)
                    : NULL;
    if (!l) {
        free(L->kernel);
        free(L->stream);
        return mmm_error_set(err, MMM_ENOMEM, c->file, L->line, "out of memory");
    }
    c->l = l;
    c->l[c->n++] = *L;
    return 0;
}

static int trace_launch(void *payload, long line, int64_t id, const char *kernel,
                        const char *stream, uint32_t have, const mmm_value *v,
                        uint32_t graph, uint64_t node, mmm_error *err)
{
    mmm_ncu_capture *c = payload;
    launch L;
    memset(&L, 0, sizeof L);
    L.line = line;
    L.id = id;
    L.have = have;
    L.graph = graph;
    L.node = node;
    for (int q = 0; q < NQ; q++)
        if (have & (1u << q))
            L.v[q] = v[q];
    L.kernel = strdup(kernel);
    L.stream = strdup(stream);
    return push_launch(c, &L, err);
}

static int trace_copy(void *payload, const mmm__copy *cp, mmm_error *err)
{
    mmm_ncu_capture *c = payload;
    mmm__copy *n = mmm__grow(c->copies, &c->capcopies, c->ncopies + 1, sizeof *n, 16);
    if (!n)
        return mmm_error_set(err, MMM_ENOMEM, c->file, cp->line, "out of memory");
    c->copies = n;
    c->copies[c->ncopies++] = *cp;
    return 0;
}

static int trace_link(void *payload, const mmm__graph_link *gl, mmm_error *err)
{
    mmm_ncu_capture *c = payload;
    mmm__graph_link *n = mmm__grow(c->links, &c->caplinks, c->nlinks + 1, sizeof *n, 16);
    if (!n)
        return mmm_error_set(err, MMM_ENOMEM, c->file, 0, "out of memory");
    c->links = n;
    c->links[c->nlinks++] = *gl;
    return 0;
}

static int trace_sync(void *payload, const mmm__sync *sy, mmm_error *err)
{
    mmm_ncu_capture *c = payload;
    mmm__sync *n = mmm__grow(c->syncs, &c->capsyncs, c->nsyncs + 1, sizeof *n, 16);
    if (!n)
        return mmm_error_set(err, MMM_ENOMEM, c->file, sy->line, "out of memory");
    c->syncs = n;
    c->syncs[c->nsyncs++] = *sy;
    return 0;
}

size_t mmm__ncu_nsyncs(const mmm_ncu_capture *c)
{
    return c ? c->nsyncs : 0;
}

const mmm__sync *mmm__ncu_sync(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->nsyncs ? &c->syncs[i] : NULL;
}

void mmm__ncu_graph_node(const mmm_ncu_capture *c, size_t i, uint32_t *graph,
                         uint64_t *node)
{
    *graph = c && i < c->n ? c->l[i].graph : 0;
    *node = c && i < c->n ? c->l[i].node : 0;
}

size_t mmm__ncu_nlinks(const mmm_ncu_capture *c)
{
    return c ? c->nlinks : 0;
}

const mmm__graph_link *mmm__ncu_link(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->nlinks ? &c->links[i] : NULL;
}

size_t mmm__ncu_ncopies(const mmm_ncu_capture *c)
{
    return c ? c->ncopies : 0;
}

const mmm__copy *mmm__ncu_copy(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->ncopies ? &c->copies[i] : NULL;
}

const char *mmm_ncu_file(const mmm_ncu_capture *c)
{
    return c ? c->file : NULL;
}

size_t mmm_ncu_count(const mmm_ncu_capture *c)
{
    return c ? c->n : 0;
}

const char *mmm_ncu_kernel(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->n ? c->l[i].kernel : NULL;
}

long mmm_ncu_line(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->n ? c->l[i].line : 0;
}

int64_t mmm_ncu_id(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->n ? c->l[i].id : -1;
}

const char *mmm_ncu_stream(const mmm_ncu_capture *c, size_t i)
{
    return c && i < c->n ? c->l[i].stream : NULL;
}

int mmm_ncu_value(const mmm_ncu_capture *c, size_t i, mmm_ncu_quantity q,
                  mmm_value *out)
{
    if (!c || i >= c->n || (unsigned)q >= NQ || !(c->l[i].have & (1u << q)))
        return 0;
    if (out)
        *out = c->l[i].v[q];
    return 1;
}

const char *mmm_ncu_source(const mmm_ncu_capture *c, mmm_ncu_quantity q)
{
    if (!c || (unsigned)q >= NQ || !c->source[q][0])
        return NULL;
    return c->source[q];
}

/* ------------------------------------------------------------------ */
/* Cells                                                               */

static long find_col(const mmm__csv *r, const char *name)
{
    for (size_t i = 0; i < r->ncells; i++)
        if (!strcmp(r->cells[i], name))
            return (long)i;
    return -1;
}

static column_unit scaled(int k)
{
    column_unit cu = {mmm_value_int(1), k, k == 0};
    for (int i = 0; i < k; i++)
        cu.factor = mmm__pv_mul(cu.factor, mmm_value_int(1000));
    return cu;
}

/* The factor that takes a cell of unit u to the quantity's base unit:
 * nanoseconds for times ("ns", "us", "ms", "s", or "nsecond" ...), the
 * unit itself otherwise ("byte", "Kbyte", "Mbyte/block", "sector"). */
static column_unit unit_of(const char *u)
{
    static const char *const bases[] = {
        "byte", "inst", "warp", "sector", "request", "wavefront", "thread",
        "block", "cycle", "register", "hz", "transaction", "instance"};
    static const char prefixes[] = "KMGTP";
    static const struct { const char *u; int k; } times[] = {
        {"ns", 0}, {"nsecond", 0}, {"us", 1}, {"usecond", 1}, {"ms", 2},
        {"msecond", 2}, {"s", 3}, {"second", 3}};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (!strcmp(u, times[i].u))
            return scaled(times[i].k);
    const char *p = u[0] ? strchr(prefixes, u[0]) : NULL;
    if (p)
        for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
            size_t bl = strlen(bases[b]);
            if (!strncmp(u + 1, bases[b], bl) &&
                (u[1 + bl] == '\0' || u[1 + bl] == '/' || u[1 + bl] == 's'))
                return scaled((int)(p - prefixes) + 1);
        }
    return scaled(0);
}

/* Digits after the decimal point of the number s starts with ("1.02" in
 * "1.02 (0: 1.02)"), -1 when it has no decimal point. */
static int cell_decimals(const char *s)
{
    int d = 0;
    while (*s == ' ')
        s++;
    while ((*s >= '0' && *s <= '9') || *s == ',' || *s == '-' || *s == '+')
        s++;
    if (*s != '.')
        return -1;
    for (s++; *s >= '0' && *s <= '9'; s++)
        d++;
    return d;
}

/* A cell written with --print-metric-instances: "AGG (LIST)". */
static int cell_instanced(const char *s)
{
    size_t n = strlen(s);
    return n > 3 && s[n - 1] == ')' && strstr(s, " (") != NULL;
}

/* A cell "1,234,567.5": 1 with the number, 0 when it is empty or "n/a",
 * -1 when it is not a number.  Thousands separators must group by three;
 * the values of a metric's instances after its total ("560 (64; 64)")
 * are ignored. */
static int cell_number(const char *s, mmm_value *out)
{
    char buf[128];
    size_t n = 0, group = 0;
    int seen_digit = 0, in_int = 1, had_sep = 0;
    while (*s == ' ')
        s++;
    if (!*s || !strcmp(s, "n/a") || !strcmp(s, "N/A") || !strcmp(s, "-"))
        return 0;
    for (const char *p = s; *p; p++) {
        if (n + 2 >= sizeof buf)
            return -1;
        if (*p == ' ' && p[1] == '(' && p[strlen(p) - 1] == ')')
            break;
        if (*p == ',') {
            /* a separator: after 1 to 3 digits first, 3 after that */
            if (!in_int || !seen_digit || group == 0 || group > 3 ||
                (had_sep && group != 3))
                return -1;
            had_sep = 1;
            group = 0;
            continue;
        }
        if (*p >= '0' && *p <= '9') {
            seen_digit = 1;
            if (in_int)
                group++;
        } else if (in_int) {
            if (had_sep && group != 3)
                return -1;
            in_int = 0;
        }
        buf[n++] = *p;
    }
    if (in_int && had_sep && group != 3)
        return -1;
    buf[n] = '\0';
    return mmm__pv_parse(buf, out) < 0 ? -1 : 1;
}

/* Instance inst of a cell written with --print-metric-instances details,
 * "22,544 (IMAD: 2,359; BAR: 524; LDG: 262)": 1 with its value (*text:
 * where its number starts), 0 when the cell has no instances (written
 * without them), -1 when it is not a number; an instance the list lacks
 * is 0 (none executed). */
static int instance_number(const char *s, const char *inst, mmm_value *out,
                           const char **text)
{
    const char *open = strchr(s, '(');
    size_t il = strlen(inst);
    char buf[64];
    *text = "0";
    if (!open || s[strlen(s) - 1] != ')') {
        mmm_value total;
        int r = cell_number(s, &total);
        return r < 0 ? -1 : 0;
    }
    for (const char *p = open + 1; *p;) {
        while (*p == ' ')
            p++;
        if (!strncmp(p, inst, il) && p[il] == ':') {
            const char *v = p + il + 1;
            size_t n = strcspn(v, ";)");
            if (n >= sizeof buf)
                return -1;
            memcpy(buf, v, n);
            buf[n] = '\0';
            *text = v;
            return cell_number(buf, out) == 1 ? 1 : -1;
        }
        p += strcspn(p, ";)");
        if (*p)
            p++;
    }
    *out = mmm_value_int(0);
    return 1;
}

/* "(256, 1, 1)" (or "256, 1, 1") into the product; -1 when it is not. */
static int dims_product(const char *s, int64_t *out)
{
    int64_t prod = 1;
    int k = 0;
    while (*s) {
        if (*s >= '0' && *s <= '9') {
            int64_t v = 0;
            while (*s >= '0' && *s <= '9') {
                if (__builtin_mul_overflow(v, 10, &v) ||
                    __builtin_add_overflow(v, *s - '0', &v))
                    return -1;
                s++;
            }
            if (__builtin_mul_overflow(prod, v, &prod))
                return -1;
            k++;
        } else if (*s == '(' || *s == ')' || *s == ',' || *s == ' ') {
            s++;
        } else {
            return -1;
        }
    }
    if (k < 1 || k > 3)
        return -1;
    *out = prod;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

/* Which alternative of each quantity this header has. */
static int read_header(mmm_ncu_capture *c, table *t, const mmm__csv *r,
                       long line, mmm_error *err)
{
    static const char *const fixed[] = {"ID", "Kernel Name", "Context",
                                        "Stream"};
    long *slot[] = {&t->c_id, &t->c_kernel, &t->c_context, &t->c_stream};
    long first_line = t->header_line; /* of the table before, if any */
    if (find_col(r, "Metric Name") >= 0 && find_col(r, "Metric Value") >= 0)
        return mmm_error_set(err, MMM_EINPUT, c->file, line,
                             "this is ncu's details page (columns \"Metric "
                             "Name\", \"Metric Value\"): mmm reads the raw page, "
                             "written by ncu --csv --page raw");
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if ((*slot[i] = find_col(r, fixed[i])) < 0)
            return mmm_error_set(err, MMM_EINPUT, c->file, line,
                                 "the header has no column \"%s\" (a file of "
                                 "ncu --csv --page raw has \"ID\", \"Kernel "
                                 "Name\", \"Context\", \"Stream\", \"Block "
                                 "Size\", \"Grid Size\", then the metrics)",
                                 fixed[i]);
    t->c_block = find_col(r, "Block Size");
    t->c_grid = find_col(r, "Grid Size");
    t->ncols = r->ncells;
    t->header_line = line;
    free(t->unit);
    if (!(t->unit = malloc(t->ncols * sizeof *t->unit)))
        return mmm_error_set(err, MMM_ENOMEM, c->file, line, "out of memory");
    for (size_t i = 0; i < t->ncols; i++) {
        t->unit[i] = scaled(0);
    }
    char first_source[NQ][256];
    memcpy(first_source, c->source, sizeof first_source);
    for (int q = 0; q < NQ; q++) {
        t->q[q].n = 0;
        c->source[q][0] = '\0';
        for (int a = 0; a < 3 && qdefs[q].alt[a]; a++) {
            qcols qc;
            const char *s = qdefs[q].alt[a];
            char src[256] = "";
            int ok = 1;
            memset(&qc, 0, sizeof qc);
            while (*s && ok) {
                char name[128];
                size_t n = 0;
                int sign = 1;
                if (*s == '-') {
                    sign = -1;
                    s++;
                }
                int64_t mult = 1;
                char inst[32] = "";
                while (*s && *s != ' ' && *s != '*' && *s != '[' && n + 1 < sizeof name)
                    name[n++] = *s++;
                name[n] = '\0';
                if (*s == '[') {
                    size_t k = 0;
                    for (s++; *s && *s != ']' && k + 1 < sizeof inst; s++)
                        inst[k++] = *s;
                    inst[k] = '\0';
                    if (*s == ']')
                        s++;
                }
                if (*s == '*')
                    mult = strtoll(s + 1, (char **)&s, 10);
                while (*s == ' ')
                    s++;
                long col = find_col(r, name);
                if (col < 0 || qc.n >= 4) {
                    ok = 0;
                    break;
                }
                qc.col[qc.n] = (size_t)col;
                snprintf(qc.name[qc.n], sizeof qc.name[qc.n], "%s", name);
                qc.mult[qc.n] = mult;
                snprintf(qc.inst[qc.n], sizeof qc.inst[qc.n], "%s", inst);
                qc.sign[qc.n++] = sign;
                size_t sl = strlen(src);
                snprintf(src + sl, sizeof src - sl, "%s%s",
                         sl ? (sign < 0 ? " - " : " + ") : "", name);
                if (inst[0]) {
                    sl = strlen(src);
                    snprintf(src + sl, sizeof src - sl, "[%s]", inst);
                }
                if (mult != 1) {
                    sl = strlen(src);
                    snprintf(src + sl, sizeof src - sl, " * %lld", (long long)mult);
                }
            }
            if (ok && qc.n) {
                t->q[q] = qc;
                snprintf(c->source[q], sizeof c->source[q], "%s", src);
                break;
            }
        }
    }
    /* A second table (ncu writes one per process) must measure what the
     * first measured: each quantity names one source for the capture. */
    if (c->n > 0)
        for (int q = 0; q < NQ; q++)
            if (strcmp(c->source[q], first_source[q]))
                return mmm_error_set(err, MMM_EINPUT, c->file, line,
                                     "a second header whose metrics differ "
                                     "from the first's (line %ld): capture "
                                     "each run with the same --metrics, one "
                                     "file each", first_line);
    return 0;
}

static int add_launch(mmm_ncu_capture *c, const table *t, const mmm__csv *r,
                      long line, mmm_error *err)
{
    launch L;
    int64_t id;
    mmm_value v;
    memset(&L, 0, sizeof L);
    L.line = line;
    if (cell_number(r->cells[t->c_id], &v) != 1 || !mmm_value_is_int(v) ||
        v.num < 0)
        return mmm_error_set(err, MMM_EINPUT, c->file, line,
                             "\"ID\" is '%s', not a launch number",
                             r->cells[t->c_id]);
    id = v.num;
    L.id = id;
    if (!r->cells[t->c_kernel][0])
        return mmm_error_set(err, MMM_EINPUT, c->file, line,
                             "launch %lld has no \"Kernel Name\"", (long long)id);
    for (int q = 0; q < NQ; q++) {
        const qcols *qc = &t->q[q];
        mmm_value sum = mmm_value_int(0);
        int have = qc->n > 0, exact = 1;
        for (size_t k = 0; k < qc->n && have; k++) {
            const char *cell = r->cells[qc->col[k]], *text = cell;
            mmm_value x;
            int got = qc->inst[k][0] ? instance_number(cell, qc->inst[k], &x, &text)
                                     : cell_number(cell, &x);
            if (got < 0)
                return mmm_error_set(err, MMM_EINPUT, c->file, line,
                                     "%s of launch %lld is '%s', not a number",
                                     qc->name[k], (long long)id, cell);
            if (!got) {
                have = 0;
                break;
            }
            column_unit u = t->unit[qc->col[k]];
            int decimals = cell_decimals(text);
            /* with instances, ncu scales each number on its own and the
             * units row names the column's unit of the plain page: under
             * "Kbyte/block", "256 (0: 256)" is 256 bytes and "4.10 (0: 4.10)"
             * 4,096 bytes rounded.  A number it left in the base unit has
             * no decimal point; one it scaled has two decimals. */
            if (u.k > 0 && decimals < 0 && cell_instanced(cell))
                u = scaled(0);
            x = mmm__pv_mul(x, u.factor);
            /* a value ncu scaled is exact when it shows every digit down to
             * the base unit (0.288000 Kbyte is 288 bytes) */
            if (!u.exact && !(decimals >= 3 * u.k && mmm_value_is_int(x)))
                exact = 0;
            x = mmm__pv_mul(x, mmm_value_int(qc->mult[k]));
            sum = qc->sign[k] > 0 ? mmm__pv_add(sum, x) : mmm__pv_sub(sum, x);
        }
        if (!have)
            continue;
        if (!exact && sum.exact)
            sum = mmm_value_double(sum.d), sum.exact = 0;
        L.v[q] = sum;
        L.have |= 1u << q;
    }
    /* blocks and threads from the fixed columns when the metrics lack */
    static const mmm_ncu_quantity dimq[2] = {MMM_NCU_BLOCKS, MMM_NCU_THREADS};
    long dimc[2] = {t->c_grid, t->c_block};
    static const char *const dimn[2] = {"Grid Size", "Block Size"};
    for (int k = 0; k < 2; k++) {
        int64_t prod;
        if (L.have & (1u << dimq[k]))
            continue;
        if (dimc[k] < 0 || !r->cells[dimc[k]][0])
            continue;
        if (dims_product(r->cells[dimc[k]], &prod) < 0)
            return mmm_error_set(err, MMM_EINPUT, c->file, line,
                                 "\"%s\" of launch %lld is '%s', not (x, y, z)",
                                 dimn[k], (long long)id, r->cells[dimc[k]]);
        L.v[dimq[k]] = mmm_value_int(prod);
        L.have |= 1u << dimq[k];
    }
    for (int k = 0; k < 2; k++)
        if (!(L.have & (1u << dimq[k])))
            return mmm_error_set(err, MMM_EINPUT, c->file, line,
                                 "launch %lld has no %s (neither %s nor \"%s\")",
                                 (long long)id, dimq[k] == MMM_NCU_BLOCKS
                                                    ? "grid size"
                                                    : "block size",
                                 qdefs[dimq[k]].alt[0], dimn[k]);
    size_t sl = strlen(r->cells[t->c_context]) + strlen(r->cells[t->c_stream]) + 2;
    L.kernel = strdup(r->cells[t->c_kernel]);
    if ((L.stream = malloc(sl)))
        snprintf(L.stream, sl, "%s/%s", r->cells[t->c_context], r->cells[t->c_stream]);
    return push_launch(c, &L, err);
}

static int is_header(const char *s, size_t len)
{
    return (len >= 4 && !memcmp(s, "\"ID\"", 4)) ||
           (len >= 3 && !memcmp(s, "ID,", 3));
}

static int parse(mmm_ncu_capture *c, const char *text, size_t len, mmm_error *err)
{
    mmm__csv r;
    table t;
    const char *ls;
    size_t ll;
    long line, first_error = 0, rline;
    char error_text[200] = "";
    int have_table = 0, units_done = 0, rc = 0;
    memset(&t, 0, sizeof t);
    if ((line = mmm__nul_line(text, len)) > 0)
        return mmm_error_set(err, MMM_EINPUT, c->file, line,
                             "a NUL byte: not a text file, so not a capture of "
                             "ncu --csv");
    mmm__csv_init(&r, c->file, text, len);
    while (mmm__csv_peek_line(&r, &ls, &ll, &line)) {
        if (ll >= 2 && ls[0] == '=' && ls[1] == '=') {
            /* ncu's own messages: ==PROF==, ==WARNING==, ==ERROR== */
            if (ll >= 9 && !memcmp(ls, "==ERROR==", 9)) {
                size_t n = ll < sizeof error_text - 1 ? ll : sizeof error_text - 1;
                memcpy(error_text, ls, n);
                error_text[n] = '\0';
                first_error = line;
                break;
            }
            mmm__csv_skip_line(&r);
            continue;
        }
        if (!have_table && !is_header(ls, ll)) {
            /* the program's output before the table */
            mmm__csv_skip_line(&r);
            continue;
        }
        if ((rc = mmm__csv_next(&r, NCU_MAX_COLS, &rline, err)) < 0)
            goto done;
        if (is_header(ls, ll) && find_col(&r, "ID") == 0) {
            if ((rc = read_header(c, &t, &r, rline, err)) < 0)
                goto done;
            have_table = 1;
            units_done = 0;
            continue;
        }
        if (r.ncells != t.ncols) {
            rc = mmm_error_set(err, MMM_EINPUT, c->file, rline,
                               "%zu fields where the header (line %ld) has %zu: "
                               "a truncated or damaged capture",
                               r.ncells, t.header_line, t.ncols);
            goto done;
        }
        if (!units_done && !r.cells[t.c_id][0]) {
            /* the row of units */
            for (size_t i = 0; i < t.ncols; i++)
                t.unit[i] = unit_of(r.cells[i]);
            units_done = 1;
            continue;
        }
        units_done = 1;
        if ((rc = add_launch(c, &t, &r, rline, err)) < 0)
            goto done;
    }
    if (first_error) {
        rc = mmm_error_set(err, MMM_EINPUT, c->file, first_error,
                           "ncu reported an error: %s", error_text);
        goto done;
    }
    if (!have_table) {
        rc = mmm_error_set(err, MMM_EINPUT, c->file, 0,
                           "not a capture of Nsight Compute's raw page: no "
                           "header line starting \"ID\",\"Process ID\",... "
                           "(write it with ncu --csv --page raw)");
        goto done;
    }
    if (c->n == 0)
        rc = mmm_error_set(err, MMM_EINPUT, c->file, t.header_line,
                           "the capture has no kernel launch (ncu profiled "
                           "nothing: check its --kernel-name, --launch-skip "
                           "and --launch-count filters, and that the program "
                           "launches kernels)");
done:
    free(t.unit);
    mmm__csv_dispose(&r);
    return rc < 0 ? rc : 0;
}

int mmm_ncu_read_memory(mmm_ncu_capture **out, const char *buf, size_t len,
                        const char *name, mmm_error *err)
{
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no output pointer");
    *out = NULL;
    if (!buf && len)
        return mmm_error_set(err, MMM_EINVAL, name, 0, "no buffer");
    mmm_ncu_capture *c = calloc(1, sizeof *c);
    if (!c || !(c->file = strdup(name ? name : "<memory>"))) {
        free(c);
        return mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
    }
    int rc;
    if (buf && mmm__trace_is(buf, len)) {
        /* a launch trace of libmmm_trace.so (trace.c) */
        mmm__trace_sink sink = {c->file, c, trace_launch, trace_copy, trace_link, trace_sync};
        rc = mmm__trace_parse(buf, len, &sink, err);
        for (size_t i = 0; rc == 0 && i < c->n; i++)
            for (int q = 0; q < NQ; q++)
                if ((c->l[i].have & (1u << q)) && !c->source[q][0])
                    snprintf(c->source[q], sizeof c->source[q],
                             "libmmm_trace.so (CUPTI's activity records)");
    } else
        rc = parse(c, buf ? buf : "", len, err);
    if (rc < 0) {
        mmm_ncu_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

int mmm_ncu_read_file(mmm_ncu_capture **out, const char *path,
                      uint64_t max_bytes, mmm_error *err)
{
    char *text;
    size_t len;
    int rc;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "no output pointer");
    *out = NULL;
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    if ((rc = mmm__read_whole_file(path, max_bytes ? max_bytes : NCU_MAX_BYTES,
                                   &text, &len, err)) < 0)
        return rc;
    rc = mmm_ncu_read_memory(out, text, len, path, err);
    free(text);
    return rc;
}
