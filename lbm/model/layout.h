/* layout.h: padded structure-of-arrays indexing (and, for one study, array of structures).
 * Direction d of cell (x, y, z) lives at d * dir_stride + (org + (z * sy + y) * pitch + x) * cs;
 * SoA (every kernel but pull_aos): cs = 1, pitch = ox + nx + pad rounded up to `align` bytes
 * (ox < 2: + gx); AoS: dir_stride = 1, cs = 19 (lbm_layout_make_aos). A sub-domain of a distributed
 * run carries one ghost layer on each side of every axis split between ranks (gx, gy, gz = 1):
 * cells -1 and n along it, which hold what the neighbouring rank streams in; coordinates are local
 * and may be -1 there. Along x the fluid starts at ox = one alignment unit, so rows stay aligned
 * (without an alignment, one cell: the rows then start anywhere in a line). The CPU's pull kernels
 * keep no x ghost layer where x is the only split axis (setup.c); there x = -1 and nx index
 * other cells (a neighbouring row's, padding, or another direction's), which the rows' vector
 * loops read and the end cells overwrite with the received face's values.
 * Without ghosts (every single-rank run) org = 0 and the layout is the plain padded one. The
 * direction arrays are staggered: each starts 3 x max(128, align) bytes further into a 4 KiB page
 * than the one before, so the 19 streams of a sweep never share cache sets (with power-of-two
 * domains they otherwise all would: 4x slower on a Sapphire Rapids core), and an odd number of
 * pages after it, so they spread over DRAM banks too. `--layout rows` (the GPU's default)
 * interleaves them instead: a cell row's 19 direction rows side by side (lbm_layout_interleave).
 * All offsets 64-bit. */
#ifndef LBM_LAYOUT_H
#define LBM_LAYOUT_H

#include <stddef.h>

struct lbm_layout {
    size_t nx, ny, nz; /* fluid cells of this (sub-)domain */
    size_t gx, gy, gz; /* ghost layers per side: 0 or 1 */
    size_t ox;         /* x index of fluid cell 0 within a row */
    size_t sy, sz;     /* rows per plane and planes stored: ny + 2 gy, nz + 2 gz */
    size_t pitch; /* elements from one x row to the next (y + 1), ghosts and padding included */
    size_t xrow;  /* elements of one direction's x row: pitch, or pitch / 19 where the 19
                     directions' rows of a cell row lie side by side (lbm_layout_interleave) */
    size_t org;   /* cell offset of fluid cell (0, 0, 0) */
    size_t dir_stride; /* elements between directions: SoA, a whole array; AoS, 1 */
    size_t cs;         /* elements between neighbouring cells: SoA 1, AoS 19 */
    size_t elems;      /* elements of one lattice */
};

/* pad: elements added to each row; align: row alignment in bytes (0: none, else a multiple of
 * the element size); esize: bytes per value; ghost: per axis, 1 for a ghost layer on each side
 * (NULL: none). Returns 0, or 1 when align does not fit esize. */
static inline int lbm_layout_make_halo(struct lbm_layout *l, size_t nx, size_t ny, size_t nz,
                                       size_t pad, size_t align, size_t esize, const int *ghost)
{
    size_t unit = align > 128 ? align : 128, bytes, row;
    if (align && align % esize) return 1;
    l->gx = ghost && ghost[0] ? 1 : 0;
    l->gy = ghost && ghost[1] ? 1 : 0;
    l->gz = ghost && ghost[2] ? 1 : 0;
    l->ox = l->gx ? (align ? align / esize : 1) : 0;
    /* the ghost cell x = nx may lie in the next row's front unit (its slot 0: that row's ghost
     * x = -1 is slot ox - 1), so a row of whole units spans ox + nx, not a unit more for one
     * cell: 256 sp cells on 128-byte units 288 cells, not 320, whose span cost a GPU's x split
     * 1.8% sp (data/mpi/gpu-xsplit-span-faces-h200x4-2026-11-27). The last row's x = nx lies
     * past the lattice's rows: in the arrays' gap here, in lbm_layout_interleave's extra cells */
    row = (l->ox + nx + (l->ox >= 2 ? 0 : l->gx) + pad) * esize;
    if (align) row = (row + align - 1) / align * align;
    l->nx = nx;
    l->ny = ny;
    l->nz = nz;
    l->sy = ny + 2 * l->gy;
    l->sz = nz + 2 * l->gz;
    l->pitch = row / esize;
    l->xrow = l->pitch;
    l->org = (l->gz * l->sy + l->gy) * l->pitch + l->ox;
    bytes = l->pitch * l->sy * l->sz * esize;
    /* an odd number of pages apart: with a power-of-two domain the arrays would otherwise start
     * at addresses equal in every bit from the page up to the array size, DRAM bank bits
     * included (16-core host, 256^3 sp: pull 495 -> 664 MFLUP/s, aa 892 -> 1036) */
    l->dir_stride = (((bytes + 4095) / 4096 | 1) * 4096 + 3 * unit) / esize;
    l->cs = 1;
    l->elems = 19 * l->dir_stride;
    return 0;
}

