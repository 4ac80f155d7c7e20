/* mmm_run.h: run the built mmm binary in a child process with resource
 * limits and capture what it did (test_hostile, test_atomic).
 *
 *   mmm_run_result r;
 *   const char *argv[] = {"analyze", path, NULL};
 *   mmm_run(&r, argv, NULL, &MMM_RUN_LIMITS_DEFAULT);
 *   ... r.exited, r.status, r.out, r.err, r.wall, r.maxrss_kb ...
 *   mmm_run_dispose(&r);
 *
 * Limits in the child: RLIMIT_CPU (a loop dies of SIGXCPU), a wall-clock
 * alarm (a child blocked on I/O dies of SIGALRM: alarms survive exec),
 * RLIMIT_FSIZE (no runaway output; with SIGXFSZ ignored, a way to make
 * writes fail even for root) and, except under AddressSanitizer,
 * RLIMIT_AS.  ASan reserves terabytes of shadow address space at start-up,
 * so an address-space limit (or RLIMIT_DATA, which counts the same private
 * mappings) would kill every run before main: under ASan the memory bound
 * is checked after the fact on the child's peak resident size (wait4's
 * ru_maxrss), which the caller compares with its own bound.
 *
 * wait4 needs _DEFAULT_SOURCE: define it before the first #include.
 *
 * Header-only (static inline) so that any suite can include it without a
 * helper object in every test executable. */
#ifndef MMM_TEST_RUN_H
#define MMM_TEST_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define MMM_RUN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMM_RUN_ASAN 1
#endif
#endif
#ifndef MMM_RUN_ASAN
#define MMM_RUN_ASAN 0
#endif

typedef struct mmm_run_limits {
    unsigned cpu_s;        /**< RLIMIT_CPU, seconds */
    unsigned wall_s;       /**< alarm, seconds */
    unsigned long as_mb;   /**< RLIMIT_AS in MiB (ignored under ASan) */
    unsigned long long fsize; /**< RLIMIT_FSIZE in bytes */
    int ignore_xfsz;       /**< SIGXFSZ ignored (inherited through exec):
                                a write past fsize fails with EFBIG instead
                                of killing the child */
} mmm_run_limits;

/* 1 GiB of address space, 60 s of CPU, 120 s of wall time, 256 MiB files. */
static const mmm_run_limits MMM_RUN_LIMITS_DEFAULT = {60, 120, 1024, 256ull << 20, 0};

typedef struct mmm_run_result {
    int exited;        /**< exited normally (status valid) */
    int status;        /**< exit status */
    int signal;        /**< terminating signal, 0 if none */
    double wall;       /**< seconds */
    long maxrss_kb;    /**< peak resident size of the child */
    char *out, *err;   /**< stdout and stderr, NUL-terminated */
    size_t out_len, err_len;
} mmm_run_result;

static inline char *mmm_run_slurp(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    ssize_t k;
    if (!buf)
        return NULL;
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        k = read(fd, buf + n, cap - n - 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static inline void mmm_run_limit(int resource, rlim_t v)
{
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = v;
    (void)setrlimit(resource, &rl);
}

static inline int mmm_run_tmpfd(void)
{
    char path[] = "/tmp/mmm_run_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* Run MMM_BIN with args (NULL-terminated, without argv[0]); stdin from
 * stdin_path (NULL: /dev/null) or from stdin_fd when stdin_path is "-"
 * (see mmm_run_fd).  Returns 0, or -1 when the child could not be run. */
static inline int mmm_run_fd(mmm_run_result *r, const char *const *args,
                             int stdin_fd, const mmm_run_limits *lim)
{
    const char *argv[64];
    int out, err, n = 0;
    struct timespec t0, t1;
    struct rusage ru;
    pid_t pid;
    int st;
    memset(r, 0, sizeof *r);
    argv[n++] = MMM_BIN;
    while (args[n - 1] && n < 63) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    out = mmm_run_tmpfd();
    err = mmm_run_tmpfd();
    if (out < 0 || err < 0)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int in = stdin_fd >= 0 ? stdin_fd : open("/dev/null", O_RDONLY);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        mmm_run_limit(RLIMIT_CPU, lim->cpu_s);
        mmm_run_limit(RLIMIT_FSIZE, (rlim_t)lim->fsize);
        if (lim->ignore_xfsz)
            signal(SIGXFSZ, SIG_IGN);
        mmm_run_limit(RLIMIT_CORE, 0);
        if (!MMM_RUN_ASAN)
            mmm_run_limit(RLIMIT_AS, (rlim_t)lim->as_mb << 20);
        alarm(lim->wall_s);
        execv(MMM_BIN, (char *const *)argv);
        _exit(127);
    }
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
        ;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->wall = (double)(t1.tv_sec - t0.tv_sec) +
              (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    r->maxrss_kb = ru.ru_maxrss;
    r->exited = WIFEXITED(st);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    r->out = mmm_run_slurp(out, &r->out_len);
    r->err = mmm_run_slurp(err, &r->err_len);
    close(out);
    close(err);
    return r->out && r->err ? 0 : -1;
}

static inline int mmm_run(mmm_run_result *r, const char *const *args,
                          const char *stdin_path, const mmm_run_limits *lim)
{
    int fd = -1, rc;
    if (stdin_path && (fd = open(stdin_path, O_RDONLY)) < 0)
        return -1;
    rc = mmm_run_fd(r, args, fd, lim);
    if (fd >= 0)
        close(fd);
    return rc;
}

static inline void mmm_run_dispose(mmm_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/* Number of lines of s (a last line without '\n' counts). */
static inline size_t mmm_run_lines(const char *s)
{
    size_t n = 0, len = strlen(s);
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return n + (len > 0 && s[len - 1] != '\n');
}

#endif
