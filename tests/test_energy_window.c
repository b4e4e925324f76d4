/* test_energy_window.c: the window of a stepping energy counter (common/energy.c), as the gpu
 * meter uses NVML's, against a simulated counter on a simulated clock: no GPU, no real time.
 * The counter steps every 100 ms (NVML's, measured on an H200) and shows the energy up to its last
 * step; a read costs 3.4 ms (NVML's median there) or 17 ms (its 99th percentile). A window opened
 * and closed on steps, less its idle ends, must give the work's energy whatever the steps' phase
 * against the work; a counter read at the work's ends (a step stale) misses up to 100 ms of it. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "energy.h"

struct sim {
    double T;              /* the clock, s */
    double phase, period;  /* the counter steps at phase + k x period, s */
    double read_s;         /* what one read of the counter costs, s */
    double ws, we;         /* the work runs over [ws, we] */
    double idle_W, work_W; /* the device's power outside and inside the work */
    int stuck, fail;       /* a counter that never steps; reads that fail */
};

/* energy used over [0, t], J */
static double energy_to(const struct sim *s, double t)
{
    double a = s->ws > t ? t : s->ws, b = s->we > t ? t : s->we;
    return s->idle_W * t + (s->work_W - s->idle_W) * (b > a ? b - a : 0);
}

/* what the counter shows at t: the energy at its last step, in whole mJ */
static double counter_at(const struct sim *s, double t)
{
    double k = s->stuck ? 0 : floor((t - s->phase) / s->period);
    double step = s->phase + (k < 0 ? 0 : k) * s->period;
    return floor(energy_to(s, step) * 1e3) * 1e-3;
}

static int sim_read(void *ctx, double *J)
{
    struct sim *s = ctx;
    s->T += 0.5 * s->read_s; /* the value is taken halfway through the read */
    *J = counter_at(s, s->T);
    s->T += 0.5 * s->read_s;
    return s->fail;
}

static double sim_now(void *ctx)
{
    return ((struct sim *)ctx)->T;
}

static void sim_pause(void *ctx)
{
    ((struct sim *)ctx)->T += ENERGY_STEP_POLL_S;
}

/* One window around work_s of work, as gpu_energy.c runs it; returns energy_window_account's. */
static int run_window(struct sim *s, double work_s, struct energy_window *w,
                      struct energy_reading *e)
{
    struct energy_counter c = {sim_read, sim_now, sim_pause, s};
    char why[256];
    energy_reading_clear(e);
    CHECK(energy_counter_step(&c, &w->e0, &w->t0) == 0);
    s->T += 2e-4; /* the first sample and the sampler's start */
    w->t_start = s->ws = s->T;
    s->T += work_s;
    w->t_work = s->we = s->T;
    CHECK(energy_counter_step(&c, &w->e1, &w->t1) == 0);
    w->polled_J = energy_to(s, w->t1) - energy_to(s, w->t0); /* a perfect sampler */
    CHECK(energy_counter_step(&c, &w->e2, &w->t2) == 0);
    return energy_window_account(w, e, why, sizeof why);
}

