/**
 * mmm/error.h: status codes and the caller-owned error record.
 *
 * Every fallible function of libmmm returns an int: 0 (MMM_OK) on success or
 * a negative mmm_status.  The one-line message, and the file and line it is
 * about when known, go into a caller-owned mmm_error (which may be NULL).
 * There is no global last-error state.  The library never prints or exits.
 */
#ifndef MMM_ERROR_H
#define MMM_ERROR_H

#include "mmm/export.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X-macro: name, value, generic message. */
#define MMM_STATUS_MAP(XX)                                                    \
    XX(OK, 0, "success")                                                      \
    XX(EIO, -1, "cannot read or write a file")                                \
    XX(EPARSE, -2, "malformed input")                                         \
    XX(EINPUT, -3, "invalid program")                                         \
    XX(ECYCLE, -4, "the kernel graph has a cycle")                            \
    XX(EOVERFLOW, -5, "a count overflows 64 bits")                            \
    XX(EDOMAIN, -6, "an expression has no value (division by zero, ...)")     \
    XX(EINFEASIBLE, -7, "a constraint is violated or a count is not exact")   \
    XX(ELIMIT, -8, "a resource limit was exceeded")                           \
    XX(ENOMEM, -9, "out of memory")                                           \
    XX(EINVAL, -10, "invalid argument")

typedef enum mmm_status {
#define MMM_STATUS_GEN_(name, val, msg) MMM_##name = (val),
    MMM_STATUS_MAP(MMM_STATUS_GEN_)
#undef MMM_STATUS_GEN_
} mmm_status;

/** Static, never NULL, generic text for a status. */
MMM_API const char *mmm_status_str(int status);

/** What went wrong.  file is "" and line 0 when not known. */
typedef struct mmm_error {
    int code;           /**< the negative mmm_status also returned */
    long line;          /**< 1-based source line, 0 when unknown */
    char file[512];     /**< source file name, "" when unknown */
    char message[1024]; /**< one line, lowercase, no trailing period */
} mmm_error;

/** Zero the record (code MMM_OK, empty file and message). */
MMM_API void mmm_error_clear(mmm_error *err);

/**
 * Fill err (if not NULL) and return code, so that callers can write
 * `return mmm_error_set(err, MMM_EINPUT, file, line, "unknown kernel '%s'", id);`
 * file may be NULL.  A message too long for the record (a huge id in it)
 * loses its middle, marked "...", at UTF-8 character boundaries: its
 * start and its end (usually the reason) are kept.
 */
MMM_API int mmm_error_set(mmm_error *err, int code, const char *file, long line,
                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/** The same with a va_list. */
MMM_API int mmm_error_vset(mmm_error *err, int code, const char *file, long line,
                           const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 0)))
#endif
    ;

/**
 * Write "FILE:LINE: error: message" (or "FILE: error: …" / "error: …" when
 * the line or file is unknown) into buf; returns buf.  For the CLI.
 */
MMM_API char *mmm_error_format(const mmm_error *err, char *buf, size_t size);

/**
 * Lines a call has to say besides its result or its error (notes,
 * warnings, problems it went past), in the order it met them, for the
 * caller to print: the library never prints.  Each line is whole
 * ("dags/x.xml: note: -D n ignored: ..."), without a newline.  Zero the
 * record before the first call that fills it (MMM_NOTES_INIT); calls add
 * to it, on failure too (what was said before the error); free it with
 * mmm_notes_dispose.  A NULL mmm_notes * is allowed wherever a call takes
 * one: the lines are dropped.
 */
typedef struct mmm_notes {
    char **line; /**< line[0 .. n) */
    size_t n;
    size_t cap;
} mmm_notes;

#define MMM_NOTES_INIT {NULL, 0, 0}

/** Free the lines and zero the record (NULL is allowed). */
MMM_API void mmm_notes_dispose(mmm_notes *notes);

/**
 * How far a long call has got, for the caller to show (the library never
 * prints): what it is doing, a short phrase ("reading dags/x.xml",
 * "simulating fifo"), and done of total steps (total 0: not counted).
 * The calls that take one (in their options: progress and
 * progress_payload) call it from the calling thread when they start a
 * stage and as they go, often: the caller decides what to show and when;
 * and, before they return or write their output, with what NULL: nothing
 * is going on any more (a caller that shows a line clears it).
 */
typedef void (*mmm_progress_fn)(void *payload, const char *what, uint64_t done,
                                uint64_t total);

/**
 * "Did you mean ...?": the candidate closest to name (candidates[0 .. n),
 * NUL-terminated; NULLs skipped) when it is close enough to be a slip:
 * the same name in another case, or at most one edit (a letter added,
 * dropped, changed, or two swapped) per three characters of name, at
 * least one.  NULL when none is, or name is one of them, or name or
 * candidates (with n > 0) is NULL.  The result points into candidates.
 * What the library says of a misspelt parameter or attribute; `mmm
 * analyse` and `--fromat` use it too.
 */
MMM_API const char *mmm_closest(const char *name, const char *const *candidates,
                                size_t n);

/**
 * A whole decimal integer, as a command line gives one: optional sign,
 * digits, nothing else (no space, no fraction).  0 and *out set, or -1
 * (out untouched) when s is not one or does not fit.  mmm_parse_u64
 * refuses a sign '-' (rather than wrapping it as strtoull does).
 */
MMM_API int mmm_parse_int64(const char *s, int64_t *out);
MMM_API int mmm_parse_u64(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
