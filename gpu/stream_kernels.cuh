/* stream_kernels.cuh: the CUDA STREAM backend's kernels. They move words (16-byte uint4 where
 * every address allows it, else 8 bytes or one element), ILP independent words in flight per
 * thread, grid-stride so any grid size covers the array. Included by stream_cuda.cu alone, which
 * instantiates and launches them. */
#ifndef LBMR_STREAM_KERNELS_CUH
#define LBMR_STREAM_KERNELS_CUH

#include <cuda_fp16.h>
#include <stddef.h>

#include "stream_model.h"
#include "stream_values.h"

struct ptrs19 {
    const char *s[19];
    char *d[19];
};

template <typename W, int ILP>
__global__ void copy_kernel(W *__restrict__ d, const W *__restrict__ s, size_t nw)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x * ILP;
    for (size_t i = (size_t)blockIdx.x * blockDim.x * ILP + threadIdx.x; i < nw; i += stride) {
        W r[ILP];
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j < nw) r[k] = s[j];
        }
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j < nw) d[j] = r[k];
        }
    }
}

/* 19 loads in flight, then 19 stores: the access pattern of one D3Q19 update per index. 19 uint4
 * words need about 90 registers: under a 1024-thread bound (64 each) ptxas spills them, so the
 * 16-byte kernel is bounded at COPY19_WIDE_MAX threads and larger blocks use 8-byte words
 * (-Xptxas -v: no spills in either). */
#define COPY19_WIDE_MAX 512
template <typename W, int MAXT>
__global__ void __launch_bounds__(MAXT) copy19_kernel(ptrs19 p, size_t nw)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nw; i += stride) {
        W r[19];
#pragma unroll
        for (int j = 0; j < 19; j++)
            r[j] = ((const W *)p.s[j])[i];
#pragma unroll
        for (int j = 0; j < 19; j++)
            ((W *)p.d[j])[i] = r[j];
    }
}

/* STREAM's scale, add, triad (STREAM_Q), load, store and update on words W holding
 * sizeof(W)/sizeof(T) values of type T. K is the kernel (a compile-time constant: each instance
 * keeps only its own loads and arithmetic). load: each thread sums in double, the block reduces
 * through warp shuffles and shared memory, thread 0 writes partial[blockIdx.x]. update reads and
 * writes d alone (its x is the same array and never touched, so __restrict__ holds). */
template <typename T, typename W> union lanes {
    W w;
    T t[sizeof(W) / sizeof(T)];
};

template <int K, typename T, typename W, int ILP>
__global__ void ops_kernel(W *__restrict__ d, const W *__restrict__ x, const W *__restrict__ y,
                           size_t nw, double *__restrict__ partial)
{
    constexpr int L = sizeof(W) / sizeof(T);
    constexpr bool in_place = K == STREAM_UPDATE;
    constexpr bool reads_x = K != STREAM_STORE, reads_y = K == STREAM_ADD || K == STREAM_TRIAD;
    const T q = (T)STREAM_Q;
    const size_t stride = (size_t)gridDim.x * blockDim.x * ILP;
    double sum = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x * ILP + threadIdx.x; i < nw; i += stride) {
        lanes<T, W> a[ILP], b[ILP];
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j < nw) {
                if (reads_x) a[k].w = in_place ? d[j] : x[j];
                if (reads_y) b[k].w = y[j];
            }
        }
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            size_t j = i + (size_t)k * blockDim.x;
            if (j >= nw) continue;
            if (K == STREAM_LOAD) {
#pragma unroll
                for (int l = 0; l < L; l++)
                    sum += (double)a[k].t[l];
            } else {
                lanes<T, W> r;
#pragma unroll
                for (int l = 0; l < L; l++) {
                    if (K == STREAM_SCALE)
                        r.t[l] = q * a[k].t[l];
                    else if (K == STREAM_ADD)
                        r.t[l] = a[k].t[l] + b[k].t[l];
                    else if (K == STREAM_TRIAD)
                        r.t[l] = a[k].t[l] + q * b[k].t[l];
                    else if (K == STREAM_UPDATE)
                        r.t[l] = (T)STREAM_UPDATE_Q * a[k].t[l];
                    else
                        r.t[l] = (T)STREAM_STORE_VALUE;
                }
                d[j] = r.w;
            }
        }
    }
    if (K == STREAM_LOAD) {
        __shared__ double warp_sums[32];
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
        for (int o = 16; o > 0; o /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, o);
        if (lane == 0) warp_sums[warp] = sum;
        __syncthreads();
        if (warp == 0) {
            sum = lane < (int)(blockDim.x / 32) ? warp_sums[lane] : 0.0;
            for (int o = 16; o > 0; o /= 2)
                sum += __shfl_down_sync(0xffffffffu, sum, o);
            if (lane == 0) partial[blockIdx.x] = sum;
        }
    }
}

template <typename T> __device__ T poison_value();
template <> __device__ float poison_value<float>()
{
    return __int_as_float(0x7fc00000);
}
template <> __device__ double poison_value<double>()
{
    return __longlong_as_double(0x7ff8000000000000ll);
}
template <> __device__ __half poison_value<__half>()
{
    return __ushort_as_half((unsigned short)0x7e00u);
}

/* source values of array `array`, or NaN poison where array < 0 (destinations) */
template <typename T> __global__ void init_kernel(T *p, size_t n, int array)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = array < 0 ? poison_value<T>() : (T)stream_value(i, (unsigned)array);
}

#endif
