/* cpu_marker.h: likwid Marker API regions around the timed kernels of the OpenMP backends
 * (`likwid-perfctr -m` reports them by name: stream_copy, lbm_pull, ...). Without likwid, or
 * outside likwid-perfctr, every call is a no-op and nothing else changes. Start and stop are
 * called by every thread inside the parallel region, as likwid prescribes. */
#ifndef LBMR_CPU_MARKER_H
#define LBMR_CPU_MARKER_H

/* Once per process before any region; registers a close at exit. */
void cpu_marker_setup(void);
/* Inside a parallel region, before timing: every thread registers the region. */
void cpu_marker_register(const char *name);
void cpu_marker_start(const char *name);
void cpu_marker_stop(const char *name);

#endif
