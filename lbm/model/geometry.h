/* geometry.h: the three benchmark geometries as rules on a box of nx x ny x nz fluid cells (no
 * solid cells are stored): each axis is periodic or closed by half-way bounce-back walls, the
 * cavity's top wall (beyond z = nz-1) moves along +x, the channel is driven by a body force along
 * x. A sub-domain of a distributed run also has sides facing other ranks (lbm/driver/dist.h).
 * Plain C, usable from .c and .cu. */
#ifndef LBM_GEOMETRY_H
#define LBM_GEOMETRY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum lbm_geometry {
    LBM_CAVITY = 0,   /* walls everywhere, lid at the top moving along +x (the benchmark default) */
    LBM_CHANNEL = 1,  /* periodic in x and z, walls in y, body force along x: plane Poiseuille */
    LBM_PERIODIC = 2, /* periodic in every axis: Taylor-Green */
    LBM_GEOMETRY_COUNT = 3
};

extern const char *const lbm_geometry_names[LBM_GEOMETRY_COUNT];

struct lbm_bounds {
    int periodic[3];    /* per axis x, y, z: wraps onto this same sub-domain */
    int neighbor[3][2]; /* per axis and side (low, high): another rank's cells lie beyond, in
                           this sub-domain's ghost layer (or, along x without one, in the
                           received face: setup.c); such a side is neither wall nor wrap */
    double lid_ux;      /* velocity of the top (z) wall along x; 0 where there is none */
};

void lbm_geometry_bounds(enum lbm_geometry g, double lid_ux, struct lbm_bounds *b);

/* The moving lid's term in half-way bounce-back, added to the bounced population of direction d:
 * 6 w_d (c_d . u_wall) with u_wall = (ux, 0, 0), lattice units (Ladd 1994; with
 * c_s^2 = 1/3). Formed in double from w_d, c_dx and ux; the caller converts it to its precision.
 * The CPU kernels and lbm/model/reference.c take it from here, so that they agree to the bit. */
#define LBM_LID_TERM(w, cx, ux) (6.0 * (w) * (cx) * (ux))

#ifdef __cplusplus
}
#endif
#endif
