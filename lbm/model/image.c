/* image.c: the one loop between the interface's populations and a lattice image (image.h). */
#include "image.h"

#include "lat_value.h"

/* index of (d, x, y, z) in the interface's [d][z][y][x] order */
static size_t dense(const struct lbm_layout *l, int d, size_t x, size_t y, size_t z)
{
    return (((size_t)d * l->nz + z) * l->ny + y) * l->nx + x;
}

void lbm_image_from_pdf(const struct lbm_layout *l, enum lbm_kernel k, enum prec p, void *lat,
                        const double *pdf)
{
    for (int d = 0; d < 19; d++)
        for (size_t z = 0; z < l->nz; z++)
            for (size_t y = 0; y < l->ny; y++)
                for (size_t x = 0; x < l->nx; x++) {
                    const double v = pdf[dense(l, d, x, y, z)] - lbm_w[d];
                    const size_t i = LBM_IDX(l, lbm_slot(k, d), x, y, z);
                    lat_value_put(p, lat, i, v);
                }
}

void lbm_image_to_pdf(const struct lbm_layout *l, enum lbm_kernel k, enum prec p, const void *lat,
                      double *pdf)
{
    for (int d = 0; d < 19; d++)
        for (size_t z = 0; z < l->nz; z++)
            for (size_t y = 0; y < l->ny; y++)
                for (size_t x = 0; x < l->nx; x++) {
                    const size_t i = LBM_IDX(l, lbm_slot(k, d), x, y, z);
                    pdf[dense(l, d, x, y, z)] = lat_value_get(p, lat, i) + lbm_w[d];
                }
}
