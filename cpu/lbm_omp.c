/* lbm_omp.c: the OpenMP LBM backend: two lattices, fused stream-collide, pull scheme, OpenMP over
 * the (z, y) rows with a static schedule that first touch shares, a vectorisable x loop inside. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_copy.h"
#include "cpu_marker.h"
#include "cpu_util.h"
#include "init.h"
#include "layout.h"
#include "lbm.h"
#include "pull.h"
#include "sysinfo.h"

const char lbm_backend_name[] = "cpu";

#define LATTICE_SHIFT 2048 /* bytes; a multiple of every row alignment up to 2 KiB */

struct lbm_state {
    struct lbm_setup u;
    char *mem[2]; /* the allocations */
    char *lat[2]; /* lat[cur] holds the current populations */
    int cur;
    size_t buf_elems; /* per-thread row buffer of the nt kernel */
    char region[32];  /* likwid marker region: lbm_<kernel> */
};

typedef void (*row_fn)(const struct lbm_state *, const void *, void *, size_t, size_t, void *);

/* The row kernels, one per precision x collision x {ordinary, non-temporal, forced}, by repeated
 * inclusion of lbm_omp_row.inc. */

#define ROW_REAL float
#define ROW_COLL struct lbm_coll_sp
#define ROW_PARAMS psp
#define ROW_COLLIDE lbm_bgk_sp
#define ROW_FORCED 0
#define ROW_NT 0
#define ROW_FN row_bgk_sp
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_NT
#define ROW_NT 1
#define ROW_FN row_bgk_sp_nt
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_NT
#undef ROW_FORCED
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_trt_sp
#define ROW_FORCED 0
#define ROW_NT 0
#define ROW_FN row_trt_sp
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_NT
#define ROW_NT 1
#define ROW_FN row_trt_sp_nt
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_NT
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_mrt_sp
#define ROW_NT 0
#define ROW_FN row_mrt_sp
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_NT
#define ROW_NT 1
#define ROW_FN row_mrt_sp_nt
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_NT
#undef ROW_FORCED
#undef ROW_COLLIDE
/* forced variants (channel): ordinary stores suffice, they are not a benchmark path */
#define ROW_FORCED 1
#define ROW_NT 0
#define ROW_COLLIDE lbm_bgk_sp
#define ROW_FN row_bgk_sp_f
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_trt_sp
#define ROW_FN row_trt_sp_f
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_mrt_sp
#define ROW_FN row_mrt_sp_f
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#undef ROW_NT
#undef ROW_FORCED
#undef ROW_PARAMS
#undef ROW_COLL
#undef ROW_REAL

#define ROW_REAL double
#define ROW_COLL struct lbm_coll_dp
#define ROW_PARAMS pdp
#define ROW_FORCED 0
#define ROW_NT 0
#define ROW_COLLIDE lbm_bgk_dp
#define ROW_FN row_bgk_dp
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_trt_dp
#define ROW_FN row_trt_dp
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_mrt_dp
#define ROW_FN row_mrt_dp
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#undef ROW_NT
#define ROW_NT 1
#define ROW_COLLIDE lbm_bgk_dp
#define ROW_FN row_bgk_dp_nt
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_trt_dp
#define ROW_FN row_trt_dp_nt
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_mrt_dp
#define ROW_FN row_mrt_dp_nt
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#undef ROW_NT
#undef ROW_FORCED
#define ROW_FORCED 1
#define ROW_NT 0
#define ROW_COLLIDE lbm_bgk_dp
#define ROW_FN row_bgk_dp_f
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_trt_dp
#define ROW_FN row_trt_dp_f
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#define ROW_COLLIDE lbm_mrt_dp
#define ROW_FN row_mrt_dp_f
#include "lbm_omp_row.inc"
#undef ROW_FN
#undef ROW_COLLIDE
#undef ROW_NT
#undef ROW_FORCED
#undef ROW_PARAMS
#undef ROW_COLL
#undef ROW_REAL

/* [precision][collision][variant: 0 ordinary, 1 non-temporal, 2 forced] */
static const row_fn rows[2][3][3] = {
    {{row_bgk_sp, row_bgk_sp_nt, row_bgk_sp_f},
     {row_trt_sp, row_trt_sp_nt, row_trt_sp_f},
     {row_mrt_sp, row_mrt_sp_nt, row_mrt_sp_f}},
    {{row_bgk_dp, row_bgk_dp_nt, row_bgk_dp_f},
     {row_trt_dp, row_trt_dp_nt, row_trt_dp_f},
     {row_mrt_dp, row_mrt_dp_nt, row_mrt_dp_f}},
};

int lbm_backend_open(struct suite_device *d, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    cpu_device_facts(d);
    cpu_marker_setup();
    return 0;
}

