/* energy.h: energy and clocks over one timed repetition set. Each backend defines the meter
 * (cpu/cpu_energy.c: Linux powercap; gpu/gpu_energy.c: NVML); the drivers open it once, wrap
 * every timed set in begin/end and write what it read (energy.c) into the row. Meters never
 * print: they return nonzero with the reason in the caller's buffer. */
#ifndef LBMR_ENERGY_H
#define LBMR_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shortest window worth measuring, in seconds. The gpu meter opens and closes on steps of NVML's
 * counter (below), so the counter's own figure is exact to a few ms; what limits the window is the
 * cross-check: NVML's instantaneous power, polled every 10 ms, is a point sample refreshed only
 * every 100 ms (measured on an H200, data/energy/gpu-energy-counter-sync-h200-2026-11-23), so the
 * integrated samples miss or add up to 100 ms of the step in power at each end of the work, up to
 * 100 ms x (work - idle power) in all: under 5% of the window's energy from 2 s on (idle 126 W,
 * work 560-680 W there), over it at 1.25 s. RAPL (cpu) steps every ~1 ms and needs less.
 * The drivers raise the timed repetitions until the set lasts at least this long. */
#define ENERGY_MIN_WINDOW_S 2.0
/* What the repetition count aims at, a margin above the minimum for run-to-run noise. */
#define ENERGY_TARGET_WINDOW_S 2.5
/* Tries at a timed set before a short window is accepted (each aims longer than the last). */
#define ENERGY_WINDOW_TRIES 3
/* Idle power: one window of this many seconds with the device open and nothing running. */
#define ENERGY_IDLE_WINDOW_S 1.0

/* A cumulative energy counter that advances in steps (NVML's: every 100 ms, measured; 20-100 ms
 * by NVIDIA's documentation): read at any moment it is up to one step stale, so a window opened
 * and closed on its steps has exact ends. Read every ENERGY_STEP_POLL_S (plus the read's own time,
 * 3.4 ms median for NVML's) for at most ENERGY_STEP_WAIT_S, three of NVML's steps. */
#define ENERGY_STEP_POLL_S 0.001
#define ENERGY_STEP_WAIT_S 0.3

/* Clock-event (throttle) reasons, bit i named energy_event_names[i] in the row. */
#define ENERGY_EVENTS(X)                                                                           \
    X(ENERGY_EV_SW_POWER_CAP, "sw_power_cap")                                                      \
    X(ENERGY_EV_HW_SLOWDOWN, "hw_slowdown")                                                        \
    X(ENERGY_EV_SW_THERMAL, "sw_thermal")                                                          \
    X(ENERGY_EV_HW_THERMAL, "hw_thermal")                                                          \
    X(ENERGY_EV_HW_POWER_BRAKE, "hw_power_brake")                                                  \
    X(ENERGY_EV_SYNC_BOOST, "sync_boost")                                                          \
    X(ENERGY_EV_APP_CLOCKS, "app_clocks")                                                          \
    X(ENERGY_EV_DISPLAY_CLOCKS, "display_clocks")
#define ENERGY_EVENT_ENUM(id, name) id,
enum energy_event { ENERGY_EVENTS(ENERGY_EVENT_ENUM) ENERGY_EVENT_COUNT };
#undef ENERGY_EVENT_ENUM
extern const char *const energy_event_names[ENERGY_EVENT_COUNT];

/* What one window read. NaN where the meter cannot tell. */
struct energy_reading {
    double energy_J;      /* counter difference over the window (gpu: less its idle ends) */
    double seconds;       /* wall time of the timed work (monotonic clock) */
    double polled_J;      /* power samples (every ~10 ms) integrated over the window, less the
                           * same idle ends as energy_J; NaN: none */
    double sm_clock_MHz;  /* mean of the samples (gpu) */
    double mem_clock_MHz; /* mean of the samples (gpu) */
    double power_limit_W; /* enforced limit (gpu) or package long-term limit (cpu) */
    int samples;          /* clock and power samples taken; 0 where the meter takes none */
    uint64_t events;      /* bit per enum energy_event seen in any sample */
    char source[64];      /* "nvml", "powercap package-0+dram" */
};

struct energy_meter;

/* Where a stepping counter is read: a source of readings and the clock (the gpu meter's: NVML and
 * CLOCK_MONOTONIC; the tests': a simulated counter on a simulated clock). */
