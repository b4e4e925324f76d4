/* test_decomp_mpi.c: decomp_dims (lbm/driver/decomp.c) against MPI_Dims_create, which chose the
 * default rank grid before decomp.c did: with Open MPI, whose rule decomp_dims follows, the same
 * grid for every rank count up to 4096 (from 360 on it is not always the most balanced one, so
 * tests/test_decomp.c's search cannot check it there). Skipped (77) with another MPI library,
 * whose rule may differ. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#include "decomp.h"

int main(int argc, char **argv)
{
#if defined(OPEN_MPI) && OPEN_MPI
    MPI_Init(&argc, &argv);
    for (int n = 1; n <= 4096; n++) {
        int d[3] = {0, 0, 0}, p[3];
        CHECK(MPI_Dims_create(n, 3, d) == MPI_SUCCESS);
        CHECK(decomp_dims(n, p) == 0);
        /* MPI orders its factors largest first; decomp_dims puts the largest along z */
        if (p[0] != d[2] || p[1] != d[1] || p[2] != d[0]) {
            fprintf(stderr, "%d ranks: decomp_dims %dx%dx%d, MPI_Dims_create %dx%dx%d\n", n, p[0],
                    p[1], p[2], d[2], d[1], d[0]);
            check_failures++;
        }
    }
    MPI_Finalize();
    return check_report("test_decomp_mpi");
#else
    (void)argc;
    (void)argv;
    fprintf(stderr, "test_decomp_mpi: not Open MPI, whose grid decomp_dims follows: skipped\n");
    return 77;
#endif
}
