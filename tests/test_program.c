/* test_program.c: the program builder (src/model/program.c): ids, parameters,
 * expressions, edges, cycles, limits, the topological order and CSR. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"
#include "model/program_internal.h"

static mmm_program *new_program(const mmm_limits *lim)
{
    mmm_program *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_new(&p, "t.xml", lim, &err), 0);
    return p;
}

static int add_kernel(mmm_program *p, const char *id, const char *blocks,
                      long line, mmm_error *err)
{
    mmm_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.id = id;
    s.line = line;
    s.blocks = blocks;
    s.work = "1";
    s.span = "1";
    s.reads = "0";
    s.writes = "0";
    return mmm_program_add_kernel(p, &s, NULL, err);
}

static void ok_kernel(mmm_program *p, const char *id)
{
    mmm_error err;
    cr_assert_eq(add_kernel(p, id, "1", 5, &err), 0, "%s", err.message);
}

static void ok_edge(mmm_program *p, const char *a, const char *b, long line)
{
    mmm_error err;
    cr_assert_eq(mmm_program_add_edge(p, a, b, line, &err), 0, "%s",
                 err.message);
}

Test(program, limits_defaults)
{
    mmm_limits in = MMM_LIMITS_INIT;
    in.max_kernels = 7;
    mmm_limits l = mmm_limits_effective(&in);
    cr_assert_eq(l.max_kernels, 7);
    cr_assert_eq(l.max_edges, 50000000);
    cr_assert_eq(l.max_params, 10000);
    cr_assert_eq(l.max_expr_length, 4096);
    cr_assert_eq(l.max_depth, 64);
    cr_assert_eq(l.max_index_repeat, 10000000);
    cr_assert_eq(l.max_file_bytes, (uint64_t)1 << 30);
}

Test(program, duplicate_kernel_id)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    ok_kernel(p, "a");
    cr_assert_eq(add_kernel(p, "a", "1", 9, &err), MMM_EINPUT);
    cr_assert_eq(err.line, 9);
    cr_assert_str_eq(err.file, "t.xml");
    cr_assert(strstr(err.message, "duplicate kernel id 'a'"), "%s",
              err.message);
    mmm_program_free(p);
}

Test(program, unknown_parameter_has_file_and_line)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    cr_assert_eq(mmm_program_add_param(p, "n", "8", NULL, NULL, 2, &err), 0);
    cr_assert_eq(add_kernel(p, "a", "n + x", 7, &err), MMM_EINPUT);
    cr_assert_eq(err.line, 7);
    cr_assert_str_eq(err.file, "t.xml");
    /* one letter is no slip of another: the names it may use instead */
    cr_assert_str_eq(err.message, "unknown parameter 'x'; known here: n");
    /* a parameter may only use the ones declared before it */
    cr_assert_eq(mmm_program_add_param(p, "m", "k", NULL, NULL, 3, &err),
                 MMM_EINPUT);
    cr_assert_eq(err.line, 3);
    cr_assert_str_eq(err.message, "unknown parameter 'k'; known here: n");
    cr_assert_eq(mmm_program_add_constraint(p, "z > 1", 4, &err), MMM_EINPUT);
    cr_assert_eq(err.line, 4);
    mmm_program_free(p);
}

Test(program, duplicate_and_bad_parameters)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    cr_assert_eq(mmm_program_add_param(p, "n", "8", NULL, NULL, 2, &err), 0);
    cr_assert_eq(mmm_program_add_param(p, "n", "9", NULL, NULL, 3, &err),
                 MMM_EINPUT);
    cr_assert(strstr(err.message, "duplicate parameter 'n'"));
    cr_assert_eq(err.line, 3);
    cr_assert_eq(mmm_program_add_param(p, "2x", "9", NULL, NULL, 4, &err),
                 MMM_EINPUT);
    cr_assert_eq(mmm_program_add_param(p, "s", "1", "0", "n/", 5, &err),
                 MMM_EPARSE);
    cr_assert_eq(err.line, 5);
    cr_assert_eq(mmm_program_find_param(p, "n"), 0);
    cr_assert_eq(mmm_program_find_param(p, "s"), -1);
    mmm_program_free(p);
}

