/* fuzz_load.c: the XML loader (parse, schema, builder, finalize) on an
 * arbitrary file held in memory, with small limits so one input stays fast.
 * An input whose root looks like <machine> is also loaded as a machine file
 * (through a temporary file: that loader reads paths) and then used with a
 * small program, so that its parameters meet the program's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmm/mmm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char program[] =
    "<program name=\"p\">\n"
    "  <param name=\"U\" value=\"4\"/>\n"
    "  <param name=\"n\" value=\"8\"/>\n"
    "  <kernel id=\"a\" blocks=\"n\" work=\"2\" span=\"1\" reads=\"1\" writes=\"1\"/>\n"
    "</program>\n";

static char machine_path[64];

/* The input as a file (removed after each use: libFuzzer may end with
 * _Exit, which runs no atexit handler). */
static const char *as_file(const uint8_t *data, size_t size)
{
    const char *path = machine_path;
    FILE *f;
    if (!machine_path[0])
        snprintf(machine_path, sizeof machine_path,
                 "/tmp/fuzz_load_machine_%ld.xml", (long)getpid());
    if (!(f = fopen(path, "wb")))
        return NULL;
    if (size && fwrite(data, 1, size, f) != size) {
        fclose(f);
        return NULL;
    }
    fclose(f);
    return path;
}

static void machine(const uint8_t *data, size_t size, const mmm_limits *lim)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_machine *m = NULL;
    mmm_program *prog = NULL;
    mmm_error err;
    const char *path = as_file(data, size);
    int r = path ? mmm_machine_load_file(&m, path, lim, &err) : -1;
    if (path)
        unlink(path);
    if (r < 0)
        return;
    opt.limits = *lim;
    opt.machine = m;
    if (mmm_program_load_memory(&prog, program, sizeof program - 1, "p.xml",
                                &opt, &err) == 0)
        mmm_program_free(prog);
    mmm_machine_free(m);
}

/* "<machine" in the first 256 bytes. */
static int looks_like_machine(const uint8_t *data, size_t size)
{
    size_t n = size < 256 ? size : 256;
    for (size_t i = 0; i + 8 <= n; i++)
        if (!memcmp(data + i, "<machine", 8))
            return 1;
    return 0;
}

/* The loader with the builder in a second thread must give what the
 * loader gives inline: the same status, the same error (code, line,
 * message), the same counts. */
static void same_threaded(const uint8_t *data, size_t size,
                          const mmm_load_options *inline_opt, int r1,
                          const mmm_error *e1, const mmm_program *p1)
{
    mmm_load_options opt = *inline_opt;
    mmm_program *p2 = NULL;
    mmm_error e2;
    opt.threads = MMM_THREADS_ON;
    int r2 = mmm_program_load_memory(&p2, (const char *)data, size,
                                     "fuzz.xml", &opt, &e2);
    if (r1 != r2 ||
        (r1 < 0 && (e1->code != e2.code || e1->line != e2.line ||
                    strcmp(e1->message, e2.message) != 0)) ||
        (r1 == 0 && (p1->nkernels != p2->nkernels ||
                     p1->nedges != p2->nedges ||
                     p1->nclasses != p2->nclasses))) {
        fprintf(stderr, "threaded load differs: %d line %ld '%s' vs %d line "
                        "%ld '%s'\n",
                r1, r1 < 0 ? e1->line : 0L, r1 < 0 ? e1->message : "", r2,
                r2 < 0 ? e2.line : 0L, r2 < 0 ? e2.message : "");
        abort();
    }
    mmm_program_free(p2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_error err;
    opt.limits.max_file_bytes = 1 << 20;
    opt.limits.max_kernels = 1000;
    opt.limits.max_edges = 5000;
    opt.limits.max_params = 200;
    opt.threads = MMM_THREADS_OFF;
    int r = mmm_program_load_memory(&prog, (const char *)data, size,
                                    "fuzz.xml", &opt, &err);
    same_threaded(data, size, &opt, r, &err, prog);
    mmm_program_free(prog);
    if (looks_like_machine(data, size))
        machine(data, size, &opt.limits);
    return 0;
}
