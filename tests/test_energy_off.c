/* test_energy_off.c: the gpu meter of a build without NVML (gpu/gpu_energy.c compiled without
 * LBMR_WITH_NVML): it opens nothing and says why, the drivers' session prints exactly one line,
 * measures no window, and the row's energy columns stay empty. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "csv.h"
#include "energy.h"

int main(void)
{
    struct energy_meter *m = (struct energy_meter *)&m; /* must come back NULL */
    struct energy_session s;
    struct csv_record r;
    char why[256] = "", line[512];
    int lines = 0;
    FILE *log = tmpfile();

    CHECK(energy_meter_open(&m, why, sizeof why) != 0);
    CHECK(m == NULL);
    CHECK(strstr(why, "no NVML") != NULL);

    /* the session's stderr, caught in a file */
    CHECK(log != NULL);
    if (!log) return check_report("energy_off");
    fflush(stderr);
    int saved = dup(fileno(stderr));
    dup2(fileno(log), fileno(stderr));
    energy_session_open(&s, "lbm-gpu", true, "");
    CHECK(energy_session_begin(&s) != 0); /* no window: no second line either */
    CHECK(energy_session_begin(&s) != 0);
    energy_session_close(&s);
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    rewind(log);
    while (fgets(line, sizeof line, log)) {
        lines++;
        CHECK(strstr(line, "lbm-gpu: energy not measured: ") == line);
        CHECK(strstr(line, "no NVML") != NULL);
    }
    fclose(log);
    CHECK(lines == 1);
    CHECK(s.m == NULL && isnan(s.idle_W));

    csv_record_init(&r);
    energy_fill_row(&r, NULL, s.idle_W, 1e9, 1e12);
    CHECK(isnan(r.energy_J) && isnan(r.power_W) && isnan(r.mflups_per_W) && isnan(r.GBs_per_W));
    CHECK(isnan(r.idle_power_W) && r.clock_events[0] == '\0' && r.energy_source[0] == '\0');
    return check_report("energy_off");
}
