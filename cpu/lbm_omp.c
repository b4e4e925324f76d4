/* lbm_omp.c: the OpenMP LBM backend: two lattices, fused stream-collide, pull scheme, OpenMP over
 * the (z, y) rows with a static schedule that first touch shares, a vectorisable x loop inside. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_copy.h"
#include "cpu_marker.h"
#include "cpu_util.h"
#include "image.h"
#include "init.h"
#include "lat_value.h"
#include "layout.h"
#include "lbm.h"
#include "lbm_dist_backend.h"
#include "lbm_omp.h"
#include "progress.h"
#include "pull.h"
#include "sysinfo.h"

const char lbm_backend_name[] = "cpu";

#define LATTICE_SHIFT 2048 /* bytes; a multiple of every row alignment up to 2 KiB */

/* The plan from the general rules applied to one regular row; any lid term there (there is
 * none: the lid is crossed along z only) would leave the plan off. */
static void plan_rows(struct lbm_state *s)
{
    const struct lbm_layout *l = &s->u.l;
    const struct lbm_bounds *b = &s->u.b;
    struct row_plan *p = &s->plan;
    const long y = l->ny >= 3 ? 1 : 0, z = l->nz >= 3 ? 1 : 0, nx = (long)l->nx;
    const ptrdiff_t row = (ptrdiff_t)LBM_IDX(l, 0, 0, y, z), cs = (ptrdiff_t)l->cs;
    memset(p, 0, sizeof *p);
    p->ok = 1;
    if (!row_regular(s, (size_t)y, (size_t)z)) {
        p->ok = 0;
        return;
    }
    /* a split x face without a ghost layer (lbm_place.x_faces_in_rows) never reads as the inner
     * cells do: its crossing values come from the face; the other ends as the loop finds */
    for (int e = 0; e < 2; e++)
        p->pull_end_inner[e] = l->gx || !b->neighbor[0][e];
    for (int d = 0; d < 19; d++) {
        const int o = lbm_opp[d], cx = lbm_cx[d], cy = lbm_cy[d], cz = lbm_cz[d];
        long sc[3];
        int lid, lid2;
        /* pull: inner cells read upstream; ends by the general rule */
        p->pull[d] = (ptrdiff_t)LBM_IDX(l, d, 0, y - cy, z - cz) - cx * cs - row;
        for (int e = 0; e < 2; e++) {
            const long x = e ? nx - 1 : 0;
            p->pull_end[e][d] =
                (ptrdiff_t)lbm_pull_index(l, b, d, cx, cy, cz, o, x, y, z, &lid, LBM_PULL_HALO) -
                row;
            p->ok &= !lid;
            p->pull_end_inner[e] &= p->pull_end[e][d] == p->pull[d] + x * cs;
        }
        /* aa, odd step (one rank, cs = 1): from slot opp(d) upstream, to slot d downstream */
        p->aa_r[d] = (ptrdiff_t)LBM_IDX(l, o, 0, y - cy, z - cz) - cx - row;
        p->aa_w[d] = (ptrdiff_t)LBM_IDX(l, d, 0, y + cy, z + cz) + cx - row;
        for (int e = 0; e < 2; e++) {
            const long x = e ? nx - 1 : 0;
            p->aa_r_end[e][d] = (lbm_upstream(l, b, cx, cy, cz, x, y, z, sc, &lid)
                                     ? (ptrdiff_t)LBM_IDX(l, d, x, y, z)
                                     : (ptrdiff_t)LBM_IDX(l, o, sc[0], sc[1], sc[2])) -
                                row;
            p->aa_w_end[e][d] = (lbm_upstream(l, b, -cx, -cy, -cz, x, y, z, sc, &lid2)
                                     ? (ptrdiff_t)LBM_IDX(l, o, x, y, z)
                                     : (ptrdiff_t)LBM_IDX(l, d, sc[0], sc[1], sc[2])) -
                                row;
            p->ok &= !lid && !lid2;
        }
    }
}

