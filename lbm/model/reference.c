/* reference.c: the truth the backends are checked against: a plain serial double-precision
 * two-lattice pull stepper on unpadded [d][z][y][x] arrays, its boundary rules written out
 * directly rather than shared with the backends; only the collision text is common. Its arrays
 * hold f; the collisions see g = f - w, like the backends' stored values. */
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "lbm_model.h"

static size_t at(const struct lbm_case *c, int d, size_t x, size_t y, size_t z)
{
    return (((size_t)d * c->nz + z) * c->ny + y) * c->nx + x;
}

void lbm_reference_init(const struct lbm_case *c, double *pdf)
{
    for (int d = 0; d < 19; d++)
        for (size_t z = 0; z < c->nz; z++)
            for (size_t y = 0; y < c->ny; y++)
                for (size_t x = 0; x < c->nx; x++)
                    pdf[at(c, d, x, y, z)] = lbm_init_value(d, x, y, z);
}

int lbm_reference_step(const struct lbm_case *c, double *pdf, int steps)
{
    const size_t n = c->nx * c->ny * c->nz * 19;
    const long dims[3] = {(long)c->nx, (long)c->ny, (long)c->nz};
    double *tmp = malloc(n * sizeof *tmp);
    struct lbm_coll_dp p;
    struct lbm_bounds b;
    int forced = lbm_forced(c);

    if (!tmp) return 1;
    /* the collisions work on g = f - w (collision_impl.h) */
    for (size_t i = 0; i < n; i++)
        pdf[i] -= lbm_w[i / (n / 19)];
    lbm_coll_params_dp(c, &p);
    lbm_geometry_bounds(c->geometry, c->lid_ux, &b);
    for (int t = 0; t < steps; t++) {
        for (size_t z = 0; z < c->nz; z++) {
            for (size_t y = 0; y < c->ny; y++) {
                for (size_t x = 0; x < c->nx; x++) {
                    double f[19];
                    for (int d = 0; d < 19; d++) {
                        long s[3] = {(long)x - lbm_cx[d], (long)y - lbm_cy[d], (long)z - lbm_cz[d]};
                        int wall = 0, lid = 0;
                        for (int a = 0; a < 3; a++) {
                            if (s[a] < 0 || s[a] >= dims[a]) {
                                if (b.periodic[a]) {
                                    s[a] = (s[a] + dims[a]) % dims[a];
                                } else {
                                    wall = 1;
                                    lid |= a == 2 && s[a] == dims[2];
                                }
                            }
                        }
                        if (wall)
                            f[d] = pdf[at(c, lbm_opp[d], x, y, z)] +
                                   (lid ? LBM_LID_TERM(lbm_w[d], lbm_cx[d], b.lid_ux) : 0.0);
                        else
                            f[d] = pdf[at(c, d, (size_t)s[0], (size_t)s[1], (size_t)s[2])];
                    }
                    lbm_collide_dp(f, &p, (int)c->collision, forced);
                    for (int d = 0; d < 19; d++)
                        tmp[at(c, d, x, y, z)] = f[d];
                }
            }
        }
        memcpy(pdf, tmp, n * sizeof *pdf);
    }
    for (size_t i = 0; i < n; i++)
        pdf[i] += lbm_w[i / (n / 19)];
    free(tmp);
    return 0;
}