int lbm_kernel_supported(enum lbm_kernel k, char *why, size_t whylen)
{
    if (k == LBM_PULL_NT && NT_WIDTH == 0) {
        snprintf(why, whylen, "this build has no non-temporal store instructions (needs x86 with "
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
    return k == LBM_PULL;
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
    s->buf_elems = 19 * s->u.l.pitch;
    for (int k = 0; k < 2; k++) {
        /* the second lattice half a page on, so its streams fall between the first one's */
        s->mem[k] = cpu_alloc(s->u.l.elems * s->u.es + LATTICE_SHIFT);
        s->lat[k] = s->mem[k] ? s->mem[k] + k * LATTICE_SHIFT : NULL;
        if (!s->lat[k]) {
            snprintf(err, errlen, "cannot allocate %.2f GiB",
                     2.0 * s->u.l.elems * s->u.es / 1073741824.0);
            lbm_free(s);
            return 1;
        }
    }
    snprintf(s->region, sizeof s->region, "lbm_%s", lbm_kernel_names[c->kernel]);
#pragma omp parallel
    cpu_marker_register(s->region);
    used->threads = omp_get_max_threads();
    used->blocks = -1;
    used->occupancy = NAN;
    used->pitch = s->u.l.pitch;
    *out = s;
    return 0;
}

static void put(struct lbm_state *s, char *lat, size_t i, double v)
{
    if (s->u.es == 4)
        ((float *)lat)[i] = (float)v;
    else
        ((double *)lat)[i] = v;
}

static double get(const struct lbm_state *s, const char *lat, size_t i)
{
    return s->u.es == 4 ? (double)((const float *)lat)[i] : ((const double *)lat)[i];
}

/* Writes both lattices row by row with the kernel's schedule; padding and the second lattice are
 * poisoned so a kernel that reads or leaves them shows up in the check. */
static void fill(struct lbm_state *s, const double *pdf)
{
    const struct lbm_layout *l = &s->u.l;
#pragma omp parallel for collapse(2) schedule(static)
    for (size_t z = 0; z < l->nz; z++) {
        for (size_t y = 0; y < l->ny; y++) {
            for (int d = 0; d < 19; d++) {
                for (size_t x = 0; x < l->pitch; x++) {
                    size_t i = LBM_IDX(l, d, x, y, z);
                    double v = NAN;
                    if (x < l->nx) /* stored shifted: g = f - w */
                        v = pdf ? pdf[(((size_t)d * l->nz + z) * l->ny + y) * l->nx + x] - lbm_w[d]
                                : lbm_init_shifted(d, x, y, z);
                    put(s, s->lat[0], i, v);
                    put(s, s->lat[1], i, NAN);
                }
            }
        }
    }
    s->cur = 0;
}

int lbm_init(struct lbm_state *s, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    fill(s, NULL);
    return 0;
}

int lbm_load(struct lbm_state *s, const double *pdf, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    fill(s, pdf);
    return 0;
}

int lbm_step(struct lbm_state *s, int steps, double *seconds, char *err, size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    int variant = lbm_forced(&s->u.c) ? 2 : (s->u.c.kernel == LBM_PULL_NT ? 1 : 0);
    row_fn fn = rows[s->u.c.prec == PREC_DP][s->u.c.collision][variant];
    double t0;
    (void)err;
    (void)errlen;
    t0 = omp_get_wtime();
    for (int t = 0; t < steps; t++) {
        const char *src = s->lat[s->cur];
        char *dst = s->lat[1 - s->cur];
#pragma omp parallel
        {
            void *buf = variant == 1 ? cpu_alloc(s->buf_elems * s->u.es) : NULL;
            cpu_marker_start(s->region);
#pragma omp for collapse(2) schedule(static)
            for (size_t z = 0; z < l->nz; z++)
                for (size_t y = 0; y < l->ny; y++)
                    fn(s, src, dst, y, z, buf);
            if (variant == 1)
                nt_fence();
            cpu_marker_stop(s->region);
            free(buf);
        }
        s->cur = 1 - s->cur;
    }
    *seconds = omp_get_wtime() - t0;
    return 0;
}

int lbm_fetch(struct lbm_state *s, double *pdf, char *err, size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    (void)err;
    (void)errlen;
    for (int d = 0; d < 19; d++)
        for (size_t z = 0; z < l->nz; z++)
            for (size_t y = 0; y < l->ny; y++)
                for (size_t x = 0; x < l->nx; x++)
                    pdf[(((size_t)d * l->nz + z) * l->ny + y) * l->nx + x] =
                        get(s, s->lat[s->cur], LBM_IDX(l, d, x, y, z)) + lbm_w[d];
    return 0;
}

int lbm_check(struct lbm_state *s, double *mass, size_t *nonfinite, char *err, size_t errlen)
{
    const struct lbm_layout *l = &s->u.l;
    double m = 0;
    size_t bad = 0;
    (void)err;
    (void)errlen;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : m, bad)
    for (size_t z = 0; z < l->nz; z++) {
        for (size_t y = 0; y < l->ny; y++) {
            for (int d = 0; d < 19; d++) {
                for (size_t x = 0; x < l->nx; x++) {
                    double v = get(s, s->lat[s->cur], LBM_IDX(l, d, x, y, z));
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
    return 0;
}

void lbm_free(struct lbm_state *s)
{
    if (!s)
        return;
    free(s->mem[0]);
    free(s->mem[1]);
    free(s);
}
