/* cpu_marker.c: the likwid Marker API behind plain functions; active only when built with likwid
 * (LBMR_WITH_LIKWID) and run under likwid-perfctr (which sets LIKWID_MODE). */
#include "cpu_marker.h"

#include <stdlib.h>

#ifdef LBMR_WITH_LIKWID
#include <likwid-marker.h>

static int active;

static void close_markers(void)
{
    LIKWID_MARKER_CLOSE;
}

void cpu_marker_setup(void)
{
    if (active || !getenv("LIKWID_MODE"))
        return; /* not under likwid-perfctr -m: stay silent and cost nothing */
    active = 1;
    LIKWID_MARKER_INIT;
    atexit(close_markers);
}

void cpu_marker_register(const char *name)
{
    if (active) LIKWID_MARKER_REGISTER(name);
}

void cpu_marker_start(const char *name)
{
    if (active) LIKWID_MARKER_START(name);
}

void cpu_marker_stop(const char *name)
{
    if (active) LIKWID_MARKER_STOP(name);
}
#else
void cpu_marker_setup(void) {}

void cpu_marker_register(const char *name)
{
    (void)name;
}

void cpu_marker_start(const char *name)
{
    (void)name;
}

void cpu_marker_stop(const char *name)
{
    (void)name;
}
#endif
