/* energy.c: the drivers' side of the energy meter: idle power, how many repetitions fill a
 * window, and the row's energy columns. */
#include "energy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csv.h"
#include "progress.h"

#define ENERGY_EVENT_NAME(id, name) name,
const char *const energy_event_names[ENERGY_EVENT_COUNT] = {ENERGY_EVENTS(ENERGY_EVENT_NAME)};
#undef ENERGY_EVENT_NAME

void energy_reading_clear(struct energy_reading *r)
{
    memset(r, 0, sizeof *r);
    r->energy_J = r->seconds = r->polled_J = NAN;
    r->sm_clock_MHz = r->mem_clock_MHz = r->power_limit_W = NAN;
}

double energy_idle_power(struct energy_meter *m, char *why, size_t whylen)
{
    struct energy_reading r;
    struct timespec ts = {(time_t)ENERGY_IDLE_WINDOW_S,
                          (long)((ENERGY_IDLE_WINDOW_S - (time_t)ENERGY_IDLE_WINDOW_S) * 1e9)};
    if (energy_meter_begin(m, why, whylen)) return NAN;
    /* the rest of the window after a signal, unless it asked the program to stop */
    while (nanosleep(&ts, &ts) != 0 && !interrupt_requested())
        ;
    if (energy_meter_end(m, &r, why, whylen)) return NAN;
    if (interrupt_requested()) {
        snprintf(why, whylen, "interrupted");
        return NAN;
    }
    return r.energy_J / r.seconds;
}

int energy_counter_step(const struct energy_counter *c, double *J, double *at)
{
    double first, v, a, b, a_prev, deadline;
    a_prev = c->now(c->ctx);
    if (c->read(c->ctx, &first)) return -1;
    deadline = a_prev + ENERGY_STEP_WAIT_S;
    for (;;) {
        c->pause(c->ctx);
        a = c->now(c->ctx);
        if (c->read(c->ctx, &v)) return -1;
        b = c->now(c->ctx);
        if (v != first) {
            /* the step came after the last old reading began and before this one ended */
            *J = v;
            *at = 0.5 * (a_prev + b);
            return 0;
        }
        if (b >= deadline) {
            *J = v;
            *at = b;
            return 1;
        }
        a_prev = a;
    }
}

int energy_window_account(const struct energy_window *w, struct energy_reading *e, char *why,
                          size_t whylen)
{
    double idle_W, ends_s, ends_J;
    e->seconds = w->t_work - w->t_start;
    e->energy_J = NAN;
    e->polled_J = NAN;
    if (!(w->e1 > w->e0)) {
        snprintf(why, whylen, "NVML's energy counter did not advance in %.2f s", w->t1 - w->t0);
        return 1;
    }
    if (!(w->e2 > w->e1) || !(w->t2 > w->t1)) {
        snprintf(why, whylen,
                 "NVML's energy counter did not step after the work, so the window's idle ends "
                 "cannot be taken out");
        return 1;
    }
    /* W = J/s over one step of the idle device right after the window */
    idle_W = (w->e2 - w->e1) / (w->t2 - w->t1);
    ends_s = (w->t_start - w->t0) + (w->t1 - w->t_work);
    ends_J = idle_W * ends_s;
    e->energy_J = w->e1 - w->e0 - ends_J;
    if (!(e->energy_J > 0)) {
        snprintf(why, whylen,
                 "the window's idle ends (%.3f s at %.1f W) hold all of its %.1f J: no energy "
                 "left for the work",
                 ends_s, idle_W, w->e1 - w->e0);
        e->energy_J = NAN;
        return 1;
    }
    e->polled_J = w->polled_J - ends_J; /* NaN stays NaN */
    return 0;
}

int energy_reps_for_window(int reps, double rep_s, int cap)
{
    double need;
    if (!(rep_s > 0)) /* no estimate: leave the count alone */
        return reps;
    need = ceil(ENERGY_TARGET_WINDOW_S / rep_s);
    if (need > cap) need = cap;
    return need > reps ? (int)need : reps;
}

