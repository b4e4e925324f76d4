/* progress.h: what long sweeps share: a progress line per case on stderr when it is a terminal
 * (case i of n, elapsed, estimate left), and a clean stop on Ctrl-C or SIGTERM between cases. */
#ifndef LBMR_PROGRESS_H
#define LBMR_PROGRESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct progress {
    const char *prog;
    int total;
    double t0; /* seconds, monotonic */
    int tty;
};

void progress_start(struct progress *p, const char *prog, int total);
/* before case i (1-based); `what` describes it */
void progress_case(const struct progress *p, int i, const char *what);

/* A test hook: where LBMR_TEST_PHASES names a file, a line with `phase` ("setup": a case's
 * allocation and first values begin; "timed": its timed repetitions begin) is appended to it, so
 * that a test can send its signal inside the phase it means to test instead of after a guessed
 * sleep. Nothing otherwise. */
void progress_phase(const char *phase);

/* SIGINT and SIGTERM set a flag and say at once on stderr that prog stops; a second signal ends
 * the program at once (rows written so far are complete: each is written whole when measured).
 * The drivers check the flag between cases and repetitions, the backends between the updates of
 * a repetition (they return an error and the driver, seeing the flag, drops the case). */
void interrupt_install(const char *prog);
int interrupt_requested(void);
/* The backends' and drivers' stop: 1, with "interrupted" in err, once a signal came; else 0. */
int interrupt_stop(char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
