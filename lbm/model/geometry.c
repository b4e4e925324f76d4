/* geometry.c: the geometries' names and their boundaries (geometry.h). */
#include <string.h>

#include "lbm_model.h"

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