/* The table of LBM_OMP_VARIANTS: each line with its functions in every precision. */
#define ROW_FN_(prec, suffix, name) [prec] = LBM_OMP_NAME(name, suffix),
#define AA_FNS_(prec, suffix, name)                                                                \
    [prec] = {LBM_OMP_AA_NAME(name, odd, suffix), LBM_OMP_AA_NAME(name, even, suffix)},
#define FNS_PULL_(name) .row = {LBM_OMP_PRECISIONS(ROW_FN_, name)}
#define FNS_AA_(name) .aa = {LBM_OMP_PRECISIONS(AA_FNS_, name)}
#define ENTRY_(scheme, name, kernel, collision, forced, store)                                     \
    {#name, kernel, collision, forced, store, FNS_##scheme##_(name)},
static const struct lbm_omp_variant variants[] = {LBM_OMP_VARIANTS(ENTRY_)};
#undef ENTRY_
#undef FNS_AA_
#undef FNS_PULL_
#undef AA_FNS_
#undef ROW_FN_

/* The case's line of LBM_OMP_VARIANTS. Forced rows store plainly (they are not a benchmark
 * path): pull_nt takes pull's. NULL if none matches. */
static const struct lbm_omp_variant *lbm_omp_variant_find(const struct lbm_case *c)
{
    const int forced = lbm_forced(c);
    const enum lbm_kernel k = forced && c->kernel == LBM_PULL_NT ? LBM_PULL : c->kernel;
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (variants[i].kernel == k && variants[i].collision == c->collision &&
            variants[i].forced == forced)
            return &variants[i];
    return NULL;
}

int lbm_backend_open(struct device_facts *d, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    cpu_device_facts(d);
    /* rows on a cache line (64 bytes): a row whose pitch is not a multiple of a line starts
     * elsewhere in its line each row, so vector loads and stores straddle two lines and the
     * non-temporal ones leave lines half written
     * (data/lbm/cpu-align-default-vm-h100-host-2026-11-26). A grid split along x put a ghost cell
     * before each row's fluid (since 2026-11-29 only where y or z is split too: setup.c), which
     * the alignment moves to a line of its own: pull_nt keeps it
     * (its line steps need rows on lines), while pull's rows, unaligned, move 8.1 lines a 128-cell
     * sp row instead of 9 (the prefetchers fetch that line with its row): x / z 0.877 -> 0.916 sp,
     * 0.915 -> 0.968 dp on a 16-core host (data/mpi/xsplit-cpu-align0-h200-host-2026-11-28) */
    d->row_align = d->row_align_inplace = d->row_align_split_x_nt = 64;
    d->row_align_split_x = 0;
    /* 19 arrays: interleaved rows ran the CPU kernels 5-30% slower at 256^3 (each 1 KiB row a
     * stream the prefetchers learn anew; data/lbm/cpu-layout-rows-vm-h100-host-2026-11-27) */
    d->lbm_rows = 0;
#ifdef LBMR_KERNEL_FLAGS
    if (LBMR_KERNEL_FLAGS[0]) { /* the LBM kernels' own flags (CMakeLists.txt) */
        size_t n = strlen(d->flags);
        snprintf(d->flags + n, sizeof d->flags - n, " %s", LBMR_KERNEL_FLAGS);
    }
#endif
    cpu_marker_setup();
    return 0;
}

int lbm_kernel_supported(enum lbm_kernel k, char *why, size_t whylen)
{
    if (k == LBM_PULL_NT && CPU_NT_WIDTH == 0) {
        snprintf(why, whylen,
                 "this build has no non-temporal store instructions (needs x86 with "
                 "SSE2 or newer); use pull");
        return 1;
    }
    return 0;
}

int lbm_case_supported(const struct lbm_case *c, char *why, size_t whylen)
{
    (void)c;
    (void)why;
    (void)whylen;
    return 0;
}

int lbm_write_allocates(enum lbm_kernel k)
{
    return k == LBM_PULL || k == LBM_PULL_AOS; /* aa stores into lines it has just read */
}

size_t lbm_memory_available(void)
{
    return sysinfo_mem_available();
}

int lbm_alloc(struct lbm_state **out, const struct lbm_case *c, struct lbm_launch *used, char *err,
              size_t errlen)
{
    struct lbm_state *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    if (lbm_setup_make(&s->u, c, err, errlen)) {
        free(s);
        return 1;
    }
    cpu_use_threads(c->threads); /* before first touch (lbm_init): the kernel's threads */
    plan_rows(s);
    {
        /* whole cache lines per chunk and one more, so the 19 chunks start in different L1 sets */
        const size_t es = s->u.es, nx = s->u.l.nx;
        const size_t w = (size_t)nt_chunk_cells(es, (long)nx), cells = w < nx ? w : nx;
        s->nt_stride = ((cells * es + 63) / 64 + 1) * 64 / es;
        s->buf_elems = 19 * s->nt_stride;
    }
    s->threads = omp_get_max_threads();
    {
        const struct lbm_omp_variant *v = lbm_omp_variant_find(c);
        if (v) {
            s->row = v->row[c->prec];
            s->aa[LBM_OMP_AA_ODD] = v->aa[c->prec][LBM_OMP_AA_ODD];
            s->aa[LBM_OMP_AA_EVEN] = v->aa[c->prec][LBM_OMP_AA_EVEN];
            s->nt = v->store == LBM_OMP_NT;
        }
        if (!(s->row || s->aa[LBM_OMP_AA_ODD])) {
            /* every case lbm_setup_make accepts has its line in LBM_OMP_VARIANTS */
            snprintf(err, errlen, "no CPU row kernel for %s %s %s%s", prec_name(c->prec),
                     lbm_kernel_names[c->kernel], lbm_collision_names[c->collision],
                     lbm_forced(c) ? " forced" : "");
            lbm_free(s);
            return 1;
        }
    }
    if (s->nt) {
        /* the nt kernel's buffers, once per state rather than per update inside the timed loop;
         * each thread's own huge page, first touched by that thread in its first update */
        const size_t huge = (size_t)2 << 20;
        s->nt_slot = (s->buf_elems * s->u.es + huge - 1) / huge * huge;
        s->nt_buf = cpu_alloc(s->nt_slot * (size_t)s->threads);
        if (!s->nt_buf) {
            snprintf(err, errlen, "cannot allocate the nt kernel's buffers (%.2f MiB)",
                     (double)s->nt_slot * s->threads / 1048576.0);
            lbm_free(s);
            return 1;
        }
    }
    for (int k = 0; k < lbm_lattices(c->kernel); k++) {
        /* the second lattice half a page on, so its streams fall between the first one's */
        s->mem[k] = cpu_alloc(s->u.l.elems * s->u.es + LATTICE_SHIFT);
        s->lat[k] = s->mem[k] ? s->mem[k] + k * LATTICE_SHIFT : NULL;
        if (!s->lat[k]) {
            snprintf(err, errlen, "cannot allocate %.2f GiB",
                     (double)lbm_lattices(c->kernel) * s->u.l.elems * s->u.es / 1073741824.0);
            lbm_free(s);
            return 1;
        }
    }
    snprintf(s->region, sizeof s->region, "lbm_%s", lbm_kernel_names[c->kernel]);
#pragma omp parallel
    cpu_marker_register(s->region);
    used->threads = s->threads;
    cpu_binding(used->binding, sizeof used->binding);
    used->blocks = -1;
    used->occupancy = NAN;
    used->pitch = s->u.l.xrow;
    *out = s;
    return 0;
}

static void put(struct lbm_state *s, char *lat, size_t i, double v)
{
    lat_value_put(s->u.c.prec, lat, i, v);
}

static double get(const struct lbm_state *s, const char *lat, size_t i)
{
    return lat_value_get(s->u.c.prec, lat, i);
}

/* Writes both lattices row by row with the kernel's schedule (first touch): the initial state;
 * padding, ghost layers and the second lattice are poisoned so a kernel that reads or leaves
 * them shows up in the check. */
static void fill(struct lbm_state *s)
{
    const struct lbm_layout *l = &s->u.l;
    const struct lbm_place *pl = &s->u.c.place;
    const long ox = (long)l->ox, gy = (long)l->gy, gz = (long)l->gz;
    s->aa_even = 0;
#pragma omp parallel for collapse(2) schedule(static)
    for (size_t zs = 0; zs < l->sz; zs++) {
        for (size_t ys = 0; ys < l->sy; ys++) {
            if (interrupt_requested()) continue; /* the case is dropped: its lattices unfinished */
            const long z = (long)zs - gz, y = (long)ys - gy;
            const int row_fluid = y >= 0 && y < (long)l->ny && z >= 0 && z < (long)l->nz;
            for (int k = 0; k < 19; k++) {
                const int d = lbm_slot(s->u.c.kernel, k); /* slot k holds direction d */
                for (size_t xs = 0; xs < l->xrow; xs++) {
                    const long x = (long)xs - ox;
                    size_t i =
                        (size_t)k * l->dir_stride + ((zs * l->sy + ys) * l->pitch + xs) * l->cs;
                    double v = NAN;
                    if (row_fluid && x >= 0 && x < (long)l->nx) /* stored shifted: g = f - w */
                        v = lbm_init_shifted(d, (size_t)x + pl->offset[0],
                                             (size_t)y + pl->offset[1], (size_t)z + pl->offset[2]);
                    put(s, s->lat[0], i, v);
                    if (s->lat[1]) put(s, s->lat[1], i, NAN);
                }
            }
        }
    }
    s->cur = 0;
}

int lbm_init(struct lbm_state *s, char *err, size_t errlen)
{
    fill(s);
    return interrupt_stop(err, errlen);
}

int lbm_load(struct lbm_state *s, const double *pdf, char *err, size_t errlen)
{
    fill(s); /* first touch and poison; then the fluid values from pdf */
    if (interrupt_stop(err, errlen)) return 1;
    lbm_image_from_pdf(&s->u.l, s->u.c.kernel, s->u.c.prec, s->lat[0], pdf);
    return 0;
}

int lbm_step(struct lbm_state *s, int steps, double *seconds, char *err, size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    double t0 = omp_get_wtime();
    if (s->u.c.kernel == LBM_AA) {
        for (int t = 0; t < steps && !interrupt_requested(); t++) {
            const lbm_omp_aa_fn row = s->aa[s->aa_even ? LBM_OMP_AA_EVEN : LBM_OMP_AA_ODD];
#pragma omp parallel
            {
                cpu_marker_start(s->region);
#pragma omp for collapse(2) schedule(static)
                for (size_t z = 0; z < l->nz; z++)
                    for (size_t y = 0; y < l->ny; y++)
                        row(s, s->lat[0], y, z);
                cpu_marker_stop(s->region);
            }
            s->aa_even = !s->aa_even;
        }
        *seconds = omp_get_wtime() - t0;
        return interrupt_stop(err, errlen);
    }
    for (int t = 0; t < steps && !interrupt_requested(); t++) {
        const size_t lo[3] = {0, 0, 0}, hi[3] = {l->nx, l->ny, l->nz};
        /* the whole domain; cannot fail here */
        lbm_update_box(s, lo, hi, LBM_QUEUE_EDGE, err, errlen);
        lbm_swap(s);
    }
    *seconds = omp_get_wtime() - t0;
    return interrupt_stop(err, errlen);
}

int lbm_fetch(struct lbm_state *s, double *pdf, char *err, size_t errlen)
{
    if (!lbm_readable(s->u.c.kernel, s->aa_even, err, errlen)) return 1;
    lbm_image_to_pdf(&s->u.l, s->u.c.kernel, s->u.c.prec, s->lat[s->cur], pdf);
    return 0;
}

int lbm_check(struct lbm_state *s, double *mass, size_t *nonfinite, uint64_t *hash, char *err,
              size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    const struct lbm_place *pl = &s->u.c.place;
    size_t g[3];
    double m = 0;
    size_t bad = 0;
    uint64_t h = 0;
    if (!lbm_readable(s->u.c.kernel, s->aa_even, err, errlen)) return 1;
    lbm_global_dims(&s->u.c, g);
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : m, bad, h)
    for (size_t z = 0; z < l->nz; z++) {
        for (size_t y = 0; y < l->ny; y++) {
            if (interrupt_requested()) continue; /* the case is dropped: no sum needed */
            for (int d = 0; d < 19; d++) {
                for (size_t x = 0; x < l->nx; x++) {
                    size_t i = LBM_IDX(l, lbm_slot(s->u.c.kernel, d), x, y, z);
                    double v = get(s, s->lat[s->cur], i);
                    const uint64_t bits = lat_value_bits(s->u.c.prec, s->lat[s->cur], i);
                    h += lbm_value_hash(d, x + pl->offset[0], y + pl->offset[1], z + pl->offset[2],
                                        g[0], g[1], g[2], bits);
                    if (isfinite(v))
                        m += v;
                    else
                        bad++;
                }
            }
        }
    }
    *mass = m + (double)(l->nx * l->ny * l->nz); /* sum f = sum g + one per cell */
    *nonfinite = bad;
    *hash = h;
    return interrupt_stop(err, errlen);
}

