/* Stand-in for CUMODP's include/cudaDiv.h (not upstream): the upstream
 * header fixes T = s = 512, t = 2 as constants and pulls in the whole
 * library; prof_cumodp.cu instead defines T, s and t in one namespace per
 * value of s (the "compile-time constants set on the command line") and
 * includes src/cudaDiv.cu there.  This header only brings what the kernels
 * need: sfixn (types.h with LINUXINTEL64) and the modular arithmetic of
 * include/inlines.h. */
#ifndef PROF_CUMODP_CUDADIV_SHIM_H
#define PROF_CUMODP_CUDADIV_SHIM_H
#include <iostream>
#include <ctime>
#include <cmath>
#include <stdio.h>
#include <stdlib.h>
#include "defines.h"
#include "inlines.h"
#endif
