/* writer.c: the mmm_writer every output call writes into: a caller's FILE
 * or a memory buffer (open_memstream), its format and the state of one
 * document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output_internal.h"

static const char *const format_names[] = {"text", "JSON", "CSV"};

int mmm__writer_check(const mmm_writer *w, unsigned formats, const char *fn,
                      mmm_error *err)
{
    if (!w)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "%s: no writer", fn);
    if (!(formats & MMM__FORMAT_BIT(w->format)))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "%s: no %s output", fn,
                             format_names[w->format]);
    return MMM_OK;
}

static int make(mmm_writer **out, FILE *f, int memory, mmm_format format,
                mmm_error *err)
{
    mmm_writer *w;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_writer_new: no out");
    *out = NULL;
    if ((unsigned)format > MMM_FORMAT_CSV)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_writer_new: unknown format %d", (int)format);
    if (!(w = calloc(1, sizeof *w)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    w->format = format;
    w->memory = memory;
    if (memory) {
        f = open_memstream(&w->mem, &w->memlen);
        if (!f) {
            free(w);
            return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        }
    } else if (!f) {
        free(w);
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_writer_new: no FILE");
    }
    w->f = f;
    mmm__json_init(&w->json, f);
    *out = w;
    return MMM_OK;
}

int mmm_writer_new(mmm_writer **out, FILE *f, mmm_format format, mmm_error *err)
{
    return make(out, f, 0, format, err);
}

int mmm_writer_new_memory(mmm_writer **out, mmm_format format, mmm_error *err)
{
    return make(out, NULL, 1, format, err);
}

const char *mmm_writer_data(mmm_writer *w, size_t *len)
{
    if (len)
        *len = 0;
    if (!w || !w->memory || fflush(w->f) != 0)
        return NULL;
    if (len)
        *len = w->memlen;
    return w->mem;
}

int mmm_writer_flush(mmm_writer *w, mmm_error *err)
{
    if (!w)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_writer_flush: no writer");
    if (fflush(w->f) != 0 || ferror(w->f))
        return mmm_error_set(err, MMM_EIO, NULL, 0, "cannot write the output");
    return MMM_OK;
}

void mmm_writer_free(mmm_writer *w)
{
    if (!w)
        return;
    if (w->sweep)
        w->sweep_free(w->sweep);
    if (w->memory) {
        fclose(w->f);
        free(w->mem);
    }
    free(w);
}
