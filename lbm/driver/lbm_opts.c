/* lbm_opts.c: the options of the LBM pair as a table (common/options.h parses it and writes --help
 * from it); nothing runs before all of them passed. */
#define _POSIX_C_SOURCE 200809L
#include "lbm_opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EDGE 65536

static int add_dims(struct lbm_opts *o, size_t x, size_t y, size_t z, char *err, size_t errlen)
{
    if (o->ndims == LBM_DIMS_MAX) {
        cli_fail(err, errlen, "more than %d domains", LBM_DIMS_MAX);
        return 1;
    }
    o->dims[o->ndims][0] = x;
    o->dims[o->ndims][1] = y;
    o->dims[o->ndims][2] = z;
    o->ndims++;
    return 0;
}

/* "256x128x64,32x32x32" (cube: also "64") into at most max boxes of edges 1..top */
static int parse_boxes(const char *opt, const char *text, int cube, size_t top, size_t (*out)[3],
                       int *count, int max, char *err, size_t errlen)
{
    const char *p = text;
    /* what the option's boxes look like: a domain or a rank grid (--local: a cube's edge too) */
    const char *box = strcmp(opt, "--procs") ? "256x128x64" : "2x2x1";
    const char *like = cube ? "256x128x64 or 256" : box;
    for (;;) {
        size_t v[3];
        for (int a = 0; a < 3; a++) {
            char *end;
            if (*p < '0' || *p > '9') {
                cli_fail(err, errlen, "%s '%s': expected boxes like %s, comma-separated", opt, text,
                         like);
                return 1;
            }
            v[a] = strtoul(p, &end, 10);
            if (a == 0 && cube && (*end == ',' || *end == '\0')) {
                v[1] = v[2] = v[0];
                p = end;
                if (v[0] < 1 || v[0] > top) break; /* reported below */
                goto have_box;
            }
            if (v[a] < 1 || v[a] > top || (a < 2 && *end != 'x') ||
                (a == 2 && *end != ',' && *end != '\0')) {
                cli_fail(err, errlen, "%s '%s': expected boxes like %s with edges from 1 to %zu",
                         opt, text, box, top);
                return 1;
            }
            p = end + (a < 2);
        }
        if (v[0] < 1 || v[0] > top) {
            cli_fail(err, errlen, "%s '%s': edges must be from 1 to %zu", opt, text, top);
            return 1;
        }
    have_box:
        if (*count == max) {
            cli_fail(err, errlen, "%s: more than %d entries", opt, max);
            return 1;
        }
        memcpy(out[*count], v, sizeof v);
        (*count)++;
        if (*p == '\0') return 0;
        p++; /* the comma */
    }
}

/* 1 if geometry g is among those to run */
static int has_geometry(const struct lbm_opts *o, enum lbm_geometry g)
{
    for (int i = 0; i < o->ngeoms; i++)
        if (o->geoms[i] == (int)g) return 1;
    return 0;
}

static int names(const char *opt, const char *text, const char *const *list, int n, int *out,
                 int *count, char *err, size_t errlen)
{
    char sub[256];
    if (cli_parse_names(text, list, n, out, count, sub, sizeof sub))
        return 2 * cli_fail(err, errlen, "%s: %s", opt, sub);
    return 0;
}

static int parse_size(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    struct cli_list sizes;
    o->given.global = 1;
    /* a range of edges without its step: a:b would mean step 1 (481 domains for 32:512), where
     * stream's byte sizes double; neither is what an edge range usually means, so ask */
    for (const char *item = a; *item;) {
        const size_t len = strcspn(item, ",");
        const char *c1 = memchr(item, ':', len);
        if (c1 && !memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - item)))
            return 2 * cli_fail(err, errlen,
                                "--size '%.*s': a range of edges needs its step (e.g. 32:512:16) "
                                "or factor (32:512:x2)",
                                (int)(len < 64 ? len : 64), item);
        item += len + (item[len] == ',');
    }
    if (cli_opt_list("--size", a, 0, 1, MAX_EDGE, &sizes, err, errlen)) return 2;
    for (size_t i = 0; i < sizes.n; i++)
        if (add_dims(o, sizes.v[i], sizes.v[i], sizes.v[i], err, errlen)) return 2;
    return 0;
}

/* whole domains (--dims), or each rank's box (--local, N alone: a cube) */
static int boxes(struct lbm_opts *o, int local, const char *a, char *err, size_t errlen)
{
    int n = 0;
    if (parse_boxes(local ? "--local" : "--dims", a, local, MAX_EDGE, o->dims + o->ndims, &n,
                    LBM_DIMS_MAX - o->ndims, err, errlen))
        return 2;
    o->ndims += n;
    return 0;
}

