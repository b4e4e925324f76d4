/* gpu_energy.c: the gpu energy meter: NVML's total-energy counter read at both ends of a window,
 * and a sampler thread that polls power, clocks and clock-event (throttle) reasons every
 * GPU_ENERGY_POLL_MS during it. Built without NVML, the meter says so and measures nothing. */
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
    int instant;            /* 1: NVML_FI_DEV_POWER_INSTANT answers; 0: nvmlDeviceGetPowerUsage */
    double limit_W;         /* enforced power limit */
    unsigned long long mj0; /* the energy counter at the window's start, mJ */
    struct timespec t0;
    pthread_t thread;
    atomic_int stop;
    /* the sampler's sums (written by the sampler thread, read after it is joined) */
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
        if (!atomic_load(&m->stop)) sample(m);
    }
    return NULL;
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
    nvmlReturn_t r;
    m->last_t = m->last_W = m->polled_J = m->sm_sum = m->mem_sum = 0;
    m->n = m->power_failed = 0;
    m->events = 0;
    atomic_store(&m->stop, 0);
    sample(m);
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
    r = nvmlDeviceGetTotalEnergyConsumption(m->dev, &m->mj0);
    if (r != NVML_SUCCESS) return nvml_fail(r, "nvmlDeviceGetTotalEnergyConsumption", why, whylen);
    if (pthread_create(&m->thread, NULL, sampler, m) != 0) {
        snprintf(why, whylen, "cannot start the power sampler thread");
        return 1;
    }
    return 0;
}

int energy_meter_end(struct energy_meter *m, struct energy_reading *e, char *why, size_t whylen)
{
    unsigned long long mj1 = 0;
    struct timespec t1;
    nvmlReturn_t r;
    /* the sampler stopped first, then the last sample and the counter read back to back: the
     * integrated samples and the counter cover the same interval (the sampler's sleep, at most
     * one poll period, lies inside both) */
    atomic_store(&m->stop, 1);
    pthread_join(m->thread, NULL);
    sample(m);
    r = nvmlDeviceGetTotalEnergyConsumption(m->dev, &mj1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    energy_reading_clear(e);
    snprintf(e->source, sizeof e->source, "nvml");
    e->seconds = (double)(t1.tv_sec - m->t0.tv_sec) + (double)(t1.tv_nsec - m->t0.tv_nsec) * 1e-9;
    e->power_limit_W = m->limit_W;
    e->samples = m->n;
    e->events = m->events;
    if (m->n > 0) {
        e->sm_clock_MHz = m->sm_sum / m->n;
        e->mem_clock_MHz = m->mem_sum / m->n;
    }
    if (!m->power_failed) e->polled_J = m->polled_J;
    if (r != NVML_SUCCESS) return nvml_fail(r, "nvmlDeviceGetTotalEnergyConsumption", why, whylen);
    if (mj1 <= m->mj0) {
        snprintf(why, whylen, "NVML's energy counter did not advance in %.2f s", e->seconds);
        return 1;
    }
    e->energy_J = (double)(mj1 - m->mj0) * 1e-3;
    return 0;
}

void energy_meter_close(struct energy_meter *m)
{
    if (!m) return;
    free(m);
    nvmlShutdown();
}

#endif
