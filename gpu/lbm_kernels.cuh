/* lbm_kernels.cuh: the CUDA LBM backend's __global__ kernels and their device helpers: the pull
 * update (two lattices, fused stream-collide, one or two cells a thread, blocks along x), the
 * in-place aa update, the initial state, the check's reduction and halo packing. Interior cells
 * gather with one constant offset per direction; cells on the domain's faces take pull.h's rule
 * (walls, periodic wrap, moving lid, ghost layers) as selects, pull_aos through pull.h's function
 * itself. Included by lbm_dispatch.cu alone: the kernels are instantiated where they are launched
 * (no relocatable device code). */
#ifndef LBMR_LBM_KERNELS_CUH
#define LBMR_LBM_KERNELS_CUH

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "init.h"
#include "lbm_gpu.h"
#include "pull.h"
#include "storage16.h"

/* The 16-bit storage formats' stored types (storage16.h): 16 bits per value, distinct types so
 * that each instantiates its own conversion */
struct gpu_fp16s {
    uint16_t h;
};
struct gpu_fp16c {
    uint16_t h;
};

/* real_of<T>: the type a kernel computes in for lattice type T (the value type itself for float
 * and double, float for the 16-bit formats); coll_of<T>: its collision parameters */
template <typename T> struct real_of {
    typedef T type;
};
template <> struct real_of<gpu_fp16s> {
    typedef float type;
};
template <> struct real_of<gpu_fp16c> {
    typedef float type;
};
/* plain_warps<T>::ok: whether pull's warps without an x end take the plain-offset path (below),
 * and its warps with one the same addresses with selects. Every type but fp16s: its pull waits on
 * its 2-byte loads' latency, and the path's extra registers (44 -> 48 a thread, 44 -> 40 warps an
 * SM) cost it more than its fewer instructions give (-1.7% on an H100; sp, dp and fp16c gain:
 * data/PERFORMANCE-NOTES.md) */
template <typename T> struct plain_warps {
    enum { ok = 1 };
};
template <> struct plain_warps<gpu_fp16s> {
    enum { ok = 0 };
};
template <typename T> struct coll_of;
template <> struct coll_of<float> {
    typedef struct lbm_coll_sp type;
};
template <> struct coll_of<double> {
    typedef struct lbm_coll_dp type;
};
template <> struct coll_of<gpu_fp16s> {
    typedef struct lbm_coll_sp type;
};
template <> struct coll_of<gpu_fp16c> {
    typedef struct lbm_coll_sp type;
};

/* Every lattice access of the kernels: gpu_load (plain), gpu_ldg (read-only data path: no thread
 * writes the location during the launch) give the value a kernel computes with (gpu_load_raw and
 * gpu_ldg_raw, below, the same but for fp16c's NaN code, for the kernels that trap it once a
 * cell); a store is
 * `lat[i] = gpu_value<T>(v)`. float and double: the access itself, so their instances compile to
 * the PTX of direct accesses (the store keeps the form of an assignment: a store through a
 * function moved the address arithmetic ahead of the value and changed aa's and init's PTX); the
 * 16-bit formats: the 2-byte value at the same element index, converted (fp16s: cuda_fp16's
 * conversion instructions; fp16c: storage16.h's device conversions, the code loaded as a signed
 * 16-bit value). */
#define GPU_LBM_IEEE_ACCESS_(T)                                                                    \
    __device__ __forceinline__ T gpu_load(const T *p)                                              \
    {                                                                                              \
        return *p;                                                                                 \
    }                                                                                              \
    __device__ __forceinline__ T gpu_ldg(const T *p)                                               \
    {                                                                                              \
        return __ldg(p);                                                                           \
    }
GPU_LBM_IEEE_ACCESS_(float)
GPU_LBM_IEEE_ACCESS_(double)
#undef GPU_LBM_IEEE_ACCESS_
template <typename T> __device__ __forceinline__ T gpu_value(typename real_of<T>::type v)
{
    return v;
}
/* fp16s: cuda_fp16's conversions of the 16-bit value */
__device__ __forceinline__ float gpu_load(const gpu_fp16s *p)
{
    return lbm_fp16s_decode(p->h);
}
__device__ __forceinline__ float gpu_ldg(const gpu_fp16s *p)
{
    return lbm_fp16s_decode(__ldg(&p->h));
}
template <> __device__ __forceinline__ gpu_fp16s gpu_value<gpu_fp16s>(float v)
{
    gpu_fp16s r;
    r.h = lbm_fp16s_encode(v);
    return r;
}
/* fp16c: its code loaded as a signed 16-bit value, so that the sign extension the device decodes
 * take is the load's, not an instruction of its own (gpu_fp16c_code: plain, _ldg: read-only path)
 */
__device__ __forceinline__ int gpu_fp16c_code(const gpu_fp16c *p)
{
    return *reinterpret_cast<const short *>(&p->h);
}
__device__ __forceinline__ int gpu_fp16c_code_ldg(const gpu_fp16c *p)
{
    return __ldg(reinterpret_cast<const short *>(&p->h));
}
__device__ __forceinline__ float gpu_load(const gpu_fp16c *p)
{
    return lbm_fp16c_decode_dev(gpu_fp16c_code(p));
}
__device__ __forceinline__ float gpu_ldg(const gpu_fp16c *p)
{
    return lbm_fp16c_decode_dev(gpu_fp16c_code_ldg(p));
}
template <> __device__ __forceinline__ gpu_fp16c gpu_value<gpu_fp16c>(float v)
{
    gpu_fp16c r;
    r.h = lbm_fp16c_encode_dev(v);
    return r;
}

/* A cell's loads in the kernels that trap the NaN code once a cell: gpu_ldg_raw and gpu_load_raw
 * are gpu_ldg and gpu_load but for fp16c, whose NaN code they decode to a finite value past the
 * largest finite one (storage16.h), and gpu_trap_cell, after the 19 loads and before the
 * collision, makes such a cell's update NaN (fp16c: 18 maxima and 2 float instructions a cell
 * instead of 2 a value; the other formats: nothing). Only where nothing is added to a value
 * between its load and the trap (a lid's term could take the NaN code's value under the largest
 * finite one): the rows away from the y and z faces. */
template <typename T> __device__ __forceinline__ typename real_of<T>::type gpu_ldg_raw(const T *p)
{
    return gpu_ldg(p);
}
template <typename T> __device__ __forceinline__ typename real_of<T>::type gpu_load_raw(const T *p)
{
    return gpu_load(p);
}
template <typename T> __device__ __forceinline__ void gpu_trap_cell(typename real_of<T>::type *) {}
template <> __device__ __forceinline__ float gpu_ldg_raw<gpu_fp16c>(const gpu_fp16c *p)
{
    return lbm_fp16c_decode_dev_raw(gpu_fp16c_code_ldg(p));
}
template <> __device__ __forceinline__ float gpu_load_raw<gpu_fp16c>(const gpu_fp16c *p)
{
    return lbm_fp16c_decode_dev_raw(gpu_fp16c_code(p));
}
template <> __device__ __forceinline__ void gpu_trap_cell<gpu_fp16c>(float *f)
{
    /* a chain in the loads' order: as fast as a tree of maxima, which it replaced
     * (data/lbm/gpu-fp16c-cell-trap-h200-h100-2026-11-27), and shorter to read */
    float m = fabsf(f[0]);
#pragma unroll
    for (int i = 1; i < 19; i++)
        m = fmaxf(m, fabsf(f[i]));
    f[0] = lbm_fp16c_trap_cell(f[0], m);
}

/* Two neighbouring values of a lattice in one word, the lower x in the low half, for the kernels
 * that take two cells a thread; the same bits as one value at a time. pull: whether a one-domain
 * pull takes pull_pairs_kernel; local: whether aa's cell-local half takes aa_pairs_kernel. W: the
 * word; get, put: its two values as the kernels compute with them (get_raw: as gpu_ldg_raw gives
 * them, for gpu_trap_cell); up(b, a, wall): the word of
 * sources x - 1, x from the word below and the pair's own (wall: the low half of b instead of its
 * high half, b then the cell's own word of the opposite slot); down(a, u, wall): sources x + 1,
 * x + 2 from the pair's own word and the one above (wall: the high half of u).
 * - fp16s: 4-byte words, cuda_fp16's paired conversions (one instruction for two), joined by a
 *   byte permute; pull +3 to +7%, aa +14 to +19% over one cell a thread.
 * - fp16c: 4-byte words, each half decoded by its own shift and mask, the two codes packed by one
 *   byte permute; aa +4 to +10% (with the scaled conversions of 2026-11-23). Not pull: bound by
 *   issue, the paired kernel's 94 registers (29% of the warps resident) ran 4.5% behind one cell a
 *   thread (H200, the device conversions' first form, whose encode rounded in two adds; 10-13%
 *   with the scaled ones; data/lbm/gpu-fp16c-device-conv-h200-h100-2026-11-27).
 * - sp: 8-byte words; pull +0.7 to +1.5%, aa +0.7 to +1.3%.
 * - dp not tried: its 16-byte words would need about twice sp's 128 registers.
 * (data/PERFORMANCE-NOTES.md.) Other types: no pairs; their instances are never launched. */
