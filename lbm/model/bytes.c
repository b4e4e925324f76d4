/* bytes.c: the byte table of the D3Q19 update and the default domain edge derived from it. */

#include "lbm_model.h"

void lbm_traffic(size_t esize, int write_allocate, double *prog_bytes, double *dram_bytes)
{
    *prog_bytes = (double)(38 * esize);
    *dram_bytes = (double)((write_allocate ? 57 : 38) * esize);
}

size_t lbm_default_edge(size_t bytes, size_t es, size_t min_edge)
{
    size_t e = (min_edge + 15) / 16 * 16;
    if (e == 0) e = 16;
    while ((double)e * e * e * 19 * es < (double)bytes)
        e += 16;
    return e;
}
