/* trace.c: a simulated schedule in the Chrome trace-event format (JSON
 * object form), which Perfetto (ui.perfetto.dev) and chrome://tracing open.
 * SMs are threads of one process; each record is one complete ("X") event
 * per SM it covers; the bounds are global instant events.  One model time
 * unit is written as one microsecond (the format's unit). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/outfile.h"
#include "base/text.h"
#include "mmm/program.h"
#include "mmm/sim.h"

/* Beyond this many "X" events the file would be too large to open: write
 * one event per kernel instead. */
#define MAX_TRACE_EVENTS 1000000
#define MAX_NAMED_SMS 65536

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    mmm__fput_json(f, s);
    fputc('"', f);
}

static void put_num(FILE *f, double v)
{
    if (!isfinite(v))
        v = 0.0;
    if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.17g", v);
}

static void put_meta(FILE *f, const char *what, int pid, int64_t tid,
                     const char *key, const char *name, int64_t number)
{
    fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%lld,"
               "\"args\":{\"%s\":", what, pid, (long long)tid, key);
    if (name)
        put_string(f, name);
    else
        fprintf(f, "%lld", (long long)number);
    fputs("}}", f);
}

static void put_instant(FILE *f, const char *name, double ts)
{
    fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"g\",\"name\":\"%s\",\"pid\":1,\"tid\":0,"
               "\"ts\":", name);
    put_num(f, ts);
    fputc('}', f);
}

static void put_event(FILE *f, const char *name, const char *cat, int pid,
                      int64_t tid, double ts, double dur)
{
    fputs(",\n{\"ph\":\"X\",\"name\":", f);
    put_string(f, name);
    fprintf(f, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%lld,\"ts\":", cat, pid,
            (long long)tid);
    put_num(f, ts);
    fputs(",\"dur\":", f);
    put_num(f, dur);
}

static void record_events(FILE *f, const mmm_sim_result *r,
                          const mmm_program *prog)
{
    size_t i;
    for (i = 0; i < r->nrecords; i++) {
        const mmm_sim_record *rec = &r->records[i];
        const mmm_kernel *kd = &prog->kernels[rec->kernel];
        int64_t sm;
        for (sm = rec->sm_first; sm < rec->sm_first + rec->sm_count; sm++) {
            if (rec->kind == MMM_SIM_LAUNCHES) {
                put_event(f, kd->id, "launches", 1, sm, rec->start,
                          rec->end - rec->start);
                fprintf(f, ",\"args\":{\"launches\":\"%lld..%lld\","
                           "\"closed_form\":true}}",
                        (long long)rec->copy,
                        (long long)(rec->copy + rec->copies - 1));
            } else {
                put_event(f, kd->id, "blocks", 1, sm, rec->start,
                          rec->end - rec->start);
                fprintf(f, ",\"args\":{\"launch\":%lld,\"class\":%u,"
                           "\"blocks\":%lld,\"block_cost\":",
                        (long long)rec->copy,
                        (unsigned)(rec->klass - kd->first_class),
                        (long long)rec->waves);
                put_num(f, (rec->end - rec->start) / (double)rec->waves);
                fputs("}}", f);
            }
        }
    }
}

static void kernel_events(FILE *f, const mmm_sim_result *r,
                          const mmm_program *prog)
{
    size_t k;
    put_meta(f, "process_name", 2, 0, "name", "kernels (aggregated)", 0);
    for (k = 0; k < r->nkernels; k++) {
        const mmm_sim_kernel_stat *st = &r->kernels[k];
        if (st->blocks == 0)
            continue;
        put_meta(f, "thread_name", 2, (int64_t)k, "name", prog->kernels[k].id, 0);
        put_event(f, prog->kernels[k].id, "kernel", 2, (int64_t)k,
                  st->first_start, st->last_end - st->first_start);
        fprintf(f, ",\"args\":{\"blocks\":%lld,\"busy\":", (long long)st->blocks);
        put_num(f, st->busy);
        fputs(",\"mean_busy_sms\":", f);
        put_num(f, st->last_end > st->first_start
                       ? st->busy / (st->last_end - st->first_start) : 0.0);
        fputs("}}", f);
    }
}

