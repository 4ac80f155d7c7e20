/* calibrate_cuda.h: the entry of the GPU module (cuda/calibrate.cu), for
 * the calibrate command.  Private to mmm's command-line tool. */
#ifndef MMM_CALIBRATE_CUDA_H
#define MMM_CALIBRATE_CUDA_H

#include <stddef.h>

#include "mmm/calibrate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the microbenchmarks on CUDA device `device` (--quick when quick) and
 * fill *raw.  Returns 0, or -1 with a one-line reason in msg. */
int mmm__cuda_calibrate(mmm_calib_raw *raw, int device, int quick, char *msg,
                        size_t msglen);

#ifdef __cplusplus
}
#endif
#endif
