/* d3q19.h: the D3Q19 velocity set as one X-macro (index, cx, cy, cz, opposite); plain C usable
 * from .c and .cu. Expanding the macro gives straight-line code with literal indices, so the
 * velocities never need a table in device memory. */
#ifndef LBM_D3Q19_H
#define LBM_D3Q19_H

#define LBM_Q 19

/* rest, 6 faces, 12 edges; opposite pairs are neighbours (1-2, 3-4, ... 17-18) */
#define LBM_D3Q19(X)                                                                               \
    X(0, 0, 0, 0, 0)                                                                               \
    X(1, 1, 0, 0, 2)                                                                               \
    X(2, -1, 0, 0, 1)                                                                              \
    X(3, 0, 1, 0, 4)                                                                               \
    X(4, 0, -1, 0, 3)                                                                              \
    X(5, 0, 0, 1, 6)                                                                               \
    X(6, 0, 0, -1, 5)                                                                              \
    X(7, 1, 1, 0, 8)                                                                               \
    X(8, -1, -1, 0, 7)                                                                             \
    X(9, 1, -1, 0, 10)                                                                             \
    X(10, -1, 1, 0, 9)                                                                             \
    X(11, 1, 0, 1, 12)                                                                             \
    X(12, -1, 0, -1, 11)                                                                           \
    X(13, 1, 0, -1, 14)                                                                            \
    X(14, -1, 0, 1, 13)                                                                            \
    X(15, 0, 1, 1, 16)                                                                             \
    X(16, 0, -1, -1, 15)                                                                           \
    X(17, 0, 1, -1, 18)                                                                            \
    X(18, 0, -1, 1, 17)

/* The 9 pairs (i, opposite) with i's velocity, for two-relaxation-time updates. */
#define LBM_D3Q19_PAIRS(X)                                                                         \
    X(1, 2, 1, 0, 0)                                                                               \
    X(3, 4, 0, 1, 0)                                                                               \
    X(5, 6, 0, 0, 1)                                                                               \
    X(7, 8, 1, 1, 0)                                                                               \
    X(9, 10, 1, -1, 0)                                                                             \
    X(11, 12, 1, 0, 1)                                                                             \
    X(13, 14, 1, 0, -1)                                                                            \
    X(15, 16, 0, 1, 1)                                                                             \
    X(17, 18, 0, 1, -1)

/* The weights, one per class of |c|^2 (Qian, d'Humieres and Lallemand 1992): the rest
 * population, the 6 faces, the 12 edges. Every weight in the model layer and the backends is one
 * of these three; LBM_WEIGHT picks it from a velocity. */
#define LBM_W_REST (1.0 / 3.0)
#define LBM_W_FACE (1.0 / 18.0)
#define LBM_W_EDGE (1.0 / 36.0)
#define LBM_WEIGHT(cx, cy, cz)                                                                     \
    (((cx) * (cx) + (cy) * (cy) + (cz) * (cz)) == 0                                                \
         ? LBM_W_REST                                                                              \
         : (((cx) * (cx) + (cy) * (cy) + (cz) * (cz)) == 1 ? LBM_W_FACE : LBM_W_EDGE))

/* Table entries from the same macro: {LBM_D3Q19(LBM_CX_)} lists c_x of every direction (the
 * host tables below; the GPU's __constant__ copies) */
#define LBM_CX_(i, x, y, z, o) x,
#define LBM_CY_(i, x, y, z, o) y,
#define LBM_CZ_(i, x, y, z, o) z,
#define LBM_OPP_(i, x, y, z, o) o,
#define LBM_W_(i, x, y, z, o) LBM_WEIGHT(x, y, z),

#ifndef __CUDACC__
/* Host-side tables (index loops in C code). */
static const int lbm_cx[LBM_Q] = {LBM_D3Q19(LBM_CX_)};
static const int lbm_cy[LBM_Q] = {LBM_D3Q19(LBM_CY_)};
static const int lbm_cz[LBM_Q] = {LBM_D3Q19(LBM_CZ_)};
static const int lbm_opp[LBM_Q] = {LBM_D3Q19(LBM_OPP_)};
static const double lbm_w[LBM_Q] = {LBM_D3Q19(LBM_W_)};
#endif

#endif
