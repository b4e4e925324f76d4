/* test_quiet.c: judging timed repetitions by the clock read around them (common/quiet.h), with
 * a scripted probe: disturbed repetitions leave the statistics even when they are the fastest,
 * the set repeats until it has the quiet ones it wants, gives up at QUIET_ATTEMPTS_FACTOR times,
 * judges against the highest clock seen (later readings too), shares probes between short
 * repetitions, fills the row's columns, and takes the judgements of a distributed run's other
 * processes. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csv.h"
#include "quiet.h"
#include "stats.h"

static const double *script; /* the probe's readings, MHz, in order; the last one repeats */
static int nscript, next, calls, last_threads;

static int scripted(int threads, double *low, double *high)
{
    double v = script[next < nscript ? next : nscript - 1];
    next += next < nscript;
    calls++;
    last_threads = threads;
    *low = *high = v;
    return 0;
}

static void use(const double *s, int n)
{
    script = s;
    nscript = n;
    next = calls = 0;
}

/* Runs a set the way the drivers do: a repetition per quiet_more, its time from rep_time. */
static int run_set(struct quiet_judge *q, int wanted, const double *rep_time, double *times)
{
    quiet_begin(q, wanted);
    while (quiet_more(q)) {
        times[q->made] = rep_time[q->made];
        if (quiet_after(q, rep_time[q->made])) return -1;
    }
    return q->made;
}

