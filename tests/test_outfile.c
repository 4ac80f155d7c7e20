/* test_outfile.c: the atomic writer (src/base/outfile.c) finds the mode of a new
 * file without touching the process's umask.  The umask is process-wide:
 * a library that sets it, even for a moment, races with every other thread
 * that creates a file.
 *
 * This executable defines umask() itself, so every call the library makes
 * lands here and is counted (the static archive binds to the executable's
 * definition before libc's); the real umask is set with the system call.
 * Expected modes are 0666 & ~mask, what open(2) and fopen give. */
#define _DEFAULT_SOURCE 1 /* syscall */

#include <criterion/criterion.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmm/mmm.h"
#include "base/outfile.h"
#include "tmpdir.h"

static int umask_calls;

mode_t umask(mode_t mask);
mode_t umask(mode_t mask)
{
    umask_calls++;
    return (mode_t)syscall(SYS_umask, mask);
}

static void set_real_umask(mode_t mask)
{
    (void)syscall(SYS_umask, mask);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "%s is missing", path);
    return st.st_mode & 07777;
}

Test(outfile, mode_from_umask_without_calling_umask)
{
    static const mode_t masks[] = {022, 027, 077, 002, 0};
    char dir[256], path[300];
    size_t i;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_outfile");
    for (i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        mmm_error err;
        snprintf(path, sizeof path, "%s/out%zu.txt", dir, i);
        set_real_umask(masks[i]);
        umask_calls = 0;
        cr_assert_eq(mmm__write_file_atomic(path, "x\n", 2, &err), MMM_OK,
                     "%s", err.message);
        cr_expect_eq(umask_calls, 0, "the library called umask() %d times",
                     umask_calls);
        cr_expect_eq(mode_of(path), 0666 & ~masks[i],
                     "umask %03o: mode %03o, expected %03o", (unsigned)masks[i],
                     (unsigned)mode_of(path), (unsigned)(0666 & ~masks[i]));
    }
    set_real_umask(022);
    mmm_tmpdir_remove(dir);
}

/* The same through the streaming interface, replacing an existing file
 * (whose old mode does not carry over: a plain fopen would keep it, a
 * rename gives the new file's). */
Test(outfile, open_commit_replaces)
{
    char dir[256], path[300];
    mmm__outfile of;
    mmm_error err;
    FILE *f;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_outfile");
    snprintf(path, sizeof path, "%s/target.svg", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("old", f);
    fclose(f);
    set_real_umask(027);
    umask_calls = 0;
    cr_assert_eq(mmm__outfile_open(&of, path, &err), MMM_OK, "%s", err.message);
    cr_assert_eq(strncmp(of.tmp_path, path, strlen(path)), 0);
    cr_expect_eq(strlen(of.tmp_path), strlen(path) + strlen(".tmpXXXXXX"));
    fputs("<svg></svg>\n", of.fp);
    cr_assert_eq(mmm__outfile_commit(&of, &err), MMM_OK, "%s", err.message);
    cr_expect_eq(umask_calls, 0);
    cr_expect_eq(mode_of(path), 0640);
    set_real_umask(022);
    mmm_tmpdir_remove(dir);
}
