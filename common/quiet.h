/* quiet.h: timed repetitions made while the machine was undisturbed. The backend's clock probe
 * (device_facts.clock_probe: the cpu's effective core clock) runs right before and right after
 * every timed repetition, outside the timed region; a repetition is disturbed when a reading
 * around it falls below QUIET_CLOCK_FRACTION of the highest clock the process has seen. The
 * drivers repeat until they have the quiet repetitions they want or QUIET_ATTEMPTS_FACTOR times
 * as many attempts, and time the row from the quiet ones. */
#ifndef LBMR_QUIET_H
#define LBMR_QUIET_H

#ifdef __cplusplus
extern "C" {
#endif

/* A repetition whose probe reads below this fraction of the highest clock seen is disturbed.
 * 75%: a vCPU that shares its core with another tenant reads half the clock or less (1000-2000
 * MHz against 3500 on a 2-vCPU KVM guest). 90% judged whole hosts disturbed: on the 16-core KVM
 * hosts of the H200 machines the slowest of 16 threads reads 58-91% of the highest reading even
 * idle, and of 395 repetitions of a 512-bit copy none read 90%, 71% read 75% or more; those
 * under 75% ran 7% slower than the median, those above at or under it
 * (data/reliability/clock-probe-h200-host-2026-11-29). */
#define QUIET_CLOCK_PERCENT 75
#define QUIET_CLOCK_FRACTION (QUIET_CLOCK_PERCENT / 100.0)
/* At most this many attempts per quiet repetition wanted: the disturbances seen last seconds,
 * so four times the repetitions bounds the wait while giving them time to pass. */
#define QUIET_ATTEMPTS_FACTOR 4

/* Timed seconds between two probes, at least: repetitions shorter than this share one pair of
 * probes (a block, judged as one), so that the probe (1-2 ms) costs at most about 4% of the time
 * however short a repetition is (a 64 KiB copy takes microseconds). The disturbances it looks for
 * last seconds. */
#define QUIET_PROBE_SPACING_S 0.05

/* A clock probe: the slowest and fastest thread of a team of `threads` (0: the backend's
 * default), MHz. 0, or nonzero when it cannot read (the repetition then counts as quiet). */
typedef int (*quiet_probe_fn)(int threads, double *low_MHz, double *high_MHz);

struct quiet_judge {
    quiet_probe_fn probe; /* NULL: no judging (gpu rows, --quiet-wait off): every rep counts */
    int threads;          /* the team the probe times: the case's threads */
    double high;          /* highest reading of the process so far, MHz (0: none) */
    /* the current timed set's: */
    int wanted; /* quiet repetitions wanted */
    int made;   /* repetitions made */
    int room;
    double *low;    /* per repetition made: the lowest reading right before or after its block,
                     * MHz (those of the open block: not read yet) */
    int pending;    /* repetitions of the open block (made since the last probe) */
    int nquiet;     /* quiet ones among the closed blocks, judged against high */
    double since;   /* their timed seconds */
    double before;  /* the reading that opened the block */
    double row_low; /* the lowest reading of the set, MHz */
    /* the highest reading of a distributed row's processes (quiet_show_clocks); 0: none */
    double show_high;
    int open_vetoed;  /* vetoed repetitions among the open block's (`pending`) */
    int changed_from; /* the first repetition judged anew here since quiet_changed_since last
                         looked; INT_MAX: none */
    /* per repetition made: 1 where another process of a distributed run judged it disturbed
     * (quiet_veto); those ranks ran it together, so it was disturbed for the row */
    unsigned char *veto;
};

/* Starts a timed set that wants `wanted` quiet repetitions: probes before the first. */
void quiet_begin(struct quiet_judge *q, int wanted);
/* After each timed repetition, which took `seconds`: probes when the open block has lasted
 * QUIET_PROBE_SPACING_S, or when its repetitions would complete the set (so a set always ends on
 * a probe); the reading closes the block and opens the next. 0, or 1 when memory ran out. */
int quiet_after(struct quiet_judge *q, double seconds);
/* 1 while another repetition is needed: fewer quiet ones (and unread ones) than wanted and
 * attempts left (without a probe: fewer made than wanted). */
int quiet_more(const struct quiet_judge *q);
/* The quiet repetitions made, judged against the highest clock seen by now. */
int quiet_count(const struct quiet_judge *q);
/* Moves the times of the quiet repetitions of times[0..made) to the front, in order: their
 * count, or `made` (all of them) when none was quiet. */
int quiet_select(const struct quiet_judge *q, double *times);

/* Whether this process judged repetition i (< made) disturbed, by its own readings alone: what
 * the other processes of a distributed run need to know of it (a repetition of the open block is
 * not judged yet: 0). */
int quiet_disturbed_here(const struct quiet_judge *q, int i);
/* Repetition i (< made) was judged disturbed by another process: from now on it is disturbed here
 * too, and the count, the selection and the row follow. */
void quiet_veto(struct quiet_judge *q, int i);
/* The first repetition whose judgement here changed since the last call (its block closed, or
 * every one when the highest clock rose); `made` where none did. What a distributed run's
 * processes exchange after each repetition: what changed, not every repetition made (that grew
 * with the square of the repetitions). */
int quiet_changed_since(struct quiet_judge *q);
/* The clock columns of a distributed row: the highest and lowest readings of all its processes
 * (MHz), shown instead of this process's own; the judging keeps its own highest. */
void quiet_show_clocks(struct quiet_judge *q, double high_MHz, double low_MHz);

struct csv_record;
/* cpu_clock_MHz, cpu_clock_low_MHz and reps_disturbed of the set, and "cpu_unsteady" in
 * clock_events when fewer quiet repetitions than wanted were found; nothing without a probe. */
void quiet_fill_row(const struct quiet_judge *q, struct csv_record *r);

void quiet_free(struct quiet_judge *q);

#ifdef __cplusplus
}
#endif
#endif