template <typename T> struct pair_word {
    enum { pull = 0, local = 0 };
    typedef unsigned int W;
    __device__ static float2 get(W)
    {
        return make_float2(0.0f, 0.0f);
    }
    __device__ static float2 get_raw(W)
    {
        return make_float2(0.0f, 0.0f);
    }
    __device__ static W put(float, float)
    {
        return 0u;
    }
    __device__ static W up(W, W, int)
    {
        return 0u;
    }
    __device__ static W down(W, W, int)
    {
        return 0u;
    }
};
/* 16-bit words: result bytes 0-1 the low half, 2-3 the high; the operands' bytes 0-3 and 4-7 */
struct pair_word16 {
    typedef unsigned int W;
    __device__ static W up(W b, W a, int wall)
    {
        return __byte_perm(b, a, wall ? 0x5410u : 0x5432u);
    }
    __device__ static W down(W a, W u, int wall)
    {
        return __byte_perm(a, u, wall ? 0x7632u : 0x5432u);
    }
};
template <> struct pair_word<gpu_fp16s> : pair_word16 {
    enum { pull = 1, local = 1 };
    __device__ static float2 get(W w)
    {
        return __half22float2(*reinterpret_cast<const __half2 *>(&w));
    }
    __device__ static float2 get_raw(W w)
    {
        return get(w);
    }
    __device__ static W put(float a, float b)
    {
        const __half2 h = __floats2half2_rn(a, b);
        return *reinterpret_cast<const unsigned int *>(&h);
    }
};
template <> struct pair_word<gpu_fp16c> : pair_word16 {
    enum { pull = 0, local = 1 };
    __device__ static float2 get(W w)
    {
        return lbm_fp16c_decode_dev2(w);
    }
    __device__ static float2 get_raw(W w) /* as gpu_ldg_raw's, for gpu_trap_cell */
    {
        return lbm_fp16c_decode_dev2_raw(w);
    }
    __device__ static W put(float a, float b)
    {
        return __byte_perm(lbm_fp16c_encode_dev_hi(a), lbm_fp16c_encode_dev_hi(b), 0x7632u);
    }
};
template <> struct pair_word<float> {
    enum { pull = 1, local = 1 };
    typedef float2 W;
    __device__ static float2 get(W w)
    {
        return w;
    }
    __device__ static float2 get_raw(W w)
    {
        return w;
    }
    __device__ static W put(float a, float b)
    {
        return make_float2(a, b);
    }
    __device__ static W up(W b, W a, int wall)
    {
        return make_float2(wall ? b.x : b.y, a.x);
    }
    __device__ static W down(W a, W u, int wall)
    {
        return make_float2(a.y, wall ? u.y : u.x);
    }
};

template <int COLL, int FORCED>
__device__ __forceinline__ void collide(float f[19], const lbm_coll_sp *p)
{
    if (COLL == LBM_TRT)
        lbm_trt_sp(f, p, FORCED);
    else if (COLL == LBM_MRT)
        lbm_mrt_sp(f, p, FORCED);
    else
        lbm_bgk_sp(f, p, FORCED);
}
template <int COLL, int FORCED>
__device__ __forceinline__ void collide(double f[19], const lbm_coll_dp *p)
{
    if (COLL == LBM_TRT)
        lbm_trt_dp(f, p, FORCED);
    else if (COLL == LBM_MRT)
        lbm_mrt_dp(f, p, FORCED);
    else
        lbm_bgk_dp(f, p, FORCED);
}

/* the populations a halo carries (1 to 5 directions) */
struct dirset {
    int n;
    int d[5];
};

/* The x faces' halos, as the pack orders them: [GPU_XSLOT(d) / 2][z][y] over the face's ny x nz
 * cells. r: the received halo, read in place of the ghost cells its unpack would write (side 0:
 * the ghost layer x = -1, which holds the populations with c_x = +1; side 1: x = nx, c_x = -1);
 * w: the send buffer, which the update writes as it updates the face's cells (side 0: x = 0's
 * populations with c_x = -1; side 1: x = nx - 1's, c_x = +1) instead of a pack after it. NULL:
 * the ghost cells in the lattice, the pack. Only the kernels that read ghost layers use them (the
 * paired kernel takes them in every variant, GPU_PULL_BOX_PAIRS_GHOSTS alone reads r). */
struct gpu_xghosts {
    const void *r[2];
    void *w[2];
};

/* The pull kernels' direction addresses, made on the host for each launch (zeros where the pull
 * writes a halo buffer, GPU_PULL_HALO, which reads neither). s[d]: the address (bytes) of the
 * element that cell 0 reads in direction d on the plain offsets but for the x offset, src's
 * direction d at -(c_y pitch + c_z plane) elements (it may lie before the lattice: an address,
 * never a pointer dereferenced); d[d]: dst's direction d, element 0 (the 4- and 8-byte stores).
 * A load on the plain offsets is then the uniform address plus the cell's byte offset, 32 bits
 * zero-extended (gpu_at, cb): one 64-bit add a direction, the x offset in the load's immediate.
 * A 32-bit element index on each direction's pointer had taken about four integer instructions a
 * direction (the index's sign extension, its y and z offsets), which pull fp16c, its issue slots
 * nearly full, paid for (data/lbm/gpu-pull-dir-addresses-h200-2026-11-28). */
struct gpu_dirptrs {
    unsigned long long s[19];
    void *d[19];
};

/* the element at byte offset b of address a: b in 32 bits, zero-extended (the form the kernels
 * take where every byte offset fits), or signed 64 bits */
template <typename T> __device__ __forceinline__ T *gpu_at(unsigned long long a, unsigned b)
{
    return reinterpret_cast<T *>(a + b);
}
template <typename T> __device__ __forceinline__ T *gpu_at(unsigned long long a, long long b)
{
    return reinterpret_cast<T *>(a + (unsigned long long)b);
}

/* A face row's load of direction i into f[i] (pull_kernel's rows on a y or z face, and
 * pull_pairs_kernel's): pull.h's rule as selects on every axis. The caller's names: the cell
 * (x, y, z) at element base of the lattice src's direction 0, the populations f, ds, pitch,
 * plane, nx, ny, nz, per{x,y,z} (the periodic axes), g{x,y,z}{0,1} (the sides that are ghost
 * layers), lidz, b, R. */
#define GPU_PULL_LOADF_(i, cx, cy, cz, o)                                                          \
    {                                                                                              \
        const long xo = x - (cx), yo = y - (cy), zo = z - (cz);                                    \
        /* beyond a side that is not a ghost layer */                                              \
        const int outx = (cx) != 0 && ((xo < 0 && !gx0) || (xo >= nx && !gx1));                    \
        const int outy = (cy) != 0 && ((yo < 0 && !gy0) || (yo >= ny && !gy1));                    \
        const int outz = (cz) != 0 && ((zo < 0 && !gz0) || (zo >= nz && !gz1));                    \
        long at = (i)*ds + base - (cx) - (cy)*pitch - (cz)*plane;                                  \
        at += outx ? (xo < 0 ? nx : -nx) : 0L;                                                     \
        at += outy ? (yo < 0 ? ny * pitch : -ny * pitch) : 0L;                                     \
        at += outz ? (zo < 0 ? nz * plane : -nz * plane) : 0L;                                     \
        at = (outx && !perx) || (outy && !pery) || (outz && !perz) ? (o)*ds + base : at;           \
        const int on_lid = (cz) != 0 && lidz && zo == nz && !gz1;                                  \
        f[i] = gpu_load(src + at) +                                                                \
               (on_lid ? (R)LBM_LID_TERM(LBM_WEIGHT(cx, cy, cz), cx, b.lid_ux) : (R)0);            \
    }

/* V = GPU_PULL: the whole of a domain without ghost layers (a single-rank run where
 * pull_pairs_kernel does not take it, no offset arithmetic); GPU_PULL_AOS: the same on an array of
 * structures (pull_aos, a cell's 19 values side by side); else the box [x0, x1) x [y0, y0 +
 * gridDim.y) x [z0, z0 + gridDim.z) of a sub-domain with ghost layers (distributed runs):
 * GPU_PULL_BOX_GHOSTS where it touches them, GPU_PULL_BOX for the interior, which never reads a
 * ghost (fewer registers). GPU_PULL_HALO updates the cells of a halo's box [x0, x1) x [y0, y0 + ey)
 * x [z0, z0 + ez) as GPU_PULL_BOX_GHOSTS does, a cell at a time with x fastest (an x face's cells
 * lie along y), and writes only the populations ds into dst, a halo buffer ordered
 * [dir][z][y][x] as halo_kernel packs it: the face's update again, so that the box which updates
 * the same cells into the lattice can run beside the exchange instead of before it. Those two
 * read an x face's ghost populations from xg where it names the face's received halo. */
