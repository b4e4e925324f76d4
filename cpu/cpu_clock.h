/* cpu_clock.h: the effective core clock of every OpenMP thread, read from a dependent chain of
 * integer adds (one cycle each), so that a repetition timed while the host lent our cores to
 * other work (a shared SMT sibling, a time slice, a lowered frequency) can be told apart. */
#ifndef LBMR_CPU_CLOCK_H
#define LBMR_CPU_CLOCK_H

/* Adds in one probe per thread: about 1.1 ms at 3.5 GHz, 2 ms at 2 GHz; short against a timed
 * repetition (lbm-cpu aims at 100 ms), long against the clock's own granularity (ns). */
#define CPU_CLOCK_ADDS 4000000L

/* Times the add chain on each thread of a team of `threads` OpenMP threads (0: the runtime's
 * count), placed as the run's threads are (OMP_PROC_BIND/OMP_PLACES), all at once: *low_MHz and
 * *high_MHz are the slowest and the fastest thread's adds per microsecond, which is the core
 * clock in MHz on x86-64 and aarch64 (one add per cycle); elsewhere a portable loop of unknown
 * cycles per step gives a figure proportional to the clock. Always 0.
 * Test hook: LBMR_CLOCK_FAKE="3500,3500,2000,..." in the environment replaces the readings, one
 * value per call (low and high alike), the last repeated once the list is spent; nothing is
 * timed then. */
int cpu_clock_probe(int threads, double *low_MHz, double *high_MHz);

#endif
