/* base/file.c: reading input files whole (the formats parsed from memory:
 * task graphs, run tables, cost files) or their first bytes (telling a
 * format by its content).  Writing is outfile.c's. */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *mmm__input_name(const char *path)
{
    return path && strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int mmm__open_read(const char *path)
{
    return strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY);
}

/* Open path for reading; a folder is refused.  *st receives its stat. */
static int open_input(const char *path, struct stat *st, int *fd,
                      mmm_error *err)
{
    if ((*fd = mmm__open_read(path)) < 0)
        return mmm_error_set(err, MMM_EIO, mmm__input_name(path), 0, "cannot open: %s",
                             strerror(errno));
    if (fstat(*fd, st) < 0 || S_ISDIR(st->st_mode)) {
        close(*fd);
        return mmm_error_set(err, MMM_EIO, mmm__input_name(path), 0, "cannot read: %s",
                             strerror(EISDIR));
    }
    return 0;
}

/* Read up to size bytes (fewer only at the end of the file); -1 on error
 * with errno set. */
static ssize_t read_full(int fd, char *buf, size_t size)
{
    size_t n = 0;
    while (n < size) {
        ssize_t r = read(fd, buf + n, size - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n += (size_t)r;
    }
    return (ssize_t)n;
}

static int read_failed(const char *path, int fd, char *buf, mmm_error *err)
{
    int e = errno;
    free(buf);
    close(fd);
    return mmm_error_set(err, MMM_EIO, mmm__input_name(path), 0, "cannot read: %s",
                         strerror(e));
}

int mmm__read_head(const char *path, char *buf, size_t size, size_t *got,
                   mmm_error *err)
{
    struct stat st;
    int fd, r;
    ssize_t n;
    if ((r = open_input(path, &st, &fd, err)) < 0)
        return r;
    if ((n = read_full(fd, buf, size)) < 0)
        return read_failed(path, fd, NULL, err);
    close(fd);
    *got = (size_t)n;
    return 0;
}

int mmm__read_whole_file(const char *path, uint64_t max, char **out,
                         size_t *len, mmm_error *err)
{
    struct stat st;
    size_t cap, n = 0;
    char *buf;
    int fd, r;
    *out = NULL;
    *len = 0;
    if ((r = open_input(path, &st, &fd, err)) < 0)
        return r;
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
        close(fd);
        return mmm_error_set(err, MMM_ELIMIT, mmm__input_name(path), 0,
                             "file too big: %llu bytes (limit %llu)",
                             (unsigned long long)st.st_size,
                             (unsigned long long)max);
    }
    cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
    if (!(buf = malloc(cap))) {
        close(fd);
        return mmm_error_set(err, MMM_ENOMEM, mmm__input_name(path), 0, "out of memory");
    }
    for (;;) {
        ssize_t got;
        if (n + 1 >= cap) {
            char *nb;
            if ((uint64_t)n >= max) {
                free(buf);
                close(fd);
                return mmm_error_set(err, MMM_ELIMIT, mmm__input_name(path), 0,
                                     "file too big: over the limit of %llu "
                                     "bytes",
                                     (unsigned long long)max);
            }
            if (!(nb = realloc(buf, cap * 2))) {
                free(buf);
                close(fd);
                return mmm_error_set(err, MMM_ENOMEM, mmm__input_name(path), 0,
                                     "out of memory");
            }
            buf = nb;
            cap *= 2;
        }
        if ((got = read_full(fd, buf + n, cap - 1 - n)) < 0)
            return read_failed(path, fd, buf, err);
        n += (size_t)got;
        if ((size_t)got < cap - 1 - (n - (size_t)got))
            break; /* the end of the file */
    }
    close(fd);
    if ((uint64_t)n > max) {
        free(buf);
        return mmm_error_set(err, MMM_ELIMIT, mmm__input_name(path), 0,
                             "file too big: over the limit of %llu bytes",
                             (unsigned long long)max);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}