Test(program, cycle_names_its_kernels)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    ok_kernel(p, "a");
    ok_kernel(p, "b");
    ok_kernel(p, "c");
    ok_kernel(p, "d");
    ok_edge(p, "d", "a", 10);
    ok_edge(p, "a", "b", 11);
    ok_edge(p, "b", "c", 12);
    ok_edge(p, "c", "a", 13);
    cr_assert_eq(mmm_program_finalize(p, &err), MMM_ECYCLE);
    const char *ok[] = {"cycle: a -> b -> c -> a", "cycle: b -> c -> a -> b",
                        "cycle: c -> a -> b -> c"};
    const long lines[] = {11, 12, 13};
    int found = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(err.message, ok[i]))
            found = i;
    cr_assert_neq(found, -1, "%s", err.message);
    cr_assert_eq(err.line, lines[found]);
    mmm_program_free(p);
}

Test(program, self_loop_and_dangling_edge)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    ok_kernel(p, "a");
    cr_assert_eq(mmm_program_add_edge(p, "a", "a", 4, &err), MMM_ECYCLE);
    cr_assert_str_eq(err.message,
                     "cycle: a -> a (an edge from a kernel to itself)");
    cr_assert_eq(err.line, 4);
    ok_edge(p, "a", "zz", 6); /* may be declared later... */
    cr_assert_eq(mmm_program_finalize(p, &err), MMM_EINPUT);
    cr_assert_eq(err.line, 6);
    cr_assert_str_eq(err.message, "edge to unknown kernel 'zz'");
    mmm_program_free(p);

    /* a self loop through names not declared yet */
    p = new_program(NULL);
    ok_edge(p, "x", "y", 3);
    ok_edge(p, "y", "y2", 4);
    ok_kernel(p, "x");
    ok_kernel(p, "y");
    ok_kernel(p, "y2");
    cr_assert_eq(mmm_program_finalize(p, &err), 0);
    cr_assert_eq(p->nedges, 2);
    cr_assert_eq(p->edges[0].from, 0);
    cr_assert_eq(p->edges[0].to, 1);
    mmm_program_free(p);
}

Test(program, builder_refuses_after_finalize)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    ok_kernel(p, "a");
    cr_assert_eq(mmm_program_finalize(p, &err), 0);
    cr_assert(p->finalized);
    cr_assert_eq(add_kernel(p, "b", "1", 3, &err), MMM_EINVAL);
    cr_assert_eq(mmm_program_add_edge(p, "a", "b", 3, &err), MMM_EINVAL);
    cr_assert_eq(mmm_program_finalize(p, &err), MMM_EINVAL);
    mmm_program_free(p);
}

Test(program, kernel_needs_blocks)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    mmm_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.id = "k";
    s.line = 8;
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), 0);
    cr_assert_eq(mmm_program_finalize(p, &err), MMM_EINPUT);
    cr_assert_eq(err.line, 8);
    cr_assert(strstr(err.message, "kernel 'k' has no blocks"));
    mmm_program_free(p);

    p = new_program(NULL);
    s.blocks = "2";
    s.work = "1";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), MMM_EINPUT);
    cr_assert(strstr(err.message, "lacks attribute 'span'"), "%s",
              err.message);
    mmm_program_free(p);
}

Test(program, classes_and_index)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    size_t idx = 99;
    cr_assert_eq(mmm_program_add_param(p, "m", "16", NULL, NULL, 2, &err), 0);
    cr_assert_eq(mmm_program_add_param(p, "s", "2", NULL, NULL, 3, &err), 0);
    ok_kernel(p, "mul");
    mmm_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.id = "add";
    s.line = 5;
    s.repeat = "log2(m/s)";
    s.index = "i";
    cr_assert_eq(mmm_program_add_kernel(p, &s, &idx, &err), 0);
    cr_assert_eq(idx, 1);
    mmm_class_spec c1 = {.line = 6, .count = "m/s/2^i", .work = "s",
                         .span = "1", .reads = "3*s", .writes = "0",
                         .access = MMM_ACCESS_COALESCED};
    mmm_class_spec c2 = {.line = 7, .count = "1", .work = "2", .span = "2",
                         .reads = "1", .writes = "1", .threads = "64",
                         .shared = "4", .access = MMM_ACCESS_IRREGULAR};
    cr_assert_eq(mmm_program_add_class(p, 1, &c1, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_program_add_class(p, 1, &c2, &err), 0);
    cr_assert_eq(mmm_program_add_class(p, 0, &c2, &err), MMM_EINVAL);
    /* params after an indexed kernel would collide with its slot */
    cr_assert_eq(mmm_program_add_param(p, "z", "1", NULL, NULL, 9, &err),
                 MMM_EINPUT);
    cr_assert_eq(mmm_program_finalize(p, &err), 0);
    const mmm_kernel *k = &p->kernels[1];
    cr_assert_eq(k->index_slot, 2);
    cr_assert_eq(p->nslots, 3);
    cr_assert(k->uses_index);
    cr_assert(!p->kernels[0].uses_index);
    cr_assert_eq(k->nclasses, 2);
    cr_assert_eq(k->first_class, 1);
    cr_assert_eq(p->classes[2].access, MMM_ACCESS_IRREGULAR);
    cr_assert_not_null(p->classes[2].threads);
    cr_assert_eq(mmm_program_find_kernel(p, "add"), 1);
    cr_assert_eq(mmm_program_find_kernel(p, "nope"), -1);
    mmm_program_free(p);
}

