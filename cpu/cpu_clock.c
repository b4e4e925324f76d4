/* cpu_clock.c: the effective core clock of every OpenMP thread from a dependent add chain. */
#define _GNU_SOURCE
#include "cpu_clock.h"

#include <omp.h>
#include <stdlib.h>
#include <time.h>

#define FAKE_MAX 4096 /* readings LBMR_CLOCK_FAKE may list */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU_CLOCK_ADDS dependent adds: ten per loop turn, so that the chain (one cycle per add), not
 * the loop's own branch, sets the pace. Register to register: Golden Cove cores (Sapphire and
 * Emerald Rapids) fold adds of small immediates at rename, several a cycle, so an immediate chain
 * read 12-15 GHz there and varied with no link to the clock, and every repetition counted as
 * disturbed (data/lbm/cpu-fp16c-avx512-h100-host-2026-11-26). */
static void add_chain(void)
{
    long turns = CPU_CLOCK_ADDS / 10;
    const unsigned long one = 1;
#if defined(__x86_64__)
    unsigned long x = 0;
    __asm__ volatile("1:\n\t"
                     "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
                     "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
                     "dec %1\n\t"
                     "jnz 1b"
                     : "+r"(x), "+r"(turns)
                     : "r"(one)
                     : "cc");
#elif defined(__aarch64__)
    unsigned long x = 0;
    __asm__ volatile("1:\n\t"
                     "add %0, %0, %2\n\tadd %0, %0, %2\n\tadd %0, %0, %2\n\tadd %0, %0, %2\n\t"
                     "add %0, %0, %2\n\tadd %0, %0, %2\n\tadd %0, %0, %2\n\tadd %0, %0, %2\n\t"
                     "add %0, %0, %2\n\tadd %0, %0, %2\n\t"
                     "subs %1, %1, #1\n\t"
                     "b.ne 1b"
                     : "+r"(x), "+r"(turns)
                     : "r"(one)
                     : "cc");
#else
    (void)one;
    /* volatile: each step a load and a store the compiler keeps; several cycles each, the
     * same number every time, so the rate still follows the clock */
    volatile unsigned long x = 0;
    for (long i = 0; i < turns * 10; i++)
        x = x + 1;
#endif
}

/* The next LBMR_CLOCK_FAKE reading into *v: 1, or 0 without the variable. */
static int fake_reading(double *v)
{
    static double list[FAKE_MAX];
    static int n = -1, next;
    if (n < 0) {
        const char *s = getenv("LBMR_CLOCK_FAKE");
        n = 0;
        while (s && *s && n < FAKE_MAX) {
            char *end;
            list[n++] = strtod(s, &end);
            s = *end == ',' ? end + 1 : "";
        }
    }
    if (n == 0) return 0;
    *v = list[next < n ? next : n - 1];
    next += next < n;
    return 1;
}

int cpu_clock_probe(int threads, double *low_MHz, double *high_MHz)
{
    double low = 1e300, high = 0, fake;
    if (fake_reading(&fake)) {
        *low_MHz = *high_MHz = fake;
        return 0;
    }
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads()) reduction(min      \
                                                                                          : low)   \
    reduction(max                                                                                  \
              : high)
    {
        double t0, mhz;
#pragma omp barrier
        t0 = now_s(); /* all threads at once, as the kernels run them */
        add_chain();
        mhz = (double)CPU_CLOCK_ADDS / (now_s() - t0) * 1e-6;
        low = mhz;
        high = mhz;
    }
    *low_MHz = low;
    *high_MHz = high;
    return 0;
}
