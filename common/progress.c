/* progress.c: progress lines and the interrupt flag of the sweeps. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_start(struct progress *p, const char *prog, int total)
{
    p->prog = prog;
    p->total = total;
    p->t0 = now();
    p->tty = isatty(STDERR_FILENO);
}

void progress_case(const struct progress *p, int i, const char *what)
{
    double el;
    if (!p->tty)
        return; /* quiet in logs and pipelines */
    el = now() - p->t0;
    if (i > 1)
        fprintf(stderr, "%s: case %d/%d: %s (elapsed %.0f s, about %.0f s left)\n", p->prog, i,
                p->total, what, el, el / (i - 1) * (p->total - i + 1));
    else
        fprintf(stderr, "%s: case %d/%d: %s\n", p->prog, i, p->total, what);
}

static void on_signal(int sig)
{
    stop_requested = 1;
    signal(sig, SIG_DFL); /* a second one ends the program at once */
}

void interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int interrupt_requested(void)
{
    return stop_requested != 0;
}