void energy_events_text(uint64_t events, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ENERGY_EVENT_COUNT; i++) {
        if (!(events >> i & 1)) continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", energy_event_names[i]);
        if (n < 0 || (size_t)n >= len - used) break;
        used += (size_t)n;
    }
    if (!used) snprintf(buf, len, "none");
}

void energy_fill_row(struct csv_record *row, const struct energy_reading *e, double idle_W,
                     double work, double bytes)
{
    row->idle_power_W = idle_W;
    if (!e) return;
    csv_set(row->energy_source, e->source);
    row->power_limit_W = e->power_limit_W;
    row->sm_clock_MHz = e->sm_clock_MHz;
    row->mem_clock_MHz = e->mem_clock_MHz;
    if (e->samples > 0) energy_events_text(e->events, row->clock_events, sizeof row->clock_events);
    if (!(e->energy_J > 0) || !(e->seconds > 0)) return;
    row->energy_J = e->energy_J;
    row->power_W = e->energy_J / e->seconds;
    row->energy_polled_J = e->polled_J;
    /* work (or bytes) per joule = mean rate over the window / mean power */
    if (work > 0) row->mflups_per_W = work / e->energy_J * 1e-6;
    if (bytes > 0) row->GBs_per_W = bytes / e->energy_J * 1e-9;
}

void energy_session_open(struct energy_session *s, const char *prog, bool enabled,
                         const char *why_off)
{
    char why[256];
    const char *said = getenv("LBMR_ENERGY_SAID");
    memset(s, 0, sizeof *s);
    s->prog = prog;
    s->idle_W = NAN;
    s->said = prog == NULL; /* NULL: a rank that says nothing */
    /* a process of a job that said it already (the main job's later rounds): the device's reason
     * is this one's too, so it is not said again */
    if (said && strcmp(said, "1") == 0) prog = NULL;
    if (enabled && getenv("LBMR_ENERGY") && strcmp(getenv("LBMR_ENERGY"), "off") == 0) {
        enabled = false; /* quick runs (the tests): no idle second, no 1 s windows */
        why_off = "LBMR_ENERGY=off";
    }
    if (!enabled) {
        if (prog)
            fprintf(stderr, "%s: energy not measured: %s; the energy columns stay empty\n", prog,
                    why_off);
        s->said = 1;
        return;
    }
    if (energy_meter_open(&s->m, why, sizeof why)) {
        if (prog)
            fprintf(stderr, "%s: energy not measured: %s; the energy columns stay empty\n", prog,
                    why);
        s->m = NULL;
        s->said = 1;
        return;
    }
    s->idle_W = energy_idle_power(s->m, why, sizeof why);
}

static void session_say(struct energy_session *s, const char *why)
{
    if (s->said) return;
    fprintf(stderr,
            "%s: energy not measured for a case: %s; its energy columns stay empty (said "
            "once)\n",
            s->prog, why);
    s->said = 1;
}

int energy_session_begin(struct energy_session *s)
{
    char why[256];
    if (!s->m) return 1;
    if (energy_meter_begin(s->m, why, sizeof why)) {
        session_say(s, why);
        return 1;
    }
    return 0;
}

int energy_session_end(struct energy_session *s, struct energy_reading *e)
{
    if (energy_meter_end(s->m, e, s->why, sizeof s->why)) {
        e->energy_J = NAN;
        return 1;
    }
    return 0;
}

void energy_session_close(struct energy_session *s)
{
    energy_meter_close(s->m);
    s->m = NULL;
}

void energy_session_report(struct energy_session *s, const struct energy_reading *e)
{
    if (isnan(e->energy_J)) session_say(s, s->why);
}

int energy_retry_reps(const struct energy_reading *e, int reps, int tries, int cap)
{
    int next;
    if (tries >= ENERGY_WINDOW_TRIES || !(e->seconds > 0) || e->seconds >= ENERGY_MIN_WINDOW_S)
        return 0;
    next = energy_reps_for_window(reps, e->seconds / reps, cap);
    return next > reps ? next : 0;
}
