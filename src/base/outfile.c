/* outfile.c: write-to-temporary-then-rename output files. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/outfile.h"

/* Create "PATH.tmpXXXXXX" (six random letters) exclusively, with mode 0666
 * as fopen would: the kernel applies the process's umask (and a default
 * ACL of the folder), so the library never reads or changes the umask,
 * which is process-wide state.  (mkstemp creates 0600, and reading the
 * umask means setting it.)  -1 with errno when no name works. */
static int create_temporary(char *buf, size_t size, const char *path)
{
    static const char letters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    struct timespec ts;
    uint64_t x;
    int attempt;
    clock_gettime(CLOCK_REALTIME, &ts);
    x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
        ((uint64_t)getpid() << 12) ^ (uint64_t)(uintptr_t)buf;
    for (attempt = 0; attempt < 1000; attempt++) {
        char *p;
        int fd, i;
        snprintf(buf, size, "%s.tmpXXXXXX", path);
        p = buf + strlen(buf) - 6;
        for (i = 0; i < 6; i++) {
            /* xorshift64*: enough to avoid collisions; O_EXCL decides. */
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            p[i] = letters[(x * 2685821657736338717ULL >> 58) % 62];
        }
        fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

int mmm__outfile_open(mmm__outfile *of, const char *path, mmm_error *err)
{
    size_t n = strlen(path);
    int fd;
    memset(of, 0, sizeof *of);
    if (strcmp(path, "-") == 0) {
        of->to_stdout = 1;
        of->fp = stdout;
        return MMM_OK;
    }
    of->path = malloc(n + 1);
    of->tmp_path = malloc(n + 16);
    if (!of->path || !of->tmp_path) {
        mmm__outfile_abort(of);
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    }
    memcpy(of->path, path, n + 1);
    /* A target that exists and is no regular file (/dev/null, a FIFO, a
     * terminal) is written in place: renaming a temporary over it would
     * replace the device with a file (as root, /dev/null itself). */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        memcpy(of->tmp_path, path, n + 1);
        of->direct = 1;
        of->fp = fopen(path, "wb");
        if (!of->fp) {
            int e = errno;
            mmm__outfile_abort(of);
            return mmm_error_set(err, MMM_EIO, path, 0, "cannot write '%s': %s", path,
                                 strerror(e));
        }
        return MMM_OK;
    }
    /* Same folder as the target, so that rename() is atomic. */
    fd = create_temporary(of->tmp_path, n + 16, path);
    if (fd < 0) {
        int e = errno;
        free(of->tmp_path);
        of->tmp_path = NULL;
        mmm__outfile_abort(of);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot create '%s': %s",
                             path, strerror(e));
    }
    of->fp = fdopen(fd, "wb");
    if (!of->fp) {
        int e = errno;
        close(fd);
        mmm__outfile_abort(of);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot write '%s': %s",
                             path, strerror(e));
    }
    return MMM_OK;
}

int mmm__outfile_commit(mmm__outfile *of, mmm_error *err)
{
    int bad = 0, e = 0;
    if (of->to_stdout) {
        bad = fflush(stdout) != 0 || ferror(stdout);
        of->to_stdout = 0;
        of->fp = NULL;
        return bad ? mmm_error_set(err, MMM_EIO, "-", 0,
                                   "cannot write to standard output: %s",
                                   strerror(errno ? errno : EIO))
                   : MMM_OK;
    }
    if (!of->tmp_path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no open output file");
    if (of->fp) {
        if (fflush(of->fp) != 0 || ferror(of->fp) ||
            (!of->direct && fsync(fileno(of->fp)) != 0)) {
            bad = 1;
            e = errno;
        }
        if (fclose(of->fp) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        of->fp = NULL;
    }
    if (!bad && !of->direct && rename(of->tmp_path, of->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        int rc = mmm_error_set(err, MMM_EIO, of->path, 0, "cannot write '%s': %s",
                               of->path, strerror(e ? e : EIO));
        mmm__outfile_abort(of);
        return rc;
    }
    free(of->tmp_path);
    free(of->path);
    of->tmp_path = of->path = NULL;
    of->direct = 0;
    return MMM_OK;
}

void mmm__outfile_abort(mmm__outfile *of)
{
    if (of->to_stdout) {
        fflush(stdout);
        of->to_stdout = 0;
        of->fp = NULL;
    }
    if (of->fp) {
        fclose(of->fp);
        of->fp = NULL;
    }
    if (of->tmp_path) {
        if (!of->direct)
            unlink(of->tmp_path);
        free(of->tmp_path);
        of->tmp_path = NULL;
    }
    of->direct = 0;
    free(of->path);
    of->path = NULL;
}

int mmm__write_file_atomic(const char *path, const void *data, size_t len,
                           mmm_error *err)
{
    mmm__outfile of;
    int rc = mmm__outfile_open(&of, path, err);
    if (rc < 0)
        return rc;
    if (len && fwrite(data, 1, len, of.fp) != len) {
        mmm__outfile_abort(&of);
        return mmm_error_set(err, MMM_EIO, path, 0, "cannot write '%s'", path);
    }
    return mmm__outfile_commit(&of, err);
}

/* The expected end of each format checked, after trailing white space for
 * the text ones. */
static const struct {
    const char *ext, *tail;
    size_t len;
    int text;
} file_ends[] = {
    {".svg", "</svg>", 6, 1},
    {".pdf", "%%EOF", 5, 1},
    {".png", "IEND\xAE\x42\x60\x82", 8, 0},
};

int mmm__outfile_check_complete(const mmm__outfile *of, mmm_error *err)
{
    size_t n = of->path ? strlen(of->path) : 0, k, got;
    unsigned char buf[64];
    FILE *f;
    long size;
    for (k = 0; k < sizeof file_ends / sizeof file_ends[0]; k++)
        if (n >= 4 && !strcasecmp(of->path + n - 4, file_ends[k].ext))
            break;
    if (k == sizeof file_ends / sizeof file_ends[0] || !of->tmp_path || of->direct)
        return MMM_OK;
    f = fopen(of->tmp_path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        fseek(f, size > (long)sizeof buf ? size - (long)sizeof buf : 0,
              SEEK_SET) != 0) {
        if (f)
            fclose(f);
        return mmm_error_set(err, MMM_EIO, of->path, 0, "cannot write '%s'",
                             of->path);
    }
    got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    while (file_ends[k].text && got > 0 &&
           (buf[got - 1] == '\n' || buf[got - 1] == '\r' ||
            buf[got - 1] == ' ' || buf[got - 1] == '\t'))
        got--;
    if (got < file_ends[k].len ||
        memcmp(buf + got - file_ends[k].len, file_ends[k].tail,
               file_ends[k].len) != 0)
        return mmm_error_set(err, MMM_EIO, of->path, 0,
                             "cannot write '%s': the file came out "
                             "incomplete (disk full or file size limit?)",
                             of->path);
    return MMM_OK;
}