/* The row kernels over a box (lbm_step's whole domain, a distributed run's boxes); halos
 * through host memory. */

/* n values of es bytes: an x face's row is one value, where a memcpy call costs more than the
 * copy and hides the next row's load from the core */
static inline void copy_values(void *restrict d, const void *restrict s, size_t n, size_t es)
{
    if (n == 1 && es == 4) /* constant sizes: one load and one store */
        memcpy(d, s, 4);
    else if (n == 1 && es == 8)
        memcpy(d, s, 8);
    else if (n == 1 && es == 2)
        memcpy(d, s, 2);
    else
        memcpy(d, s, n * es);
}

/* Before a row's update, where the lattice has an x ghost layer: the ghost values its end cell on
 * x face `side` reads (the 5 populations that cross the face), from the received halo into the
 * ghost cells they are read from (without the layer the end function reads the halo itself). Each
 * is read by that one cell alone, so no other row waits on it, and the copy brings in the line the
 * row reads next; an unpack after the exchange wrote each into a line of its own that the row
 * then missed on again. A row whose sources cross neither y nor z finds them at offsets fixed
 * when the halo was offered (xin_at); on the others pull.h's rule says, and sources past the
 * face's y or z range are an edge's ghosts, unpacked. */
static void row_ghosts_in(const struct lbm_state *s, char *src, size_t y, size_t z, int side)
{
    const struct lbm_layout *l = &s->u.l;
    const size_t es = s->u.es;
    const long ny = (long)l->ny, nz = (long)l->nz;
    const ptrdiff_t row = (ptrdiff_t)LBM_IDX(l, 0, 0, y, z);
    if (y >= 1 && (long)y + 2 <= ny && z >= 1 && (long)z + 2 <= nz) {
        for (int k = 0; k < 5; k++)
            copy_values(src + (size_t)(row + s->xin_at[side].lat[k]) * es,
                        s->xin[side] + (size_t)row_face_in(s, side, k, y, z, 1, NULL) * es, 1, es);
        return;
    }
    for (int k = 0; k < 5; k++) {
        long c[3];
        const ptrdiff_t i = row_face_in(s, side, k, y, z, 0, c);
        if (i >= 0)
            copy_values(src + LBM_IDX(l, s->xin_dirs[side][k], c[0], c[1], c[2]) * es,
                        s->xin[side] + (size_t)i * es, 1, es);
    }
}

