/* gpu_check.h: turn a CUDA status into the caller's error buffer; used as
 * `if (gpu_check(call, "what", err, errlen)) goto fail;` so every return stays visible. */
#ifndef LBMR_GPU_CHECK_H
#define LBMR_GPU_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>

static inline int gpu_check(cudaError_t e, const char *what, char *err, size_t errlen)
{
    if (e == cudaSuccess) return 0;
    snprintf(err, errlen, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return 1;
}

#endif