Test(program, repeat_cannot_use_its_index)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    mmm_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.id = "k";
    s.line = 4;
    s.repeat = "i + 1";
    s.index = "i";
    s.blocks = "i";
    s.work = s.span = s.reads = s.writes = "1";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), MMM_EINPUT);
    cr_assert(strstr(err.message, "unknown parameter 'i'"));
    cr_assert(strstr(err.message, "own index"), "%s", err.message);
    cr_assert_eq(err.line, 4);
    /* an index may not hide a parameter */
    cr_assert_eq(mmm_program_add_param(p, "n", "1", NULL, NULL, 2, &err), 0);
    s.repeat = "3";
    s.index = "n";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), MMM_EINPUT);
    mmm_program_free(p);
}

Test(program, identical_texts_share_one_expression)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    char id[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "k%d", i);
        cr_assert_eq(add_kernel(p, id, "4", i + 1, &err), 0);
    }
    cr_assert_eq(mmm_program_finalize(p, &err), 0);
    for (int i = 1; i < 1000; i++)
        cr_assert_eq(p->classes[i].count, p->classes[0].count);
    cr_assert_lt(p->priv->nexprs, 10);
    mmm_program_free(p);
}

Test(program, limits_name_their_flag)
{
    mmm_limits lim = MMM_LIMITS_INIT;
    lim.max_kernels = 2;
    lim.max_edges = 1;
    lim.max_params = 1;
    lim.max_expr_length = 10;
    mmm_program *p = new_program(&lim);
    mmm_error err;
    ok_kernel(p, "a");
    ok_kernel(p, "b");
    cr_assert_eq(add_kernel(p, "c", "1", 3, &err), MMM_ELIMIT);
    cr_assert(strstr(err.message, "--max-kernels"), "%s", err.message);
    ok_edge(p, "a", "b", 4);
    cr_assert_eq(mmm_program_add_edge(p, "b", "a", 5, &err), MMM_ELIMIT);
    cr_assert(strstr(err.message, "--max-edges"));
    cr_assert_eq(mmm_program_add_param(p, "x", "1", NULL, NULL, 1, &err), 0);
    cr_assert_eq(mmm_program_add_param(p, "y", "1", NULL, NULL, 2, &err),
                 MMM_ELIMIT);
    cr_assert(strstr(err.message, "--max-params"));
    cr_assert_eq(mmm_program_add_constraint(p, "x + x + x + x > 1", 6, &err),
                 MMM_ELIMIT);
    cr_assert_eq(err.line, 6);
    mmm_program_free(p);
}

