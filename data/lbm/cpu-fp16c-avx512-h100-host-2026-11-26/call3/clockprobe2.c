/* After 50 ms of work of one kind on every thread (AVX-512 FMAs, scalar adds, or idle sleep), the
 * register add chain read three times in a row on each thread (adds per us, ~ MHz): does the
 * clock read right after 512-bit work come out low, and does it recover within the next reading?
 * gcc -O2 -fopenmp -mavx512f clockprobe2.c */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static double chain(void)
{
    long turns = 400000;
    unsigned long x = 0;
    const unsigned long one = 1;
    double t0 = now();
    __asm__ volatile("1:\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd "
                     "%2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tdec %1\n\tjnz 1b"
                     : "+r"(x), "+r"(turns)
                     : "r"(one)
                     : "cc");
    return 4e6 / (now() - t0) * 1e-6;
}
static float sink;
static void work(int kind, double sec)
{
    double t0 = now();
    if (kind == 0) {
        __m512 a = _mm512_set1_ps(1.0f), b = _mm512_set1_ps(0.999f), c = _mm512_set1_ps(0.001f),
               d = a, e = a, f = a, g = a, h = a, i = a, j = a;
        while (now() - t0 < sec) {
            for (int k = 0; k < 1000; k++) {
                a = _mm512_fmadd_ps(a, b, c);
                d = _mm512_fmadd_ps(d, b, c);
                e = _mm512_fmadd_ps(e, b, c);
                f = _mm512_fmadd_ps(f, b, c);
                g = _mm512_fmadd_ps(g, b, c);
                h = _mm512_fmadd_ps(h, b, c);
                i = _mm512_fmadd_ps(i, b, c);
                j = _mm512_fmadd_ps(j, b, c);
            }
        }
        sink += _mm512_reduce_add_ps(
            _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a, d), _mm512_add_ps(e, f)),
                          _mm512_add_ps(_mm512_add_ps(g, h), _mm512_add_ps(i, j))));
    } else if (kind == 1) {
        while (now() - t0 < sec)
            chain();
    } else {
        struct timespec ts = {0, (long)(sec * 1e9)};
        nanosleep(&ts, 0);
    }
}
int main(void)
{
    const char *name[] = {"avx512-fma", "scalar", "sleep"};
    for (int rep = 0; rep < 3; rep++)
        for (int kind = 0; kind < 3; kind++) {
            double r[3][256];
            int n = 0;
#pragma omp parallel
            {
                int t = omp_get_thread_num();
#pragma omp single
                n = omp_get_num_threads();
                work(kind, 0.05);
#pragma omp barrier
                for (int k = 0; k < 3; k++)
                    r[k][t] = chain();
            }
            for (int k = 0; k < 3; k++) {
                double lo = 1e9, hi = 0;
                for (int t = 0; t < n; t++) {
                    if (r[k][t] < lo) lo = r[k][t];
                    if (r[k][t] > hi) hi = r[k][t];
                }
                printf("%-10s rep %d reading %d: threads %d  min %.0f max %.0f\n", name[kind], rep,
                       k, n, lo, hi);
            }
        }
    return 0;
}