template <typename T, int COLL, int FORCED, enum gpu_lbm_variant V>
__device__ __forceinline__ void
pull_cell(const T *__restrict__ src, T *__restrict__ dst, struct lbm_layout l, struct lbm_bounds b,
          typename coll_of<T>::type p, int x0, int x1, int y0, int z0, int ey, int ez,
          struct dirset ds, struct gpu_dirptrs pp, struct gpu_xghosts xg, long i_halo)
{
    static_assert(V == GPU_PULL || V == GPU_PULL_AOS || V == GPU_PULL_BOX ||
                      V == GPU_PULL_BOX_GHOSTS || V == GPU_PULL_HALO,
                  "a pull variant");
    const int box = V == GPU_PULL_BOX || V == GPU_PULL_BOX_GHOSTS;
    /* GPU_PULL_HALO: cell i_halo of the halo's box (ex x ey x ez cells, x fastest; pull_kernel's
     * loop passes only cells inside it) */
    const long ex = (long)x1 - (long)x0;
    const long x = V == GPU_PULL_HALO
                       ? (long)x0 + i_halo % ex
                       : (box ? (long)x0 : 0L) + (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long y =
        V == GPU_PULL_HALO ? (long)y0 + i_halo / ex % ey : (box ? (long)y0 : 0L) + (long)blockIdx.y;
    const long z = V == GPU_PULL_HALO ? (long)z0 + i_halo / (ex * ey)
                                      : (box ? (long)z0 : 0L) + (long)blockIdx.z;
    if (V != GPU_PULL_HALO && x >= (box ? (long)x1 : (long)l.nx)) return;
    const typename coll_of<T>::type pc = p;
    const size_t cell = (box || V == GPU_PULL_HALO ? l.org : 0) +
                        ((size_t)z * l.sy + (size_t)y) * l.pitch + (size_t)x;
    const long plane = (long)(l.pitch * l.sy);
    typedef typename real_of<T>::type R;
    R f[19];
    const int inner_yz = y > 0 && y < (long)l.ny - 1 && z > 0 && z < (long)l.nz - 1;
    /* every cell index fits in an int (pitch sy sz: a direction's cells, or with interleaved rows
     * the lattice's elements; else 64-bit offsets, the selects' path), and every cell's byte
     * offset in 32 bits (cb; with interleaved rows a lattice of at most 4 GiB) */
    const int idx32 = l.pitch * l.sy * l.sz <= (size_t)INT_MAX;
    const int off32 = l.pitch * l.sy * l.sz * sizeof(T) <= (size_t)UINT_MAX;
    const unsigned cb = (unsigned)(cell * sizeof(T));
    /* the first cell of this thread's warp (whole warps start a row in every variant but
     * GPU_PULL_HALO, so the test below is the same for the warp's 32 lanes: no divergence) */
    const long xw = x - (long)(threadIdx.x & 31u);
    if (plain_warps<T>::ok && V != GPU_PULL_AOS && V != GPU_PULL_HALO && inner_yz && idx32 &&
        xw > 0 && xw + 32 < (long)l.nx) {
        /* no lane of this warp on an x end: plain offsets, each address the direction's uniform
         * address and the cell's byte offset (32 bits where they fit, else the index widened),
         * the x offset in the load's immediate */
#define GPU_LOADM_(i, cx, cy, cz, o) f[i] = gpu_ldg_raw(gpu_at<const T>(pp.s[i], cb) - (cx));
#define GPU_LOADM64_(i, cx, cy, cz, o)                                                             \
    f[i] =                                                                                         \
        gpu_ldg_raw(gpu_at<const T>(pp.s[i], (long long)(int)cell * (long long)sizeof(T)) - (cx));
        if (off32) {
            LBM_D3Q19(GPU_LOADM_)
        } else {
            LBM_D3Q19(GPU_LOADM64_)
        }
#undef GPU_LOADM_
#undef GPU_LOADM64_
        gpu_trap_cell<T>(f);
    } else if (plain_warps<T>::ok && (V == GPU_PULL || V == GPU_PULL_BOX) && inner_yz && off32) {
        /* a warp with an x end on one domain or an interior box (no ghost cell), where byte
         * offsets fit in 32 bits: the plain addresses, and for each x-moving direction the end
         * lane's source as a select, in the same instruction stream: across a periodic x the
         * cell at the row's other end (byte offset nx values on at x = 0, back at x = nx - 1),
         * else the wall's bounce-back, the cell's own slot opp(d): direction o's address less
         * the y and z offsets it holds (c_y, c_z of o are those of d negated) */
        const bool xlo = x == 0, xhi = x == (long)l.nx - 1;
        const int perx = b.periodic[0];
        const unsigned es = (unsigned)sizeof(T), wrap = (unsigned)l.nx * es;
        const unsigned py = (unsigned)l.pitch * es, pz = (unsigned)plane * es;
#define GPU_LOADE_(i, cx, cy, cz, o)                                                               \
    {                                                                                              \
        const T *p = gpu_at<const T>(pp.s[i], cb) - (cx);                                          \
        if ((cx) != 0) {                                                                           \
            const T *alt =                                                                         \
                perx ? gpu_at<const T>(pp.s[i], (cx) > 0 ? cb + wrap : cb - wrap) - (cx)           \
                     : gpu_at<const T>(pp.s[o], cb - (unsigned)(cy)*py - (unsigned)(cz)*pz);       \
            p = ((cx) > 0 ? xlo : xhi) ? alt : p;                                                  \
        }                                                                                          \
        f[i] = gpu_ldg_raw(p);                                                                     \
    }
        LBM_D3Q19(GPU_LOADE_)
#undef GPU_LOADE_
        gpu_trap_cell<T>(f);
    } else if (V != GPU_PULL_AOS && inner_yz) {
        /* rows away from the y and z faces, a warp with an x end (every warp in fp16s, and in
         * GPU_PULL and GPU_PULL_BOX only where byte offsets pass 32 bits): the x ends are
         * selects in the same instruction stream (a wall's bounce-back, the periodic wrap, or,
         * where another rank lies beyond, the ghost cell the plain offset reaches), so the
         * first and last warp of each row do not diverge into the general rule. GPU_PULL and
         * GPU_PULL_BOX (whose boxes never reach an x side facing another rank) compile without
         * the ghost test. */
        const long base = (long)cell, ds = (long)l.dir_stride, pitch = (long)l.pitch;
        const long nx = (long)l.nx;
        const int perx = b.periodic[0];
        const int halo = V == GPU_PULL_BOX_GHOSTS || V == GPU_PULL_HALO;
        const int ghost_lo = halo && b.neighbor[0][0], ghost_hi = halo && b.neighbor[0][1];
        /* a received x face read in place (these rows read no ghost of its ring, which
         * face_ring_kernel unpacks for the rows on a y or z face): [slot][z][y] */
        const T *const xr0 = ghost_lo ? (const T *)xg.r[0] : NULL;
        const T *const xr1 = ghost_hi ? (const T *)xg.r[1] : NULL;
        const long fyz = (long)l.ny * (long)l.nz, fc = z * (long)l.ny + y;
#define GPU_LOADX_(i, cx, cy, cz, o)                                                               \
    {                                                                                              \
        long at = (i)*ds + base - (cx) - (cy)*pitch - (cz)*plane;                                  \
        const T *p;                                                                                \
        if ((cx) != 0) {                                                                           \
            const long xo = x - (cx);                                                              \
            const long alt = perx ? at + (xo < 0 ? nx : -nx) : (o)*ds + base;                      \
            at = (xo < 0 && !ghost_lo) || (xo >= nx && !ghost_hi) ? alt : at;                      \
        }                                                                                          \
        p = src + at;                                                                              \
        if (halo && (cx) != 0) {                                                                   \
            const T *const r = (cx) > 0 ? xr0 : xr1;                                               \
            const int face = r != NULL && ((cx) > 0 ? x - (cx) < 0 : x - (cx) >= nx);              \
            p = face ? r + (GPU_XSLOT(i) / 2 * fyz + fc - (cz) * (long)l.ny - (cy)) : p;           \
        }                                                                                          \
        f[i] = gpu_load_raw(p);                                                                    \
    }
        LBM_D3Q19(GPU_LOADX_)
#undef GPU_LOADX_
        gpu_trap_cell<T>(f);
    } else if (V != GPU_PULL_AOS) {
        /* rows on a y or z face (whole warps): pull.h's rule as selects on every axis, unrolled,
         * so these rows (4 of every 256 at 256^3 in one domain; in a rank's boxes also the
         * physical walls beside its neighbours' faces) issue their 19 loads at once as the rows
         * above do instead of one branch per direction. The same values: a wall's source is the
         * cell's own opposite slot, plus the lid's term where z - c_z = nz; a side facing
         * another rank (GPU_PULL_BOX_GHOSTS and GPU_PULL_HALO only: GPU_PULL_BOX's boxes never
         * reach one) is no wall and no wrap, the plain offset reads its ghost cell (of an x
         * face read in place too: the ring these rows read is unpacked, face_ring_kernel; a
         * select for the buffer here took the box kernels from 47 to 104 registers in sp) */
        const long base = (long)cell, ds = (long)l.dir_stride, pitch = (long)l.pitch;
        const long nx = (long)l.nx, ny = (long)l.ny, nz = (long)l.nz;
        const int perx = b.periodic[0], pery = b.periodic[1], perz = b.periodic[2];
        const int halo = V == GPU_PULL_BOX_GHOSTS || V == GPU_PULL_HALO;
        const int gx0 = halo && b.neighbor[0][0], gx1 = halo && b.neighbor[0][1];
        const int gy0 = halo && b.neighbor[1][0], gy1 = halo && b.neighbor[1][1];
        const int gz0 = halo && b.neighbor[2][0], gz1 = halo && b.neighbor[2][1];
        const int lidz = b.lid_ux != 0.0 && !perz;
        LBM_D3Q19(GPU_PULL_LOADF_)
    } else if (x > 0 && x < (long)l.nx - 1 && inner_yz) {
        /* pull_aos from here on: a cell's 19 values side by side */
        const long base = (long)cell, pitch = (long)l.pitch;
#define GPU_LOAD_(i, cx, cy, cz, o)                                                                \
    f[i] = gpu_load(src + (base - (cx) - (cy)*pitch - (cz)*plane) * 19 + (i));
        LBM_D3Q19(GPU_LOAD_)
#undef GPU_LOAD_
    } else {
#define GPU_EDGE_(i, cx, cy, cz, o)                                                                \
    {                                                                                              \
        int on_lid;                                                                                \
        size_t at = lbm_pull_index(&l, &b, i, cx, cy, cz, o, x, y, z, &on_lid, LBM_PULL_NO_HALO);  \
        f[i] = gpu_load(src + at) +                                                                \
               (on_lid ? (R)LBM_LID_TERM(LBM_WEIGHT(cx, cy, cz), cx, b.lid_ux) : (R)0);            \
    }
        LBM_D3Q19(GPU_EDGE_)
#undef GPU_EDGE_
    }
    collide<COLL, FORCED>(f, &pc);
    if (V == GPU_PULL_BOX_GHOSTS) {
        /* an x-end lane whose face's send buffer the update writes: the 5 populations that leave
         * through the face, as the pack would read them from dst */
        T *const w0 = x == 0 ? (T *)xg.w[0] : NULL;
        T *const w1 = x == (long)l.nx - 1 ? (T *)xg.w[1] : NULL;
        if (w0 != NULL || w1 != NULL) {
            const long at = z * (long)l.ny + y, fyz = (long)l.ny * (long)l.nz;
#define GPU_SENDX_(i, cx, cy, cz, o)                                                               \
    if ((cx) != 0 && ((cx) < 0 ? w0 : w1) != NULL)                                                 \
        ((cx) < 0 ? w0 : w1)[GPU_XSLOT(i) / 2 * fyz + at] = gpu_value<T>(f[i]);
            LBM_D3Q19(GPU_SENDX_)
#undef GPU_SENDX_
        }
    }
    if (V == GPU_PULL_HALO) {
        /* population ds.d[k] to slot k of the buffer: selects over the 19, so that f stays in
         * registers (an index by a run-time direction would put it in local memory) */
        const long cells = ex * ey * ez;
        for (int k = 0; k < 5; k++) {
            if (k >= ds.n) break;
            R v = f[0];
#define GPU_PICK_(i, cx, cy, cz, o) v = ds.d[k] == (i) ? f[i] : v;
            LBM_D3Q19(GPU_PICK_)
#undef GPU_PICK_
            dst[k * cells + i_halo] = gpu_value<T>(v);
        }
        return;
    }
    /* 4- and 8-byte values through the direction pointers, each store behind the 32-bit test:
     * so written, the compiler stores every value as the collision makes it instead of all 19
     * after it, and sp and dp run 1.6% faster (H200, data/PERFORMANCE-NOTES.md); the 16-bit
     * lattices, near their issue limit, lose more to the test's extra instructions than that */
#define GPU_STORE_(i, cx, cy, cz, o)                                                               \
    if (V == GPU_PULL_AOS)                                                                         \
        dst[cell * 19 + (i)] = gpu_value<T>(f[i]);                                                 \
    else if (sizeof(T) >= 4 && idx32)                                                              \
        ((T *)pp.d[i])[(int)cell] = gpu_value<T>(f[i]);                                            \
    else                                                                                           \
        dst[(size_t)i * l.dir_stride + cell] = gpu_value<T>(f[i]);
    LBM_D3Q19(GPU_STORE_)
#undef GPU_STORE_
}

/* One cell a thread; GPU_PULL_HALO's grid may hold fewer threads than the face has cells, each
 * thread then taking every gridDim.x blockDim.x-th cell (gpu_lbm_launch_pull_halo) */
template <typename T, int COLL, int FORCED, enum gpu_lbm_variant V>
__global__ void pull_kernel(const T *__restrict__ src, T *__restrict__ dst, struct lbm_layout l,
                            struct lbm_bounds b, typename coll_of<T>::type p, int x0, int x1,
                            int y0, int z0, int ey, int ez, struct dirset ds, struct gpu_dirptrs pp,
                            struct gpu_xghosts xg)
{
    const long first = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (V != GPU_PULL_HALO) {
        pull_cell<T, COLL, FORCED, V>(src, dst, l, b, p, x0, x1, y0, z0, ey, ez, ds, pp, xg, first);
        return;
    }
    const long n = ((long)x1 - (long)x0) * ey * ez, step = (long)gridDim.x * blockDim.x;
    for (long i = first; i < n; i += step)
        pull_cell<T, COLL, FORCED, V>(src, dst, l, b, p, x0, x1, y0, z0, ey, ez, ds, pp, xg, i);
}

/* One cell of a face row of a whole domain without ghost layers (GPU_PULL's rule), of an
 * interior box, which reads none (GPU_PULL_BOX's; org: l.org there, 0 on a whole domain), or with
 * GH of a box that reads ghost layers (GPU_PULL_BOX_GHOSTS's rule: a side facing another rank is
 * its ghost cell, of an x face the ring that face_ring_kernel unpacks), for pull_pairs_kernel:
 * loads as pull_kernel's face rows, collision, stores */
template <typename T, int COLL, int FORCED, int GH>
__device__ __forceinline__ void
pull_face_cell(const T *__restrict__ src, T *__restrict__ dst, const struct lbm_layout &l,
               const struct lbm_bounds &b, const typename coll_of<T>::type &pc, long org, long x,
               long y, long z)
{
    typedef typename real_of<T>::type R;
    R f[19];
    const long ds = (long)l.dir_stride, pitch = (long)l.pitch, plane = pitch * (long)l.sy;
    const long base = org + (z * (long)l.sy + y) * pitch + x;
    const long nx = (long)l.nx, ny = (long)l.ny, nz = (long)l.nz;
    const int perx = b.periodic[0], pery = b.periodic[1], perz = b.periodic[2];
    const int gx0 = GH && b.neighbor[0][0], gx1 = GH && b.neighbor[0][1];
    const int gy0 = GH && b.neighbor[1][0], gy1 = GH && b.neighbor[1][1];
    const int gz0 = GH && b.neighbor[2][0], gz1 = GH && b.neighbor[2][1];
    const int lidz = b.lid_ux != 0.0 && !perz;
    LBM_D3Q19(GPU_PULL_LOADF_)
    collide<COLL, FORCED>(f, &pc);
#define PULL_FACE_STORE_(i, cx, cy, cz, o) dst[(i)*ds + base] = gpu_value<T>(f[i]);
    LBM_D3Q19(PULL_FACE_STORE_)
#undef PULL_FACE_STORE_
}

/* GPU_PULL_PAIRS: GPU_PULL two cells a thread (x and x + 1, x even) in words of two values
 * (pair_word: 4 bytes fp16s, 8 bytes sp), so that a warp's request is twice as long: fp16s's 64
 * bytes a direction had left it waiting on its requests, as aa's cell-local half had been
 * (data/lbm/gpu-aa-pairs-h200-2026-11-23), and sp's 4-byte accesses hold 19 streams under what
 * wider ones reach. A direction without an x component reads the pair's own word; one with
 * c_x = +1 needs cells x - 1 and x, the high half of the word below and the low half of the
 * pair's own, one with c_x = -1 cells x + 1 and x + 2: two aligned loads joined (a byte permute
 * for fp16s), where a shuffle between lanes cost more instructions than the halved requests
 * saved (the paired pull of that folder). At a row's x end the word across it is the wrap's (the
 * row's other end: nx even puts cell nx - 1 in a high half, cell 0 in a low one) or the wall's,
 * the cell's own opposite slot, whose half the join picks. Rows on a y or z face one cell at a
 * time (pull_face_cell). Each cell's loads, collision and store are pull_kernel's, so the states
 * are the same. Taken instead of GPU_PULL (lbm_cuda.cu, pairs_threads) where the precision has it,
 * nx, the pitch and the direction stride are even (every word aligned) and the block fits.
 * GPU_PULL_BOX_PAIRS: the same over the box [x0, x1) x [y0, y0 + gridDim.y) x [z0, z0 + gridDim.z)
 * of a sub-domain with ghost layers that reads none (a distributed rank's interior, GPU_PULL_BOX's
 * cells: its x ends, where it reaches them, are walls or the wrap, as a whole domain's), where
 * org + x0 and x1 - x0 are even too (lbm_cuda_dist.cu). GPU_PULL_BOX_PAIRS_GHOSTS: whole rows of
 * a box whose x ends face other ranks (an x split's rank where its x faces are updated into
 * their send buffers, LBMR_X_FACES=update): the pair at such an end reads the ghost cell across
 * it, or the received face in xg.r where that is read in place (PAIR_LOADP_; GPU_PULL_BOX_GHOSTS's
 * values, so the same states). */
template <typename T, int COLL, int FORCED, enum gpu_lbm_variant V>
__global__ void pull_pairs_kernel(const T *__restrict__ src, T *__restrict__ dst,
                                  struct lbm_layout l, struct lbm_bounds b,
                                  typename coll_of<T>::type p, int x0, int x1, int y0, int z0,
                                  struct gpu_xghosts xg)
{
    static_assert(V == GPU_PULL_PAIRS || V == GPU_PULL_BOX_PAIRS || V == GPU_PULL_BOX_PAIRS_GHOSTS,
                  "pull's paired kernel");
    if (!pair_word<T>::pull) return; /* never launched */
    const int box = V == GPU_PULL_BOX_PAIRS || V == GPU_PULL_BOX_PAIRS_GHOSTS;
    const int GH = V == GPU_PULL_BOX_PAIRS_GHOSTS;
    const long lx = 2L * ((long)blockIdx.x * blockDim.x + threadIdx.x); /* from the box's x0 */
    const long x = (box ? (long)x0 : 0L) + lx;
    const long y = (box ? (long)y0 : 0L) + (long)blockIdx.y;
    const long z = (box ? (long)z0 : 0L) + (long)blockIdx.z, nx = (long)l.nx;
    const long org = box ? (long)l.org : 0L;
    if (x >= (box ? (long)x1 : nx)) return;
    const typename coll_of<T>::type pc = p;
    if (!(y > 0 && y < (long)l.ny - 1 && z > 0 && z < (long)l.nz - 1)) {
#pragma unroll 1
        for (int k = 0; k < 2; k++)
            pull_face_cell<T, COLL, FORCED, V == GPU_PULL_BOX_PAIRS_GHOSTS>(src, dst, l, b, pc, org,
                                                                            x + k, y, z);
        return;
    }
    const long ds = (long)l.dir_stride, pitch = (long)l.pitch, plane = pitch * (long)l.sy;
    /* the box's first cell folded into the pointers, the same for every thread, so that a
     * thread's index is the whole domain's form, from its block and lane alone: with the offsets
     * in each thread's index the interior box ran 4.6% longer than the whole domain's launch on
     * the same bytes (fp16s), so written at its rate, though with no fewer instructions; which
     * part of the schedule that changed is not known (data/PERFORMANCE-NOTES.md) */
    const long base = box ? org + ((long)z0 * (long)l.sy + (long)y0) * pitch + (long)x0 : 0L;
    const long c = ((long)blockIdx.z * (long)l.sy + (long)blockIdx.y) * pitch + lx; /* even */
    const T *const srcb = src + base;
    const int perx = b.periodic[0];
    /* an x end facing another rank (GH only) reads across it as an inner pair does: the ghost
     * cell, or the received face where that is read in place (xr0, xr1: at the end's lane) */
    const int glo = GH && b.neighbor[0][0], ghi = GH && b.neighbor[0][1];
    const int lo_end = x == 0 && !glo, hi_end = x + 2 == nx && !ghi;
    const T *const xr0 = GH && x == 0 && glo ? (const T *)xg.r[0] : NULL;
    const T *const xr1 = GH && x + 2 == nx && ghi ? (const T *)xg.r[1] : NULL;
    const long fyz = (long)l.ny * (long)l.nz, fc = z * (long)l.ny + y;
    typedef typename pair_word<T>::W W;
    const W *ws = reinterpret_cast<const W *>(srcb);
    W *wd = reinterpret_cast<W *>(dst + base);
    typedef typename real_of<T>::type R;
    R f[19], g[19];
    /* at: the pair's x in direction i's source row; lo, hi: the word below or above, or across
     * the x end */
#define PAIR_LOAD_(i, cx, cy, cz, o)                                                               \
    {                                                                                              \
        const long at = (i)*ds + c - (cy)*pitch - (cz)*plane;                                      \
        W w;                                                                                       \
        if ((cx) == 0) {                                                                           \
            w = __ldg(ws + (at >> 1));                                                             \
        } else if ((cx) > 0) { /* sources x - 1 (high half of the word below), x */                \
            const long lo = lo_end ? (perx ? at + nx - 2 : (o)*ds + c) : at - 2;                   \
            w = pair_word<T>::up(__ldg(ws + (lo >> 1)), __ldg(ws + (at >> 1)), lo_end && !perx);   \
        } else { /* sources x + 1, x + 2 (low half of the word above) */                           \
            const long hi = hi_end ? (perx ? at + 2 - nx : (o)*ds + c) : at + 2;                   \
            w = pair_word<T>::down(__ldg(ws + (at >> 1)), __ldg(ws + (hi >> 1)), hi_end && !perx); \
        }                                                                                          \
        const float2 v = pair_word<T>::get(w);                                                     \
        f[i] = v.x;                                                                                \
        g[i] = v.y;                                                                                \
    }
/* GH: the source across the pair is one value at a pointer (the ghost cell, the received face,
 * the wall's own slot or the wrap), the other the half of the pair's own word. A word join there
 * read the ghost line beside the row and replaced a half after the other loads, and the box ran
 * 4% longer; a join in the warps without an x end (pointers only at the ends) gave sp nothing
 * and cost fp16s 3-4% (two H200s, data/mpi/gpu-xsplit-update2-h200x2-2026-11-27) */
#define PAIR_LOADP_(i, cx, cy, cz, o)                                                              \
    {                                                                                              \
        const long at = (i)*ds + c - (cy)*pitch - (cz)*plane;                                      \
        const float2 v = pair_word<T>::get(__ldg(ws + (at >> 1)));                                 \
        const long fo = GPU_XSLOT(i) / 2 * fyz + fc - (cz) * (long)l.ny - (cy);                    \
        if ((cx) > 0) { /* sources x - 1 (the pointer), x */                                       \
            const long a = lo_end ? (perx ? at + nx - 1 : (o)*ds + c) : at - 1;                    \
            f[i] = gpu_ldg(xr0 != NULL ? xr0 + fo : srcb + a);                                     \
            g[i] = v.x;                                                                            \
        } else if ((cx) < 0) { /* sources x + 1, x + 2 (the pointer) */                            \
            const long a = hi_end ? (perx ? at + 2 - nx : (o)*ds + c + 1) : at + 2;                \
            f[i] = v.y;                                                                            \
            g[i] = gpu_ldg(xr1 != NULL ? xr1 + fo : srcb + a);                                     \
        } else {                                                                                   \
            f[i] = v.x;                                                                            \
            g[i] = v.y;                                                                            \
        }                                                                                          \
    }
    if (GH) {
        LBM_D3Q19(PAIR_LOADP_)
    } else {
        LBM_D3Q19(PAIR_LOAD_)
    }
#undef PAIR_LOADP_
#undef PAIR_LOAD_
    collide<COLL, FORCED>(f, &pc);
    collide<COLL, FORCED>(g, &pc);
#define PAIR_STORE_(i, cx, cy, cz, o) wd[((i)*ds + c) >> 1] = pair_word<T>::put(f[i], g[i]);
    LBM_D3Q19(PAIR_STORE_)
#undef PAIR_STORE_
}

/* aa's cell-local update of one cell (GPU_AA_LOCAL; the paired kernel's lone last cell): slot d
 * in, collide, slot opp(d) out */
template <typename T, int COLL, int FORCED>
__device__ __forceinline__ void aa_local_cell(T *lat, long cell, long ds,
                                              const typename coll_of<T>::type &pc)
{
    typename real_of<T>::type f[19];
#define AA_LOAD_(i, cx, cy, cz, o) f[i] = gpu_ldg_raw(lat + (i)*ds + cell);
    LBM_D3Q19(AA_LOAD_)
#undef AA_LOAD_
    gpu_trap_cell<T>(f);
    collide<COLL, FORCED>(f, &pc);
#define AA_STORE_(i, cx, cy, cz, o) lat[(o)*ds + cell] = gpu_value<T>(f[i]);
    LBM_D3Q19(AA_STORE_)
#undef AA_STORE_
}

/* aa's rule at a row's x end, one home for its loads and stores: at, the location of the slot of
 * cell x + dx (dx = -c_x upstream, +c_x downstream, a constant), becomes past the row's end (xlo:
 * x = 0, xhi: x = nx - 1) the same slot of the cell across the periodic wrap, or else wall, the
 * bounce-back slot of the cell itself. A statement, not a function: as a function the compiler
 * took sp's neighbour half from 64 to 72 registers (ptxas, sm_90); and on the two flags, not on x,
 * which the plane-wide runs of cells compute by a division the compiler cannot redo cheaply, so
 * it held x across the collision (also 72) */
#define AA_ROW_END_(at, dx, wall)                                                                  \
    {                                                                                              \
        const long alt = perx ? (at) + ((dx) < 0 ? nx : -nx) : (wall);                             \
        at = ((dx) < 0 && xlo) || ((dx) > 0 && xhi) ? alt : (at);                                  \
    }

/* The in-place AA update (kernel aa, one rank), one thread per cell. Between pairs of updates
 * direction d's post-collision value sits in slot opp(d) of its cell. V = GPU_AA_NEIGHBOURS (the
 * first of a pair): f_d from slot opp(d) of the cell upstream (across a wall: slot d of the cell,
 * plus the lid's term), collide, f_d into slot d of the cell downstream (across a wall: slot opp(d)
 * of the cell, with opp(d)'s lid term). GPU_AA_LOCAL: slot d in, collide, slot opp(d) out. Every
 * location is read once and written once in a launch, the write after the read: by the same
 * thread, or (the neighbour half's x-moving values within a block) by the lane at its cell after
 * a barrier that follows the read. So the update is in place, and the loads may take the
 * read-only data path (__ldg): no location is read after it was written. They matter most: with
 * plain loads the even half took 72 registers in sp instead of 40, dp 124 instead of 70 (ptxas,
 * BGK; the cause, likely addresses held across the collision, is not established). */
template <typename T, int COLL, int FORCED, enum gpu_lbm_variant V>
__global__ void aa_kernel(T *lat, struct lbm_layout l, struct lbm_bounds b,
                          typename coll_of<T>::type p)
{
    static_assert(V == GPU_AA_NEIGHBOURS || V == GPU_AA_LOCAL || V == GPU_AA_FACES,
                  "an aa variant");
    long x = (long)blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    bool live = x < (long)l.nx;
    if (V != GPU_AA_FACES) {
        /* plane z = blockIdx.y, its rows (the neighbour half: those between the y faces) as one
         * run of gpu_aa_run_row cells a row, cut into blocks across the row ends: the block no
         * longer follows the row's length (a 144-cell row had run in 160 threads, a 272-cell one
         * in two blocks of 160), and 16-bit rows leave no lane idle. Unsigned: lbm_alloc refuses
         * aa where a plane's run passes 2^32 - 1025 cells. */
        const unsigned first = V == GPU_AA_NEIGHBOURS ? 1u : 0u, ny = (unsigned)l.ny;
        const unsigned rows = ny > 2u * first ? ny - 2u * first : 0u;
        const unsigned w = (unsigned)gpu_aa_run_row(&l, sizeof(T));
        const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, q = i / w;
        x = (long)(i - q * w);
        y = (long)(first + q);
        z = blockIdx.y;
        live = q < rows && x < (long)l.nx;
    } else {
        /* row r of gpu_aa_face_rows' list: first every row with y on a face (y = 0, and
         * y = ny - 1 where ny > 1) plane by plane, then the rows between them with z on a face */
        const long ny = (long)l.ny, nz = (long)l.nz, fy = ny > 1 ? 2 : 1, fz = nz > 1 ? 2 : 1;
        const long r = (long)blockIdx.z * gridDim.y + blockIdx.y;
        if (r < fy * nz) {
            z = r / fy;
            y = r % fy ? ny - 1 : 0;
        } else {
            y = 1 + (r - fy * nz) / fz;
            z = (r - fy * nz) % fz ? nz - 1 : 0;
            if (y >= ny - 1) return; /* past the list's end */
        }
    }
    /* the neighbour half stages its x-moving stores in 4- and 8-byte lattices (below): its
     * idle threads (a row's padding, past the plane's last row) still meet its barrier */
    const bool staged = V == GPU_AA_NEIGHBOURS && sizeof(T) >= 4;
    if (!live && !staged) return;
    const typename coll_of<T>::type pc = p;
    const size_t cell = ((size_t)z * l.sy + (size_t)y) * l.pitch + (size_t)x;
    const long ds = (long)l.dir_stride, pitch = (long)l.pitch, plane = (long)(l.pitch * l.sy);
    typedef typename real_of<T>::type R;
    R f[19];
    if (V == GPU_AA_LOCAL) {
        aa_local_cell<T, COLL, FORCED>(lat, (long)cell, ds, pc);
    } else if (V == GPU_AA_NEIGHBOURS) {
        /* rows on a y or z face are GPU_AA_FACES' (the same update, launched beside this one):
         * the block's y are not, and z is the whole block's */
        if (z == 0 || z == (long)l.nz - 1) return;
        /* rows away from the y and z faces: the x ends are selects in the same instruction
         * stream (bounce-back into the cell's own slot, or the periodic wrap), so the first and
         * last warp of a row do not diverge into the general rule (as in pull_kernel) */
        long c = (long)cell;
        const long nx = (long)l.nx;
        const int perx = b.periodic[0];
        const bool xlo = x == 0, xhi = x == nx - 1;
        /* the x-moving directions' values go through shared memory, [10 directions][1 +
         * blockDim.x + 1] (slot t + 1 + c_x for lane t), and after a barrier the lane at each
         * value's destination stores it, so that a warp stores whole aligned sectors; stored by
         * the lane that made them, they spanned one sector more a request, two of them partial,
         * and the half ran 10% longer than the cell-local one at the same DRAM bytes (ncu, H200
         * sp, 256^3: data/PERFORMANCE-NOTES.md). That lane read the location before the barrier
         * (it is the cell the value's source read from): still one reader, then one writer. The
         * values that leave the block or the row (the end lanes, walls, the periodic wrap) are
         * stored after the barrier by the lane that made them. 16-bit lattices store as
         * before: staged, fp16s and fp16c lost 9-17% (H200, the same call), their issue slots
         * already near full. */
        extern __shared__ __align__(16) unsigned char aa_stage_bytes[];
        T *const stage = reinterpret_cast<T *>(aa_stage_bytes);
        const long bw = (long)blockDim.x, t = (long)threadIdx.x, sw = bw + 2;
        /* the cell's index waits out the collision in shared memory, after the staging area:
         * from the run's division the compiler cannot redo it cheaply and held it in registers,
         * sp's half 72 instead of 64 (three blocks of 256 an SM instead of four; capped at 64 it
         * spilled, and either ran the half 5% longer: ncu, H200 256^3); reloaded, BGK takes 64,
         * TRT 64 (72 before the runs), dp 93 (ptxas, sm_90) */
        long *const keep = reinterpret_cast<long *>(stage + 10 * sw);
        if (staged && live) keep[t] = c;
        if (live) {
#define AA_LOADX_(i, cx, cy, cz, o)                                                                \
    {                                                                                              \
        long at = (o)*ds + c - (cx) - (cy)*pitch - (cz)*plane;                                     \
        if ((cx) != 0) {                                                                           \
            AA_ROW_END_(at, -(cx), (i)*ds + c)                                                     \
        }                                                                                          \
        f[i] = gpu_ldg_raw(lat + at);                                                              \
    }
            LBM_D3Q19(AA_LOADX_)
#undef AA_LOADX_
            gpu_trap_cell<T>(f);
            collide<COLL, FORCED>(f, &pc);
            if (staged) c = *(volatile long *)(keep + t); /* volatile: a load, not the register */
#define AA_STOREX_(i, cx, cy, cz, o)                                                               \
    if ((cx) != 0 && staged) {                                                                     \
        stage[GPU_XSLOT(i) * sw + t + 1 + (cx)] = gpu_value<T>(f[i]);                              \
    } else {                                                                                       \
        long at = (i)*ds + c + (cx) + (cy)*pitch + (cz)*plane;                                     \
        if ((cx) != 0) {                                                                           \
            AA_ROW_END_(at, (cx), (o)*ds + c)                                                      \
        }                                                                                          \
        lat[at] = gpu_value<T>(f[i]);                                                              \
    }
            LBM_D3Q19(AA_STOREX_)
#undef AA_STOREX_
        }
        if (!staged) return;
        __syncthreads();
        if (live) {
            /* in: the value made by lane t - c_x for this cell; out: this lane's own value where
             * its destination is another block's, or across the row's end (a block spans row
             * ends: lane t - c_x holds cell x - c_x of this row exactly when that is in the row,
             * the lanes' cells being consecutive) */
#define AA_STAGED_(i, cx, cy, cz, o)                                                               \
    if ((cx) != 0) {                                                                               \
        const long ti = t - (cx), to = t + (cx);                                                   \
        if (ti >= 0 && ti < bw && !((cx) > 0 ? xlo : xhi))                                         \
            lat[(i)*ds + c + (cy)*pitch + (cz)*plane] = stage[GPU_XSLOT(i) * sw + t + 1];          \
        if (to < 0 || to >= bw || ((cx) > 0 ? xhi : xlo)) {                                        \
            long at = (i)*ds + c + (cx) + (cy)*pitch + (cz)*plane;                                 \
            AA_ROW_END_(at, (cx), (o)*ds + c)                                                      \
            lat[at] = stage[GPU_XSLOT(i) * sw + to + 1];                                           \
        }                                                                                          \
    }
            LBM_D3Q19(AA_STAGED_)
#undef AA_STAGED_
#undef AA_ROW_END_
        }
    } else {
        /* GPU_AA_FACES, rows on a y or z face (whole warps: a block lies in one row): the
         * neighbour half's update there, in a kernel of its own so that its registers (sp 95,
         * dp 131, ptxas BGK; the inner rows' kernel 64 / 93) do not bound the inner rows'
         * occupancy. pull.h's rule (one
         * rank, no ghosts) as selects on every axis, unrolled, both ways: f_d from slot opp(d)
         * of the cell upstream, x - c_d (across a wall: slot d of the cell, plus the lid's term
         * where z - c_z = nz), and into slot d of the cell downstream, x + c_d (across a wall:
         * slot opp(d) of the cell, plus opp(d)'s lid term where z + c_z = nz). Looped over the
         * directions with the general rule in the neighbour half's kernel, these 1.6% of the
         * rows at 256^3 had cost several times a row above them */
        const long c = (long)cell;
        const long nx = (long)l.nx, ny = (long)l.ny, nz = (long)l.nz;
        const int perx = b.periodic[0], pery = b.periodic[1], perz = b.periodic[2];
        const int lidz = b.lid_ux != 0.0 && !perz;
/* the cell at (x, y, z) + s * c (s = -1 upstream, +1 downstream): *at its offset within a
 * direction array (wrapped on periodic axes), the result 1 when a wall lies between */
#define AA_FACE_CELL_(cx, cy, cz, s, at)                                                           \
    (at = c + (s) * ((cx) + (cy)*pitch + (cz)*plane),                                              \
     at += (s) * (cx) != 0 && (x + (s) * (cx) < 0 || x + (s) * (cx) >= nx)                         \
               ? (x + (s) * (cx) < 0 ? nx : -nx)                                                   \
               : 0L,                                                                               \
     at += (s) * (cy) != 0 && (y + (s) * (cy) < 0 || y + (s) * (cy) >= ny)                         \
               ? (y + (s) * (cy) < 0 ? ny * pitch : -ny * pitch)                                   \
               : 0L,                                                                               \
     at += (s) * (cz) != 0 && (z + (s) * (cz) < 0 || z + (s) * (cz) >= nz)                         \
               ? (z + (s) * (cz) < 0 ? nz * plane : -nz * plane)                                   \
               : 0L,                                                                               \
     (!perx && (cx) != 0 && (x + (s) * (cx) < 0 || x + (s) * (cx) >= nx)) ||                       \
         (!pery && (cy) != 0 && (y + (s) * (cy) < 0 || y + (s) * (cy) >= ny)) ||                   \
         (!perz && (cz) != 0 && (z + (s) * (cz) < 0 || z + (s) * (cz) >= nz)))
#define AA_LOADF_(i, cx, cy, cz, o)                                                                \
    {                                                                                              \
        long at;                                                                                   \
        const int wall = AA_FACE_CELL_(cx, cy, cz, -1, at);                                        \
        const R v = gpu_ldg(lat + (wall ? (i)*ds + c : (o)*ds + at));                              \
        const int on_lid = (cz) != 0 && lidz && z - (cz) == nz;                                    \
        f[i] = wall ? v + (on_lid ? (R)LBM_LID_TERM(LBM_WEIGHT(cx, cy, cz), cx, b.lid_ux) : (R)0)  \
                    : v;                                                                           \
    }
        LBM_D3Q19(AA_LOADF_)
#undef AA_LOADF_
        collide<COLL, FORCED>(f, &pc);
#define AA_STOREF_(i, cx, cy, cz, o)                                                               \
    {                                                                                              \
        long at;                                                                                   \
        const int wall = AA_FACE_CELL_(cx, cy, cz, 1, at);                                         \
        const int on_lid = (cz) != 0 && lidz && z + (cz) == nz;                                    \
        const R v =                                                                                \
            f[i] + (on_lid ? (R)LBM_LID_TERM(LBM_WEIGHT(cx, cy, cz), -(cx), b.lid_ux) : (R)0);     \
        lat[wall ? (o)*ds + c : (i)*ds + at] = gpu_value<T>(wall ? v : f[i]);                      \
    }
        LBM_D3Q19(AA_STOREF_)
#undef AA_STOREF_
#undef AA_FACE_CELL_
    }
}

/* GPU_AA_LOCAL_PAIRS: aa's cell-local half two cells a thread (x and x + 1, x even) in words of
 * two values (pair_word: 4 bytes for the 16-bit lattices, 8 for sp), so that a warp's request per
 * direction is twice as long: one cell a thread, the 16-bit half waited on its 64-byte requests
 * with neither a pipe nor a cache busy (ncu, data/lbm/gpu-aa-pairs-h200-2026-11-23). Each cell
 * collides as in GPU_AA_LOCAL, so the states are the same; the last cell of a row of odd length
 * goes alone. Launched (gpu_lbm_launch_aa) only where every pair's word is aligned: even pitch and
 * direction stride. */
template <typename T, int COLL, int FORCED, enum gpu_lbm_variant V>
__global__ void aa_pairs_kernel(T *lat, struct lbm_layout l, struct lbm_bounds b,
                                typename coll_of<T>::type p)
{
    static_assert(V == GPU_AA_LOCAL_PAIRS, "aa's paired local half");
    (void)b;
    if (!pair_word<T>::local) return; /* never launched */
    /* plane blockIdx.y's rows as one run of pairs, as aa_kernel's */
    const unsigned np = ((unsigned)gpu_aa_run_row(&l, sizeof(T)) + 1u) / 2u;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, q = i / np;
    const long x = 2L * (long)(i - q * np);
    if (q >= (unsigned)l.ny || x >= (long)l.nx) return;
    const typename coll_of<T>::type pc = p;
    const long cell = ((long)blockIdx.y * (long)l.sy + (long)q) * (long)l.pitch + x;
    const long ds = (long)l.dir_stride;
    typedef typename real_of<T>::type R;
    if (x + 1 < (long)l.nx) {
        R f[19], g[19];
        typedef typename pair_word<T>::W W;
        const W *w = reinterpret_cast<const W *>(lat);
        W *wo = reinterpret_cast<W *>(lat);
#define AA_LOAD2_(i, cx, cy, cz, o)                                                                \
    {                                                                                              \
        const float2 v = pair_word<T>::get_raw(__ldg(w + ((i)*ds + cell) / 2));                    \
        f[i] = v.x;                                                                                \
        g[i] = v.y;                                                                                \
    }
        LBM_D3Q19(AA_LOAD2_)
#undef AA_LOAD2_
        gpu_trap_cell<T>(f);
        gpu_trap_cell<T>(g);
        collide<COLL, FORCED>(f, &pc);
        collide<COLL, FORCED>(g, &pc);
#define AA_STORE2_(i, cx, cy, cz, o) wo[((o)*ds + cell) / 2] = pair_word<T>::put(f[i], g[i]);
        LBM_D3Q19(AA_STORE2_)
#undef AA_STORE2_
    } else {
        aa_local_cell<T, COLL, FORCED>(lat, cell, ds, pc);
    }
}

/* Local fluid coordinates of lattice element i; 0 for padding, ghosts and the gap between
 * direction arrays. */
__device__ __forceinline__ int fluid_at(const struct lbm_layout &l, size_t i, int *d, size_t *x,
                                        size_t *y, size_t *z)
{
    size_t r; /* the cell's place in rows of xrow cells, as one direction's array would hold it */
    if (l.cs != 1) { /* AoS: i = cell 19 + d */
        r = i / 19;
        *d = (int)(i % 19);
    } else if (l.pitch != l.xrow) { /* interleaved rows: i = row 19 xrow + d xrow + x */
        r = i / l.pitch * l.xrow + i % l.xrow;
        *d = (int)(i / l.xrow % 19);
    } else { /* 19 arrays: i = d dir_stride + cell */
        r = i % l.dir_stride;
        *d = (int)(i / l.dir_stride);
    }
    const size_t xs = r % l.xrow, ys = (r / l.xrow) % l.sy, zs = r / l.xrow / l.sy;
    *x = xs - l.ox; /* wraps to huge below the fluid */
    *y = ys - l.gy;
    *z = zs - l.gz;
    return *x < l.nx && *y < l.ny && *z < l.nz && zs < l.sz;
}

/* init.h's state (or NaN poison in padding and ghosts and, with poison_all, everywhere) */
template <typename T>
__global__ void init_kernel(T *lat, struct lbm_layout l, struct lbm_place pl, int poison_all,
                            int aa)
{
    typedef typename real_of<T>::type R;
    const size_t n = l.elems, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int d;
        size_t x, y, z;
        if (poison_all || !fluid_at(l, i, &d, &x, &y, &z))
            lat[i] = gpu_value<T>((R)NAN);
        else /* stored shifted: g = f - w; aa keeps direction d in slot opp(d) */
            lat[i] = gpu_value<T>((R)lbm_init_shifted(aa ? lbm_opposite(d) : d, x + pl.offset[0],
                                                      y + pl.offset[1], z + pl.offset[2]));
    }
}

