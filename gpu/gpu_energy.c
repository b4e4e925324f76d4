/* gpu_energy.c: the gpu energy meter: NVML's total-energy counter read at both ends of a window,
 * and a sampler thread that polls power, clocks and clock-event (throttle) reasons every
 * GPU_ENERGY_POLL_MS during it. The counter steps every 100 ms (measured on an H200), so the
 * window opens on one of its steps just before the work and closes on the first step after it;
 * the idle ends this adds (a few ms before, up to one step after) are taken out at the idle power
 * the counter shows over the step after that (energy_window_account). Built without NVML, the
 * meter says so and measures nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "gpu_facts.h"

#ifndef LBMR_WITH_NVML

int energy_meter_open(struct energy_meter **m, char *why, size_t whylen)
{
    *m = NULL;
    snprintf(why, whylen,
             "this build has no NVML (configure found no CUDA::nvml and nvml.h; "
             "-DLBMR_NVML=ON insists)");
    return 1;
}

int energy_meter_begin(struct energy_meter *m, char *why, size_t whylen)
{
    (void)m;
    snprintf(why, whylen, "no NVML");
    return 1;
}

int energy_meter_end(struct energy_meter *m, struct energy_reading *r, char *why, size_t whylen)
{
    (void)m;
    energy_reading_clear(r);
    snprintf(why, whylen, "no NVML");
    return 1;
}

void energy_meter_close(struct energy_meter *m)
{
    (void)m;
}

#else

#include <nvml.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* Sampling period, ms: NVML's instantaneous power is refreshed about this often on Hopper. */
#define GPU_ENERGY_POLL_MS 10

