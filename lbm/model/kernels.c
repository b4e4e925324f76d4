/* kernels.c: the streaming kernels' names and properties: lattices kept, ranks allowed, when a
 * lattice reads back as populations. */
#include <stdio.h>

#include "device.h"
#include "lbm_model.h"

const char *const lbm_kernel_names[LBM_KERNEL_COUNT] = {"pull", "pull_nt", "aa", "pull_aos"};
const char *const lbm_order_names[LBM_ORDER_COUNT] = {"soa", "rows"};

int lbm_lattices(enum lbm_kernel k)
{
    return k == LBM_AA ? 1 : 2;
}

int lbm_single_rank(enum lbm_kernel k)
{
    return k == LBM_AA || k == LBM_PULL_AOS;
}

size_t lbm_row_align_default(const struct device_facts *d, enum lbm_kernel k, int split_x)
{
    if (split_x) return k == LBM_PULL_NT ? d->row_align_split_x_nt : d->row_align_split_x;
    return lbm_lattices(k) == 1 ? d->row_align_inplace : d->row_align;
}

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
