/* params.c: the collisions' names and parameters in double and single precision, the
 * viscosity they imply, whether a case is forced. */
#include <string.h>

#include "lbm_model.h"

const char *const lbm_collision_names[LBM_COLLISION_COUNT] = {"bgk", "trt", "mrt"};

double lbm_viscosity(double omega)
{
    return (1.0 / omega - 0.5) / 3.0;
}

double lbm_omega_of(double nu)
{
    return 1.0 / (3.0 * nu + 0.5);
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
