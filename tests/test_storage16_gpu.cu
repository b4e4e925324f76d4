/* test_storage16_gpu.cu: the GPU's fp16c conversions (storage16.h's float-multiply ones, which the
 * kernels use) against the generic conversions, both run on the device, bit for bit: all 65536
 * codes decoded and every one of the 2^32 floats encoded. On the host the same comparison covers a
 * sample (test_storage16.c); here it also shows that the device code keeps float subnormals, which
 * the multiplies need (a flush to zero would change the subnormal codes). Exit 0 all equal, 1 any
 * differs, 77 no GPU (skipped). */
#include <stdio.h>

#include <cuda_runtime.h>

#include "storage16.h"

struct s16_diff {
    unsigned long long n;  /* conversions that differ */
    unsigned int first[4]; /* the first few inputs that differed (code or float bits) */
};

__device__ static void s16_note(struct s16_diff *d, unsigned int input)
{
    const unsigned long long k = atomicAdd(&d->n, 1ull);
    if (k < 4) d->first[k] = input;
}

__global__ static void s16_decode_all(struct s16_diff *d)
{
    const unsigned int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c > 0xffffu) return;
    const uint32_t got = __float_as_uint(lbm_fp16c_decode_scaled((uint16_t)c));
    const uint32_t want = __float_as_uint(lbm_fp16c_decode_generic((uint16_t)c));
    if (got != want) s16_note(d, c);
}

/* one launch covers 2^30 bit patterns from `high` << 30; each thread takes 16 */
__global__ static void s16_encode_quarter(struct s16_diff *d, uint32_t high)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    for (uint32_t k = 0; k < 16; k++) {
        const uint32_t b = high << 30 | t << 4 | k;
        const float x = __uint_as_float(b);
        if (lbm_fp16c_encode_scaled(x) != lbm_fp16c_encode_generic(x)) s16_note(d, b);
    }
}

static int s16_fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "test_storage16_gpu: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_storage16_gpu: no GPU, skipped\n");
        return 77;
    }
    struct s16_diff *d, h[2];
    cudaError_t e = cudaMalloc(&d, 2 * sizeof *d);
    if (e != cudaSuccess) return s16_fail("cudaMalloc", e);
    cudaMemset(d, 0, 2 * sizeof *d);
    s16_decode_all<<<256, 256>>>(d);
    for (uint32_t q = 0; q < 4; q++)
        s16_encode_quarter<<<(1u << 26) / 256, 256>>>(d + 1, q);
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return s16_fail("the comparison kernels", e);
    cudaFree(d);
    fprintf(stderr,
            "fp16c on the GPU, by multiplies against generic: decode 65536 codes, %llu differ",
            h[0].n);
    for (unsigned k = 0; k < h[0].n && k < 4; k++)
        fprintf(stderr, " 0x%04x", h[0].first[k]);
    fprintf(stderr, "; encode 2^32 floats, %llu differ", h[1].n);
    for (unsigned k = 0; k < h[1].n && k < 4; k++)
        fprintf(stderr, " 0x%08x", h[1].first[k]);
    fprintf(stderr, "\ntest_storage16_gpu: %s\n", h[0].n || h[1].n ? "FAILED" : "ok");
    return h[0].n || h[1].n ? 1 : 0;
}
