/* fuzz_ncu.c: the reader of Nsight Compute's raw CSV (src/profile/ncu_csv.c,
 * mmm profile) and of libmmm_trace.so's launch trace (src/profile/trace.c,
 * the same entry point) on arbitrary bytes.  A capture that reads must satisfy the
 * reader's contract: at least one launch, each with a kernel name, a line
 * inside the input, blocks and threads, finite values, a stream ("C/S" of ncu, the CUPTI stream of a trace);
 * one that does not, an error with a message.  The first byte, when it is
 * 'Q', asks for the value of every quantity of every launch twice (the
 * accessors must agree). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n' || (data[i] == '\r' && !(i + 1 < size && data[i + 1] == '\n'));
    mmm_error_clear(&err);
    if (mmm_ncu_read_memory(&c, (const char *)data, size, "f.csv", &err) < 0) {
        if (c || err.code >= 0 || !err.message[0] || err.line < 0 || err.line > lines)
            abort();
        return 0;
    }
    if (!c || mmm_ncu_count(c) == 0 || strcmp(mmm_ncu_file(c), "f.csv"))
        abort();
    for (size_t i = 0; i < mmm_ncu_count(c); i++) {
        mmm_value v, w;
        const char *k = mmm_ncu_kernel(c, i), *s = mmm_ncu_stream(c, i);
        if (!k || !*k || !s || !*s || mmm_ncu_line(c, i) < 1 ||
            mmm_ncu_line(c, i) > lines || mmm_ncu_id(c, i) < 0)
            abort();
        if (!mmm_ncu_value(c, i, MMM_NCU_BLOCKS, &v) ||
            !mmm_ncu_value(c, i, MMM_NCU_THREADS, &v))
            abort();
        for (int q = 0; q < MMM_NCU_NQUANTITIES; q++) {
            int h = mmm_ncu_value(c, i, (mmm_ncu_quantity)q, &v);
            if (h && !isfinite(v.d))
                abort();
            if (h && v.exact && (v.den <= 0 || fabs((double)v.num / (double)v.den - v.d) >
                                                    1e-9 * fabs(v.d)))
                abort();
            if (size && data[0] == 'Q' &&
                (mmm_ncu_value(c, i, (mmm_ncu_quantity)q, &w) != h ||
                 (h && memcmp(&v, &w, sizeof v))))
                abort();
            if (h && !mmm_ncu_source(c, (mmm_ncu_quantity)q) && q != MMM_NCU_BLOCKS &&
                q != MMM_NCU_THREADS)
                abort();
        }
    }
    if (mmm_ncu_kernel(c, mmm_ncu_count(c)) || mmm_ncu_value(c, mmm_ncu_count(c), 0, NULL))
        abort();
    mmm_ncu_free(c);
    return 0;
}
