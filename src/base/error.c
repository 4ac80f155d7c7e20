/* error.c: status strings and the error record. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/error.h"

const char *mmm_status_str(int status)
{
    switch (status) {
#define MMM_STATUS_STR_(name, val, msg)                                       \
    case (val):                                                               \
        return msg;
        MMM_STATUS_MAP(MMM_STATUS_STR_)
#undef MMM_STATUS_STR_
    default:
        return "unknown error";
    }
}

void mmm_error_clear(mmm_error *err)
{
    if (err) {
        err->code = MMM_OK;
        err->line = 0;
        err->file[0] = '\0';
        err->message[0] = '\0';
    }
}

/* Where a cut may go at or before byte n of s: not before a UTF-8
 * continuation byte. */
static size_t char_start(const char *s, size_t n)
{
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

/* A message cut by its buffer without the whole text at hand (out of
 * memory): its start, then "...". */
static void mark_truncated(char *msg, size_t size)
{
    size_t n = char_start(msg, size - 4); /* room for "..." and the NUL */
    memcpy(msg + n, "...", 4);
}

/* Fit text (len bytes) into msg[size]: its first third, "...", and as
 * much of its end as fits, so that the reason at the end of a message
 * about a huge id survives. */
static void elide_middle(char *msg, size_t size, const char *text, size_t len)
{
    /* len >= size, so the tail starts after the head */
    size_t head = char_start(text, (size - 4) / 3);
    size_t tail = len - (size - 4 - head); /* room for "..." and the NUL */
    while (tail < len && ((unsigned char)text[tail] & 0xC0) == 0x80)
        tail++; /* not inside a character: at the next one */
    memcpy(msg, text, head);
    memcpy(msg + head, "...", 3);
    memcpy(msg + head + 3, text + tail, len - tail);
    msg[head + 3 + (len - tail)] = '\0';
}

int mmm_error_vset(mmm_error *err, int code, const char *file, long line,
                   const char *fmt, va_list ap)
{
    if (!err)
        return code;
    va_list again;
    err->code = code;
    err->line = line;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_copy(again, ap);
    int n = vsnprintf(err->message, sizeof err->message, fmt, ap);
    if (n >= (int)sizeof err->message) {
        char *all = malloc((size_t)n + 1);
        if (all && vsnprintf(all, (size_t)n + 1, fmt, again) == n)
            elide_middle(err->message, sizeof err->message, all, (size_t)n);
        else
            mark_truncated(err->message, sizeof err->message);
        free(all);
    }
    va_end(again);
    return code;
}

int mmm_error_set(mmm_error *err, int code, const char *file, long line,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mmm_error_vset(err, code, file, line, fmt, ap);
    va_end(ap);
    return code;
}

char *mmm_error_format(const mmm_error *err, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    if (!err) {
        snprintf(buf, size, "error: (no error information)");
        return buf;
    }
    const char *msg = err->message[0] ? err->message : mmm_status_str(err->code);
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%ld: error: %s", err->file, err->line, msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: error: %s", err->file, msg);
    else
        snprintf(buf, size, "error: %s", msg);
    return buf;
}
