/* base/path.h: file names.  Internal to the library. */
#ifndef MMM_BASE_PATH_H
#define MMM_BASE_PATH_H

/* The extension of the last component of path, without its dot ("svg" for
 * "a/b.svg", "SVG" for "x.SVG"), or "" when it has none.  Compare it with
 * strcasecmp: extensions are case-insensitive everywhere. */
const char *mmm__path_extension(const char *path);

/* 1 when path's extension is ext (no dot), ignoring case. */
int mmm__has_extension(const char *path, const char *ext);

#endif