__device__ __forceinline__ uint64_t bits_of(float v)
{
    return (uint64_t)(uint32_t)__float_as_uint(v);
}
__device__ __forceinline__ uint64_t bits_of(double v)
{
    return (uint64_t)__double_as_longlong(v);
}
/* a 16-bit value: its 16 stored bits, widened as a float's 32 are */
__device__ __forceinline__ uint64_t bits_of(gpu_fp16s v)
{
    return (uint64_t)v.h;
}
__device__ __forceinline__ uint64_t bits_of(gpu_fp16c v)
{
    return (uint64_t)v.h;
}

template <typename T>
__global__ void check_kernel(const T *lat, struct lbm_layout l, struct lbm_place pl, size_t gnx,
                             size_t gny, size_t gnz, double *partial, unsigned long long *hsum,
                             int aa)
{
    __shared__ double sm[2][256];
    __shared__ unsigned long long sh[256];
    double m = 0, bad = 0;
    unsigned long long h = 0;
    const size_t n = l.elems, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int d;
        size_t x, y, z;
        if (!fluid_at(l, i, &d, &x, &y, &z)) continue;
        double v = (double)gpu_load(lat + i);
        h += lbm_value_hash(aa ? lbm_opposite(d) : d, x + pl.offset[0], y + pl.offset[1],
                            z + pl.offset[2], gnx, gny, gnz, bits_of(lat[i]));
        if (isfinite(v))
            m += v;
        else
            bad += 1;
    }
    sm[0][threadIdx.x] = m;
    sm[1][threadIdx.x] = bad;
    sh[threadIdx.x] = h;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s) {
            sm[0][threadIdx.x] += sm[0][threadIdx.x + s];
            sm[1][threadIdx.x] += sm[1][threadIdx.x + s];
            sh[threadIdx.x] += sh[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[2 * blockIdx.x] = sm[0][0];
        partial[2 * blockIdx.x + 1] = sm[1][0];
        hsum[blockIdx.x] = sh[0];
    }
}

