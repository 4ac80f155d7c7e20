/* base/split.h: a comma list split at its top-level commas.  Internal. */
#ifndef MMM_BASE_SPLIT_H
#define MMM_BASE_SPLIT_H

#include <stddef.h>

/* Call fn(item, len, payload) for each item of text split at its
 * top-level commas (not those inside parentheses, as in min(a,b)), in
 * order; an empty text is one empty item.  Stops at the first non-zero
 * value of fn and returns it; 0 otherwise. */
typedef int (*mmm__item_fn)(const char *item, size_t len, void *payload);
int mmm__split_list(const char *text, mmm__item_fn fn, void *payload);

#endif
