/* suggest.c: the closest name to an unknown one, by the optimal string
 * alignment distance (Levenshtein with transpositions), where a change of
 * case costs nothing but still counts as a difference. */
#include "base/suggest.h"
#include "mmm/error.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define MAXLEN 64

/* Edit distance in units of 2 (a case-only difference costs 1), or a
 * large number for names too long to be slips. */
static unsigned distance(const char *a, size_t n, const char *b, size_t m)
{
    unsigned row[3][MAXLEN + 1];
    size_t i, j;
    if (n > MAXLEN || m > MAXLEN)
        return 0xFFFFu;
    for (j = 0; j <= m; j++)
        row[0][j] = (unsigned)(2 * j);
    for (i = 1; i <= n; i++) {
        unsigned *cur = row[i % 3], *prev = row[(i - 1) % 3],
                 *prev2 = row[(i + 1) % 3];
        cur[0] = (unsigned)(2 * i);
        for (j = 1; j <= m; j++) {
            unsigned sub = a[i - 1] == b[j - 1] ? 0
                           : tolower((unsigned char)a[i - 1]) ==
                                     tolower((unsigned char)b[j - 1])
                               ? 1
                               : 2;
            unsigned v = prev[j - 1] + sub;
            if (prev[j] + 2 < v)
                v = prev[j] + 2;
            if (cur[j - 1] + 2 < v)
                v = cur[j - 1] + 2;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 2 < v)
                v = prev2[j - 2] + 2;
            cur[j] = v;
        }
    }
    return row[n % 3][m];
}

void mmm__suggest_init(mmm__suggest *s, const char *name, size_t len)
{
    s->name = name;
    s->len = len;
    s->best = NULL;
    s->dist = 0xFFFFu;
}

void mmm__suggest_try(mmm__suggest *s, const char *cand)
{
    size_t m;
    unsigned d;
    if (!cand)
        return;
    m = strlen(cand);
    if (m == s->len && memcmp(cand, s->name, m) == 0)
        return; /* the name itself is no suggestion */
    d = distance(s->name, s->len, cand, m);
    if (d < s->dist) {
        s->dist = d;
        s->best = cand;
    }
}

const char *mmm__suggest_best(const mmm__suggest *s)
{
    /* one edit per three characters, at least one, except for a name of
     * one character: any other one is one edit away, and no better a
     * guess than the rest */
    size_t allowed = s->len / 3 < 1 && s->len > 1 ? 1 : s->len / 3;
    if (!s->best)
        return NULL;
    if (strlen(s->best) == s->len && strncasecmp(s->best, s->name, s->len) == 0)
        return s->best; /* the same name in another case */
    return s->dist <= 2 * allowed ? s->best : NULL;
}

const char *mmm_closest(const char *name, const char *const *candidates, size_t n)
{
    mmm__suggest s;
    size_t i;
    if (!name || !candidates)
        return NULL;
    mmm__suggest_init(&s, name, strlen(name));
    for (i = 0; i < n; i++) {
        if (candidates[i] && strcmp(candidates[i], name) == 0)
            return NULL; /* a known name: no slip */
        mmm__suggest_try(&s, candidates[i]);
    }
    return mmm__suggest_best(&s);
}