int main(void)
{
    const double reads[] = {0.0034, 0.017};
    double worst = 0, worst_naive = 0;

    /* every phase of the steps against the work, both read costs */
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 50; k++) {
            struct sim s = {.T = 0.5,
                            .period = 0.1,
                            .read_s = reads[r],
                            .ws = INFINITY,
                            .we = INFINITY,
                            .idle_W = 126,
                            .work_W = 560};
            struct energy_window w;
            struct energy_reading e;
            /* the work's end moves through the steps' period too */
            double work_s = 1.3 + 0.1 * k / 50, truth, naive, ends_s, bound;
            double bracket = 2 * reads[r] + ENERGY_STEP_POLL_S; /* two reads and a pause */
            s.phase = 0.1 * k / 50;
            CHECK(run_window(&s, work_s, &w, &e) == 0);
            truth = s.work_W * work_s;
            /* the steps are found within the bracket of two reads and a pause */
            CHECK(fabs(w.t0 - (s.phase + s.period * round((w.t0 - s.phase) / s.period))) <=
                  bracket);
            CHECK(fabs(w.t1 - (s.phase + s.period * round((w.t1 - s.phase) / s.period))) <=
                  bracket);
            CHECK(w.t1 >= w.t_work && w.t1 - w.t_work <= s.period + bracket);
            CHECK(fabs(e.seconds - work_s) < 1e-9);
            /* what the steps' times may be off by, each within half a bracket: the ends' idle
             * time (both ends), and the idle power measured over [t1, t2]; plus the counter's
             * whole mJ at three steps */
            ends_s = (w.t_start - w.t0) + (w.t1 - w.t_work);
            bound =
                s.idle_W * bracket + s.idle_W * ends_s * bracket / (w.t2 - w.t1 - bracket) + 3e-3;
            CHECK(fabs(e.energy_J - truth) <= bound);
            /* the two meters over one interval: a perfect sampler agrees but for the steps'
             * times */
            CHECK(fabs(e.polled_J - e.energy_J) <= s.idle_W * bracket + 2e-3);
            if (fabs(e.energy_J - truth) / truth > worst) worst = fabs(e.energy_J - truth) / truth;
            /* the counter read at the work's ends instead: up to one step stale at each */
            naive = counter_at(&s, w.t_work) - counter_at(&s, w.t_start);
            if (fabs(naive - truth) / truth > worst_naive)
                worst_naive = fabs(naive - truth) / truth;
        }
    fprintf(stderr, "worst error: on steps %.3f%%, read at the work's ends %.2f%%\n", worst * 100,
            worst_naive * 100);
    CHECK(worst_naive > 0.05); /* the simulation does show the stale counter */

    /* a counter that never steps: the wait ends after ENERGY_STEP_WAIT_S with the last reading */
    {
        struct sim s = {.T = 1,
                        .phase = 0,
                        .period = 0.1,
                        .read_s = 0.0034,
                        .ws = INFINITY,
                        .we = INFINITY,
                        .idle_W = 126,
                        .work_W = 560,
                        .stuck = 1};
        struct energy_counter c = {sim_read, sim_now, sim_pause, &s};
        double J = -1, at = -1;
        CHECK(energy_counter_step(&c, &J, &at) == 1);
        CHECK(J == counter_at(&s, s.T) && at == s.T);
        CHECK(s.T - 1 >= ENERGY_STEP_WAIT_S && s.T - 1 < ENERGY_STEP_WAIT_S + 0.01);
        s.fail = 1;
        CHECK(energy_counter_step(&c, &J, &at) == -1);
    }

    /* windows with no energy say why and leave it empty */
    {
        struct energy_window w = {.e0 = 10,
                                  .t0 = 0,
                                  .t_start = 0.001,
                                  .t_work = 2,
                                  .e1 = 10,
                                  .t1 = 2.05,
                                  .e2 = 23,
                                  .t2 = 2.15,
                                  .polled_J = 500};
        struct energy_reading e;
        char why[256] = "";
        energy_reading_clear(&e);
        CHECK(energy_window_account(&w, &e, why, sizeof why) == 1);
        CHECK(strstr(why, "did not advance") && isnan(e.energy_J) && isnan(e.polled_J));
        w.e1 = 1200;
        w.e2 = w.e1; /* no step after the work: the ends' power is unknown */
        CHECK(energy_window_account(&w, &e, why, sizeof why) == 1);
        CHECK(strstr(why, "did not step") && isnan(e.energy_J));
        w.e2 = w.e1 + 13; /* 130 W over 0.1 s; ends of 0.051 s: 6.63 J */
        w.polled_J = NAN;
        CHECK(energy_window_account(&w, &e, why, sizeof why) == 0);
        CHECK(fabs(e.energy_J - (1190 - 130 * 0.051)) < 1e-9 && isnan(e.polled_J));
        CHECK(fabs(e.seconds - 1.999) < 1e-12);
        w.e1 = w.e0 + 5; /* less than the idle ends hold */
        w.e2 = w.e1 + 13;
        CHECK(energy_window_account(&w, &e, why, sizeof why) == 1 && isnan(e.energy_J));
    }
    return check_report("energy_window");
}
