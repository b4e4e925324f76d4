/* test_storage16_gpu.cu: the GPU's fp16c conversions (storage16.h's float-multiply ones and the
 * device ones, which the kernels use) against the generic conversions, all run on the device, bit
 * for bit: all 65536 codes decoded and every one of the 2^32 floats encoded (the device decode of
 * the NaN code: any NaN). On the host test_storage16.c makes the same comparison of both on a
 * sample (every float with --all); here it also shows what the device conversions rest on: float
 * subnormals kept (a flush to zero would change the subnormal codes) and NaN results canonical (the
 * encode of every NaN). Exit 0 all equal, 1 any differs, 77 no GPU (skipped). */
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

/* the same bits, or both NaN */
__device__ static int s16_same(float a, float b)
{
    return isnan(a) ? isnan(b) : __float_as_uint(a) == __float_as_uint(b);
}

/* d[0]: the scaled decode, d[2]: the device one */
__global__ static void s16_decode_all(struct s16_diff *d)
{
    const unsigned int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c > 0xffffu) return;
    const uint32_t got = __float_as_uint(lbm_fp16c_decode_scaled((uint16_t)c));
    const uint32_t want = __float_as_uint(lbm_fp16c_decode_generic((uint16_t)c));
    if (got != want) s16_note(d, c);
    const float dev = lbm_fp16c_decode_dev((int16_t)c);
    if (!s16_same(dev, __uint_as_float(want))) s16_note(d + 2, c); /* the NaN code: any NaN */
    /* the paired decode: c in the low half, another code (all of them over the launch) high */
    const unsigned int c2 = (c * 40503u + 7u) & 0xffffu;
    const float2 p = lbm_fp16c_decode_dev2(c | c2 << 16);
    const float d2 = lbm_fp16c_decode_dev((int16_t)c2);
    if (!s16_same(p.x, dev) || !s16_same(p.y, d2)) s16_note(d + 2, c);
}

/* one launch covers 2^30 bit patterns from `high` << 30; each thread takes 16. d[1]: the scaled
 * encode, d[3]: the device one, alone and packed with another float's code as the paired kernels
 * pack two (pair_word<gpu_fp16c>::put) */
__global__ static void s16_encode_quarter(struct s16_diff *d, uint32_t high)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    for (uint32_t k = 0; k < 16; k++) {
        const uint32_t b = high << 30 | t << 4 | k;
        const float x = __uint_as_float(b);
        const uint16_t want = lbm_fp16c_encode_generic(x);
        if (lbm_fp16c_encode_scaled(x) != want) s16_note(d + 1, b);
        const float y = __uint_as_float(b * 2654435761u); /* a partner spread over all floats */
        const unsigned int pair =
            __byte_perm(lbm_fp16c_encode_dev_hi(x), lbm_fp16c_encode_dev_hi(y), 0x7632u);
        if (lbm_fp16c_encode_dev(x) != want ||
            pair != ((unsigned int)want | (unsigned int)lbm_fp16c_encode_generic(y) << 16))
            s16_note(d + 3, b);
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
    struct s16_diff *d, h[4];
    cudaError_t e = cudaMalloc(&d, sizeof h);
    if (e != cudaSuccess) return s16_fail("cudaMalloc", e);
    cudaMemset(d, 0, sizeof h);
    s16_decode_all<<<256, 256>>>(d);
    for (uint32_t q = 0; q < 4; q++)
        s16_encode_quarter<<<(1u << 26) / 256, 256>>>(d, q);
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return s16_fail("the comparison kernels", e);
    cudaFree(d);
    int bad = 0;
    for (int v = 0; v < 2; v++) {
        const struct s16_diff *dec = &h[2 * v], *enc = &h[2 * v + 1];
        fprintf(stderr, "fp16c on the GPU, %s against generic: decode 65536 codes, %llu differ",
                v ? "device conversions" : "by multiplies", dec->n);
        for (unsigned k = 0; k < dec->n && k < 4; k++)
            fprintf(stderr, " 0x%04x", dec->first[k]);
        fprintf(stderr, "; encode 2^32 floats, %llu differ", enc->n);
        for (unsigned k = 0; k < enc->n && k < 4; k++)
            fprintf(stderr, " 0x%08x", enc->first[k]);
        fprintf(stderr, "\n");
        bad |= dec->n || enc->n;
    }
    fprintf(stderr, "test_storage16_gpu: %s\n", bad ? "FAILED" : "ok");
    return bad;
}
