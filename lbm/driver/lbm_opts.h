/* lbm_opts.h: the options of lbm-cpu and lbm-gpu (one set for both). */
#ifndef LBM_OPTS_H
#define LBM_OPTS_H

#include "cli.h"
#include "dist.h"
#include "lbm.h"
#include "options.h"

#define LBM_DIMS_MAX 256
#define LBM_DECOMP_MAX 64

struct lbm_opts {
    struct options_common c;      /* precision, reps, warmup, threads, output */
    size_t dims[LBM_DIMS_MAX][3]; /* from --size (cubes) and --dims */
    int ndims;                    /* 0: backend default */
    int weak;                     /* dims are each rank's own box (--local), not the whole */
    int procs[LBM_DECOMP_MAX][3]; /* --procs: rank grids */
    int nprocs;
    struct cli_list ranks;               /* --ranks: rank counts split by MPI_Dims_create */
    int overlaps[2], noverlaps;          /* --overlap: 1 on, 0 off (default on) */
    int halos[DIST_HALO_COUNT], nhalos;  /* --halo: enum dist_halo (default auto) */
    struct cli_list pads, aligns, block; /* aligns.n == 0: the backend's, per kernel */
    int colls[LBM_COLLISION_COUNT], ncolls;
    int kernels[LBM_KERNEL_COUNT], nkernels; /* 0: every kernel the backend has */
    int geoms[LBM_GEOMETRY_COUNT], ngeoms;
    int orders[LBM_ORDER_COUNT], norders; /* --layout; 0: the backend's (device_facts.lbm_rows) */
    double omega, lid_ux, force;
    int steps; /* 0: chosen so a repetition lasts about 0.1 s */
    struct {
        int global, omega, visc, lid, force; /* --size/--dims, --omega, ... were given */
    } given;
};

/* 0: run; 2: bad input (message in err); -1: help or version printed. */
int lbm_opts_parse(int argc, char **argv, const char *backend, struct lbm_opts *o, char *err,
                   size_t errlen);

#endif
