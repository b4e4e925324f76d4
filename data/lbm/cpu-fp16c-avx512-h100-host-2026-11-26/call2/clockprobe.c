/* the two add chains (immediate, register) timed on one thread: adds per microsecond */
#include <stdio.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(void)
{
    for (int rep = 0; rep < 5; rep++) {
        long turns = 400000;
        unsigned long x = 0;
        const unsigned long one = 1;
        double t0 = now();
        __asm__ volatile(
            "1:\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd "
            "$1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tdec %1\n\tjnz 1b"
            : "+r"(x), "+r"(turns)::"cc");
        double a = 4e6 / (now() - t0) * 1e-6;
        turns = 400000;
        t0 = now();
        __asm__ volatile(
            "1:\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd "
            "%2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tadd %2,%0\n\tdec %1\n\tjnz 1b"
            : "+r"(x), "+r"(turns)
            : "r"(one)
            : "cc");
        double b = 4e6 / (now() - t0) * 1e-6;
        printf("immediate %.0f  register %.0f adds/us\n", a, b);
    }
    return 0;
}
