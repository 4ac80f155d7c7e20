/* test_open.c: what every command does before it computes, as library
 * calls: -D NAME=VALUE and -p P as overrides (mmm_overrides_parse,
 * mmm_instance_eval_p) and a program opened with its machine, reader
 * warnings and overrides (mmm_program_open); what they have to say comes
 * back as notes (mmm_notes), errors with the kind in their status. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"
#include "mmm/import.h"
#include "tmpdir.h"

#define DIAMOND MMM_DAGS_DIR "/diamond.xml"

static mmm_program *load(const char *path)
{
    mmm_program *p = NULL;
    mmm_error e;
    cr_assert_eq(mmm_program_read_file(&p, path, NULL, NULL, &e), 0, "%s", e.message);
    return p;
}

/* A task graph without parameters, two of its costs negative. */
static void write_stg(char *path, size_t size, char *dir, size_t dsize)
{
    FILE *f;
    mmm_tmpdir_make(dir, dsize, "mmm_open");
    snprintf(path, size, "%s/neg.stg", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    fputs("2\n0 0 0\n1 -5 1 0\n2 -3 1 1\n3 0 1 2\n", f);
    fclose(f);
}

Test(open, overrides)
{
    mmm_program *p = load(DIAMOND);
    const char *defs[] = {"  U = 2^4 ", "zz=1"};
    mmm_override ov[3];
    mmm_notes notes = MMM_NOTES_INIT;
    size_t n = 0;
    mmm_error e;
    /* the definitions in order, -p's override last */
    cr_assert_eq(mmm_overrides_parse(p, defs, 1, 5, MMM_DEFINE_STRICT, ov, &n, &notes, &e),
                 0, "%s", e.message);
    cr_expect_eq(n, 2);
    cr_expect_eq(ov[0].slot, mmm_program_find_param(p, "U"));
    cr_expect_eq(ov[0].value.num, 16);
    cr_expect_eq(ov[1].slot, mmm_program_find_param(p, "p"));
    cr_expect_eq(ov[1].value.num, 5);
    cr_expect_eq(notes.n, 0);
    /* a name not declared: an error with the closest name, or a note */
    const char *typo[] = {"u=3"};
    cr_expect_eq(mmm_overrides_parse(p, typo, 1, 0, MMM_DEFINE_STRICT, ov, &n, NULL, &e),
                 MMM_EINPUT);
    cr_expect_str_eq(e.file, DIAMOND);
    cr_expect_str_eq(e.message, "-D u: the file declares no parameter 'u'; did you mean "
                                "'U'?");
    cr_expect_eq(mmm_overrides_parse(p, defs, 2, 0, MMM_DEFINE_NOTE, ov, &n, &notes, &e), 0);
    cr_expect_eq(n, 1);
    cr_assert_eq(notes.n, 1);
    cr_expect_str_eq(notes.line[0], DIAMOND ": note: -D zz ignored: the file declares no "
                                    "such parameter");
    cr_expect_eq(mmm_overrides_parse(p, defs, 2, 0, MMM_DEFINE_QUIET, ov, &n, &notes, &e), 0);
    cr_expect_eq(notes.n, 1);
    mmm_notes_dispose(&notes);
    cr_expect_eq(notes.n, 0);
    /* the kinds: a value naming a parameter, no NAME, p by -D */
    const char *named[] = {"U=p"}, *noname[] = {" =1"}, *dp[] = {"p=2"};
    cr_expect_eq(mmm_overrides_parse(p, named, 1, 0, 0, ov, &n, NULL, &e), MMM_EINPUT);
    cr_expect(strstr(e.message, "-D values must be constants: 'p' is a parameter of the "
                                "file") != NULL, "%s", e.message);
    cr_expect_eq(mmm_overrides_parse(p, noname, 1, 0, 0, ov, &n, NULL, &e), MMM_EINVAL);
    cr_expect_str_eq(e.file, "");
    cr_expect_eq(mmm_overrides_parse(p, dp, 1, 0, 0, ov, &n, NULL, &e), 0);
    mmm_program_free(p);
}

Test(open, eval_p)
{
    char dir[256], path[300];
    write_stg(path, sizeof path, dir, sizeof dir);
    mmm_import_options io = MMM_IMPORT_OPTIONS_INIT;
    mmm_program *p = NULL;
    mmm_instance *inst = NULL;
    mmm_override ov[1];
    size_t n = 9;
    mmm_error e;
    io.negative_to_zero = 1;
    cr_assert_eq(mmm_program_read_file(&p, path, &io, NULL, &e), 0, "%s", e.message);
    /* no parameter p: -p sets the instance's p */
    cr_assert_eq(mmm_overrides_parse(p, NULL, 0, 7, 0, ov, &n, NULL, &e), 0);
    cr_expect_eq(n, 0);
    cr_assert_eq(mmm_instance_new(&inst, p, &e), 0);
    cr_assert_eq(mmm_instance_eval_p(inst, ov, n, 7, &e), 0, "%s", e.message);
    cr_expect(inst->has_p);
    cr_expect_eq(inst->p, 7);
    mmm_instance_free(inst);
    mmm_program_free(p);
    mmm_tmpdir_remove(dir);
}

Test(open, program_open)
{
    char dir[256], path[300];
    write_stg(path, sizeof path, dir, sizeof dir);
    mmm_open_options opt;
    mmm_opened o;
    mmm_error e;
    const char *defs[] = {"zz=1"};
    mmm_open_options_init(&opt);
    opt.io.negative_to_zero = 1;
    opt.defs = defs;
    opt.ndefs = 1;
    opt.unknown = MMM_DEFINE_NOTE;
    opt.p = 3;
    /* the reader's warnings (the two negative costs, and every cost 0 as
     * a result, in the summary), then the -D skipped, as the command says
     * them */
    cr_assert_eq(mmm_program_open(&o, path, &opt, &e), 0, "%s", e.message);
    cr_assert_eq(o.notes.n, 3);
    cr_expect(strstr(o.notes.line[0], "neg.stg: warning: task '1' (line 3) has a negative "
                                      "cost (-5): read as 0 (and 2 more warnings)") != NULL,
              "%s", o.notes.line[0]);
    cr_expect(strstr(o.notes.line[1], "neg.stg: warning: every task costs 0, so W = S = 0")
              != NULL, "%s", o.notes.line[1]);
    cr_expect(strstr(o.notes.line[2], "neg.stg: note: -D zz ignored") != NULL);
    cr_expect_eq(o.report.nwarnings, 3);
    cr_expect_eq(o.noverrides, 0);
    cr_expect_eq(o.instance->p, 3);
    mmm_opened_dispose(&o);
    cr_expect_null(o.program);
    /* strict: the error after the warnings said so far */
    opt.unknown = MMM_DEFINE_STRICT;
    cr_expect_eq(mmm_program_open(&o, path, &opt, &e), MMM_EINPUT);
    cr_expect_eq(o.notes.n, 2);
    cr_expect_null(o.instance);
    cr_expect(strstr(e.message, "-D zz: the file declares no parameter 'zz' (it declares "
                                "none)") != NULL, "%s", e.message);
    mmm_opened_dispose(&o);
    mmm_tmpdir_remove(dir);

    /* a machine, overrides of -D and -p kept for a sweep, not evaluated */
    const char *u[] = {"U=3"};
    mmm_open_options_init(&opt);
    opt.machine = MMM_DAGS_DIR "/machines/gtx480.xml";
    opt.defs = u;
    opt.ndefs = 1;
    opt.p = 4;
    opt.no_eval = 1;
    cr_assert_eq(mmm_program_open(&o, DIAMOND, &opt, &e), 0, "%s", e.message);
    cr_expect_eq(o.noverrides, 2);
    cr_expect_eq(o.overrides[1].slot, mmm_program_find_param(o.program, "p"));
    cr_expect_eq(mmm_instance_eval_p(o.instance, o.overrides, o.noverrides, 4, &e), 0);
    cr_expect_eq(o.instance->p, 4);
    cr_expect_eq(o.instance->U, 3.0);
    mmm_opened_dispose(&o);
    /* NULL options: the defaults */
    cr_assert_eq(mmm_program_open(&o, DIAMOND, NULL, &e), 0, "%s", e.message);
    cr_expect_eq(o.instance->p, 2);
    mmm_opened_dispose(&o);
}