static int parse_dims(void *p, const char *a, char *err, size_t errlen)
{
    ((struct lbm_opts *)p)->given.global = 1;
    return boxes(p, 0, a, err, errlen);
}

static int parse_local(void *p, const char *a, char *err, size_t errlen)
{
    ((struct lbm_opts *)p)->weak = 1;
    return boxes(p, 1, a, err, errlen);
}

static int parse_procs(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    size_t b[LBM_DECOMP_MAX][3];
    int n = 0;
    if (parse_boxes("--procs", a, 0, 4096, b, &n, LBM_DECOMP_MAX - o->nprocs, err, errlen))
        return 2;
    for (int k = 0; k < n; k++)
        for (int x = 0; x < 3; x++)
            o->procs[o->nprocs + k][x] = (int)b[k][x];
    o->nprocs += n;
    return 0;
}

static int parse_ranks(void *p, const char *a, char *err, size_t errlen)
{
    return 2 * cli_opt_list("--ranks", a, 0, 1, 65536, &((struct lbm_opts *)p)->ranks, err, errlen);
}

static int parse_overlap(void *p, const char *a, char *err, size_t errlen)
{
    static const char *const onoff[2] = {"off", "on"};
    struct lbm_opts *o = p;
    return names("--overlap", a, onoff, 2, o->overlaps, &o->noverlaps, err, errlen);
}

static int parse_halo(void *p, const char *a, char *err, size_t errlen)
{
    static const char *const halo_names[DIST_HALO_COUNT] = {"auto", "device", "node", "host"};
    struct lbm_opts *o = p;
    return names("--halo", a, halo_names, DIST_HALO_COUNT, o->halos, &o->nhalos, err, errlen);
}

static int parse_pad(void *p, const char *a, char *err, size_t errlen)
{
    return 2 * cli_opt_list("--pad", a, 0, 0, 4096, &((struct lbm_opts *)p)->pads, err, errlen);
}

static int parse_align(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    if (cli_opt_list("--align", a, 0, 0, 4096, &o->aligns, err, errlen)) return 2;
    for (size_t i = 0; i < o->aligns.n; i++)
        if (o->aligns.v[i] % 8)
            return 2 * cli_fail(err, errlen,
                                "--align: %zu bytes is not a multiple of 8 (a double); "
                                "use 0 or e.g. 64,128",
                                o->aligns.v[i]);
    return 0;
}

static int parse_collision(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    return names("--collision", a, lbm_collision_names, LBM_COLLISION_COUNT, o->colls, &o->ncolls,
                 err, errlen);
}

static int parse_kernel(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    return names("--kernel", a, lbm_kernel_names, LBM_KERNEL_COUNT, o->kernels, &o->nkernels, err,
                 errlen);
}

static int parse_geometry(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    return names("--geometry", a, lbm_geometry_names, LBM_GEOMETRY_COUNT, o->geoms, &o->ngeoms, err,
                 errlen);
}

static int parse_layout(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    return names("--layout", a, lbm_order_names, LBM_ORDER_COUNT, o->orders, &o->norders, err,
                 errlen);
}

/* --viscosity's ceiling (lattice units), and through lbm_omega_of --omega's floor */
#define VISCOSITY_MAX 1e6

static int parse_omega(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    o->given.omega = 1;
    /* the rate of --viscosity's largest value: no row's viscosity past what that accepts */
    return 2 * cli_opt_double("--omega", a, lbm_omega_of(VISCOSITY_MAX), 2, &o->omega, err, errlen);
}

static int parse_viscosity(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    double nu;
    o->given.visc = 1;
    if (cli_opt_double("--viscosity", a, 0, VISCOSITY_MAX, &nu, err, errlen)) return 2;
    o->omega = lbm_omega_of(nu);
    return 0;
}

static int parse_lid(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    o->given.lid = 1;
    return 2 * cli_opt_double("--lid", a, -0.5, 0.5, &o->lid_ux, err, errlen);
}

static int parse_force(void *p, const char *a, char *err, size_t errlen)
{
    struct lbm_opts *o = p;
    o->given.force = 1;
    return 2 * cli_opt_double("--force", a, -0.01, 0.01, &o->force, err, errlen);
}

static int parse_steps(void *p, const char *a, char *err, size_t errlen)
{
    return 2 * cli_opt_int("--steps", a, 1, 1000000, &((struct lbm_opts *)p)->steps, err, errlen);
}

static int parse_block(void *p, const char *a, char *err, size_t errlen)
{
    return 2 * cli_opt_block("--block", a, &((struct lbm_opts *)p)->block, err, errlen);
}

