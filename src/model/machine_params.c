/* machine_params.c: which names of a machine file a program sees.  The
 * models' machine parameters (the MMM's U, Z, p; the TMM's P, Q, C, L, X)
 * are parameters of the program: its expressions use them, and a program
 * may declare them with a default that the machine's value replaces.  Any
 * other name of a machine file (the time model's constants, the balance
 * principle's, a calibration's notes) is a constant of the machine: kept
 * among the program's params (so that it is shown, and -D can set it) but
 * in a table of its own, unseen by expressions, and a program parameter of
 * the same name is the program's own.  The models read their machine
 * through mmm_program_find_machine_param. */
#include <string.h>

#include "model/program_internal.h"

static const char *const model_params[] = {"U", "Z", "p", "P",
                                           "Q", "C", "L", "X"};
#define NMODEL (sizeof model_params / sizeof model_params[0])

const char *mmm_model_machine_param(size_t i)
{
    return i < NMODEL ? model_params[i] : NULL;
}

int mmm__model_param_is(const char *name)
{
    for (size_t i = 0; name && i < NMODEL; i++)
        if (!strcmp(model_params[i], name))
            return 1;
    return 0;
}

int mmm__param_find_visible(const mmm_program *p, const char *name)
{
    if (!p || !name)
        return -1;
    return (int)mmm__idtab_find(p->priv, &p->priv->param_tab,
                                mmm__param_name, name, strlen(name));
}

int mmm_program_find_machine_param(const mmm_program *p, const char *name)
{
    if (!p || !name)
        return -1;
    long slot = mmm__idtab_find(p->priv, &p->priv->machine_tab,
                                mmm__param_name, name, strlen(name));
    return slot >= 0 ? (int)slot : mmm__param_find_visible(p, name);
}
