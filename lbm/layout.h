/* layout.h: padded structure-of-arrays indexing. Direction d of cell (x, y, z) lives at
 * d * dir_stride + (z * ny + y) * pitch + x; pitch = nx + pad, rounded up to `align` bytes. The
 * direction arrays are staggered: each starts 3 x max(128, align) bytes further into a 4 KiB page
 * than the one before, so the 19 streams of a sweep never share cache sets (with power-of-two
 * domains they otherwise all would: 4x slower on a Sapphire Rapids core). All offsets 64-bit. */
#ifndef LBM_LAYOUT_H
#define LBM_LAYOUT_H

#include <stddef.h>

struct lbm_layout {
    size_t nx, ny, nz;
    size_t pitch;      /* elements per x row, padding included */
    size_t dir_stride; /* elements between direction arrays */
    size_t elems;      /* elements of one lattice: 19 x dir_stride */
};

/* pad: elements added to each row; align: row alignment in bytes (0: none, else a multiple of
 * the element size); esize: bytes per value. Returns 0, or 1 when align does not fit esize. */
static inline int lbm_layout_make(struct lbm_layout *l, size_t nx, size_t ny, size_t nz,
                                  size_t pad, size_t align, size_t esize)
{
    size_t row = (nx + pad) * esize, unit = align > 128 ? align : 128, bytes;
    if (align) {
        if (align % esize)
            return 1;
        row = (row + align - 1) / align * align;
    }
    l->nx = nx;
    l->ny = ny;
    l->nz = nz;
    l->pitch = row / esize;
    bytes = l->pitch * ny * nz * esize;
    l->dir_stride = ((bytes + 4095) / 4096 * 4096 + 3 * unit) / esize;
    l->elems = 19 * l->dir_stride;
    return 0;
}

#define LBM_IDX(l, d, x, y, z)                                                                     \
    ((size_t)(d) * (l)->dir_stride + ((size_t)(z) * (l)->ny + (size_t)(y)) * (l)->pitch + (size_t)(x))

#endif
