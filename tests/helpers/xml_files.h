/* helpers/xml_files.h: every .xml file under a folder, for the tests that
 * go through the bundled programs. */
#ifndef MMM_TEST_XML_FILES_H
#define MMM_TEST_XML_FILES_H

/* Call fn(path, arg) for every regular file named *.xml under dir, in its
 * subfolders too (names starting with '.' are skipped); returns how many.
 * A folder that cannot be opened, or nesting deeper than 16, fails the
 * current test. */
int for_each_xml_file(const char *dir, void (*fn)(const char *path, void *arg),
                      void *arg);

#endif
