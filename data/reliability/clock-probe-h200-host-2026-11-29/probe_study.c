/* probe_study.c (session 34): why the clock probe reads low on the H200 host's 16 cores after
 * lbm repetitions. Conditions, 8 rounds each: idle (200 ms asleep), after 100 ms of a 512-bit
 * copy, after a scalar copy, after 512-bit FMA compute. For each: a train of 24 short chains
 * (ADDS/8 = 0.5e6 adds, ~0.2 ms each) on every thread right after the work; prints, per chain
 * index, the slowest and median thread's MHz (a recovery curve: a frequency licence recovers
 * along the train on every thread; an interruption hits one thread at a random index), and the
 * full 4e6-add chain's min/med/max (as cpu_clock.c reads it) right after the same work. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <immintrin.h>
#define ADDS 4000000L
#define TRAIN 24
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
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static int nth;
static void full(const char *what, int round)
{
    double *m = calloc(nth, sizeof *m);
    int *cpu = calloc(nth, sizeof *cpu);
#pragma omp parallel
    {
        double t0;
#pragma omp barrier
        t0 = now_s();
        add_chain(ADDS);
        m[omp_get_thread_num()] = ADDS / (now_s() - t0) * 1e-6;
        cpu[omp_get_thread_num()] = sched_getcpu();
    }
    int lo = 0;
    for (int i = 1; i < nth; i++)
        if (m[i] < m[lo]) lo = i;
    int locpu = cpu[lo];
    qsort(m, nth, sizeof *m, cmp);
    printf("full %-7s %d min %5.0f (cpu %2d) p25 %5.0f med %5.0f max %5.0f\n", what, round, m[0],
           locpu, m[nth / 4], m[nth / 2], m[nth - 1]);
    free(m);
    free(cpu);
}
static void train(const char *what, int round)
{
    double(*m)[TRAIN] = calloc(nth, sizeof *m);
#pragma omp parallel
    {
        int t = omp_get_thread_num();
#pragma omp barrier
        for (int k = 0; k < TRAIN; k++) {
            double t0 = now_s();
            add_chain(ADDS / 8);
            m[t][k] = ADDS / 8 / (now_s() - t0) * 1e-6;
        }
    }
    printf("train %-7s %d min:", what, round);
    double col[256];
    for (int k = 0; k < TRAIN; k++) {
        for (int t = 0; t < nth; t++)
            col[t] = m[t][k];
        qsort(col, nth, sizeof *col, cmp);
        printf(" %4.0f", col[0]);
    }
    printf("\ntrain %-7s %d med:", what, round);
    for (int k = 0; k < TRAIN; k++) {
        for (int t = 0; t < nth; t++)
            col[t] = m[t][k];
        qsort(col, nth, sizeof *col, cmp);
        printf(" %4.0f", col[nth / 2]);
    }
    printf("\n");
    free(m);
}
__attribute__((optimize("no-tree-vectorize"))) static void copy_scalar(float *a, const float *b,
                                                                       size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + 1.0f;
}
static void copy_vec(float *a, const float *b, size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + 1.0f;
}
static float fma_vec(void)
{
    float s = 0;
#pragma omp parallel reduction(+ : s)
    {
        __m512 a = _mm512_set1_ps(1.0001f), b = _mm512_set1_ps(0.9999f), c0 = _mm512_setzero_ps(),
               c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
        for (long i = 0; i < 20000000; i++) {
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
int main(void)
{
    size_t n = (size_t)1 << 28;
    float *a = malloc(n * 4), *b = malloc(n * 4);
    float s = 0;
    nth = omp_get_max_threads();
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) {
        a[i] = 0;
        b[i] = (float)i;
    }
    for (int r = 0; r < 8; r++) {
        usleep(200000);
        full("idle", r);
        usleep(200000);
        train("idle", r);
        for (double t = now_s(); now_s() - t < 0.1;)
            copy_vec(a, b, n / 8);
        full("avx512", r);
        for (double t = now_s(); now_s() - t < 0.1;)
            copy_vec(a, b, n / 8);
        train("avx512", r);
        for (double t = now_s(); now_s() - t < 0.1;)
            copy_scalar(a, b, n / 8);
        full("scalar", r);
        for (double t = now_s(); now_s() - t < 0.1;)
            copy_scalar(a, b, n / 8);
        train("scalar", r);
        s += fma_vec();
        full("fma512", r);
        s += fma_vec();
        train("fma512", r);
    }
    printf("%f %f\n", a[12345], s);
    return 0;
}
