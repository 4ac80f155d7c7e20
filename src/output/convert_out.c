/* convert_out.c: what `mmm convert` writes besides the program: the
 * comment at the head of the XML saying where it came from. */
#include <stdio.h>

#include "output/output_internal.h"
#include "mmm/version.h"

char *mmm_import_comment(char *buf, size_t size, const char *in,
                         const mmm_import_report *rep, mmm_time_unit time_unit)
{
    static const char *const units[] = {"us", "s", "ms", "ns"};
    const char *unit = units[(unsigned)time_unit < 4 ? (unsigned)time_unit : 0];
    if (!buf || !size)
        return buf;
    if (!in || !rep) {
        buf[0] = '\0';
        return buf;
    }
    size_t n = 0;
    n += (size_t)snprintf(buf + n, size - n, "  Converted by mmm " MMM_VERSION_STRING
                          " from %s\n  (%s", in,
                          mmm_input_format_name(rep->format));
    if (n < size && rep->format != MMM_INPUT_MMM)
        n += (size_t)snprintf(buf + n, size - n, ": %zu tasks, %zu distinct edges",
                              rep->ntasks, rep->nedges);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, ").");
    if (n < size && (rep->format == MMM_INPUT_WFCOMMONS || rep->format == MMM_INPUT_DAX))
        n += (size_t)snprintf(buf + n, size - n,
                              "\n  Runtimes in seconds written as integers in %s.",
                              unit);
    if (n < size && rep->format != MMM_INPUT_MMM && rep->format != MMM_INPUT_CUDA_DOT)
        n += (size_t)snprintf(buf + n, size - n,
                              "\n  Each task is a kernel of one block: work = span = "
                              "its cost, no memory traffic.");
    if (n < size && rep->note[0])
        snprintf(buf + n, size - n, "\n  Note: %s", rep->note);
    return buf;
}
