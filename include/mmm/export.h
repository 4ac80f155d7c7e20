/**
 * mmm/export.h: MMM_API marks the functions and objects of the public API.
 *
 * The library is compiled with -fvisibility=hidden, so a shared libmmm
 * exports exactly what carries MMM_API: the mmm_* names declared in the
 * headers of include/mmm/.  Names shared between the library's own files
 * are mmm__* and stay hidden; everything else is static.
 */
#ifndef MMM_EXPORT_H
#define MMM_EXPORT_H

#if defined(__GNUC__) && __GNUC__ >= 4
#define MMM_API __attribute__((visibility("default")))
#else
#define MMM_API
#endif

#endif
