/* test_stats.c: min, median, max of repetition times, odd and even counts, bad input. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "stats.h"

int main(void)
{
    struct stats s;
    const double odd[] = {3.0, 1.0, 2.0, 5.0, 4.0};
    const double even[] = {4.0, 1.0, 3.0, 2.0};
    const double one[] = {7.5};
    const double withnan[] = {1.0, NAN};

    CHECK(stats_compute(odd, 5, &s) == 0);
    CHECK(s.min == 1.0 && s.med == 3.0 && s.max == 5.0);
    CHECK(stats_compute(even, 4, &s) == 0);
    CHECK(s.min == 1.0 && s.med == 2.5 && s.max == 4.0);
    CHECK(stats_compute(one, 1, &s) == 0);
    CHECK(s.min == 7.5 && s.med == 7.5 && s.max == 7.5);
    CHECK(odd[0] == 3.0); /* input left unsorted */
    CHECK(stats_compute(odd, 0, &s) != 0);
    CHECK(stats_compute(withnan, 2, &s) != 0);
    { /* room for timings: grows, keeps what it holds, never shrinks */
        double *t = NULL;
        int cap = 0;
        CHECK(stats_reserve(&t, &cap, 3) == 0 && t && cap == 3);
        t[2] = 42.0;
        CHECK(stats_reserve(&t, &cap, 2) == 0 && cap == 3 && t[2] == 42.0);
        CHECK(stats_reserve(&t, &cap, 1000) == 0 && cap == 1000 && t[2] == 42.0);
        t[999] = 1.0;
        free(t);
    }
    return check_report("test_stats");
}