/* Array of structures (the pull_aos study, one rank): a cell's 19 values side by side, cells in
 * x rows of `pitch` cells, rows aligned to `align` bytes where 19 x esize allows (pitch a
 * multiple of align / gcd(align, 19 esize)). */
static inline int lbm_layout_make_aos(struct lbm_layout *l, size_t nx, size_t ny, size_t nz,
                                      size_t pad, size_t align, size_t esize)
{
    size_t unit = 1, a = align, b = 19 * esize;
    if (align && align % esize) return 1;
    while (b) { /* gcd(align, 19 esize) */
        size_t t = a % b;
        a = b;
        b = t;
    }
    if (align) unit = align / a;
    l->nx = nx;
    l->ny = ny;
    l->nz = nz;
    l->gx = l->gy = l->gz = 0;
    l->ox = 0;
    l->sy = ny;
    l->sz = nz;
    l->pitch = (nx + pad + unit - 1) / unit * unit;
    l->xrow = l->pitch;
    l->org = 0;
    l->dir_stride = 1;
    l->cs = 19;
    l->elems = 19 * l->pitch * ny * nz;
    return 0;
}

static inline int lbm_layout_make(struct lbm_layout *l, size_t nx, size_t ny, size_t nz, size_t pad,
                                  size_t align, size_t esize)
{
    return lbm_layout_make_halo(l, nx, ny, nz, pad, align, esize, NULL);
}

/* An SoA layout (lbm_layout_make_halo's) turned row-interleaved: the 19 directions' x rows of one
 * cell row (y, z) side by side, 19 x xrow elements, each row as long and as aligned as before,
 * so that a sweep's 19 loads read rows of three planes and its 19 stores write one place where
 * the plain layout streams 38 arrays an odd number of pages apart (which costs the DRAM of an
 * H200 about 8% in pull's pattern: data/PERFORMANCE-NOTES.md). Direction d of cell (x, y, z) at
 * d xrow + org + (z sy + y) 19 xrow + x: LBM_IDX's formula with dir_stride = xrow, pitch =
 * 19 xrow. */
static inline void lbm_layout_interleave(struct lbm_layout *l)
{
    l->xrow = l->pitch;
    l->pitch = 19 * l->xrow;
    l->dir_stride = l->xrow;
    l->org = (l->gz * l->sy + l->gy) * l->pitch + l->ox;
    l->elems = l->pitch * l->sy * l->sz + l->ox; /* the last row's ghost x = nx past its end */
}

/* x, y, z may be -1 (a ghost) as a signed value: unsigned wrap-around gives the right offset */
#define LBM_IDX(l, d, x, y, z)                                                                     \
    ((size_t)(d) * (l)->dir_stride +                                                               \
     ((l)->org + ((size_t)(z) * (l)->sy + (size_t)(y)) * (l)->pitch + (size_t)(x)) * (l)->cs)

/* Whether every value of the x ghost cell at x (-1 or nx) shares its piece of `piece` bytes (a
 * multiple of esize, the pieces counted from the lattice's start) with row padding alone, so that
 * writing the whole piece changes no other cell (the GPU's halo unpack writes whole 32-byte
 * sectors so: no read of the sector first). Ghost -1 must end its piece, with the unit before
 * the fluid long enough to hold it; ghost nx must start its piece. A row's slot 0 is padding
 * unless the row before keeps its ghost nx there (ox + nx = xrow): then neither piece may hold
 * it. */
static inline int lbm_layout_ghost_alone(const struct lbm_layout *l, long x, size_t esize,
                                         size_t piece)
{
    const long e = (long)(piece / esize), ox = (long)l->ox, nx = (long)l->nx;
    if (!l->gx || l->cs != 1 || e < 1 || l->xrow % (size_t)e || l->dir_stride % (size_t)e) return 0;
    const long lead = (ox + x) % e;
    const int spill = ox + nx == (long)l->xrow; /* ghost nx at the next row's slot 0 */
    if (x == -1) return lead == e - 1 && ox >= e && (ox > e || !spill);
    if (x == nx) return lead == 0 && (!spill || ox > e);
    return 0;
}

#endif
