/* test_atomic.c: every command that writes a file (render -o, report -o,
 * simulate --gantt / --trace, optimize --plot) writes a temporary in the
 * target's folder and renames it into place.  For each of them and each
 * format, run the built binary (helpers/mmm_run.h) and check:
 *   - success replaces an existing target (right format, mode 0666 & ~umask)
 *     and leaves nothing else in the folder;
 *   - a failure leaves an existing target byte-identical and no temporary
 *     behind: bad input (a load error, an evaluation error), a target that
 *     is a directory, a missing folder, a write error (RLIMIT_FSIZE with
 *     SIGXFSZ ignored: every write past the limit fails with EFBIG, which
 *     works even for root), a folder without write permission (skipped as
 *     root, who may write anyway);
 *   - a crash in the middle of writing (killed by SIGXFSZ at the size
 *     limit) leaves the target byte-identical; only the temporary
 *     (TARGET.tmpXXXXXX) may remain, since a killed process cleans nothing. */
#define _DEFAULT_SOURCE 1 /* wait4 in mmm_run.h */

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmm_run.h"
#include "slurp.h"
#include "tmpdir.h"

#define DIAMOND MMM_DAGS_DIR "/diamond.xml"
#define BAD_LOAD MMM_TEST_DATA "/hostile/non_utf8_latin1.xml"
#define BAD_EVAL MMM_TEST_DATA "/hostile/overflow_work_x_blocks.xml"

static const char OLD[] = "old content, must survive any failure\n";

/* One command writing one file: argv is "CMD INPUT <before> OUT <after>". */
typedef struct writer {
    char name[32];     /* target's file name */
    char cmd[16];
    char before[64];   /* arguments before the output path */
    char after[64];    /* arguments after it */
    char magic[16];    /* the output starts with this */
    size_t magic_len;
} writer;

static writer writers[] = {
    {"r.svg", "render", "-o", "", "<?xml", 5},
    {"r.dot", "render", "-o", "", "digraph", 7},
    {"r.png", "render", "-o", "", "\x89PNG", 4},
    {"r.pdf", "render", "-o", "", "%PDF", 4},
    {"r.html", "report", "-o", "", "<!DOCTYPE html>", 15},
    {"g.svg", "simulate", "-p 2 --gantt", "", "<?xml", 5},
    {"g.png", "simulate", "-p 2 --gantt", "", "\x89PNG", 4},
    {"t.json", "simulate", "-p 2 --trace", "", "{", 1},
    {"p.svg", "optimize", "--param U --from 1 --to 50 --plot", "", "<?xml", 5},
    {"p.png", "optimize", "--param U --from 1 --to 50 --plot", "", "\x89PNG", 4},
    {"p.pdf", "optimize", "--param U --from 1 --to 50 --plot", "", "%PDF", 4},
};

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
}

/* The file's bytes, or NULL when there is no such file. */
static char *read_file(const char *path, size_t *len)
{
    return access(path, F_OK) == 0 ? slurp(path, len) : NULL;
}

/* The names in dir other than keep (and "." ".."), comma-separated. */
static void others(char *buf, size_t size, const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    buf[0] = '\0';
    cr_assert(d != NULL);
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            (!keep || strcmp(e->d_name, keep)))
            n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s,",
                                  e->d_name);
    closedir(d);
}

/* Run the writer w on input with the output path out. */
static void run_writer(mmm_run_result *r, const writer *w, const char *input,
                       const char *out, const mmm_run_limits *lim)
{
    const char *argv[40];
    char before[64], after[64];
    size_t n = 0;
    snprintf(before, sizeof before, "%s", w->before);
    snprintf(after, sizeof after, "%s", w->after);
    argv[n++] = w->cmd;
    argv[n++] = input;
    for (char *t = strtok(before, " "); t; t = strtok(NULL, " "))
        argv[n++] = t;
    argv[n++] = out;
    for (char *t = strtok(after, " "); t; t = strtok(NULL, " "))
        argv[n++] = t;
    argv[n] = NULL;
    cr_assert_eq(mmm_run(r, argv, NULL, lim), 0, "cannot run %s", MMM_BIN);
}

/* The target holds OLD, and nothing else is in the folder. */
static void expect_untouched(const char *dir, const writer *w, const char *why,
                             int allow_tmp)
{
    char path[1024], rest[4096];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", dir, w->name);
    char *s = read_file(path, &len);
    cr_expect(s && len == strlen(OLD) && !memcmp(s, OLD, len),
              "%s %s (%s): the old target changed", w->cmd, w->name, why);
    free(s);
    others(rest, sizeof rest, dir, w->name);
    if (!allow_tmp) {
        cr_expect_str_empty(rest, "%s %s (%s): left behind: %s", w->cmd,
                            w->name, why, rest);
    } else if (rest[0]) {
        /* only the temporary of this target */
        char prefix[64];
        snprintf(prefix, sizeof prefix, "%s.tmp", w->name);
        cr_expect(!strncmp(rest, prefix, strlen(prefix)) &&
                      !strchr(rest, ',')[1],
                  "%s %s (%s): left behind: %s", w->cmd, w->name, why, rest);
    }
}

static void expect_failed(const mmm_run_result *r, const writer *w,
                          const char *why)
{
    cr_expect(r->exited, "%s %s (%s): killed by signal %d", w->cmd, w->name,
              why, r->signal);
    cr_expect_eq(r->status, 1, "%s %s (%s): exit %d, stderr %s", w->cmd,
                 w->name, why, r->status, r->err);
    cr_expect(strstr(r->err, "error: ") != NULL, "%s %s (%s): stderr %s",
              w->cmd, w->name, why, r->err);
}

#define WRITERS                                                               \
    cr_make_param_array(writer, writers, sizeof writers / sizeof writers[0])