int lbm_update_box(struct lbm_state *s, const size_t lo[3], const size_t hi[3], int queue,
                   char *err, size_t errlen)
{
    const lbm_omp_row_fn fn = s->row;
    const int nt = s->nt;
    const char *src = s->lat[s->cur];
    char *dst = s->lat[1 - s->cur];
    (void)queue;
    (void)err;
    (void)errlen;
    if (lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]) return 0;
    /* the x faces this box's rows reach whose received halos the rows read themselves (the row
     * kernels write the faces' sends: row_face_send) */
    int in[2];
    for (int side = 0; side < 2; side++) {
        const size_t x = side ? s->u.l.nx - 1 : 0;
        in[side] = s->xin[side] && s->u.l.gx && lo[0] <= x && x < hi[0];
    }
#pragma omp parallel num_threads(s->threads)
    {
        void *buf = nt ? s->nt_buf + (size_t)omp_get_thread_num() * s->nt_slot : NULL;
        cpu_marker_start(s->region);
#pragma omp for collapse(2) schedule(static)
        for (size_t z = lo[2]; z < hi[2]; z++) {
            for (size_t y = lo[1]; y < hi[1]; y++) {
                for (int side = 0; side < 2; side++)
                    if (in[side]) row_ghosts_in(s, (char *)src, y, z, side);
                fn(s, src, dst, y, z, buf, (long)lo[0], (long)hi[0]);
            }
        }
        if (nt) cpu_nt_fence();
        cpu_marker_stop(s->region);
    }
    return 0;
}

