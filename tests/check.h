/* check.h: the unit tests' one assertion; counts failures and goes on, so a run lists them all. */
#ifndef LBMR_TEST_CHECK_H
#define LBMR_TEST_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

static inline int check_report(const char *name)
{
    fprintf(stderr, "%s: %s\n", name, check_failures ? "FAILED" : "ok");
    return check_failures ? 1 : 0;
}

#endif
