/* helpers/load_xml.c: see load_xml.h. */
#include "load_xml.h"

#include <criterion/criterion.h>
#include <string.h>

mmm_program *load_xml(const char *xml)
{
    mmm_program *prog = NULL;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    int rc = mmm_program_load_memory(&prog, xml, strlen(xml), "test.xml", &opt, &err);
    cr_assert_eq(rc, 0, "load: %s (line %ld)", err.message, err.line);
    return prog;
}