ParameterizedTestParameters(atomic, writers) { return WRITERS; }
ParameterizedTestParameters(atomic, target_is_directory) { return WRITERS; }
ParameterizedTestParameters(atomic, unwritable_folder) { return WRITERS; }

/* ------------------------------------------------------------------ */
/* The tests, each for every writer                                    */

/* Success replaces the old file with a complete one of the right format
 * and mode, and leaves no temporary. */
ParameterizedTest(writer *w, atomic, writers)
{
    char dir[64], out[1024], rest[4096];
    mmm_run_result r;
    mmm_run_limits lim = MMM_RUN_LIMITS_DEFAULT;
    struct stat st;
    size_t len = 0;
    mode_t mask = umask(022);

    mmm_tmpdir_make(dir, sizeof dir, "mmm_atomic");
    snprintf(out, sizeof out, "%s/%s", dir, w->name);

    /* 1. success */
    write_file(out, OLD);
    run_writer(&r, w, DIAMOND, out, &MMM_RUN_LIMITS_DEFAULT);
    cr_expect_eq(r.status, 0, "%s %s: exit %d, stderr %s", w->cmd, w->name,
                 r.status, r.err);
    mmm_run_dispose(&r);
    char *s = read_file(out, &len);
    cr_assert(s != NULL);
    cr_expect(len > w->magic_len && !memcmp(s, w->magic, w->magic_len),
              "%s %s: not a new file of its format: %.40s", w->cmd, w->name, s);
    free(s);
    cr_assert_eq(stat(out, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0644, "%s %s: mode %o", w->cmd, w->name,
                 (unsigned)(st.st_mode & 0777));
    others(rest, sizeof rest, dir, w->name);
    cr_expect_str_empty(rest, "%s %s: left behind: %s", w->cmd, w->name, rest);

    /* 2. bad input: a load error, an evaluation error */
    write_file(out, OLD);
    run_writer(&r, w, BAD_LOAD, out, &MMM_RUN_LIMITS_DEFAULT);
    expect_failed(&r, w, "load error");
    mmm_run_dispose(&r);
    expect_untouched(dir, w, "load error", 0);
    run_writer(&r, w, BAD_EVAL, out, &MMM_RUN_LIMITS_DEFAULT);
    expect_failed(&r, w, "evaluation error");
    mmm_run_dispose(&r);
    expect_untouched(dir, w, "evaluation error", 0);

    /* 3. a write error: every write past 512 bytes fails (EFBIG) */
    lim.fsize = 512;
    lim.ignore_xfsz = 1;
    run_writer(&r, w, DIAMOND, out, &lim);
    expect_failed(&r, w, "write error");
    cr_expect(strstr(r.err, w->name) != NULL, "%s", r.err);
    mmm_run_dispose(&r);
    expect_untouched(dir, w, "write error", 0);

    /* 4. a crash while writing: killed at the size limit */
    lim.ignore_xfsz = 0;
    run_writer(&r, w, DIAMOND, out, &lim);
    cr_expect(!r.exited && r.signal == SIGXFSZ,
              "%s %s: expected death by SIGXFSZ (exit %d, signal %d)", w->cmd,
              w->name, r.status, r.signal);
    mmm_run_dispose(&r);
    expect_untouched(dir, w, "crash", 1);

    mmm_tmpdir_remove(dir);
    umask(mask);
}

/* The target is a directory: refused, the directory stays as it was. */
ParameterizedTest(writer *w, atomic, target_is_directory)
{
    char dir[64], out[1024], inner[1100], rest[4096];
    mmm_run_result r;
    struct stat st;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_atomic");
    snprintf(out, sizeof out, "%s/%s", dir, w->name);
    cr_assert_eq(mkdir(out, 0755), 0);
    snprintf(inner, sizeof inner, "%s/keep", out);
    write_file(inner, OLD);
    run_writer(&r, w, DIAMOND, out, &MMM_RUN_LIMITS_DEFAULT);
    expect_failed(&r, w, "target is a directory");
    mmm_run_dispose(&r);
    cr_expect(stat(out, &st) == 0 && S_ISDIR(st.st_mode));
    others(rest, sizeof rest, out, NULL);
    cr_expect_str_eq(rest, "keep,");
    others(rest, sizeof rest, dir, w->name);
    cr_expect_str_empty(rest, "%s %s: left behind: %s", w->cmd, w->name, rest);
    mmm_tmpdir_remove(dir);
}

/* The folder does not exist, or may not be written. */
ParameterizedTest(writer *w, atomic, unwritable_folder)
{
    char dir[64], out[1024];
    mmm_run_result r;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_atomic");
    snprintf(out, sizeof out, "%s/missing/%s", dir, w->name);
    run_writer(&r, w, DIAMOND, out, &MMM_RUN_LIMITS_DEFAULT);
    expect_failed(&r, w, "missing folder");
    cr_expect(strstr(r.err, "No such file or directory") != NULL, "%s", r.err);
    mmm_run_dispose(&r);

    if (geteuid() != 0) { /* root writes anywhere */
        snprintf(out, sizeof out, "%s/%s", dir, w->name);
        write_file(out, OLD);
        cr_assert_eq(chmod(dir, 0555), 0);
        run_writer(&r, w, DIAMOND, out, &MMM_RUN_LIMITS_DEFAULT);
        expect_failed(&r, w, "read-only folder");
        cr_expect(strstr(r.err, "Permission denied") != NULL, "%s", r.err);
        mmm_run_dispose(&r);
        cr_assert_eq(chmod(dir, 0700), 0);
        expect_untouched(dir, w, "read-only folder", 0);
    }
    mmm_tmpdir_remove(dir);
}
