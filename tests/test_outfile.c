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
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* A target that is no regular file is written in place, never renamed
 * over: /dev/null stays the device (as root, a rename would have replaced
 * it with a file, as a test writing a report to /dev/null once did), and a
 * FIFO named like a picture gets the bytes through its reader without a
 * read-back check that would block. */
Test(outfile, special_files_written_in_place)
{
    struct stat st;
    mmm__outfile of;
    mmm_error err;
    cr_assert_eq(mmm__write_file_atomic("/dev/null", "x\n", 2, &err), MMM_OK, "%s",
                 err.message);
    cr_assert_eq(stat("/dev/null", &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
    cr_assert_eq(mmm__outfile_open(&of, "/dev/null", &err), MMM_OK, "%s", err.message);
    cr_expect(of.direct);
    fputs("<svg></svg>\n", of.fp);
    cr_expect_eq(mmm__outfile_check_complete(&of, &err), MMM_OK, "%s", err.message);
    mmm__outfile_abort(&of);
    cr_assert_eq(stat("/dev/null", &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "abort removed /dev/null");
    /* a FIFO */
    char dir[256], fifo[300];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_outfile_fifo");
    snprintf(fifo, sizeof fifo, "%s/pipe.svg", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) { /* the reader: the bytes, then exit 0 when they are right */
        char buf[64] = "";
        FILE *r = fopen(fifo, "r");
        size_t n = r ? fread(buf, 1, sizeof buf - 1, r) : 0;
        _exit(n == 12 && !memcmp(buf, "<svg></svg>\n", 12) ? 0 : 1);
    }
    cr_assert_eq(mmm__outfile_open(&of, fifo, &err), MMM_OK, "%s", err.message);
    fputs("<svg></svg>\n", of.fp);
    cr_expect_eq(mmm__outfile_check_complete(&of, &err), MMM_OK, "%s", err.message);
    cr_expect_eq(mmm__outfile_commit(&of, &err), MMM_OK, "%s", err.message);
    int status = 1;
    waitpid(pid, &status, 0);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the FIFO's reader got other bytes");
    cr_assert_eq(stat(fifo, &st), 0);
    cr_expect(S_ISFIFO(st.st_mode), "the FIFO was replaced");
    mmm_tmpdir_remove(dir);
}
