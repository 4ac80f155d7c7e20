/* parse_input.c: the bytes libxml2 reads: a file (read in large chunks,
 * counted against max_file_bytes) or a caller's buffer, with classic Mac
 * line ends folded so that libxml2 counts lines as editors do. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "io/parse_int.h"

/* ------------------------------------------------------------------ */
/* Input                                                               */

/* libxml2 counts lines on LF alone, so a file with classic Mac line ends
 * (a lone CR) had every error at line 1.  XML reads CR LF and a lone CR as
 * one LF (XML 1.0, section 2.11): do it here and the lines come out right.
 * UTF-16 input (a NUL or a UTF-16 byte order mark in its first two bytes)
 * is left alone, where a byte 0x0D may be half a character.  Returns the
 * new length (shorter by the LFs of CR LF pairs). */
static int fold_cr(mmm__parse_source *s, char *buf, int n)
{
    const unsigned char *u = (const unsigned char *)buf;
    int o = 0;
    if (s->cr_mode == 0 && n > 0)
        s->cr_mode = (u[0] == 0xFE || u[0] == 0xFF || u[0] == 0 ||
                      (n > 1 && u[1] == 0)) ? -1 : 1;
    if (s->cr_mode < 0 || n <= 0 ||
        (!s->after_cr && !memchr(buf, '\r', (size_t)n)))
        return n;
    for (int i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n' && s->after_cr) {
            s->after_cr = 0;
            continue;
        }
        s->after_cr = c == '\r';
        buf[o++] = s->after_cr ? '\n' : c;
    }
    return o;
}

#define RBUF_SIZE ((size_t)1 << 18)

/* Up to len bytes from the descriptor, through s->rbuf when it could be
 * allocated; -1 on a read error (errno set). */
static ssize_t read_fd(mmm__parse_source *s, char *buf, size_t len)
{
    ssize_t n;
    if (!s->rbuf) {
        do
            n = read(s->fd, buf, len);
        while (n < 0 && errno == EINTR);
        return n;
    }
    if (s->rpos == s->rlen) {
        do
            n = read(s->fd, s->rbuf, RBUF_SIZE);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            return n;
        s->rlen = (size_t)n;
        s->rpos = 0;
    }
    size_t k = s->rlen - s->rpos < len ? s->rlen - s->rpos : len;
    memcpy(buf, s->rbuf + s->rpos, k);
    s->rpos += k;
    return (ssize_t)k;
}

int mmm__parse_read(void *ctx, char *buf, int len)
{
    mmm__parse_loader *ld = ctx;
    mmm__parse_source *s = ld->src;
    ssize_t n;
    if (ld->halted || len <= 0)
        return 0;
again:
    if (s->fd >= 0) {
        n = read_fd(s, buf, (size_t)len);
        if (n < 0) {
            mmm__parse_fail(ld, MMM_EIO, CLASS_OTHER, 0, "cannot read: %s",
                 strerror(errno));
            return -1;
        }
    } else {
        size_t left = s->len - s->pos;
        n = (ssize_t)(left < (size_t)len ? left : (size_t)len);
        memcpy(buf, s->mem + s->pos, (size_t)n);
        s->pos += (size_t)n;
    }
    s->count += (uint64_t)n;
    if (s->count > s->max) {
        mmm__parse_fail(ld, MMM_ELIMIT, CLASS_OTHER, 0,
             "file too big: over the limit of %llu bytes",
             (unsigned long long)s->max);
        return -1;
    }
    if (n > 0 && (n = fold_cr(s, buf, (int)n)) == 0)
        goto again; /* the chunk was the LF of a CR LF: 0 would mean EOF */
    s->eof |= n == 0;
    return (int)n;
}

int mmm__parse_close(void *ctx)
{
    (void)ctx; /* the descriptor is closed by its opener */
    return 0;
}

/* Open path for reading and check its size against the limit. */
int mmm__parse_open_file(mmm__parse_source *s, const char *path, uint64_t max,
                     mmm_error *err)
{
    struct stat st;
    memset(s, 0, sizeof *s);
    s->max = max;
    s->fd = mmm__open_read(path);
    if (s->fd < 0)
        return mmm_error_set(err, MMM_EIO, mmm__input_name(path), 0, "cannot open: %s",
                             strerror(errno));
    if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(s->fd);
        return mmm_error_set(err, MMM_EIO, mmm__input_name(path), 0, "cannot read: %s",
                             strerror(EISDIR));
    }
    if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size > max) {
        close(s->fd);
        return mmm_error_set(err, MMM_ELIMIT, mmm__input_name(path), 0,
                             "file too big: %llu bytes (limit %llu)",
                             (unsigned long long)st.st_size,
                             (unsigned long long)max);
    }
    s->rbuf = malloc(RBUF_SIZE); /* without it, plain reads */
    return 0;
}