int lbm_halo_copy(struct lbm_state *s, enum lbm_halo_dir dir, const int *dirs, int ndirs,
                  const long lo[3], const long hi[3], void *buf, int queue, char *err,
                  size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    char *lat = s->lat[1 - s->cur];
    const size_t es = s->u.es, n = (size_t)(hi[0] - lo[0]);
    const size_t box = n * (size_t)(hi[1] - lo[1]) * (size_t)(hi[2] - lo[2]);
    (void)queue;
    if (!l->gx && (lo[0] < 0 || hi[0] > (long)l->nx)) { /* x = -1 and nx are other rows' cells */
        snprintf(err, errlen, "no x ghost layer to %s (x %ld..%ld of %zu)",
                 dir == LBM_HALO_UNPACK ? "unpack into" : "pack from", lo[0], hi[0] - 1, l->nx);
        return 1;
    }
#pragma omp parallel for collapse(3) schedule(static)
    for (int k = 0; k < ndirs; k++) {
        for (long z = lo[2]; z < hi[2]; z++) {
            for (long y = lo[1]; y < hi[1]; y++) {
                char *b =
                    (char *)buf +
                    (k * box +
                     ((size_t)(z - lo[2]) * (size_t)(hi[1] - lo[1]) + (size_t)(y - lo[1])) * n) *
                        es;
                char *p = lat + LBM_IDX(l, dirs[k], lo[0], y, z) * es;
                if (dir == LBM_HALO_UNPACK)
                    copy_values(p, b, n, es);
                else
                    copy_values(b, p, n, es);
            }
        }
    }
    return 0;
}

