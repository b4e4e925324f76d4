/* image.c: the one loop between the interface's populations and a lattice image (image.h). */
#include "image.h"

/* index of (d, x, y, z) in the interface's [d][z][y][x] order */
static size_t dense(const struct lbm_layout *l, int d, size_t x, size_t y, size_t z)
{
    return (((size_t)d * l->nz + z) * l->ny + y) * l->nx + x;
}

void lbm_image_from_pdf(const struct lbm_layout *l, enum lbm_kernel k, size_t es, void *lat,
                        const double *pdf)
{
    for (int d = 0; d < 19; d++)
        for (size_t z = 0; z < l->nz; z++)
            for (size_t y = 0; y < l->ny; y++)
                for (size_t x = 0; x < l->nx; x++) {
                    const double v = pdf[dense(l, d, x, y, z)] - lbm_w[d];
                    const size_t i = LBM_IDX(l, lbm_slot(k, d), x, y, z);
                    if (es == 4)
                        ((float *)lat)[i] = (float)v;
                    else
                        ((double *)lat)[i] = v;
                }
}

void lbm_image_to_pdf(const struct lbm_layout *l, enum lbm_kernel k, size_t es, const void *lat,
                      double *pdf)
{
    for (int d = 0; d < 19; d++)
        for (size_t z = 0; z < l->nz; z++)
            for (size_t y = 0; y < l->ny; y++)
                for (size_t x = 0; x < l->nx; x++) {
                    const size_t i = LBM_IDX(l, lbm_slot(k, d), x, y, z);
                    pdf[dense(l, d, x, y, z)] =
                        (es == 4 ? (double)((const float *)lat)[i] : ((const double *)lat)[i]) +
                        lbm_w[d];
                }
}
