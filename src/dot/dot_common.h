/* dot_common.h: what the two DOT readers share: parsing DOT from memory
 * with cgraph's messages caught, and finding a node's line in the text
 * (cgraph keeps no lines). */
#ifndef MMM_DOT_COMMON_H
#define MMM_DOT_COMMON_H

#include <graphviz/cgraph.h>
#include <stddef.h>

#include "mmm/import.h"

/* Parse buf (len bytes, need not end with NUL) into a directed graph; an
 * error (syntax, an undirected graph, an empty file) is set in err with
 * its line.  Close with agclose. */
int mmm__dot_parse(Agraph_t **out, const char *buf, size_t len,
                   const char *name, mmm_error *err);

/* The first line of buf where node `id` is named (as a whole word or a
 * quoted string), 0 when not found. */
long mmm__dot_line_of(const char *buf, size_t len, const char *id);

#endif
