/* helpers/xml_files.c: see xml_files.h. */
#include "xml_files.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int walk(const char *dir, void (*fn)(const char *, void *), void *arg,
                int depth)
{
    cr_assert_lt(depth, 16, "%s: nested too deep", dir);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            n += walk(path, fn, arg, depth + 1);
        } else if (S_ISREG(st.st_mode) && len > 4 &&
                   strcmp(e->d_name + len - 4, ".xml") == 0) {
            fn(path, arg);
            n++;
        }
    }
    closedir(d);
    return n;
}

int for_each_xml_file(const char *dir, void (*fn)(const char *path, void *arg),
                      void *arg)
{
    return walk(dir, fn, arg, 0);
}
