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

static void ghosts(const struct lbm_case *c, int g[3])
{
    for (int a = 0; a < 3; a++)
        g[a] = c->place.neighbor[a][0] || c->place.neighbor[a][1];
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
        if (g[a])
            u->b.periodic[a] = 0; /* the axis is split: its wrap is a neighbour's ghost layer */
    }
    lbm_coll_params_sp(c, &u->psp);
    lbm_coll_params_dp(c, &u->pdp);
    return 0;
}
