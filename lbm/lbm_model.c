/* lbm_model.c: names, collision parameters, geometry bounds and the byte table of the D3Q19
 * two-lattice update, one place for each. */
#include <stdio.h>
#include <string.h>

#include "lbm.h"

const char *const lbm_kernel_names[LBM_KERNEL_COUNT] = {"pull", "pull_nt", "aa", "pull_aos"};

int lbm_readable(enum lbm_kernel k, int odd, char *err, size_t errlen)
{
    if (k == LBM_AA && odd) {
        snprintf(err, errlen,
                 "the aa lattice holds streamed values after an odd number of "
                 "updates: read it after an even number");
        return 0;
    }
    return 1;
}

int lbm_single_rank(enum lbm_kernel k)
{
    return k == LBM_AA || k == LBM_PULL_AOS;
}

static int make_layout(struct lbm_layout *l, const struct lbm_case *c, const int g[3])
{
    if (c->kernel == LBM_PULL_AOS)
        return lbm_layout_make_aos(l, c->nx, c->ny, c->nz, c->pad, c->align, prec_size(c->prec));
    return lbm_layout_make_halo(l, c->nx, c->ny, c->nz, c->pad, c->align, prec_size(c->prec), g);
}

int lbm_lattices(enum lbm_kernel k)
{
    return k == LBM_AA ? 1 : 2;
}
const char *const lbm_collision_names[LBM_COLLISION_COUNT] = {"bgk", "trt", "mrt"};
const char *const lbm_geometry_names[LBM_GEOMETRY_COUNT] = {"cavity", "channel", "periodic"};

void lbm_geometry_bounds(enum lbm_geometry g, double lid_ux, struct lbm_bounds *b)
{
    memset(b, 0, sizeof *b);
    if (g == LBM_CHANNEL) {
        b->periodic[0] = b->periodic[2] = 1;
    } else if (g == LBM_PERIODIC) {
        b->periodic[0] = b->periodic[1] = b->periodic[2] = 1;
    } else {
        b->lid_ux = lid_ux;
    }
}

double lbm_viscosity(double omega)
{
    return (1.0 / omega - 0.5) / 3.0;
}

int lbm_forced(const struct lbm_case *c)
{
    return c->force[0] != 0.0 || c->force[1] != 0.0 || c->force[2] != 0.0;
}

void lbm_coll_params_dp(const struct lbm_case *c, struct lbm_coll_dp *p)
{
    const double w = c->omega;
    /* TRT: (1/w+ - 1/2)(1/w- - 1/2) = 3/16 */
    const double wm = 1.0 / (0.5 + LBM_TRT_MAGIC / (1.0 / w - 0.5));
    const double s[19] = {
        0,           LBM_MRT_S_E, LBM_MRT_S_EPS, 0, LBM_MRT_S_Q,  0, LBM_MRT_S_Q, 0,
        LBM_MRT_S_Q, w,           LBM_MRT_S_PI,  w, LBM_MRT_S_PI, w, w,           w,
        LBM_MRT_S_M, LBM_MRT_S_M, LBM_MRT_S_M};
    p->omega = w;
    p->omega_minus = wm;
    memcpy(p->s, s, sizeof s);
    for (int a = 0; a < 3; a++)
        p->g[a] = c->force[a];
}

void lbm_coll_params_sp(const struct lbm_case *c, struct lbm_coll_sp *p)
{
    struct lbm_coll_dp d;
    lbm_coll_params_dp(c, &d);
    p->omega = (float)d.omega;
    p->omega_minus = (float)d.omega_minus;
    for (int k = 0; k < 19; k++)
        p->s[k] = (float)d.s[k];
    for (int a = 0; a < 3; a++)
        p->g[a] = (float)d.g[a];
}

size_t lbm_default_edge(size_t bytes, size_t es, size_t min_edge)
{
    size_t e = (min_edge + 15) / 16 * 16;
    if (e == 0) e = 16;
    while ((double)e * e * e * 19 * es < (double)bytes)
        e += 16;
    return e;
}

void lbm_traffic(size_t esize, int write_allocate, double *prog_bytes, double *dram_bytes)
{
    *prog_bytes = (double)(38 * esize);
    *dram_bytes = (double)((write_allocate ? 57 : 38) * esize);
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
