/* plstream.h: the one place that opens a PLplot stream: a page of a given
 * size on a given device, drawn by a callback, written atomically into a
 * file (mmm__outfile, base/outfile.h) or into memory.  Private to viz/
 * (plot.c, gantt_draw.c); the only other files that include plplot.h draw
 * between the callbacks. */
#ifndef MMM_VIZ_PLSTREAM_H
#define MMM_VIZ_PLSTREAM_H

#include <stddef.h>

#include "mmm/error.h"

typedef struct mmm__pl_page {
    const char *dev;       /* PLplot device: "svgcairo", "pngcairo", ... */
    double dpi;            /* 0: the device's default */
    int width, height;     /* pixels */
    /* Called on the new stream before plinit (colour maps, background);
     * may be NULL. */
    void (*setup)(void *payload);
    /* Called after plinit and pladv(0): the drawing itself. */
    void (*draw)(void *payload);
    void *payload;
} mmm__pl_page;

/* 1 when this build has PLplot and the device is installed. */
int mmm__pl_have_device(const char *dev);

/* Draw the page into path, atomically: PLplot writes the temporary of an
 * mmm__outfile, whose end is checked (PLplot reports no write error) before
 * it is committed.  MMM_EIO when the device is missing or the file cannot
 * be written (the message names the Debian package of the device);
 * MMM_EINVAL in a build without PLplot. */
int mmm__pl_write_file(const mmm__pl_page *pg, const char *path, mmm_error *err);

/* Draw the page into memory: *out (malloc'ed, NUL-terminated, len bytes
 * before the NUL) holds what the file would.  Same errors, and
 * MMM_ENOMEM. */
int mmm__pl_write_memory(const mmm__pl_page *pg, char **out, size_t *len,
                         mmm_error *err);

#endif
