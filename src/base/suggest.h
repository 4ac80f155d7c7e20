/* base/suggest.h: "did you mean ...?": the closest of some names to a name that
 * is not known (parameters, attributes, elements).  Internal. */
#ifndef MMM_BASE_SUGGEST_H
#define MMM_BASE_SUGGEST_H

#include <stddef.h>

typedef struct mmm__suggest {
    const char *name;  /* the unknown name (not NUL-terminated) */
    size_t len;
    const char *best;  /* closest candidate so far, NULL when none */
    unsigned dist;
} mmm__suggest;

/* Start a search for names close to name[0..len). */
void mmm__suggest_init(mmm__suggest *s, const char *name, size_t len);
/* Offer a candidate (NUL-terminated; borrowed until the search ends). */
void mmm__suggest_try(mmm__suggest *s, const char *cand);
/* The closest candidate when it is close enough to be a slip (the same
 * name in another case, or at most one edit per three characters, at
 * least one), else NULL. */
const char *mmm__suggest_best(const mmm__suggest *s);

#endif