struct energy_meter {
    nvmlDevice_t dev;
    int instant;              /* 1: NVML_FI_DEV_POWER_INSTANT answers; 0: nvmlDeviceGetPowerUsage */
    double limit_W;           /* enforced power limit */
    double e0, t0;            /* the counter (J) at the step that opened the window, and when (s) */
    double t_start;           /* the work started: begin returned */
    nvmlReturn_t counter_err; /* the last failed read of the counter */
    pthread_t thread;
    pthread_mutex_t lock; /* sample() runs in the sampler and, at the window's ends, the caller */
    atomic_int stop;
    /* the sampler's sums (under lock) */
    double last_t, last_W, polled_J, sm_sum, mem_sum;
    int n, power_failed;
    uint64_t events;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Power now, W; NaN when NVML does not answer. */
static double power_W(struct energy_meter *m)
{
    unsigned int mw;
    if (m->instant) {
        nvmlFieldValue_t v;
        memset(&v, 0, sizeof v);
        v.fieldId = NVML_FI_DEV_POWER_INSTANT;
        if (nvmlDeviceGetFieldValues(m->dev, 1, &v) == NVML_SUCCESS &&
            v.nvmlReturn == NVML_SUCCESS) {
            switch (v.valueType) {
            case NVML_VALUE_TYPE_UNSIGNED_INT:
                return v.value.uiVal * 1e-3;
            case NVML_VALUE_TYPE_UNSIGNED_LONG:
                return (double)v.value.ulVal * 1e-3;
            case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
                return (double)v.value.ullVal * 1e-3;
            case NVML_VALUE_TYPE_DOUBLE:
                return v.value.dVal * 1e-3;
            default:
                break;
            }
        }
        return NAN;
    }
    return nvmlDeviceGetPowerUsage(m->dev, &mw) == NVML_SUCCESS ? mw * 1e-3 : NAN;
}

static uint64_t events_of(unsigned long long r)
{
    static const struct {
        unsigned long long nvml;
        enum energy_event ev;
    } map[] = {
        {0x4ULL, ENERGY_EV_SW_POWER_CAP},    {0x8ULL, ENERGY_EV_HW_SLOWDOWN},
        {0x20ULL, ENERGY_EV_SW_THERMAL},     {0x40ULL, ENERGY_EV_HW_THERMAL},
        {0x80ULL, ENERGY_EV_HW_POWER_BRAKE}, {0x10ULL, ENERGY_EV_SYNC_BOOST},
        {0x2ULL, ENERGY_EV_APP_CLOCKS},      {0x100ULL, ENERGY_EV_DISPLAY_CLOCKS},
    }; /* NVML's nvmlClocksEventReason* bits; GpuIdle (0x1, between kernels) is no throttle */
    uint64_t e = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (r & map[i].nvml) e |= 1ULL << map[i].ev;
    return e;
}

/* One sample: power into the trapezoid integral, clocks into the means, reasons into the set. */
static void sample(struct energy_meter *m)
{
    double t = now_s(), w = power_W(m);
    unsigned int sm, mem;
    unsigned long long reasons;
    if (isnan(w))
        m->power_failed = 1;
    else if (m->n > 0 || m->last_t > 0)
        m->polled_J += (t - m->last_t) * 0.5 * (w + m->last_W);
    m->last_t = t;
    m->last_W = w;
    if (nvmlDeviceGetClockInfo(m->dev, NVML_CLOCK_SM, &sm) == NVML_SUCCESS &&
        nvmlDeviceGetClockInfo(m->dev, NVML_CLOCK_MEM, &mem) == NVML_SUCCESS) {
        m->sm_sum += sm;
        m->mem_sum += mem;
        m->n++;
    }
#ifdef nvmlClocksEventReasonGpuIdle
    if (nvmlDeviceGetCurrentClocksEventReasons(m->dev, &reasons) == NVML_SUCCESS)
#else
    if (nvmlDeviceGetCurrentClocksThrottleReasons(m->dev, &reasons) == NVML_SUCCESS)
#endif
        m->events |= events_of(reasons);
}

static void *sampler(void *arg)
{
    struct energy_meter *m = arg;
    const struct timespec period = {0, GPU_ENERGY_POLL_MS * 1000000L};
    while (!atomic_load(&m->stop)) {
        nanosleep(&period, NULL);
        pthread_mutex_lock(&m->lock);
        if (!atomic_load(&m->stop)) sample(m); /* none after the window closed */
        pthread_mutex_unlock(&m->lock);
    }
    return NULL;
}

/* NVML's counter as energy_counter_step reads it */
static int counter_read(void *ctx, double *J)
{
    struct energy_meter *m = ctx;
    unsigned long long mj;
    nvmlReturn_t r = nvmlDeviceGetTotalEnergyConsumption(m->dev, &mj);
    if (r != NVML_SUCCESS) {
        m->counter_err = r;
        return 1;
    }
    *J = (double)mj * 1e-3; /* exact: a double holds whole mJ up to 2^53 */
    return 0;
}

static double counter_now(void *ctx)
{
    (void)ctx;
    return now_s();
}

static void counter_pause(void *ctx)
{
    const struct timespec t = {0, (long)(ENERGY_STEP_POLL_S * 1e9)};
    (void)ctx;
    nanosleep(&t, NULL);
}

static int nvml_fail(nvmlReturn_t r, const char *what, char *why, size_t whylen)
{
    snprintf(why, whylen, "NVML %s: %s%s", what, nvmlErrorString(r),
             r == NVML_ERROR_NO_PERMISSION ? " (no permission)" : "");
    return 1;
}

int energy_meter_open(struct energy_meter **out, char *why, size_t whylen)
{
    struct energy_meter *m;
    char bus[32];
    unsigned long long mj;
    unsigned int mw;
    nvmlReturn_t r = nvmlInit();
    *out = NULL;
    if (r != NVML_SUCCESS) return nvml_fail(r, "nvmlInit", why, whylen);
    m = calloc(1, sizeof *m);
    if (!m) {
        nvmlShutdown();
        snprintf(why, whylen, "out of memory");
        return 1;
    }
    if (gpu_pci_bus_id(bus, (int)sizeof bus)) {
        snprintf(why, whylen, "cannot tell the CUDA device's PCI bus id");
        goto fail;
    }
    r = nvmlDeviceGetHandleByPciBusId(bus, &m->dev);
    if (r != NVML_SUCCESS) {
        nvml_fail(r, "nvmlDeviceGetHandleByPciBusId", why, whylen);
        goto fail;
    }
    r = nvmlDeviceGetTotalEnergyConsumption(m->dev, &mj);
    if (r != NVML_SUCCESS) {
        nvml_fail(r, "nvmlDeviceGetTotalEnergyConsumption", why, whylen);
        goto fail;
    }
    if (pthread_mutex_init(&m->lock, NULL) != 0) {
        snprintf(why, whylen, "cannot make the power sampler's lock");
        goto fail;
    }
    m->limit_W = nvmlDeviceGetEnforcedPowerLimit(m->dev, &mw) == NVML_SUCCESS ? mw * 1e-3 : NAN;
    m->instant = 1;
    if (isnan(power_W(m))) m->instant = 0;
    *out = m;
    return 0;
fail:
    free(m);
    nvmlShutdown();
    return 1;
}

int energy_meter_begin(struct energy_meter *m, char *why, size_t whylen)
{
    struct energy_counter c = {counter_read, counter_now, counter_pause, m};
    int r;
    m->last_t = m->last_W = m->polled_J = m->sm_sum = m->mem_sum = 0;
    m->n = m->power_failed = 0;
    m->events = 0;
    atomic_store(&m->stop, 0);
    /* open on a step: a counter read between steps is up to 100 ms stale */
    r = energy_counter_step(&c, &m->e0, &m->t0);
    if (r < 0) return nvml_fail(m->counter_err, "nvmlDeviceGetTotalEnergyConsumption", why, whylen);
    if (r > 0) {
        snprintf(why, whylen, "NVML's energy counter did not step in %.1f s", ENERGY_STEP_WAIT_S);
        return 1;
    }
    sample(m); /* the first sample, right at the step (no sampler runs yet) */
    if (pthread_create(&m->thread, NULL, sampler, m) != 0) {
        snprintf(why, whylen, "cannot start the power sampler thread");
        return 1;
    }
    m->t_start = now_s();
    return 0;
}

int energy_meter_end(struct energy_meter *m, struct energy_reading *e, char *why, size_t whylen)
{
    struct energy_counter c = {counter_read, counter_now, counter_pause, m};
    struct energy_window w;
    double sm_sum, mem_sum;
    uint64_t events;
    int n, r1, r2;
    w.t_work = now_s();
    /* the clocks and reasons of the work: the sums as the work ended */
    pthread_mutex_lock(&m->lock);
    sample(m);
    n = m->n;
    sm_sum = m->sm_sum;
    mem_sum = m->mem_sum;
    events = m->events;
    pthread_mutex_unlock(&m->lock);
    /* the sampler runs on to the first step after the work, where both meters close */
    r1 = energy_counter_step(&c, &w.e1, &w.t1);
    pthread_mutex_lock(&m->lock);
    sample(m);
    w.polled_J = m->power_failed ? NAN : m->polled_J;
    atomic_store(&m->stop, 1);
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->thread, NULL);
    /* one more step of the idle device: the power of the window's idle ends */
    r2 = r1 == 0 ? energy_counter_step(&c, &w.e2, &w.t2) : 1;
    energy_reading_clear(e);
    snprintf(e->source, sizeof e->source, "nvml");
    e->seconds = w.t_work - m->t_start;
    e->power_limit_W = m->limit_W;
    e->samples = n;
    e->events = events;
    if (n > 0) {
        e->sm_clock_MHz = sm_sum / n;
        e->mem_clock_MHz = mem_sum / n;
    }
    if (r1 < 0 || r2 < 0)
        return nvml_fail(m->counter_err, "nvmlDeviceGetTotalEnergyConsumption", why, whylen);
    if (r1 > 0) {
        snprintf(why, whylen, "NVML's energy counter did not step in %.1f s after the work",
                 ENERGY_STEP_WAIT_S);
        return 1;
    }
    if (r2 > 0) w.e2 = w.e1; /* no idle step: energy_window_account says so */
    w.e0 = m->e0;
    w.t0 = m->t0;
    w.t_start = m->t_start;
    return energy_window_account(&w, e, why, whylen);
}

void energy_meter_close(struct energy_meter *m)
{
    if (!m) return;
    pthread_mutex_destroy(&m->lock);
    free(m);
    nvmlShutdown();
}

#endif
