/* tmpdir.h: a fresh temporary folder for a test, and its removal with
 * everything in it (test_atomic, test_hostile, test_render).
 *
 *   char dir[256];
 *   mmm_tmpdir_make(dir, sizeof dir, "mmm_atomic");  // $TMPDIR or /tmp
 *   ...
 *   mmm_tmpdir_remove(dir);
 *
 * Header-only (static inline), like mmm_run.h.  Needs Criterion included
 * first (it asserts that the folder was made). */
#ifndef MMM_TEST_TMPDIR_H
#define MMM_TEST_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline void mmm_tmpdir_make(char *dir, size_t size, const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, size, "%s/%s_XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    cr_assert_not_null(mkdtemp(dir), "cannot make a folder %s", dir);
}

/* Remove dir and all it holds (folders made unreadable by a test are made
 * readable first); symbolic links are removed, not followed. */
static inline void mmm_tmpdir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];
    if (!d)
        return;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            struct stat st;
            int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (n < 0 || (size_t)n >= sizeof path)
                continue; /* cannot be named: left in place */
            if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                chmod(path, 0700);
                mmm_tmpdir_remove(path);
            } else {
                unlink(path);
            }
        }
    closedir(d);
    rmdir(dir);
}

#endif
