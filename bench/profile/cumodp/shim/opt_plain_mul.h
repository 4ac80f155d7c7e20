/* Stand-in for CUMODP's include/opt_plain_mul.h (not upstream): BLOCK, Tx
 * and T = Tx*BLOCK + BLOCK - 1 are defined by prof_cumodp.cu in one
 * namespace per (BLOCK, Tx) before src/opt_plain_mul.cu is included there. */
#ifndef PROF_CUMODP_MUL_SHIM_H
#define PROF_CUMODP_MUL_SHIM_H
#include <iostream>
#include <ctime>
#include <cmath>
#include <stdio.h>
#include <stdlib.h>
#include "inlines.h"
#endif