Test(program, machine_parameters)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    cr_assert_eq(mmm_program_add_machine_param(p, "Z", mmm_value_int(48),
                                               &err),
                 0);
    cr_assert_eq(mmm_program_add_machine_param(p, "U",
                                               mmm_value_ratio(5, 2), &err),
                 0);
    /* the program may redeclare a machine parameter once */
    cr_assert_eq(mmm_program_add_param(p, "Z", "12288", "7", NULL, 3, &err),
                 0);
    cr_assert_eq(mmm_program_add_param(p, "Z", "1", NULL, NULL, 4, &err),
                 MMM_EINPUT);
    cr_assert_eq(p->nparams, 2);
    cr_assert(p->params[0].from_machine);
    cr_assert_eq(p->params[0].line, 3);
    cr_assert_not_null(p->params[0].min);
    mmm_value v;
    cr_assert_eq(mmm_expr_eval(p->params[1].value, NULL, 0, &v, &err), 0);
    cr_assert(v.exact && v.num == 5 && v.den == 2);
    mmm_program_free(p);

    /* A redeclared machine parameter whose default uses the program's own
     * parameters is the program's quantity under a machine name (the
     * machine's value would replace it silently): said so.  The machine's
     * parameters come first, as the loader adds them. */
    p = new_program(NULL);
    cr_assert_eq(mmm_program_add_machine_param(p, "P", mmm_value_int(16896),
                                               &err),
                 0);
    cr_assert_eq(mmm_program_add_machine_param(p, "Q", mmm_value_int(128),
                                               &err),
                 0);
    cr_assert_eq(mmm_program_add_param(p, "n", "1024", NULL, NULL, 5, &err), 0);
    cr_assert_eq(mmm_program_add_param(p, "P", "n/4", NULL, NULL, 6, &err),
                 MMM_EINPUT);
    cr_assert_eq(err.line, 6);
    cr_assert(strstr(err.message, "rename it if it is not the machine's P"),
              "%s", err.message);
    /* a name declared nowhere is the usual error */
    cr_assert_eq(mmm_program_add_param(p, "Q", "m/4", NULL, NULL, 7, &err),
                 MMM_EINPUT);
    cr_assert(strstr(err.message, "'m'"), "%s", err.message);
    cr_assert(!strstr(err.message, "rename"), "%s", err.message);
    /* a constant default is the machine's parameter redeclared */
    cr_assert_eq(mmm_program_add_param(p, "Q", "64", NULL, NULL, 8, &err), 0,
                 "%s", err.message);
    mmm_program_free(p);
}

/* A random DAG declared in a shuffled order with duplicate edges: the
 * topological order respects every edge and the CSR has no duplicates. */