int main(void)
{
    /* the disturbed repetitions are the fastest (a 2 GHz clock cannot make a memory-bound rep
     * faster, but the statistics must not depend on that) */
    const double rep_time[12] = {5, 1, 1, 6, 7, 1, 1, 1, 1, 1, 1, 1};
    double times[64];
    struct stats st;
    struct csv_record row;
    int n;

    { /* 1. before r1 3500, after r1 3500 (quiet), after r2 2000 (r2 and r3 disturbed: r3 starts
       * at 2000), after r3..r5 3500: five attempts for three quiet ones */
        static const double s[] = {3500, 3500, 2000, 3500, 3500, 3500};
        struct quiet_judge q = {.probe = scripted, .threads = 2};
        use(s, 6);
        CHECK(run_set(&q, 3, rep_time, times) == 5);
        CHECK(calls == 6 && last_threads == 2); /* one probe before, one after each */
        CHECK(quiet_count(&q) == 3);
        n = quiet_select(&q, times);
        CHECK(n == 3 && times[0] == 5 && times[1] == 6 && times[2] == 7);
        CHECK(stats_compute(times, (size_t)n, &st) == 0 && st.min == 5 && st.med == 6);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(row.cpu_clock_MHz == 3500 && row.cpu_clock_low_MHz == 2000);
        CHECK(row.reps_disturbed == 2 && row.clock_events[0] == '\0');
        /* the highest clock lasts the process; the next set's low is its own */
        use((const double[]){3400}, 1);
        run_set(&q, 2, rep_time, times);
        CHECK(q.made == 2 && quiet_count(&q) == 2);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(row.cpu_clock_MHz == 3500 && row.cpu_clock_low_MHz == 3400 &&
              row.reps_disturbed == 0);
        quiet_free(&q);
    }
    { /* 2. never quiet again: gives up at QUIET_ATTEMPTS_FACTOR x wanted, uses every attempt and
       * says so (cpu_unsteady) */
        static const double s[] = {3500, 2000};
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 2);
        CHECK(run_set(&q, 3, rep_time, times) == QUIET_ATTEMPTS_FACTOR * 3);
        CHECK(quiet_count(&q) == 0);
        CHECK(quiet_select(&q, times) == QUIET_ATTEMPTS_FACTOR * 3 && times[0] == 5);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(row.reps_disturbed == QUIET_ATTEMPTS_FACTOR * 3);
        CHECK(strcmp(row.clock_events, "cpu_unsteady") == 0);
        quiet_free(&q);
    }
    { /* 3. some quiet but too few: the quiet ones only, and cpu_unsteady; beside a gpu-style
       * event word the flag is appended */
        static const double s[] = {3500, 3500, 2000};
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 3);
        CHECK(run_set(&q, 2, rep_time, times) == QUIET_ATTEMPTS_FACTOR * 2);
        CHECK(quiet_select(&q, times) == 1 && times[0] == 5);
        csv_record_init(&row);
        csv_set(row.clock_events, "sw_power_cap");
        quiet_fill_row(&q, &row);
        CHECK(row.reps_disturbed == QUIET_ATTEMPTS_FACTOR * 2 - 1);
        CHECK(strcmp(row.clock_events, "sw_power_cap+cpu_unsteady") == 0);
        quiet_free(&q);
    }
    { /* 4. a clock that rises later: repetitions quiet against the early high turn disturbed
       * once a higher clock is seen (judged against the highest seen by now) */
        static const double s[] = {2000, 2000, 2000, 3500};
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 4);
        CHECK(run_set(&q, 3, rep_time, times) == 6);
        CHECK(quiet_count(&q) == 3); /* r4..r6; r3 ended at 3500 but began at 2000 */
        n = quiet_select(&q, times);
        CHECK(n == 3 && times[0] == 6 && times[1] == 7 && times[2] == 1);
        quiet_free(&q);
    }
    { /* 5. a reading just at the fraction counts as quiet; just under it does not */
        const double at = QUIET_CLOCK_FRACTION * 3000;
        const double s[] = {3000, at, at * 0.999};
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 3);
        quiet_begin(&q, 1);
        quiet_after(&q, 1.0);
        CHECK(quiet_count(&q) == 1 && !quiet_more(&q));
        quiet_after(&q, 1.0);
        CHECK(quiet_count(&q) == 1 && q.made == 2);
        quiet_free(&q);
    }
    { /* 6. no probe (gpu, --quiet-wait off): exactly the wanted repetitions, all counted, the
       * columns left empty */
        struct quiet_judge q = {.probe = NULL};
        CHECK(run_set(&q, 3, rep_time, times) == 3);
        CHECK(quiet_select(&q, times) == 3);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(isnan(row.cpu_clock_MHz) && isnan(row.cpu_clock_low_MHz) && row.reps_disturbed < 0);
        quiet_free(&q);
    }
    { /* 7. repetitions shorter than QUIET_PROBE_SPACING_S share a block: one probe per block
       * lasting the spacing, and one that ends the set; a block is judged as one */
        static const double s[] = {3500, 2000, 3500};
        const double short_rep = QUIET_PROBE_SPACING_S / 4; /* blocks of 4 */
        double t[64];
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 3);
        for (int i = 0; i < 64; i++)
            t[i] = short_rep;
        CHECK(run_set(&q, 6, t, times) == 14);
        /* block 1 (reps 1-4) ends at 2000, block 2 (5-8) begins there: both disturbed; block 3
         * (9-12) quiet; then two more complete the six, closed by the set's own probe */
        CHECK(calls == 5 && quiet_count(&q) == 6);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(row.reps_disturbed == 8 && row.clock_events[0] == '\0');
        quiet_free(&q);
    }
    { /* 8. a distributed run (lbm_main.c's judge_together): a repetition this process read as
       * quiet but another judged disturbed (quiet_veto) leaves the count, the selection and the
       * row as one disturbed here; so does one of the open block, once that closes; its own
       * disturbed ones are what it tells the others; the shown clocks span both processes */
        static const double s[] = {3500, 3500, 2000, 3500};
        double t[64];
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 4);
        quiet_begin(&q, 3);
        for (int i = 0; i < 2; i++) { /* r1 quiet, r2 disturbed (ends at 2000) */
            t[q.made] = rep_time[q.made];
            CHECK(quiet_after(&q, rep_time[q.made]) == 0);
        }
        CHECK(quiet_count(&q) == 1 && !quiet_disturbed_here(&q, 0) && quiet_disturbed_here(&q, 1));
        quiet_veto(&q, 0); /* the other process saw r1 disturbed */
        quiet_veto(&q, 0); /* said twice: once */
        CHECK(quiet_count(&q) == 0 && !quiet_disturbed_here(&q, 0));
        while (quiet_more(&q)) {
            t[q.made] = rep_time[q.made];
            CHECK(quiet_after(&q, rep_time[q.made]) == 0);
            if (q.made == 4) quiet_veto(&q, 3); /* after its block closed */
        }
        /* r3 starts at 2000: disturbed here; r4 vetoed; r5..r7 quiet */
        CHECK(q.made == 7 && quiet_count(&q) == 3);
        n = quiet_select(&q, t);
        CHECK(n == 3 && t[0] == rep_time[4] && t[2] == rep_time[6]);
        quiet_show_clocks(&q, 3600, 1500);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(row.reps_disturbed == 4 && row.cpu_clock_MHz == 3600 &&
              row.cpu_clock_low_MHz == 1500 && row.clock_events[0] == '\0');
        quiet_free(&q);
    }
    { /* 9. a veto of a repetition in the open block (repetitions sharing a block, as 7): it no
       * longer counts as a hope, so the block stays open until the others could complete the set
       * (one probe, not two), and it is not quiet once the block closes; quiet_changed_since says
       * what was judged here since it last looked: nothing while the block is open, then the
       * closed block's first repetition, then nothing */
        static const double s[] = {3500};
        const double short_rep = QUIET_PROBE_SPACING_S / 4; /* blocks of up to 4 */
        double t[64];
        struct quiet_judge q = {.probe = scripted, .threads = 1};
        use(s, 1);
        quiet_begin(&q, 2);
        t[0] = 1;
        CHECK(quiet_after(&q, short_rep) == 0 && q.pending == 1);
        quiet_veto(&q, 0); /* another process saw it disturbed while it is open here */
        CHECK(quiet_changed_since(&q) == 1); /* nothing judged here yet */
        while (quiet_more(&q)) {
            t[q.made] = 2 + q.made;
            CHECK(quiet_after(&q, short_rep) == 0);
        }
        CHECK(q.made == 3 && quiet_count(&q) == 2 && calls == 2);
        CHECK(quiet_changed_since(&q) == 0 && quiet_changed_since(&q) == 3);
        n = quiet_select(&q, t);
        CHECK(n == 2 && t[0] == 3 && t[1] == 4);
        csv_record_init(&row);
        quiet_fill_row(&q, &row);
        CHECK(row.reps_disturbed == 1);
        quiet_free(&q);
    }
    return check_report("test_quiet");
}
