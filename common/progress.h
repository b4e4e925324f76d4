/* progress.h: what long sweeps share: a progress line per case on stderr when it is a terminal
 * (case i of n, elapsed, estimate left), and a clean stop on Ctrl-C or SIGTERM between cases. */
#ifndef SUITE_PROGRESS_H
#define SUITE_PROGRESS_H

struct progress {
    const char *prog;
    int total;
    double t0; /* seconds, monotonic */
    int tty;
};

void progress_start(struct progress *p, const char *prog, int total);
/* before case i (1-based); `what` describes it */
void progress_case(const struct progress *p, int i, const char *what);

/* SIGINT and SIGTERM set a flag the sweep checks between cases; a second signal ends the
 * program at once (rows written so far are complete: each is flushed when measured). */
void interrupt_install(void);
int interrupt_requested(void);

#endif
