/* sim_runs.c: the runs of one p under one or every policy, each checked
 * against its bounds, and the best of them (mmm_simulate_policies; `mmm
 * simulate`). */
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/notes.h"
#include "mmm/sim.h"

void mmm_sim_runs_dispose(mmm_sim_runs *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        mmm_sim_result_dispose(&r->runs[i]);
    free(r->runs);
    memset(r, 0, sizeof *r);
}

int mmm_simulate_policies(mmm_sim_runs *out, const mmm_instance *inst,
                          const mmm_sim_options *opt, int all, double mmm_bound,
                          mmm_notes *notes, mmm_error *err)
{
    mmm_sim_options o = MMM_SIM_OPTIONS_INIT;
    size_t n = all ? mmm_sim_policy_count() : 1;
    int rc;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_simulate_policies: missing argument");
    memset(out, 0, sizeof *out);
    if (!inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_simulate_policies: missing argument");
    MMM__CHECK_VERSION(opt, mmm_sim_options, SIM_OPTIONS, err);
    if (opt)
        MMM__COPY_OPTIONS(&o, opt, mmm_sim_options, 2, progress);
    if (!(out->runs = calloc(n, sizeof *out->runs)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        mmm_error e;
        char line[2048];
        if (all)
            o.policy = mmm_sim_policy_at(i);
        o.record = opt && opt->record && !all;
        if ((rc = mmm_simulate(&out->runs[i], inst, &o, err)) < 0)
            return rc;
        out->n = i + 1;
        if (mmm_sim_check(&out->runs[i], mmm_bound, &e) < 0) {
            out->nbad++;
            if (mmm__notes_add(notes, "%s", mmm_error_format(&e, line, sizeof line)) < 0)
                return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        }
        if (out->runs[i].makespan < out->runs[out->best].makespan)
            out->best = i;
    }
    if (all && opt && opt->record && !out->nbad) {
        /* the simulation is deterministic: the best run again, recorded */
        mmm_sim_result drawn;
        o.policy = out->runs[out->best].policy;
        o.record = 1;
        if ((rc = mmm_simulate(&drawn, inst, &o, err)) < 0)
            return rc;
        mmm_sim_result_dispose(&out->runs[out->best]);
        out->runs[out->best] = drawn;
    }
    return 0;
}
