/* dot_common.c: cgraph from memory, with its messages caught instead of
 * printed, and the line of a node in the text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot_common.h"

static char first_msg[512];
static int have_msg;

/* cgraph hands a message over in pieces ("Error", ": ", the text): they
 * are joined, up to the first line's end. */
static int catch_msg(char *msg)
{
    size_t n = strlen(first_msg);
    if (msg && !strchr(first_msg, '\n')) {
        snprintf(first_msg + n, sizeof first_msg - n, "%s", msg);
        have_msg = 1;
    }
    return 0;
}

/* "Error: <x>: syntax error in line 3 near 'y'" -> line 3, "syntax error
 * near 'y'". */
static long tidy(char *msg)
{
    long line = 0;
    char *p, *q;
    size_t n;
    if ((p = strchr(msg, '\n')))
        *p = '\0';
    if (!strncmp(msg, "Error: ", 7))
        memmove(msg, msg + 7, strlen(msg + 7) + 1);
    else if (!strncmp(msg, "Warning: ", 9))
        memmove(msg, msg + 9, strlen(msg + 9) + 1);
    if ((p = strstr(msg, " in line "))) {
        line = strtol(p + 9, &q, 10);
        memmove(p, q, strlen(q) + 1);
    }
    if (!strncmp(msg, "<stdin>: ", 9))
        memmove(msg, msg + 9, strlen(msg + 9) + 1);
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    for (p = msg; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return line;
}

int mmm__dot_parse(Agraph_t **out, const char *buf, size_t len,
                   const char *name, mmm_error *err)
{
    agusererrf old;
    Agraph_t *g;
    char *text;
    *out = NULL;
    if (memchr(buf, '\0', len))
        return mmm_error_set(err, MMM_EPARSE, name, 0,
                             "a NUL byte in a DOT file");
    if (!(text = malloc(len + 1)))
        return mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
    memcpy(text, buf, len);
    text[len] = '\0';
    have_msg = 0;
    first_msg[0] = '\0';
    old = agseterrf(catch_msg);
    agreseterrors();
    g = agmemread(text);
    agseterrf(old);
    free(text);
    if (!g || (have_msg && agerrors())) {
        long line = have_msg ? tidy(first_msg) : 0;
        if (g)
            agclose(g);
        return mmm_error_set(err, MMM_EPARSE, name, line, "%s",
                             have_msg ? first_msg
                                      : "not a DOT graph (or an empty file)");
    }
    if (!agisdirected(g)) {
        agclose(g);
        return mmm_error_set(err, MMM_EINPUT, name, 1,
                             "an undirected graph: a task graph is a digraph "
                             "(its edges say which task comes first)");
    }
    *out = g;
    return 0;
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           (unsigned char)c >= 0x80;
}

long mmm__dot_line_of(const char *buf, size_t len, const char *id)
{
    size_t n = strlen(id);
    long line = 1;
    if (!n)
        return 0;
    for (size_t i = 0; i + n <= len; i++) {
        if (buf[i] == '\n') {
            line++;
            continue;
        }
        if (buf[i] != id[0] || memcmp(buf + i, id, n))
            continue;
        if ((i == 0 || !ident_char(buf[i - 1])) &&
            (i + n == len || !ident_char(buf[i + n])))
            return line;
    }
    return 0;
}
