/* pairs.c (session 34): does a repetition's time follow the clock probe around it? 400
 * repetitions each of a memory-bound 512-bit copy (1 GiB arrays, as the lbm rows are DRAM-bound)
 * and of a compute-bound 512-bit FMA loop (as fp16c is nearly), each with the add-chain probe of
 * cpu/cpu_clock.c (4e6 adds, every thread, slowest and fastest thread) right before and after.
 * Prints one line per repetition: kind, seconds, before min/max MHz, after min/max MHz. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define ADDS 4000000L
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static void add_chain(long adds)
{
    long turns = adds / 10;
    const unsigned long one = 1;
    unsigned long x = 0;
    __asm__ volatile(
        "1:\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
        "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tdec %1\n\tjnz 1b"
        : "+r"(x), "+r"(turns)
        : "r"(one)
        : "cc");
}
static void probe(double *lo, double *hi)
{
    double l = 1e300, h = 0;
#pragma omp parallel reduction(min : l) reduction(max : h)
    {
        double t0;
#pragma omp barrier
        t0 = now_s();
        add_chain(ADDS);
        double m = ADDS / (now_s() - t0) * 1e-6;
        l = m;
        h = m;
    }
    *lo = l;
    *hi = h;
}
static void copy_vec(float *restrict a, const float *restrict b, size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + 1.0f;
}
static float fma_vec(long iters)
{
    float s = 0;
#pragma omp parallel reduction(+ : s)
    {
        __m512 a = _mm512_set1_ps(1.0001f), b = _mm512_set1_ps(0.9999f), c0 = _mm512_setzero_ps(),
               c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
        for (long i = 0; i < iters; i++) {
            c0 = _mm512_fmadd_ps(a, b, c0);
            c1 = _mm512_fmadd_ps(a, b, c1);
            c2 = _mm512_fmadd_ps(a, b, c2);
            c3 = _mm512_fmadd_ps(a, b, c3);
            c4 = _mm512_fmadd_ps(a, b, c4);
            c5 = _mm512_fmadd_ps(a, b, c5);
            c6 = _mm512_fmadd_ps(a, b, c6);
            c7 = _mm512_fmadd_ps(a, b, c7);
        }
        s += _mm512_reduce_add_ps(
            _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                          _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7))));
    }
    return s;
}
int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 400;
    size_t n = (size_t)1 << 28;
    float *a = malloc(n * 4), *b = malloc(n * 4);
    float s = 0;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] = 0;
        b[i] = (float)i;
    }
    for (int r = 0; r < reps; r++) {
        double bl, bh, al, ah, t0, t;
        probe(&bl, &bh);
        t0 = now_s();
        copy_vec(a, b, n);
        t = now_s() - t0;
        probe(&al, &ah);
        printf("copy %.6f %.0f %.0f %.0f %.0f\n", t, bl, bh, al, ah);
        probe(&bl, &bh);
        t0 = now_s();
        s += fma_vec(4000000);
        t = now_s() - t0;
        probe(&al, &ah);
        printf("fma %.6f %.0f %.0f %.0f %.0f\n", t, bl, bh, al, ah);
    }
    fprintf(stderr, "%f %f\n", a[12345], s);
    return 0;
}