void *lbm_buffer_alloc(size_t bytes, enum lbm_buffer_mem mem)
{
    (void)mem;
    return malloc(bytes ? bytes : 1);
}

void lbm_buffer_free(void *p, enum lbm_buffer_mem mem)
{
    (void)mem;
    free(p);
}

int lbm_buffer_copy(struct lbm_state *s, void *dst, const void *src, size_t bytes,
                    enum lbm_copy_dir dir, char *err, size_t errlen)
{
    (void)s;
    (void)dir;
    (void)err;
    (void)errlen;
    memcpy(dst, src, bytes);
    return 0;
}

int lbm_host_register(void *p, size_t bytes, enum lbm_pin pin, char *err, size_t errlen)
{
    (void)p;
    (void)bytes;
    (void)pin;
    (void)err;
    (void)errlen;
    return 0;
}

int lbm_buffers_on_host(void)
{
    return 1;
}

int lbm_queues_async(void)
{
    return 0;
}

int lbm_wait(struct lbm_state *s, int queue, char *err, size_t errlen)
{
    (void)s;
    (void)queue;
    (void)err;
    (void)errlen;
    return 0;
}

int lbm_queues_join(struct lbm_state *s, char *err, size_t errlen)
{
    (void)s;
    (void)err;
    (void)errlen;
    return 0;
}