/* v into its 32-byte memory sector at slot `lead` (in values), zeros in the other slots: two
 * 16-byte stores that cover the sector, so that the L2 need not read it from DRAM before writing
 * it back, as it does for a partly written sector (ECC on). An x face's ghost cells are one value
 * a row, a sector each (data/mpi/gpu-node-h200x4-2026-11-26: the read-backs and what is left). */
template <typename T> __device__ __forceinline__ void halo_sector_store(T *sector, int lead, T v)
{
    unsigned long long r = 0;
    memcpy(&r, &v, sizeof(T));
    const int at = lead * (int)sizeof(T); /* bytes into the sector */
    unsigned w[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
        const int sh = at - 4 * k; /* where v starts, in bytes from word k */
        w[k] = sh >= 0 && sh < 4                ? (unsigned)(r << (8 * sh))
               : sh < 0 && sh > -(int)sizeof(T) ? (unsigned)(r >> (-8 * sh))
                                                : 0u;
    }
    uint4 *q = reinterpret_cast<uint4 *>(sector);
    __stcg(q, make_uint4(w[0], w[1], w[2], w[3]));
    __stcg(q + 1, make_uint4(w[4], w[5], w[6], w[7]));
}

/* An x face read in place (gpu_xghosts): its ghost cells that the rows on a y or z face read,
 * those within two cells of the face's y or z ends (z' in 0, 1, nz - 2, nz - 1 for every y', and
 * y' in 0, 1, ny - 2, ny - 1 for the planes between), copied from buf ([slot][z][y], slot k
 * holding direction ds.d[k]) into the ghost layer x = gx: 4 (ny + nz) cells of the ny nz */
