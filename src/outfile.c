/* outfile.c: write-to-temporary-then-rename output files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmm/outfile.h"

int mmm_outfile_open(mmm_outfile *of, const char *path, mmm_error *err)
{
    size_t n = strlen(path);
    int fd;
    memset(of, 0, sizeof *of);
    of->path = malloc(n + 1);
    of->tmp_path = malloc(n + 16);
    if (!of->path || !of->tmp_path) {
        mmm_outfile_abort(of);
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    }
    memcpy(of->path, path, n + 1);
    /* Same folder as the target, so that rename() is atomic. */
    snprintf(of->tmp_path, n + 16, "%s.tmpXXXXXX", path);
    fd = mkstemp(of->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(of->tmp_path);
        of->tmp_path = NULL;
        mmm_outfile_abort(of);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot create '%s': %s",
                             path, strerror(e));
    }
    {
        /* mkstemp creates 0600; give the file the mode a plain fopen would. */
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask);
    }
    of->fp = fdopen(fd, "wb");
    if (!of->fp) {
        int e = errno;
        close(fd);
        mmm_outfile_abort(of);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot write '%s': %s",
                             path, strerror(e));
    }
    return MMM_OK;
}

int mmm_outfile_commit(mmm_outfile *of, mmm_error *err)
{
    int bad = 0, e = 0;
    if (!of->tmp_path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no open output file");
    if (of->fp) {
        if (fflush(of->fp) != 0 || ferror(of->fp) || fsync(fileno(of->fp)) != 0) {
            bad = 1;
            e = errno;
        }
        if (fclose(of->fp) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        of->fp = NULL;
    }
    if (!bad && rename(of->tmp_path, of->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        int rc = mmm_error_set(err, MMM_EIO, of->path, 0, "cannot write '%s': %s",
                               of->path, strerror(e ? e : EIO));
        mmm_outfile_abort(of);
        return rc;
    }
    free(of->tmp_path);
    free(of->path);
    of->tmp_path = of->path = NULL;
    return MMM_OK;
}

void mmm_outfile_abort(mmm_outfile *of)
{
    if (of->fp) {
        fclose(of->fp);
        of->fp = NULL;
    }
    if (of->tmp_path) {
        unlink(of->tmp_path);
        free(of->tmp_path);
        of->tmp_path = NULL;
    }
    free(of->path);
    of->path = NULL;
}

int mmm_write_file_atomic(const char *path, const void *data, size_t len,
                          mmm_error *err)
{
    mmm_outfile of;
    int rc = mmm_outfile_open(&of, path, err);
    if (rc < 0)
        return rc;
    if (len && fwrite(data, 1, len, of.fp) != len) {
        mmm_outfile_abort(&of);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot write '%s'", path);
    }
    return mmm_outfile_commit(&of, err);
}
