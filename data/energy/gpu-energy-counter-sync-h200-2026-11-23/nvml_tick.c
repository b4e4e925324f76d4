/* nvml_tick.c: how often NVML's total-energy counter and instantaneous power change on GPU 0.
 * usage: nvml_tick SECONDS PAUSE_US; prints t_s (since start), read_s (what the energy read took),
 * mJ (the counter), instant_W (NVML_FI_DEV_POWER_INSTANT), avg_W (nvmlDeviceGetPowerUsage),
 * one line per read, PAUSE_US between reads. */
#include <nvml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
int main(int argc, char **argv)
{
    double dur = argc > 1 ? atof(argv[1]) : 2, t0, t, tb;
    long pause_us = argc > 2 ? atol(argv[2]) : 1000;
    struct timespec p = {0, pause_us * 1000L};
    nvmlDevice_t dev;
    unsigned long long mj;
    unsigned int mw;
    if (nvmlInit() != NVML_SUCCESS || nvmlDeviceGetHandleByIndex(0, &dev) != NVML_SUCCESS) return 1;
    printf("t_s,read_s,mJ,instant_W,avg_W\n");
    t0 = now_s();
    while ((t = now_s()) - t0 < dur) {
        nvmlFieldValue_t v;
        double inst = -1;
        int r = nvmlDeviceGetTotalEnergyConsumption(dev, &mj);
        tb = now_s();
        memset(&v, 0, sizeof v);
        v.fieldId = NVML_FI_DEV_POWER_INSTANT;
        if (nvmlDeviceGetFieldValues(dev, 1, &v) == NVML_SUCCESS && v.nvmlReturn == NVML_SUCCESS)
            inst = v.valueType == NVML_VALUE_TYPE_UNSIGNED_INT ? v.value.uiVal * 1e-3
                   : v.valueType == NVML_VALUE_TYPE_DOUBLE     ? v.value.dVal * 1e-3
                                                               : (double)v.value.ullVal * 1e-3;
        if (nvmlDeviceGetPowerUsage(dev, &mw) != NVML_SUCCESS) mw = 0;
        printf("%.6f,%.6f,%llu,%.3f,%.3f\n", t - t0, tb - t, r == NVML_SUCCESS ? mj : 0ULL, inst,
               mw * 1e-3);
        nanosleep(&p, NULL);
    }
    nvmlShutdown();
    return 0;
}
