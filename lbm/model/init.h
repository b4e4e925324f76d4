/* init.h: the initial state every benchmark run starts from: equilibrium at rest (rho = 1, u = 0)
 * with a small deterministic perturbation per value, so every direction of every cell carries a
 * distinct non-zero value and the whole lattice evolves (verification never runs on a state
 * that a bug could leave unchanged). Same bits on host and device. */
#ifndef LBM_INIT_H
#define LBM_INIT_H

#include <stddef.h>
#include <stdint.h>

#include "d3q19.h"

#ifdef __CUDACC__
#define LBM_INIT_HD __host__ __device__
#else
#define LBM_INIT_HD
#endif

/* w_d for d in the order of d3q19.h: rest, 6 faces, 12 edges */
static inline LBM_INIT_HD double lbm_rest_weight(int d)
{
    return d == 0 ? LBM_W_REST : (d <= 6 ? LBM_W_FACE : LBM_W_EDGE);
}

/* the stored (shifted) value g = f - w: weight of direction d times delta, |delta| < 5e-4 */
static inline LBM_INIT_HD double lbm_init_shifted(int d, size_t x, size_t y, size_t z)
{
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)z * 0x165667B19E3779F9ull ^ (uint64_t)(d + 1) * 0xD6E8FEB86659FD93ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return lbm_rest_weight(d) * 1e-3 * ((double)(h & 0xFFFFF) / 1048576.0 - 0.5);
}

/* the population itself, f = w + g */
static inline LBM_INIT_HD double lbm_init_value(int d, size_t x, size_t y, size_t z)
{
    return lbm_rest_weight(d) + lbm_init_shifted(d, x, y, z);
}

#endif
