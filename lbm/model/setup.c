/* setup.c: what a backend derives from a case before allocating: the layout (ghost layers
 * where the domain is split), the boundaries, the collision parameters, the bytes to allocate, the
 * whole domain's size. */
#include <stdio.h>

#include "lbm_model.h"

static int make_layout(struct lbm_layout *l, const struct lbm_case *c, const int g[3])
{
    if (c->kernel == LBM_PULL_AOS)
        return lbm_layout_make_aos(l, c->nx, c->ny, c->nz, c->pad, c->align, prec_size(c->prec));
    if (lbm_layout_make_halo(l, c->nx, c->ny, c->nz, c->pad, c->align, prec_size(c->prec), g))
        return 1;
    if (c->order == LBM_ROWS) lbm_layout_interleave(l);
    return 0;
}

/* A ghost layer on each split axis, but along x where the rows read the received x faces
 * themselves and x is the only split axis: there the ghost line in front of every row cost pull_nt
 * 7.6% sp (data/mpi/xsplit-cpu-rows-h200-host-2026-11-29). Where y or z is split too, the x ghost
 * column holds the edges' values that a y or z face carries. */
static void ghosts(const struct lbm_case *c, int g[3])
{
    for (int a = 0; a < 3; a++)
        g[a] = c->place.neighbor[a][0] || c->place.neighbor[a][1];
    if (c->place.x_faces_in_rows && !g[1] && !g[2]) g[0] = 0;
}

size_t lbm_bytes_needed(const struct lbm_case *c)
{
    struct lbm_layout l;
    int g[3];
    ghosts(c, g);
    if (make_layout(&l, c, g)) return 0;
    return (size_t)lbm_lattices(c->kernel) * l.elems * prec_size(c->prec);
}

void lbm_global_dims(const struct lbm_case *c, size_t g[3])
{
    const size_t local[3] = {c->nx, c->ny, c->nz};
    for (int a = 0; a < 3; a++)
        g[a] = c->place.global[a] ? c->place.global[a] : local[a];
}

int lbm_setup_make(struct lbm_setup *u, const struct lbm_case *c, char *err, size_t errlen)
{
    int g[3];
    u->c = *c;
    u->es = prec_size(c->prec);
    ghosts(c, g);
    if (make_layout(&u->l, c, g)) {
        snprintf(err, errlen, "alignment %zu is not a multiple of the value size %zu", c->align,
                 u->es);
        return 1;
    }
    lbm_geometry_bounds(c->geometry, c->lid_ux, &u->b);
    for (int a = 0; a < 3; a++) {
        u->b.neighbor[a][0] = c->place.neighbor[a][0];
        u->b.neighbor[a][1] = c->place.neighbor[a][1];
        if (c->place.neighbor[a][0] || c->place.neighbor[a][1])
            u->b.periodic[a] = 0; /* the axis is split: its wrap is a neighbour's cells */
    }
    lbm_coll_params_sp(c, &u->psp);
    lbm_coll_params_dp(c, &u->pdp);
    return 0;
}
