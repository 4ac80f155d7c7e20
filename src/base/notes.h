/* base/notes.h: adding to an mmm_notes (mmm/error.h).  Internal. */
#ifndef MMM_BASE_NOTES_H
#define MMM_BASE_NOTES_H

#include <stdarg.h>

#include "mmm/error.h"

/* Append one printf-formatted line to notes (NULL: nothing).  0, or
 * MMM_ENOMEM with notes unchanged. */
int mmm__notes_add(mmm_notes *notes, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same with the arguments in a va_list. */
int mmm__notes_vadd(mmm_notes *notes, const char *fmt, va_list ap);

#endif