struct energy_counter {
    int (*read)(void *ctx, double *J); /* the counter now, J; nonzero: no reading */
    double (*now)(void *ctx);          /* a monotonic clock, s */
    void (*pause)(void *ctx);          /* waits about ENERGY_STEP_POLL_S */
    void *ctx;
};
/* Reads c until its value changes from the first reading, for at most ENERGY_STEP_WAIT_S. 0: a
 * step: *J is the new value and *at the step's time, the middle of the span from the start of the
 * last read that showed the old value to the end of the first that showed the new one. 1: no step
 * within the wait (*J, *at: the last reading, up to one step stale). -1: a read failed. */
int energy_counter_step(const struct energy_counter *c, double *J, double *at);

/* The readings of a window opened and closed on counter steps, and the work inside it. */
struct energy_window {
    double e0, t0;   /* the counter (J) at the step that opened the window, and its time (s) */
    double t_start;  /* the timed work started (after the window opened) */
    double t_work;   /* the work ended */
    double e1, t1;   /* the first step after the work: the window closes */
    double e2, t2;   /* the step after that: the idle power of the window's ends */
    double polled_J; /* power samples integrated over [t0, t1]; NaN: none */
};
/* The work's share of the window into e: seconds = t_work - t_start; energy_J = e1 - e0 less the
 * window's idle ends [t0, t_start] and [t_work, t1] at the counter's mean power over [t1, t2],
 * measured right after, with the device idle; polled_J less the same ends, so that polled_J -
 * energy_J is the two meters' difference over the one interval [t0, t1]. Nonzero (why says why):
 * the counter did not advance, or the ends' power is unknown. */
int energy_window_account(const struct energy_window *w, struct energy_reading *e, char *why,
                          size_t whylen);

/* Opens this backend's meter for the device the backend opened. Nonzero: none, why says why. */
int energy_meter_open(struct energy_meter **m, char *why, size_t whylen);
/* Reads the counters (and starts the sampler) at the start of a window. */
int energy_meter_begin(struct energy_meter *m, char *why, size_t whylen);
/* Reads them at its end. Nonzero (why says why): this window has no energy (e.g. the counter did
 * not advance); the meter stays usable. */
int energy_meter_end(struct energy_meter *m, struct energy_reading *r, char *why, size_t whylen);
void energy_meter_close(struct energy_meter *m);

/* energy.c: the drivers' side. */
void energy_reading_clear(struct energy_reading *r);
/* Mean power over ENERGY_IDLE_WINDOW_S with nothing running (W); NaN and why when unknown. */
double energy_idle_power(struct energy_meter *m, char *why, size_t whylen);
/* The timed repetitions a set needs to last ENERGY_TARGET_WINDOW_S when one lasts rep_s
 * seconds: at least `reps`, at most `cap`. */
int energy_reps_for_window(int reps, double rep_s, int cap);
/* "none" or the names of the events seen joined by '+'. */
void energy_events_text(uint64_t events, char *buf, size_t len);

/* The drivers' handle: the meter, idle power, and whether a failure was already said (stderr
 * carries one line per reason class: none at all, or the first window that measured nothing). */
struct energy_session {
    struct energy_meter *m; /* NULL: nothing is measured */
    double idle_W;
    const char *prog;
    int said;
    char why[256]; /* why the last window measured nothing */
};
/* Opens the meter (enabled false, or LBMR_ENERGY=off in the environment: says why_off instead) and
 * measures idle power; on failure prints one line and leaves s->m NULL (no line where
 * LBMR_ENERGY_SAID=1: the main job sets it once a step said why). Never fails the run. */
void energy_session_open(struct energy_session *s, const char *prog, bool enabled,
                         const char *why_off);
/* Wrap one timed set. begin returns 1 when this window will not be measured; end fills e and
 * returns 0, or 1 (e then has no energy; why is kept for energy_session_report). */
int energy_session_begin(struct energy_session *s);
int energy_session_end(struct energy_session *s, struct energy_reading *e);
/* Once the row's window is final: says why it has no energy, the first time that happens. */
void energy_session_report(struct energy_session *s, const struct energy_reading *e);
/* After a measured set of `reps` that made reading e on try `tries` (from 1): the repetitions for
 * another try when the window fell short of ENERGY_MIN_WINDOW_S, else 0 (keep this one). */
int energy_retry_reps(const struct energy_reading *e, int reps, int tries, int cap);
void energy_session_close(struct energy_session *s);

struct csv_record;
/* Fills the energy columns of a row from a window that covered `work` updates (lbm, else 0) and
 * `bytes` modelled DRAM bytes; r->energy_J stays empty when e is NULL. */
void energy_fill_row(struct csv_record *row, const struct energy_reading *e, double idle_W,
                     double work, double bytes);

#ifdef __cplusplus
}
#endif
#endif