static const struct options_entry entries[] = {
    {"size", 0, "LIST",
     "cubic domains, e.g. 64,128 or 32:512:16; a domain given twice (also by --dims) runs once "
     "(default: cpu the smallest edge, a multiple of 16, whose one lattice in the smallest "
     "precision is 4x the last-level cache, STREAM's rule; gpu 256)",
     NULL, NULL, OPTIONS_PARSE, parse_size},
    {"dims", 0, "LIST", "boxes NXxNYxNZ, e.g. 256x128x64,512x64x64", NULL, NULL, OPTIONS_PARSE,
     parse_dims},
    {"pad", 0, "LIST", "elements added to each x row (default 0)", NULL, NULL, OPTIONS_PARSE,
     parse_pad},
    {"align", 0, "LIST",
     "x rows aligned to this many bytes, 0 for none (default: cpu 64, a cache line, but 0 for "
     "pull on rank grids split along x; gpu 32, a memory sector, and 128, a cache line, for aa "
     "and on rank grids split along x)",
     NULL, NULL, OPTIONS_PARSE, parse_align},
    {"collision", 0, "LIST", "bgk,trt,mrt (default bgk)", NULL, NULL, OPTIONS_PARSE,
     parse_collision},
    {"kernel", 0, "LIST",
     "pull,pull_nt,aa,pull_aos (default: pull,pull_nt,aa where the backend has them); aa updates "
     "one lattice in place (its steps and warmup are rounded up to even); pull_aos is pull on an "
     "array of structures, for comparison",
     NULL, NULL, OPTIONS_PARSE, parse_kernel},
    {"geometry", 0, "LIST", "cavity,channel,periodic (default cavity)", NULL, NULL, OPTIONS_PARSE,
     parse_geometry},
    {"layout", 0, "LIST",
     "soa,rows: where the SoA kernels keep the 19 directions: soa 19 arrays, rows a cell row's 19 "
     "direction rows side by side (default: gpu rows, cpu soa); "
     "pull_aos keeps its array of structures",
     NULL, NULL, OPTIONS_PARSE, parse_layout},
    {"omega", 0, "W", "shear relaxation rate, 3.3e-7 < W < 2 (default 1.6)", NULL, NULL,
     OPTIONS_PARSE, parse_omega},
    {"viscosity", 0, "NU", "the same given as lattice viscosity (NU > 0); not with --omega", NULL,
     NULL, OPTIONS_PARSE, parse_viscosity},
    {"lid", 0, "U", "cavity lid velocity (default 0.05; needs --geometry cavity)", NULL, NULL,
     OPTIONS_PARSE, parse_lid},
    {"force", 0, "G", "channel body force along x (default 1e-6; needs --geometry channel)", NULL,
     NULL, OPTIONS_PARSE, parse_force},
    {"steps", 0, "N", "updates per timed repetition (default: about 0.1 s of them)", NULL, NULL,
     OPTIONS_PARSE, parse_steps},
    {"block", 0, "LIST", "gpu: threads per block, multiples of 32 up to 1024", "gpu",
     "applies to lbm-gpu only (threads per CUDA block)", OPTIONS_PARSE, parse_block},
    {NULL, 0, NULL, "Distributed runs (under mpirun; one GPU per rank, by node-local rank):", NULL,
     NULL, OPTIONS_PARSE, NULL},
    {"procs", 0, "LIST",
     "rank grids PXxPYxPZ, e.g. 1x1x1,1x1x2,1x2x2 (default: all ranks, split by "
     "MPI_Dims_create, most along z: x splits are slowest)",
     NULL, NULL, OPTIONS_PARSE, parse_procs},
    {"ranks", 0, "LIST", "rank counts, each split like the default, e.g. 1,2,4", NULL, NULL,
     OPTIONS_PARSE, parse_ranks},
    {"local", 0, "LIST",
     "weak scaling: each rank's box NXxNYxNZ (or N for a cube); the domain grows with the ranks. "
     "--size/--dims: strong scaling",
     NULL, NULL, OPTIONS_PARSE, parse_local},
    {"overlap", 0, "LIST", "on,off: update the interior while halos travel (default on)", NULL,
     NULL, OPTIONS_PARSE, parse_overlap},
    {"halo", 0, "LIST",
     "how halos travel: device (MPI takes GPU memory: CUDA-aware MPI; the CPU's own buffers), "
     "node (copied into pinned MPI shared memory of the receiving rank: same node only), host "
     "(MPI messages between pinned host buffers); auto (default): device where possible, else "
     "node, and host for other nodes",
     NULL, NULL, OPTIONS_PARSE, parse_halo},
};

