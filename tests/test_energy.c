/* test_energy.c: the powercap reader against fixture trees laid out like /sys/class/powercap
 * (tests/powercap: t0 and t1 are two readings of one machine), counter wrap-around, the energy
 * columns of a row, and the meter that has nothing to read. argv[1]: the fixture folder. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_energy.h"
#include "csv.h"
#include "energy.h"

static char dir[512];

static const char *at(const char *sub)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    return path;
}

/* Sum of the deltas between the t0 and t1 readings of a fixture, microjoules. */
static uint64_t delta_uj(const char *fixture, struct powercap *p)
{
    char t0[600], t1[600], why[256];
    uint64_t a[POWERCAP_ZONES_MAX], b[POWERCAP_ZONES_MAX], sum = 0;
    snprintf(t0, sizeof t0, "%s/%s/t0", dir, fixture);
    snprintf(t1, sizeof t1, "%s/%s/t1", dir, fixture);
    CHECK(powercap_scan(p, t0, why, sizeof why) == 0);
    CHECK(powercap_read(p, NULL, a, why, sizeof why) == 0);
    CHECK(powercap_read(p, t1, b, why, sizeof why) == 0);
    for (int i = 0; i < p->n; i++)
        sum += powercap_delta(a[i], b[i], p->max_uj[i]);
    return sum;
}

