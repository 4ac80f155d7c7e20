/* helpers/load_xml.h: a program from XML text, for the tests. */
#ifndef MMM_TEST_LOAD_XML_H
#define MMM_TEST_LOAD_XML_H

#include "mmm/program.h"

/* The program of xml (named "test.xml" in messages), loaded with the
 * default options; a program that does not load fails the current test. */
mmm_program *load_xml(const char *xml);

#endif