template <typename T>
__global__ void face_ring_kernel(T *lat, struct lbm_layout l, struct dirset ds, long gx,
                                 const T *buf)
{
    const long ny = (long)l.ny, nz = (long)l.nz;
    const long zr = nz < 4 ? nz : 4, yr = ny < 4 ? ny : 4, mid = nz > 4 ? nz - 4 : 0;
    const long ring = zr * ny + mid * yr;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)(ring * ds.n);
         i += stride) {
        const long k = (long)i / ring, j = (long)i % ring;
        long y, z;
        if (j < zr * ny) { /* a whole plane near a z end */
            z = j / ny;
            z = z < 2 || nz <= 4 ? z : nz - 4 + z;
            y = j % ny;
        } else { /* a plane between: the cells near its y ends */
            z = 2 + (j - zr * ny) / yr;
            y = (j - zr * ny) % yr;
            y = y < 2 || ny <= 4 ? y : ny - 4 + y;
        }
        int d = ds.d[0];
        for (int m = 1; m < 5; m++)
            d = m == k ? ds.d[m] : d;
        lat[LBM_IDX(&l, d, gx, y, z)] = buf[(k * nz + z) * ny + y];
    }
}

/* halo (un)packing: populations ds of the box at (lx, ly, lz) of ex x ey x ez cells. mode 0
 * packs, 1 unpacks, 2 + lead unpacks a box whose every value sits at slot `lead` of a 32-byte
 * sector holding nothing else (an x face's ghost cells beside row padding) a sector a value. */
template <typename T>
__global__ void halo_kernel(T *lat, struct lbm_layout l, struct dirset ds, long lx, long ly,
                            long lz, long ex, long ey, long ez, T *buf, int mode)
{
    const size_t box = (size_t)(ex * ey * ez), n = box * (size_t)ds.n;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        size_t k = i / box, r = i % box;
        long x = lx + (long)(r % (size_t)ex), y = ly + (long)(r / (size_t)ex % (size_t)ey);
        long z = lz + (long)(r / (size_t)(ex * ey));
        int d = ds.d[0];
        for (int j = 1; j < 5; j++)
            d = (size_t)j == k ? ds.d[j] : d;
        size_t at = LBM_IDX(&l, d, x, y, z);
        if (mode >= 2)
            halo_sector_store(lat + (at - (size_t)(mode - 2)), mode - 2, buf[i]);
        else if (mode == 1)
            lat[at] = buf[i];
        else
            buf[i] = lat[at];
    }
}

#endif