static int64_t count_events(const mmm_sim_result *r)
{
    int64_t n = 0;
    size_t i;
    for (i = 0; i < r->nrecords; i++) {
        n += r->records[i].sm_count;
        if (n > MAX_TRACE_EVENTS)
            break;
    }
    return n;
}

/* SMs 0 .. n-1 appear in the records: only they get a name. */
static int64_t used_sms(const mmm_sim_result *r)
{
    int64_t n = 0;
    size_t i;
    for (i = 0; i < r->nrecords; i++)
        if (r->records[i].sm_first + r->records[i].sm_count > n)
            n = r->records[i].sm_first + r->records[i].sm_count;
    return n;
}

/* Does some record become an event that covers more than one block? */
static int records_merge_blocks(const mmm_sim_result *r)
{
    size_t i;
    for (i = 0; i < r->nrecords; i++)
        if (r->records[i].kind == MMM_SIM_LAUNCHES || r->records[i].waves > 1)
            return 1;
    return 0;
}

static void write_trace(FILE *f, const mmm_sim_result *r,
                        const mmm_program *prog, double mmm_bound)
{
    int detailed = r->records && !r->records_truncated
                   && count_events(r) <= MAX_TRACE_EVENTS;
    int merged = !detailed || records_merge_blocks(r);
    char title[512];
    int64_t sm;

    fputs("{\"otherData\":{\"program\":", f);
    put_string(f, prog->name ? prog->name : "");
    fputs(",\"policy\":", f);
    put_string(f, r->policy ? r->policy->name : "");
    /* "aggregated": some event stands for more than one block. */
    fprintf(f, ",\"p\":%lld,\"time_unit\":\"1 model time unit = 1 us\","
               "\"aggregated\":%s,\"event_covers\":\"%s\",\"makespan\":",
            (long long)r->p, merged ? "true" : "false",
            !detailed ? "one kernel (all its blocks)"
            : merged  ? "consecutive blocks of one kernel on one SM (args.blocks)"
                      : "one block");
    put_num(f, r->makespan);
    fputs(",\"lower_bound\":", f);
    put_num(f, r->lower_bound);
    fputs(",\"graham\":", f);
    put_num(f, r->graham);
    if (mmm_bound >= 0.0) {
        fputs(",\"graham_brent\":", f);
        put_num(f, mmm_bound);
    }
    fputs("},\n\"traceEvents\":[", f);
    snprintf(title, sizeof title, "%s: %s, p = %lld", prog->name ? prog->name : "",
             r->policy ? r->policy->name : "", (long long)r->p);
    /* The first element has no leading comma; every later one has. */
    fprintf(f, "\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,"
               "\"args\":{\"name\":");
    put_string(f, title);
    fputs("}}", f);
    for (sm = 0; detailed && sm < used_sms(r) && sm < MAX_NAMED_SMS; sm++) {
        char name[32];
        snprintf(name, sizeof name, "SM %lld", (long long)sm);
        put_meta(f, "thread_name", 1, sm, "name", name, 0);
        put_meta(f, "thread_sort_index", 1, sm, "sort_index", NULL, sm);
    }
    if (detailed)
        record_events(f, r, prog);
    else
        kernel_events(f, r, prog);
    put_instant(f, "lower bound", r->lower_bound);
    put_instant(f, "makespan", r->makespan);
    put_instant(f, "Graham bound", r->graham);
    if (mmm_bound >= 0.0)
        put_instant(f, "MMM bound (N/p+L)C", mmm_bound);
    fputs("\n]}\n", f);
}

int mmm_sim_trace_write(const char *path, const mmm_sim_result *r,
                        const mmm_program *prog, double mmm_bound,
                        mmm_error *err)
{
    mmm__outfile of;
    int rc = mmm__outfile_open(&of, path, err);
    if (rc < 0)
        return rc;
    write_trace(of.fp, r, prog, mmm_bound);
    return mmm__outfile_commit(&of, err);
}
