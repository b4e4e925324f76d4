/* collision.h: BGK, TRT and MRT collisions as static inline functions compiled for host and
 * device from one text (collision_impl.h, instantiated for float and double), so a CPU and a GPU
 * update of the same cell do the same arithmetic. Forcing is Guo's (velocity shifted by half the
 * force, source term relaxed with each mode's rate); `forced` is a literal 0 or 1 at every call
 * site, so the unforced kernels carry none of it. */
#ifndef LBM_COLLISION_H
#define LBM_COLLISION_H

#include <math.h>

#include "d3q19.h"
#include "mrt_d3q19.h"

#ifdef __CUDACC__
#define LBM_HD __host__ __device__ __attribute__((always_inline))
#define LBM_UNROLL _Pragma("unroll")
#else
#if defined(__GNUC__)
#define LBM_HD __attribute__((always_inline)) /* inside vectorised loops: calls would stop them */
#else
#define LBM_HD
#endif
#if defined(__clang__)
#define LBM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define LBM_UNROLL _Pragma("GCC unroll 19")
#else
#define LBM_UNROLL
#endif
#endif

/* Sums over a velocity c with components in {-1, 0, 1}, given as literals: acc + c v, and
 * c . (vx, vy, vz). A zero component adds nothing instead of 0 * v (which IEEE arithmetic may
 * not drop: 0 * v is -0 or NaN for some v), so each D3Q19 direction pays only for its non-zero
 * components; the terms are added in the same order as the plain sum. LBM_REAL is the
 * instantiating precision's. */
#define LBM_CADD(acc, c, v) ((c) > 0 ? (acc) + (v) : (c) < 0 ? (acc) - (v) : (acc))
#define LBM_CSIGN(c, v) ((c) > 0 ? (v) : -(v))
#define LBM_CDOT(cx, cy, cz, vx, vy, vz)                                                           \
    ((cx) != 0   ? LBM_CADD(LBM_CADD(LBM_CSIGN(cx, vx), cy, vy), cz, vz)                           \
     : (cy) != 0 ? LBM_CADD(LBM_CSIGN(cy, vy), cz, vz)                                             \
     : (cz) != 0 ? LBM_CSIGN(cz, vz)                                                               \
                 : (LBM_REAL)0)

/* weight class of a moving velocity: 0 for 1/18 (faces), 1 for 1/36 (edges) */
#define LBM_WCLASS(cx, cy, cz) ((cx) * (cx) + (cy) * (cy) + (cz) * (cz) == 1 ? 0 : 1)

enum lbm_collision { LBM_BGK = 0, LBM_TRT = 1, LBM_MRT = 2, LBM_COLLISION_COUNT = 3 };

/* TRT's magic parameter Lambda = (1/w+ - 1/2)(1/w- - 1/2); 3/16 puts half-way bounce-back walls
 * exactly half-way for Poiseuille flow. */
#define LBM_TRT_MAGIC (3.0 / 16.0)

/* MRT rates of d'Humieres et al. (2002) for D3Q19; the shear moments relax with omega. */
#define LBM_MRT_S_E 1.19
#define LBM_MRT_S_EPS 1.4
#define LBM_MRT_S_Q 1.2
#define LBM_MRT_S_PI 1.4
#define LBM_MRT_S_M 1.98

/* Collision parameters in one precision: omega (shear), omega_minus (TRT odd modes), s[19] (MRT,
 * conserved moments 0), g[3] (body force per unit volume, lattice units). */
struct lbm_coll_sp {
    float omega, omega_minus, s[19], g[3];
};
struct lbm_coll_dp {
    double omega, omega_minus, s[19], g[3];
};

/* LBM_FMA(a, b, c) = a * b + c: one rounding where the target has fused multiply-adds (GPUs,
 * x86 with FMA), written out in the source because the build keeps compilers from contracting
 * on their own (a vectorised loop and the scalar cells beside it must round alike); two
 * roundings elsewhere, where a library fma would be slow. LBM_FMA_FUSED says which: the states
 * the two end in differ (tests/state_hash_grid.sh holds the fused ones). */
#if defined(__CUDACC__) || defined(__FMA__) || defined(__aarch64__)
#define LBM_FMA_FUSED 1
#define LBM_FMA_SP_(a, b, c) fmaf(a, b, c)
#define LBM_FMA_DP_(a, b, c) fma(a, b, c)
#else
#define LBM_FMA_FUSED 0
#define LBM_FMA_SP_(a, b, c) ((a) * (b) + (c))
#define LBM_FMA_DP_(a, b, c) ((a) * (b) + (c))
#endif

#define LBM_REAL float
#define LBM_SFX(name) name##_sp
#define LBM_COLL struct lbm_coll_sp
#define LBM_FMA LBM_FMA_SP_
#include "collision_impl.h"
#undef LBM_REAL
#undef LBM_SFX
#undef LBM_COLL
#undef LBM_FMA

#define LBM_REAL double
#define LBM_SFX(name) name##_dp
#define LBM_COLL struct lbm_coll_dp
#define LBM_FMA LBM_FMA_DP_
#include "collision_impl.h"
#undef LBM_REAL
#undef LBM_SFX
#undef LBM_COLL
#undef LBM_FMA

#endif
