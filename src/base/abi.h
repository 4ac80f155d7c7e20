/* abi.h: the check of a versioned struct's `version` field (docs/library.md,
 * "ABI"): a caller fills a struct of the layout its header declared, marked
 * by the INIT macro or the *_init() function with the version of that
 * header; the library reads it only when it knows that version. */
#ifndef MMM_BASE_ABI_H
#define MMM_BASE_ABI_H

#include <stddef.h>
#include <string.h>

#include "mmm/error.h"

/* 0 when version is one the library reads (1 .. current), else
 * MMM_EINVAL with a message naming the struct and its INIT macro. */
static inline int mmm__version_check(unsigned int version, unsigned int current,
                                     const char *type, const char *init,
                                     mmm_error *err)
{
    if (version >= 1 && version <= current)
        return MMM_OK;
    return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                         "%s: version %u is unknown to this library (it reads "
                         "1 to %u): set it up with %s or %s_init()",
                         type, version, current, init, type);
}

/* Check opt->version when opt is not NULL; returns from the calling
 * function on failure. TYPE is the struct's name, MACRO its macros'
 * stem (LOAD_OPTIONS for MMM_LOAD_OPTIONS_VERSION/_INIT). */
#define MMM__CHECK_VERSION(opt, TYPE, MACRO, err)                             \
    do {                                                                      \
        if ((opt) != NULL) {                                                  \
            int rc_v_ = mmm__version_check((opt)->version,                    \
                                           MMM_##MACRO##_VERSION, #TYPE,      \
                                           "MMM_" #MACRO "_INIT", (err));     \
            if (rc_v_ < 0)                                                    \
                return rc_v_;                                                 \
        }                                                                     \
    } while (0)

/* The progress function of options opt (NULL when opt is NULL or of a
 * version before the one that added it, v). */
#define MMM__PROGRESS(opt, v) ((opt) != NULL && (opt)->version >= (v) ? (opt)->progress : NULL)

/* *dst = *opt for options of any version that the library reads: the
 * fields up to first_new (the first one version v added) when opt is
 * older, the defaults in dst after them. */
#define MMM__COPY_OPTIONS(dst, opt, TYPE, v, first_new)                       \
    memcpy((dst), (opt), (opt)->version >= (v) ? sizeof(TYPE) : offsetof(TYPE, first_new))

/* mmm_import_options and the mmm_load_options inside it. */
#define MMM__CHECK_IMPORT_OPTIONS(opt, err)                                   \
    do {                                                                      \
        MMM__CHECK_VERSION((opt), mmm_import_options, IMPORT_OPTIONS, (err)); \
        if ((opt) != NULL)                                                    \
            MMM__CHECK_VERSION(&(opt)->load, mmm_load_options, LOAD_OPTIONS,  \
                               (err));                                        \
    } while (0)

#endif
