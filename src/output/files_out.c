/* files_out.c: several files in one run: `mmm analyze A.xml B.xml ...`
 * (mmm_analyze_files: one result per file, a header per file in text, one
 * JSON object per line, one CSV table with a file column) and `mmm
 * convert IN... -o DIR` (mmm_convert_files).  A file that fails is told
 * to the caller's mmm_file_fn and the run goes on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/abi.h"
#include "base/file.h"
#include "base/notes.h"
#include "output/output_internal.h"

void mmm_analyze_options_init(mmm_analyze_options *opt)
{
    static const mmm_analyze_options defaults = MMM_ANALYZE_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

void mmm_convert_options_init(mmm_convert_options *opt)
{
    static const mmm_convert_options defaults = MMM_CONVERT_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

/* Tell the caller about one file and dispose of its notes. */
static void told(mmm_file_fn fn, void *payload, const char *path, mmm_notes *notes,
                 const mmm_error *err)
{
    if (fn)
        fn(payload, mmm__input_name(path), notes, err);
    mmm_notes_dispose(notes);
}

/* CSV of one file (in memory) copied to f, each line after the file's
 * name as a first cell; the header line (the first) is written once
 * while it stays the same.  *head keeps the last header written. */
static int csv_with_file(FILE *f, const char *file, const char *csv, size_t len,
                         char **head)
{
    const char *end = csv + len, *nl = memchr(csv, '\n', len);
    size_t hl = nl ? (size_t)(nl - csv) : len;
    if (!*head || strlen(*head) != hl || memcmp(*head, csv, hl) != 0) {
        free(*head);
        if (!(*head = malloc(hl + 1)))
            return MMM_ENOMEM;
        memcpy(*head, csv, hl);
        (*head)[hl] = '\0';
        fprintf(f, "file,%s\n", *head);
    }
    for (csv += hl + (nl != NULL); csv < end; csv = nl + 1) {
        nl = memchr(csv, '\n', (size_t)(end - csv));
        if (!nl)
            nl = end;
        mmm__csv_id(f, file);
        fputc(',', f);
        fwrite(csv, 1, (size_t)(nl - csv), f);
        fputc('\n', f);
    }
    return MMM_OK;
}

/* The analysis of one opened file into w (or, for CSV of several files,
 * into a memory writer copied with a file column). */
static int analyze_one(mmm_writer *w, const mmm_instance *inst,
                       const mmm_analyze_options *opt, int several, char **head,
                       mmm_notes *notes, int *said_inexact, mmm_error *err)
{
    mmm_metrics m;
    mmm_models models;
    mmm_writer *mw = NULL;
    int rc;
    memset(&m, 0, sizeof m);
    memset(&models, 0, sizeof models);
    mmm_progress_fn progress = MMM__PROGRESS(&opt->open, 2);
    if (progress)
        progress(opt->open.progress_payload, "measures", 0, 0);
    if ((rc = mmm_metrics_compute(&m, inst, 0, err)) < 0 ||
        (rc = mmm_models_compute(&models, inst, opt->models ? opt->models : MMM_MODEL_MMM,
                                 opt->launch, err)) < 0)
        goto done;
    if (progress) /* the output comes next */
        progress(opt->open.progress_payload, NULL, 0, 0);
    if (m.lost && !*said_inexact) {
        *said_inexact = 1;
        mmm__notes_add(notes, "%s: note: some integers exceed what a double holds exactly "
                              "(2^53) and are printed rounded (\"exact\": false in JSON)",
                       inst->program->file);
    }
    if (several && w->format == MMM_FORMAT_CSV) {
        const char *data;
        size_t len;
        if ((rc = mmm_writer_new_memory(&mw, MMM_FORMAT_CSV, err)) < 0 ||
            (rc = mmm_write_analysis(mw, inst, &m, &models, opt->max_rows, opt->totals,
                                     err)) < 0)
            goto done;
        if (!(data = mmm_writer_data(mw, &len)) ||
            (rc = csv_with_file(w->f, inst->program->file, data, len, head)) < 0) {
            rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
            goto done;
        }
    } else {
        if (several && w->format == MMM_FORMAT_TEXT)
            fprintf(w->f, "%s==> %s <==\n", *head ? "\n" : "", inst->program->file);
        if (several && w->format == MMM_FORMAT_TEXT && !*head)
            *head = calloc(1, 1); /* not the first any more */
        rc = mmm_write_analysis(w, inst, &m, &models, opt->max_rows, opt->totals, err);
    }
done:
    mmm_writer_free(mw);
    mmm_models_dispose(&models);
    mmm_metrics_dispose(&m);
    return rc;
}

/* JSON of several files: {"file": ..., "error": "FILE:LINE: error: ..."}. */
static void json_failed(mmm_writer *w, const char *path, const mmm_error *e)
{
    char buf[2048];
    mmm__json_begin_object(&w->json);
    mmm__json_str(&w->json, "file", mmm__input_name(path));
    mmm__json_str(&w->json, "error", mmm_error_format(e, buf, sizeof buf));
    mmm__json_end_object(&w->json);
    mmm__json_finish(&w->json);
}

