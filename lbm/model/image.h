/* image.h: the populations as they cross the backend interface (double f, unpadded, ordered
 * [d][z][y][x]) against a host image of a lattice (the backend's layout, precision and slots,
 * stored shifted: g = f - w). One conversion for the CPU and GPU backends' lbm_load and
 * lbm_fetch. Host code only. */
#ifndef LBM_IMAGE_H
#define LBM_IMAGE_H

#include <stddef.h>

#include "lbm_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the fluid values of lat (precision p: lat_value.h) from pdf; padding, ghost layers
 * and the other slots' unused values are left as they are. */
void lbm_image_from_pdf(const struct lbm_layout *l, enum lbm_kernel k, enum prec p, void *lat,
                        const double *pdf);
/* Reads the fluid values of lat into pdf. The caller checks lbm_readable first. */
void lbm_image_to_pdf(const struct lbm_layout *l, enum lbm_kernel k, enum prec p, const void *lat,
                      double *pdf);

#ifdef __cplusplus
}
#endif

#endif
