/* error.c: status strings and the error record. */
#include <stdarg.h>
#include <stdio.h>
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

/* A message cut by its buffer (a huge id or name in it) ends with "..."
 * at a UTF-8 character boundary, so that it stays valid text. */
static void mark_truncated(char *msg, size_t size)
{
    size_t n = size - 4; /* room for "..." and the NUL */
    while (n > 0 && ((unsigned char)msg[n] & 0xC0) == 0x80)
        n--; /* msg[n] would be a continuation byte: cut before its lead */
    memcpy(msg + n, "...", 4);
}

int mmm_error_set(mmm_error *err, int code, const char *file, long line,
                  const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->line = line;
        snprintf(err->file, sizeof err->file, "%s", file ? file : "");
        va_start(ap, fmt);
        int n = vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        if (n >= (int)sizeof err->message)
            mark_truncated(err->message, sizeof err->message);
    }
    return code;
}

char *mmm_error_format(const mmm_error *err, char *buf, size_t size)
{
    const char *msg = err->message[0] ? err->message : mmm_status_str(err->code);
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%ld: error: %s", err->file, err->line, msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: error: %s", err->file, msg);
    else
        snprintf(buf, size, "error: %s", msg);
    return buf;
}