int mmm_analyze_files(mmm_writer *w, const char *const *paths, size_t n,
                      const mmm_analyze_options *opt, size_t *nfailed, mmm_error *err)
{
    static const mmm_analyze_options defaults = MMM_ANALYZE_OPTIONS_INIT;
    size_t failed = 0;
    char *head = NULL;
    int said_inexact = 0, several = n > 1, rc;
    if (nfailed)
        *nfailed = 0;
    if ((rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_analyze_files", err)) < 0)
        return rc;
    if (!paths && n)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_analyze_files: no paths");
    MMM__CHECK_VERSION(opt, mmm_analyze_options, ANALYZE_OPTIONS, err);
    if (!opt)
        opt = &defaults;
    if (several)
        w->json.flat[0] = 1; /* one object per line */
    for (size_t i = 0; i < n; i++) {
        mmm_opened o;
        mmm_error e;
        mmm_error_clear(&e);
        rc = mmm_program_open(&o, paths[i], &opt->open, &e);
        if (rc == 0)
            rc = analyze_one(w, o.instance, opt, several, &head, &o.notes, &said_inexact, &e);
        if (rc < 0) {
            failed++;
            if (several && w->format == MMM_FORMAT_JSON)
                json_failed(w, paths[i], &e);
        }
        fflush(w->f); /* this file's output before what is said of it */
        told(opt->on_file, opt->payload, paths[i], &o.notes, rc < 0 ? &e : NULL);
        mmm_opened_dispose(&o);
    }
    free(head);
    if (nfailed)
        *nfailed = failed;
    return mmm_writer_flush(w, err);
}

/* ---- mmm convert ---- */

/* 1 when path names a folder. */
static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 1 when a and b are the same existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* dir/BASE.xml for in (malloc'd), BASE its last component without its
 * extension. */
static char *out_name(const char *dir, const char *in)
{
    const char *base = strrchr(in, '/'), *dot;
    size_t bl, dl = strlen(dir);
    char *s;
    base = base ? base + 1 : in;
    dot = strrchr(base, '.');
    bl = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    if (!(s = malloc(dl + bl + 6)))
        return NULL;
    snprintf(s, dl + bl + 6, "%.*s/%.*s.xml", (int)dl, dir, (int)bl, base);
    return s;
}

/* Read in and write it to target ("-": stream). */
static int convert_one(const char *in, const char *target, const mmm_convert_options *opt,
                       mmm_notes *notes, mmm_error *err)
{
    mmm_opened o;
    char comment[2048];
    int rc = mmm_program_open(&o, in, &opt->open, err);
    if (rc == 0) {
        mmm_import_comment(comment, sizeof comment, mmm__input_name(in), &o.report,
                           opt->open.io.time_unit);
        if (!strcmp(target, "-")) {
            if (mmm_program_write_xml(opt->out_stream, o.instance, comment, err) < 0 ||
                fflush(opt->out_stream) != 0)
                rc = err && err->code ? err->code
                                      : mmm_error_set(err, MMM_EIO, NULL, 0,
                                                      "cannot write to stdout");
        } else {
            rc = mmm_program_save_xml(target, o.instance, comment, err);
        }
    }
    for (size_t k = 0; k < o.notes.n; k++) /* hand the notes over */
        mmm__notes_add(notes, "%s", o.notes.line[k]);
    mmm_opened_dispose(&o);
    return rc;
}

int mmm_convert_files(const char *const *paths, size_t n, const char *out,
                      const mmm_convert_options *opt, size_t *nfailed, mmm_error *err)
{
    static const mmm_convert_options defaults = MMM_CONVERT_OPTIONS_INIT;
    char **done;
    size_t failed = 0, ndone = 0;
    int dir;
    if (nfailed)
        *nfailed = 0;
    if (!out || (!paths && n))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_convert_files: missing argument");
    MMM__CHECK_VERSION(opt, mmm_convert_options, CONVERT_OPTIONS, err);
    if (!opt)
        opt = &defaults;
    if (!strcmp(out, "-") && (n > 1 || !opt->out_stream))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, n > 1 ?
                             "several files go into a folder, not to standard output "
                             "(-o DIR)" : "no stream for '-'");
    dir = strcmp(out, "-") && is_dir(out);
    if (n > 1 && !dir) {
        struct stat st;
        if (stat(out, &st) == 0)
            return mmm_error_set(err, MMM_EINVAL, out, 0, "several files go into a "
                                 "folder, and this is a file: name a folder (-o DIR)");
        if (mkdir(out, 0777) != 0)
            return mmm_error_set(err, MMM_EIO, out, 0, "cannot make the folder: %s",
                                 strerror(errno));
        dir = 1;
    }
    if (!(done = calloc(n ? n : 1, sizeof *done)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        mmm_notes notes = MMM_NOTES_INIT;
        mmm_error e;
        char *target = dir ? out_name(out, paths[i]) : strdup(out);
        int rc = 0;
        mmm_error_clear(&e);
        if (!target)
            rc = mmm_error_set(&e, MMM_ENOMEM, NULL, 0, "out of memory");
        else if (dir && !strcmp(paths[i], "-"))
            rc = mmm_error_set(&e, MMM_EINVAL, "<stdin>", 0,
                               "standard input has no name to give its XML in %s: "
                               "convert it alone with -o FILE", out);
        for (size_t k = 0; rc == 0 && k < ndone; k++)
            if (!strcmp(done[k], target))
                rc = mmm_error_set(&e, MMM_EINVAL, paths[i], 0,
                                   "%s was written from another file of this run: "
                                   "rename one of the two", target);
        if (rc == 0 && strcmp(target, "-") && same_file(paths[i], target))
            rc = mmm_error_set(&e, MMM_EINVAL, paths[i], 0,
                               "the output %s is this file: write it elsewhere", target);
        if (rc == 0 && (rc = convert_one(paths[i], target, opt, &notes, &e)) == 0)
            done[ndone++] = target, target = NULL;
        free(target);
        failed += rc < 0;
        told(opt->on_file, opt->payload, paths[i], &notes, rc < 0 ? &e : NULL);
        if (rc == MMM_ENOMEM)
            break;
    }
    for (size_t k = 0; k < ndone; k++)
        free(done[k]);
    free(done);
    if (nfailed)
        *nfailed = failed;
    return MMM_OK;
}
