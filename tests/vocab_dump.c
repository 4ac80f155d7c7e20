/* vocab_dump.c: the library's vocabularies as lines of tab-separated
 * fields, for tests/vocab_check.py (ctest vocab), which compares them
 * with dags/mmm.xsd, docs/format.md, docs/time.md and `mmm fit --help`:
 *
 *   attr     NAME UNIT DEFAULT          the block attributes (mmm/attr.h)
 *   machine  NAME UNIT DEFAULT FIT CAL  the time model's machine constants
 *                                       (src/time/time_inputs.h); FIT 1:
 *                                       mmm fit may free it (2: optional),
 *                                       CAL 1: mmm calibrate measures it
 *   model    NAME                       the models' machine parameters
 */
#include <stdio.h>

#include "mmm/mmm.h"
#include "time/time_inputs.h"

int main(void)
{
    for (size_t a = 0; a < mmm_attr_count(); a++)
        printf("attr\t%s\t%s\t%s\n", mmm_attr_name((mmm_attr)a),
               mmm_attr_unit((mmm_attr)a), mmm_attr_default_text((mmm_attr)a));
    for (int i = 0; i < MMM__TI_N; i++) {
        unsigned f = mmm__time_input_flags(i);
        printf("machine\t%s\t%s\t%s\t%d\t%d\n", mmm__time_input_name(i),
               mmm__time_input_unit(i), mmm__time_input_default_text(i),
               mmm__time_input_fitted(i) ? ((f & TI_OPTIONAL) ? 2 : 1) : 0,
               (f & TI_CALIBRATED) != 0);
    }
    const char *m;
    for (size_t i = 0; (m = mmm_model_machine_param(i)) != NULL; i++)
        printf("model\t%s\n", m);
    return 0;
}