int main(int argc, char **argv)
{
    struct powercap p;
    char why[256], text[256];
    uint64_t uj;

    if (argc != 2) {
        fprintf(stderr, "usage: test_energy FIXTURE_DIR\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);

    /* wrap: the counter runs 0..max and starts again */
    CHECK(powercap_delta(100, 350, 1000) == 250);
    CHECK(powercap_delta(900, 50, 1000) == 150);
    CHECK(powercap_delta(7, 7, 1000) == 0);

    /* RAPL through likwid: counts times the domain's unit, modulo 2^32 across one wrap */
    {
        const double unit = ldexp(1.0, -14); /* 2^-14 J, MSR_RAPL_POWER_UNIT's ESU field 14 */
        const double dram_unit = 15.3e-6;    /* the fixed DRAM unit likwid uses on Xeons, J */
        CHECK(rapl_delta_J(1000, 1000 + 16384, unit) == 1.0);
        CHECK(rapl_delta_J(7, 7, unit) == 0.0);
        CHECK(rapl_delta_J(0xFFFFF000u, 0x1000u, unit) == 0x2000 * unit);
        CHECK(rapl_delta_J(0xFFFFFFFFu, 0, unit) == unit);
        CHECK(fabs(rapl_delta_J(0xFFFF0000u, 0x10000u, dram_unit) - 0x20000 * dram_unit) < 1e-15);
        /* the range: 2^32 counts, 262144 J at 2^-14 J; a counter of 2^-16 J wraps after 65536 J */
        CHECK(rapl_range_J(unit) == 262144.0);
        CHECK(rapl_range_J(ldexp(1.0, -16)) == 65536.0);
        CHECK(rapl_delta_J(0, 0xFFFFFFFFu, unit) == rapl_range_J(unit) - unit);
    }

    /* two Intel packages with DRAM: core, psys, the MMIO duplicate and the control type's own
     * folder are left out; package-1 and its DRAM wrap between the readings */
    uj = delta_uj("intel-2pkg", &p);
    CHECK(p.n == 4);
    CHECK(strcmp(p.zone[0], "intel-rapl:0") == 0 && strcmp(p.name[0], "package-0") == 0);
    CHECK(strcmp(p.zone[1], "intel-rapl:0:0") == 0 && strcmp(p.name[1], "dram") == 0);
    CHECK(strcmp(p.zone[2], "intel-rapl:1") == 0 && strcmp(p.name[2], "package-1") == 0);
    CHECK(strcmp(p.zone[3], "intel-rapl:1:0") == 0 && strcmp(p.name[3], "dram") == 0);
    /* package-0 2 500 000 + dram 500 000 + package-1 1000 before its wrap and 2000 after +
     * dram 500 + 1500 */
    CHECK(uj == 2500000u + 500000u + 3000u + 2000u);
    CHECK(fabs(p.limit_W - 700.0) < 1e-9); /* two package limits of 350 W; DRAM has none here */
    powercap_describe(&p, text, sizeof text);
    CHECK(strcmp(text, "powercap package-0+dram+package-1+dram") == 0);

    /* AMD: one package, no DRAM zone, amd-rapl naming, a 32-bit range that wraps */
    uj = delta_uj("amd-1pkg", &p);
    CHECK(p.n == 1 && strcmp(p.name[0], "package-0") == 0);
    CHECK(uj == 250000u + 750000u);
    CHECK(isnan(p.limit_W));

    /* nothing to read: one reason each */
    CHECK(powercap_scan(&p, at("no-zones"), why, sizeof why) != 0 && strstr(why, "no package"));
    CHECK(powercap_scan(&p, at("does-not-exist"), why, sizeof why) != 0 &&
          strstr(why, "no powercap"));
    CHECK(powercap_scan(&p, at("beyond-range"), why, sizeof why) == 0);
    {
        uint64_t v[POWERCAP_ZONES_MAX];
        CHECK(powercap_read(&p, NULL, v, why, sizeof why) != 0 && strstr(why, "beyond"));
    }

    /* the meter over a tree that does not change: the counters did not advance */
    {
        struct energy_meter *m = NULL;
        struct energy_reading e;
        setenv("LBMR_POWERCAP_ROOT", at("intel-2pkg/t0"), 1);
        CHECK(strcmp(powercap_root(), at("intel-2pkg/t0")) == 0);
        CHECK(energy_meter_open(&m, why, sizeof why) == 0 && m);
        CHECK(energy_meter_begin(m, why, sizeof why) == 0);
        CHECK(energy_meter_end(m, &e, why, sizeof why) != 0 && strstr(why, "did not advance"));
        CHECK(isnan(e.energy_J));
        energy_meter_close(m);
        setenv("LBMR_POWERCAP_ROOT", at("does-not-exist"), 1);
        if (energy_meter_open(&m, why, sizeof why) != 0) {
            CHECK(m == NULL && strstr(why, "no powercap"));
#ifdef LBMR_WITH_LIKWID
            /* built with likwid, its power module was tried too, and the line says why not */
            CHECK(strstr(why, "; likwid power: ") != NULL);
#endif
        } else {
#ifdef LBMR_WITH_LIKWID
            /* a host where likwid reads RAPL: the meter is likwid's, and its window says so */
            CHECK(energy_meter_begin(m, why, sizeof why) == 0);
            energy_meter_end(m, &e, why, sizeof why);
            CHECK(strncmp(e.source, "likwid ", 7) == 0);
            energy_meter_close(m);
#else
            CHECK(!"a meter opened without powercap or likwid");
#endif
        }
    }

    /* repetitions for a 1 s window */
    CHECK(energy_reps_for_window(20, 0.01, 1000000) == (int)ceil(ENERGY_TARGET_WINDOW_S / 0.01));
    CHECK(energy_reps_for_window(20, 2.0, 1000000) == 20);
    CHECK(energy_reps_for_window(20, 1e-9, 5000) == 5000);
    CHECK(energy_reps_for_window(5, 0, 100) == 5);

    /* a short window asks for another try, aimed at the target; a long one or the last try not */
    {
        struct energy_reading e;
        energy_reading_clear(&e);
        e.seconds = 0.1;
        CHECK(energy_retry_reps(&e, 100, 1, 1000000) ==
              (int)ceil(ENERGY_TARGET_WINDOW_S / (0.1 / 100)));
        CHECK(energy_retry_reps(&e, 100, ENERGY_WINDOW_TRIES, 1000000) == 0);
        e.seconds = ENERGY_MIN_WINDOW_S;
        CHECK(energy_retry_reps(&e, 100, 1, 1000000) == 0);
    }

    /* the energy columns together, in this order (appended to schema 1; the columns appended
     * since follow them) */
    {
        static const char *const tail[] = {"energy_J",        "power_W",       "mflups_per_W",
                                           "GBs_per_W",       "sm_clock_MHz",  "mem_clock_MHz",
                                           "clock_events",    "power_limit_W", "idle_power_W",
                                           "energy_polled_J", "energy_source"};
        const int n = (int)(sizeof tail / sizeof tail[0]), total = csv_column_count();
        int first = 0;
        while (first < total && strcmp(csv_column_name(first), tail[0]) != 0)
            first++;
        CHECK(first + n <= total);
        for (int i = 0; i < n && first + n <= total; i++)
            CHECK(strcmp(csv_column_name(first + i), tail[i]) == 0);
    }

    /* the row: work and bytes per joule over the window, the events by name */
    {
        struct csv_record r;
        struct energy_reading e;
        energy_reading_clear(&e);
        e.energy_J = 500;
        e.seconds = 2;
        e.polled_J = 498;
        e.sm_clock_MHz = 1980;
        e.mem_clock_MHz = 2619;
        e.power_limit_W = 700;
        e.samples = 200;
        e.events = 1u << ENERGY_EV_SW_POWER_CAP | 1u << ENERGY_EV_HW_THERMAL;
        snprintf(e.source, sizeof e.source, "nvml");
        csv_record_init(&r);
        energy_fill_row(&r, &e, 70, 3e10, 4.56e12);
        CHECK(r.energy_J == 500 && r.power_W == 250 && r.energy_polled_J == 498);
        CHECK(fabs(r.mflups_per_W - 3e10 / 500 * 1e-6) < 1e-9);
        CHECK(fabs(r.GBs_per_W - 4.56e12 / 500 * 1e-9) < 1e-9);
        CHECK(r.sm_clock_MHz == 1980 && r.mem_clock_MHz == 2619 && r.power_limit_W == 700);
        CHECK(r.idle_power_W == 70);
        CHECK(strcmp(r.clock_events, "sw_power_cap+hw_thermal") == 0);
        CHECK(strcmp(r.energy_source, "nvml") == 0);
        e.events = 0;
        csv_record_init(&r);
        energy_fill_row(&r, &e, NAN, 0, 1e9);
        CHECK(strcmp(r.clock_events, "none") == 0 && isnan(r.mflups_per_W));
        /* a window that measured nothing: no energy, no power, no ratio, clocks kept */
        e.energy_J = NAN;
        csv_record_init(&r);
        energy_fill_row(&r, &e, NAN, 3e10, 4.56e12);
        CHECK(isnan(r.energy_J) && isnan(r.power_W) && isnan(r.mflups_per_W));
        CHECK(r.sm_clock_MHz == 1980);
        csv_record_init(&r);
        energy_fill_row(&r, NULL, NAN, 3e10, 4.56e12);
        CHECK(isnan(r.energy_J) && r.energy_source[0] == '\0' && r.clock_events[0] == '\0');
    }
    return check_report("energy");
}