void lbm_swap(struct lbm_state *s)
{
    s->cur = 1 - s->cur;
}

/* Whole rows: an x shell takes every cell left after the y and z shells, so an x split updates
 * each row in one call and packs after it. A row cut in two starts its 38 streams twice: narrower
 * shells measured slower (data/mpi/xsplit-h100-host-2026-11-23). */
size_t lbm_shell_x_cells(void)
{
    return SIZE_MAX;
}

/* Shells: the CPU updates a whole x split's rows in one call anyway, so updating the faces
 * again only adds work. */
int lbm_x_faces_updated(enum prec p)
{
    (void)p;
    return 0;
}

/* pull's and pull_nt's end cells read the crossing values from the received face (the end
 * function); aa and pull_aos unpack into ghost cells */
int lbm_x_faces_in_rows(enum lbm_kernel k)
{
    return k == LBM_PULL || k == LBM_PULL_NT;
}

/* x faces: the rows read the received halo and write the send buffer themselves (row_ghosts_in,
 * and the row kernels' row_face_send). Population k's places for the received face `side`: at the
 * cell x0 - c_x, y - c_y, z - c_z of the row's end cell x0 */
static struct xface_at xface_places(const struct lbm_state *s, int side, const int dirs[5])
{
    const struct lbm_layout *l = &s->u.l;
    const ptrdiff_t ny = (ptrdiff_t)l->ny, nz = (ptrdiff_t)l->nz, pitch = (ptrdiff_t)l->pitch;
    const ptrdiff_t sy = (ptrdiff_t)l->sy, x = side ? (ptrdiff_t)l->nx - 1 : 0;
    struct xface_at at;
    for (int k = 0; k < 5; k++) {
        const int d = dirs[k], cx = lbm_cx[d], cy = lbm_cy[d], cz = lbm_cz[d];
        at.lat[k] = (ptrdiff_t)d * (ptrdiff_t)l->dir_stride +
                    ((-cz * sy - cy) * pitch + x - cx) * (ptrdiff_t)l->cs;
        at.buf[k] = k * ny * nz - cz * ny - cy;
    }
    return at;
}

int lbm_halo_in_place(struct lbm_state *s, int side, const int dirs[5], const void *buf, int queue,
                      int *taken, char *err, size_t errlen)
{
    (void)queue, (void)err, (void)errlen;
    s->xin[side] = buf;
    memcpy(s->xin_dirs[side], dirs, sizeof s->xin_dirs[side]);
    s->xin_at[side] = xface_places(s, side, dirs);
    *taken = 1;
    return 0;
}

int lbm_halo_sent_by_update(struct lbm_state *s, int side, const int dirs[5], void *buf)
{
    s->xout[side] = buf;
    memcpy(s->xout_dirs[side], dirs, sizeof s->xout_dirs[side]);
    return 1;
}

int lbm_halo_update(struct lbm_state *s, const int *dirs, int ndirs, const long lo[3],
                    const long hi[3], void *buf, int queue, char *err, size_t errlen)
{
    const size_t l[3] = {(size_t)lo[0], (size_t)lo[1], (size_t)lo[2]};
    const size_t h[3] = {(size_t)hi[0], (size_t)hi[1], (size_t)hi[2]};
    return lbm_update_box(s, l, h, queue, err, errlen) ||
           lbm_halo_copy(s, LBM_HALO_PACK, dirs, ndirs, lo, hi, buf, queue, err, errlen);
}

int lbm_backend_cpu_set(unsigned long long *bits, int words)
{
    return cpu_usable_set(bits, words);
}

int lbm_backend_select(int local_rank, int *first_on_device, char *err, size_t errlen)
{
    *first_on_device = local_rank == 0; /* the node's ranks share its packages */
    (void)err;
    (void)errlen;
    return 0;
}

void lbm_free(struct lbm_state *s)
{
    if (!s) return;
    free(s->mem[0]);
    free(s->mem[1]);
    free(s->nt_buf);
    free(s);
}
