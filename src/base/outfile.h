/**
 * outfile.h (internal): atomic output files.
 *
 * Every file mmm writes (renders, reports, plots, traces) goes through this:
 * the data is written to a temporary file in the same folder, flushed and
 * fsync'ed, then renamed over the target.  On any error (or abort) the
 * temporary is removed and an existing target is left as it was.
 * The path "-" is standard output: fp is stdout, tmp_path NULL, and commit
 * flushes it (and closes nothing).
 *
 *   mmm__outfile of;
 *   if (mmm__outfile_open(&of, "out.svg", &err) < 0) ...
 *   fprintf(of.fp, ...);                      (or write to of.tmp_path)
 *   if (mmm__outfile_commit(&of, &err) < 0) ... (aborts on failure)
 */
#ifndef MMM__OUTFILE_H
#define MMM__OUTFILE_H

#include <stdio.h>

#include "mmm/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mmm__outfile {
    FILE *fp;           /**< open for writing ("wb") on the temporary */
    char *path;         /**< the target */
    char *tmp_path;     /**< the temporary, same folder (NULL for "-") */
    int to_stdout;      /**< path is "-": fp is stdout */
    int direct;         /**< the target is no regular file (/dev/null, a
                             FIFO, a terminal): written in place, never
                             renamed over (tmp_path is the target) */
} mmm__outfile;

/** Create the temporary next to path.  MMM_EIO with the reason. */
int mmm__outfile_open(mmm__outfile *of, const char *path, mmm_error *err);
/** Close the stream (if still open) and rename the temporary into place.
 *  Checks write errors; on failure removes the temporary (MMM_EIO). */
int mmm__outfile_commit(mmm__outfile *of, mmm_error *err);
/** Remove the temporary; the target is untouched.  Safe on a zeroed or
 *  already committed struct. */
void mmm__outfile_abort(mmm__outfile *of);
/** For a temporary written by a library that reports no write error
 *  (PLplot and cairo write by file name): check that it ends as a
 *  complete file of the target's format (.svg "</svg>", .png the IEND
 *  chunk, .pdf "%%EOF"), so that a full disk or a file-size limit cannot
 *  commit a truncated file.  MMM_EIO when it does not; other extensions
 *  are not checked.  Call before mmm__outfile_commit (of.fp closed). */
int mmm__outfile_check_complete(const mmm__outfile *of, mmm_error *err);
/** Convenience: write len bytes atomically to path. */
int mmm__write_file_atomic(const char *path, const void *data, size_t len,
                           mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