static const struct options_program program = {
    "Measures D3Q19 lattice Boltzmann updates (MFLUP/s); writes CSV (schema 1) to stdout or -o "
    "FILE. Every case is verified: mass conserved, no NaN.",
    entries, sizeof entries / sizeof entries[0], "size dims local procs"};

/* The rules between options, and the defaults of lists not given. */
static int settle(struct lbm_opts *o, char *err, size_t errlen)
{
    if (o->weak && o->given.global)
        return 2 * cli_fail(err, errlen,
                            "--local (each rank's box, weak scaling) and --size/--dims (the "
                            "whole domain, strong scaling) exclude each other");
    if (o->nprocs && o->ranks.n)
        return 2 * cli_fail(err, errlen,
                            "--procs and --ranks exclude each other (--procs names the grids, "
                            "--ranks lets MPI_Dims_create choose them)");
    if (o->noverlaps == 0) {
        o->overlaps[0] = 1;
        o->noverlaps = 1;
    }
    if (o->nhalos == 0) {
        o->halos[0] = DIST_HALO_AUTO;
        o->nhalos = 1;
    }
    if (!o->omega || !(o->omega > 0 && o->omega < 2))
        return 2 * cli_fail(err, errlen,
                            "--viscosity gives omega %g, outside (0, 2): accepted are viscosities "
                            "of %.2g or more (dp; sp and the 16-bit lattices: %.2g or more)",
                            o->omega, (1.0 / nextafter(2.0, 0.0) - 0.5) / 3.0,
                            (1.0 / (double)nextafterf(2.0f, 0.0f) - 0.5) / 3.0);
    if (o->pads.n == 0) o->pads.n = 1; /* {0} */
    if (o->c.nprecs == 0) {
        o->c.precs[0] = PREC_SP;
        o->c.precs[1] = PREC_DP;
        o->c.nprecs = 2;
    }
    /* sp and the 16-bit lattices relax in float: omega above 2 - 2^-24 becomes 2.0f there, a
     * rate outside (0, 2) under the row's own omega and viscosity */
    for (int i = 0; i < o->c.nprecs; i++)
        if (o->c.precs[i] != PREC_DP && !((float)o->omega < 2.0f))
            return 2 *
                   cli_fail(err, errlen,
                            "omega %.17g rounds to 2 in %s's single-precision arithmetic: "
                            "accepted there are omega up to %.10g (a viscosity of %.2g or more)",
                            o->omega, prec_name((enum prec)o->c.precs[i]),
                            (double)nextafterf(2.0f, 0.0f),
                            (1.0 / (double)nextafterf(2.0f, 0.0f) - 0.5) / 3.0);
    if (o->ncolls == 0) o->ncolls = 1; /* bgk */
    if (o->ngeoms == 0) o->ngeoms = 1; /* cavity */
    { /* one case per distinct domain: "--size 16 --dims 16x16x16" names one box twice */
        int n = 0;
        for (int i = 0; i < o->ndims; i++) {
            int seen = 0;
            for (int j = 0; j < n && !seen; j++)
                seen = memcmp(o->dims[j], o->dims[i], sizeof o->dims[i]) == 0;
            if (!seen) memmove(o->dims[n++], o->dims[i], sizeof o->dims[i]);
        }
        o->ndims = n;
    }
    if (o->given.omega && o->given.visc)
        return 2 * cli_fail(err, errlen,
                            "--omega and --viscosity set the same rate (nu = (1/omega - 1/2)/3): "
                            "give one of them");
    if (o->given.lid && !has_geometry(o, LBM_CAVITY))
        return 2 *
               cli_fail(err, errlen, "--lid: only the cavity has a lid (add --geometry cavity)");
    if (o->given.force && !has_geometry(o, LBM_CHANNEL))
        return 2 * cli_fail(err, errlen,
                            "--force: only the channel is driven by a body force (add "
                            "--geometry channel)");
    return 0;
}

int lbm_opts_parse(int argc, char **argv, const char *backend, struct lbm_opts *o, char *err,
                   size_t errlen)
{
    int rc;
    memset(o, 0, sizeof *o);
    o->c.backend = backend;
    o->c.reps = 5;
    o->c.reps_max = 100000;
    o->c.warmup = 10;
    o->c.warmup_help = "updates";
    o->omega = 1.6;
    o->lid_ux = 0.05;
    o->force = 1e-6;
    rc = options_parse(argc, argv, &program, o, &o->c, err, errlen);
    return rc ? rc : settle(o, err, errlen);
}