Test(program, topological_order_and_csr)
{
    enum { N = 300 };
    mmm_program *p = new_program(NULL);
    mmm_error err;
    int perm[N];
    char a[16], b[16];
    uint64_t st = 99;
    for (int i = 0; i < N; i++)
        perm[i] = i;
    for (int i = N - 1; i > 0; i--) {
        st = st * 6364136223846793005u + 1442695040888963407u;
        int j = (int)((st >> 33) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* rank perm[i] = i: edges go from lower to higher rank */
    for (int i = 0; i < N; i++) {
        snprintf(a, sizeof a, "n%d", i);
        ok_kernel(p, a);
    }
    size_t added = 0;
    for (int i = 0; i < N; i++)
        for (int d = 1; d <= 4 && i + d < N; d++) {
            snprintf(a, sizeof a, "n%d", perm[i]);
            snprintf(b, sizeof b, "n%d", perm[i + d]);
            ok_edge(p, a, b, 1);
            added++;
            if (d == 1) {
                ok_edge(p, a, b, 2); /* duplicate */
                added++;
            }
        }
    cr_assert_eq(mmm_program_finalize(p, &err), 0);
    cr_assert_eq(p->nedges, added);
    int pos[N];
    for (int i = 0; i < N; i++)
        pos[p->topo[i]] = i;
    size_t csr_edges = 0;
    for (uint32_t u = 0; u < N; u++)
        for (uint32_t j = p->succ_start[u]; j < p->succ_start[u + 1]; j++) {
            uint32_t v = p->succ[j];
            cr_assert_lt(pos[u], pos[v]);
            if (j > p->succ_start[u])
                cr_assert_gt(v, p->succ[j - 1]); /* sorted, no duplicate */
            csr_edges++;
        }
    cr_assert_eq(csr_edges, added - (N - 1));
    cr_assert_eq(p->pred_start[N], csr_edges);
    for (size_t e = 0; e < p->nedges; e++)
        cr_assert_lt(pos[p->edges[e].from], pos[p->edges[e].to]);
    mmm_program_free(p);
}

/* A 10^5-kernel chain finalizes (Kahn, cycle search and the series-parallel
 * plan are iterative) and a long cycle is reported without recursion. */
Test(program, long_chain_and_long_cycle)
{
    enum { N = 100000 };
    mmm_program *p = new_program(NULL);
    mmm_error err;
    char a[16], b[16];
    for (int i = 0; i < N; i++) {
        snprintf(a, sizeof a, "k%d", i);
        ok_kernel(p, a);
        if (i) {
            snprintf(b, sizeof b, "k%d", i - 1);
            ok_edge(p, b, a, i);
        }
    }
    ok_edge(p, "k99999", "k0", 777);
    cr_assert_eq(mmm_program_finalize(p, &err), MMM_ECYCLE);
    cr_assert(strstr(err.message, "(100000 kernels in all)"), "%s",
              err.message);
    cr_assert_lt(strlen(err.message), sizeof err.message);
    mmm_program_free(p);
}

/* Kernel ids that differ only in a trailing number share table lines (see
 * kernel_hash in src/model/program.c): every id of several numbered families,
 * with leading zeros, numbers of 9 and more digits, all-digit ids and ids
 * without a number, is found at its own index, a near-miss is not found,
 * and a second declaration of any of them is a duplicate. */
Test(program, numbered_ids_found_and_duplicates_caught)
{
    static const char *const fam[] = {"k", "load", "k0", "x_", ""};
    enum { PER = 3000, NF = sizeof fam / sizeof *fam };
    mmm_program *p = new_program(NULL);
    mmm_error err;
    char id[64];
    size_t n = 0;
    for (int f = 0; f < NF; f++)
        for (int i = 0; i < PER; i++) {
            snprintf(id, sizeof id, "%s%d", fam[f], i);
            if (mmm_program_find_kernel(p, id) >= 0)
                continue; /* "k0" + "5" is "k05", not "k5": distinct */
            ok_kernel(p, id);
            n++;
        }
    /* leading zeros, long numbers, no number: distinct ids */
    static const char *const odd[] = {"k007", "k0007", "k1234567890",
                                      "k01234567890", "k99999999999999999999",
                                      "plain", "plain_", "9x"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        ok_kernel(p, odd[i]);
        n++;
    }
    cr_assert_eq(p->nkernels, n);
    for (size_t k = 0; k < p->nkernels; k++)
        cr_assert_eq(mmm_program_find_kernel(p, p->kernels[k].id), (long)k,
                     "%s", p->kernels[k].id);
    cr_assert_eq(mmm_program_find_kernel(p, "k3000"), -1);
    cr_assert_eq(mmm_program_find_kernel(p, "k00007"), -1);
    cr_assert_eq(mmm_program_find_kernel(p, "load"), -1);
    cr_assert_eq(mmm_program_find_kernel(p, "k1234567891"), -1);
    for (size_t k = 0; k < p->nkernels; k += 97)
        cr_assert_eq(add_kernel(p, p->kernels[k].id, "1", 9, &err),
                     MMM_EINPUT, "%s", p->kernels[k].id);
    cr_assert_eq(add_kernel(p, "k7", "1", 9, &err), MMM_EINPUT);
    cr_assert(strstr(err.message, "duplicate kernel id 'k7'"));
    mmm_program_free(p);
}

/* Numbered ids whose numbers come far apart and out of order: a number
 * too large for the array of numbered ids when it is added (k9000000
 * first) is still found after the array has grown past it, ids with
 * another prefix or a number of 10 digits live beside them, every id is
 * found at its own index and absent ones are not found. */
Test(program, numbered_ids_added_out_of_order)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    char id[64];
    ok_kernel(p, "k9000000");
    ok_kernel(p, "k4096");
    ok_kernel(p, "q3");
    ok_kernel(p, "k1000000000");
    ok_kernel(p, "0");
    ok_kernel(p, "17");
    for (int i = 0; i < 20000; i++) {
        int v = (int)(((long)i * 7919) % 20000); /* a permutation */
        snprintf(id, sizeof id, "k%d", v);
        if (v != 4096)
            ok_kernel(p, id);
    }
    for (int i = 0; i < 3000; i++) {
        snprintf(id, sizeof id, "k%d", 2250000 + 750 * i);
        ok_kernel(p, id); /* beyond 4 x count when added, then inside */
    }
    cr_assert_eq(p->nkernels, 6 + 19999 + 3000);
    for (size_t k = 0; k < p->nkernels; k++) /* each at its own index: so
                                              * no two ids are alike */
        cr_assert_eq(mmm_program_find_kernel(p, p->kernels[k].id), (long)k,
                     "%s", p->kernels[k].id);
    static const char *const absent[] = {"k20000", "k9000001", "k",
                                         "k04096", "q4", "00", "k2250001",
                                         "k999999999"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        cr_assert_eq(mmm_program_find_kernel(p, absent[i]), -1, "%s",
                     absent[i]);
    cr_assert_eq(add_kernel(p, "k9000000", "1", 9, &err), MMM_EINPUT);
    cr_assert_eq(add_kernel(p, "k2250750", "1", 9, &err), MMM_EINPUT);
    cr_assert_eq(add_kernel(p, "k19999", "1", 9, &err), MMM_EINPUT);
    cr_assert_eq(add_kernel(p, "17", "1", 9, &err), MMM_EINPUT);
    mmm_program_free(p);
}

/* Ids k0, k1, ... in the order of their kernels are found by their number
 * alone (the run of such ids from kernel 0); the ids after the run ends
 * (a kernel without a number, then numbers that are not their indices)
 * go through the array.  Every edge end is checked against the index
 * the kernel was added at, edges given in scrambled order. */
Test(program, numbered_ids_in_order_then_not)
{
    enum { RUN = 1000, NLATE = 8 };
    mmm_program *p = new_program(NULL);
    mmm_error err;
    char a[32], b[32];
    for (int i = 0; i < RUN; i++) {
        snprintf(a, sizeof a, "k%d", i);
        ok_kernel(p, a);
    }
    /* after the run: an id without a number ends it, a number equal to
     * its index after the end, numbers out of order, and ids that look
     * numbered but are not (a leading zero, no digits, a letter after the
     * digits, 10 digits): each is kernel RUN + its place here */
    const char *const late[NLATE] = {"start", "k1001", "k1000", "k5000",
                                     "k05",   "k",     "k1x",
                                     "k1234567890"};
    for (int i = 0; i < NLATE; i++)
        ok_kernel(p, late[i]);
    for (int i = 0; i < NLATE; i++)
        cr_assert_eq(mmm_program_find_kernel(p, late[i]), RUN + i, "%s",
                     late[i]);
    cr_assert_eq(mmm_program_find_kernel(p, "k1002"), -1);
    cr_assert_eq(mmm_program_find_kernel(p, "k005"), -1);
    cr_assert_eq(mmm_program_find_kernel(p, "k5x"), -1);
    /* edges u -> v, u < v, in a scrambled order, ends among all ids */
    enum { N = RUN + NLATE };
    size_t ne = 0;
    for (int j = 0; j < 3000; j++) {
        int u = (int)(((long)j * 7919) % (N - 1));
        int v = u + 1 + (int)(((long)j * 104729) % (N - 1 - u));
        const char *ua = u < RUN ? (snprintf(a, sizeof a, "k%d", u), a)
                                 : late[u - RUN];
        const char *vb = v < RUN ? (snprintf(b, sizeof b, "k%d", v), b)
                                 : late[v - RUN];
        ok_edge(p, ua, vb, 10 + j);
        cr_assert_eq(p->edges[ne].from, (uint32_t)u, "%s", ua);
        cr_assert_eq(p->edges[ne].to, (uint32_t)v, "%s", vb);
        ne++;
    }
    for (int i = 0; i < NLATE; i++) { /* every late id as both ends */
        ok_edge(p, "k7", late[i], 5000 + i);
        cr_assert_eq(p->edges[ne].to, (uint32_t)(RUN + i), "%s", late[i]);
        ne++;
        if (i > 0) {
            ok_edge(p, late[i], "start", 6000 + i);
            cr_assert_eq(p->edges[ne].from, (uint32_t)(RUN + i), "%s",
                         late[i]);
            ne++;
        }
    }
    cr_assert_eq(mmm_program_add_edge(p, "k999", "k5001", 9, &err), 0);
    cr_assert_eq(mmm_program_finalize(p, &err), MMM_EINPUT);
    cr_assert(strstr(err.message, "unknown kernel 'k5001'"), "%s",
              err.message);
    mmm_program_free(p);
}

/* Bytes [0, n) are whole UTF-8 characters. */
static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int k = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
                : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (k < 0)
            return 0;
        p++;
        while (k-- > 0)
            if ((*p++ & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

/* A message too long for the record keeps its start and its end (the
 * reason), with "..." in the middle, cut between UTF-8 characters. */
Test(program, long_messages_keep_their_reason)
{
    mmm_error err;
    size_t n = 3000;
    char *ascii = malloc(n + 1), *utf = malloc(2 * n + 1);
    cr_assert(ascii && utf);
    memset(ascii, 'y', n);
    ascii[n] = '\0';
    for (size_t i = 0; i < n; i++)
        memcpy(utf + 2 * i, "\xc3\xa9", 2); /* é */
    utf[2 * n] = '\0';
    const char *ids[] = {ascii, utf, utf + 1 /* starts mid-character */};
    for (size_t k = 0; k < 3; k++) {
        cr_assert_eq(mmm_error_set(&err, MMM_EINPUT, "f.xml", 3,
                                   "kernel '%s' reads or writes global "
                                   "memory but no parameter U is declared",
                                   ids[k]),
                     MMM_EINPUT);
        size_t len = strlen(err.message);
        const char *end = "' reads or writes global memory but no parameter "
                          "U is declared";
        cr_assert_lt(len, sizeof err.message);
        cr_expect_gt(len, sizeof err.message - 8, "%zu", len);
        cr_expect_eq(strncmp(err.message, "kernel '", 8), 0, "%s", err.message);
        cr_expect(strstr(err.message, "..."), "%s", err.message);
        cr_expect_str_eq(err.message + len - strlen(end), end);
        if (k < 2)
            cr_expect(valid_utf8(err.message), "case %zu", k);
        cr_expect_eq(err.line, 3);
        cr_expect_str_eq(err.file, "f.xml");
    }
    /* Through the loader: a 3000-character id in a program without U. */
    char *xml = malloc(n + 256);
    cr_assert_not_null(xml);
    int len = sprintf(xml, "<program name=\"p\">\n<kernel id=\"%s\" blocks=\"1\" "
                           "work=\"1\" span=\"1\" reads=\"1\" writes=\"1\"/>\n"
                           "</program>\n", ascii);
    mmm_program *p = NULL;
    mmm_instance *inst = NULL;
    int rc = mmm_program_load_memory(&p, xml, (size_t)len, "long.xml", NULL,
                                     &err);
    if (rc == 0) {
        cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
        rc = mmm_instance_eval(inst, NULL, 0, &err);
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
    cr_expect_lt(rc, 0);
    cr_expect(strstr(err.message, "no parameter U is declared"), "%s",
              err.message);
    free(xml);
    free(ascii);
    free(utf);
}

/* Kernel k (line 6) repeated n times with index "step". */
static int add_repeated(mmm_program *p, mmm_kernel_spec *s, const char *blocks,
                        long line, mmm_error *err)
{
    memset(s, 0, sizeof *s);
    s->id = "k";
    s->line = line;
    s->repeat = "n";
    s->index = "step";
    s->blocks = blocks;
    s->work = s->span = s->reads = s->writes = "1";
    return mmm_program_add_kernel(p, s, NULL, err);
}

/* What an unknown name is likely to be: another case or a slip of a
 * visible parameter or of the kernel's own index, or the index of another
 * kernel's repeat. */
Test(program, unknown_parameter_hints)
{
    mmm_program *p = new_program(NULL);
    mmm_error err;
    mmm_kernel_spec s;
    cr_assert_eq(mmm_program_add_param(p, "n", "8", NULL, NULL, 2, &err), 0);
    cr_assert_eq(mmm_program_add_param(p, "count", "8", NULL, NULL, 3, &err), 0);
    cr_assert_eq(add_kernel(p, "a", "N", 5, &err), MMM_EINPUT);
    cr_assert_str_eq(err.message, "unknown parameter 'N'; did you mean 'n'?");
    cr_assert_eq(add_kernel(p, "a", "cuont", 5, &err), MMM_EINPUT);
    cr_assert_str_eq(err.message,
                     "unknown parameter 'cuont'; did you mean 'count'?");
    /* a slip of the kernel's own index; nothing close: the names visible
     * there, the index too */
    cr_assert_eq(add_repeated(p, &s, "stpe + 1", 6, &err), MMM_EINPUT);
    cr_assert_str_eq(err.message,
                     "unknown parameter 'stpe'; did you mean 'step'?");
    s.blocks = "zzz";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), MMM_EINPUT);
    cr_assert_str_eq(err.message, "unknown parameter 'zzz'; known here: n, "
                                  "count, step (this kernel's index)");
    /* the index of another kernel */
    s.blocks = "step + 1";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), 0);
    cr_assert_eq(add_kernel(p, "b", "2 * step", 9, &err), MMM_EINPUT);
    cr_assert_eq(err.line, 9);
    cr_assert_str_eq(err.message,
                     "unknown parameter 'step'; 'step' is the index of the "
                     "repeat of kernel 'k' (line 6), known only inside that "
                     "kernel");
    mmm_program_free(p);
}
