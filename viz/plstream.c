/* plstream.c: a PLplot page on its own stream, written atomically into a
 * file or into memory (see plstream.h). */
#include "plstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"

#ifndef MMM_HAVE_PLPLOT

int mmm__pl_have_device(const char *dev)
{
    (void)dev;
    return 0;
}

int mmm__pl_write_file(const mmm__pl_page *pg, const char *path, mmm_error *err)
{
    (void)pg;
    return mmm_error_set(err, MMM_EINVAL, path, 0, "this mmm was built without PLplot");
}

int mmm__pl_write_memory(const mmm__pl_page *pg, char **out, size_t *len,
                         mmm_error *err)
{
    (void)pg;
    *out = NULL;
    *len = 0;
    return mmm_error_set(err, MMM_EINVAL, NULL, 0, "this mmm was built without PLplot");
}

#else

#include <plplot.h>

int mmm__pl_have_device(const char *dev)
{
    const char *menu_buf[128], *name_buf[128];
    const char **menu = menu_buf, **names = name_buf;
    int n = 128, i;
    /* plgDevs fills the caller's arrays through pointers to them. */
    plgDevs(&menu, &names, &n);
    for (i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], dev))
            return 1;
    return 0;
}

static int no_device(const mmm__pl_page *pg, const char *path, mmm_error *err)
{
    return mmm_error_set(err, MMM_EIO, path, 0,
                         "the PLplot device '%s' is not installed "
                         "(Debian: apt-get install plplot-driver-cairo)",
                         pg->dev);
}

/* Draw the page on a new stream writing to f; PLplot closes f (plend1). */
static void draw(const mmm__pl_page *pg, FILE *f)
{
    PLINT old, strm;
    plgstrm(&old);
    plmkstrm(&strm);
    plsdev(pg->dev);
    plsfile(f);
    plsfam(0, -1, -1);
    plspage(pg->dpi, pg->dpi, pg->width, pg->height, 0, 0);
    if (pg->setup)
        pg->setup(pg->payload);
    plinit();
    pladv(0);
    pg->draw(pg->payload);
    plend1();
    plsstrm(old);
}

int mmm__pl_write_file(const mmm__pl_page *pg, const char *path, mmm_error *err)
{
    mmm__outfile of;
    int rc;
    if (!mmm__pl_have_device(pg->dev))
        return no_device(pg, path, err);
    if ((rc = mmm__outfile_open(&of, path, err)) < 0)
        return rc;
    draw(pg, of.fp);
    of.fp = NULL; /* closed by PLplot */
    /* PLplot reports no write error: a full disk or a file-size limit
     * would leave a truncated file, so check that it ends as it should. */
    if ((rc = mmm__outfile_check_complete(&of, err)) < 0) {
        mmm__outfile_abort(&of);
        return rc;
    }
    /* Reopen so that the commit flushes it to disk (fsync) and checks it. */
    of.fp = fopen(of.tmp_path, "ab");
    if (!of.fp || fseek(of.fp, 0, SEEK_END) != 0 || ftell(of.fp) <= 0) {
        mmm__outfile_abort(&of);
        return mmm_error_set(err, MMM_EIO, path, 0,
                             "PLplot wrote nothing with the device '%s'", pg->dev);
    }
    return mmm__outfile_commit(&of, err);
}

int mmm__pl_write_memory(const mmm__pl_page *pg, char **out, size_t *len,
                         mmm_error *err)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f;
    *out = NULL;
    *len = 0;
    if (!mmm__pl_have_device(pg->dev))
        return no_device(pg, NULL, err);
    if (!(f = open_memstream(&buf, &size)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    draw(pg, f); /* closes f: buf and size are final */
    if (!buf || size == 0) {
        free(buf);
        return mmm_error_set(err, buf ? MMM_EIO : MMM_ENOMEM, NULL, 0,
                             "PLplot wrote nothing with the device '%s'", pg->dev);
    }
    *out = buf;
    *len = size;
    return MMM_OK;
}

#endif
