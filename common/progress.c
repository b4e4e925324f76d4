/* progress.c: progress lines and the interrupt flag of the sweeps. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;
static char ack[200]; /* said by the handler itself, so the person sees it at once */
static size_t ack_len;

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
    if (!p->tty) return; /* quiet in logs and pipelines */
    el = now() - p->t0;
    if (i > 1)
        fprintf(stderr, "%s: case %d/%d: %s (elapsed %.0f s, about %.0f s left)\n", p->prog, i,
                p->total, what, el, el / (i - 1) * (p->total - i + 1));
    else
        fprintf(stderr, "%s: case %d/%d: %s\n", p->prog, i, p->total, what);
}

void progress_phase(const char *phase)
{
    const char *path = getenv("LBMR_TEST_PHASES");
    char line[64];
    int fd, n;
    if (!path || !*path) return;
    n = snprintf(line, sizeof line, "%s\n", phase);
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return; /* a hook for tests: a test that cannot read it fails on its own */
    ssize_t w = write(fd, line, (size_t)n);
    (void)w; /* likewise */
    close(fd);
}

static void on_signal(int sig)
{
    const int saved = errno;
    ssize_t w;
    (void)sig;
    stop_requested = 1;
    signal(SIGINT, SIG_DFL); /* a second one, of either kind, ends the program at once */
    signal(SIGTERM, SIG_DFL);
    w = write(STDERR_FILENO, ack, ack_len); /* async-signal-safe, unlike stdio */
    (void)w;                                /* nothing to do if stderr is gone */
    errno = saved;
}

void interrupt_install(const char *prog)
{
    struct sigaction sa;
    int n = snprintf(ack, sizeof ack,
                     "%s: interrupted: stopping now; the unfinished case is dropped (a second "
                     "signal ends the program at once)\n",
                     prog);
    ack_len = n < 0 ? 0 : ((size_t)n < sizeof ack ? (size_t)n : sizeof ack - 1);
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

int interrupt_stop(char *err, size_t errlen)
{
    if (!interrupt_requested()) return 0;
    snprintf(err, errlen, "interrupted");
    return 1;
}
