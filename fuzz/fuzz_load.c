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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_error err;
    opt.limits.max_file_bytes = 1 << 20;
    opt.limits.max_kernels = 1000;
    opt.limits.max_edges = 5000;
    opt.limits.max_params = 200;
    if (mmm_program_load_memory(&prog, (const char *)data, size, "fuzz.xml",
                                &opt, &err) == 0)
        mmm_program_free(prog);
    if (looks_like_machine(data, size))
        machine(data, size, &opt.limits);
    return 0;
}
