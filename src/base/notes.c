/* notes.c: the lines a call has to say (mmm_notes, mmm/error.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/grow.h"
#include "base/notes.h"

int mmm__notes_vadd(mmm_notes *notes, const char *fmt, va_list ap)
{
    va_list again;
    char **line;
    char *s;
    int n;
    if (!notes)
        return 0;
    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    line = s ? mmm__grow(notes->line, &notes->cap, notes->n + 1, sizeof *line, 4) : NULL;
    if (!line) {
        free(s);
        return MMM_ENOMEM;
    }
    notes->line = line;
    line[notes->n++] = s;
    return 0;
}

int mmm__notes_add(mmm_notes *notes, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = mmm__notes_vadd(notes, fmt, ap);
    va_end(ap);
    return r;
}

void mmm_notes_dispose(mmm_notes *notes)
{
    if (!notes)
        return;
    for (size_t i = 0; i < notes->n; i++)
        free(notes->line[i]);
    free(notes->line);
    notes->line = NULL;
    notes->n = notes->cap = 0;
}
