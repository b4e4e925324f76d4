/* lbm_opts.c: command-line parsing for the LBM pair; nothing runs before all of it passed. */
#define _POSIX_C_SOURCE 200809L
#include "lbm_opts.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"

static const char *const prec_names[PREC_COUNT] = {"sp", "dp"};

static void usage(const char *prog)
{
    fprintf(
        stdout,
        "usage: %s [options]\n"
        "Measures D3Q19 lattice Boltzmann updates (MFLUP/s); writes CSV (schema 1) to stdout\n"
        "or -o FILE. Every case is verified: mass conserved, no NaN.\n"
        "  --size LIST        cubic domains, e.g. 64,128 or 32:512:16; a domain given twice\n"
        "                     (also by --dims) runs once (default: cpu the smallest edge, a\n"
        "                     multiple of 16, whose one lattice in the smallest precision\n"
        "                     is 4x the last-level cache, STREAM's rule; gpu 256)\n"
        "  --dims LIST        boxes NXxNYxNZ, e.g. 256x128x64,512x64x64\n"
        "  --pad LIST         elements added to each x row (default 0)\n"
        "  --align LIST       x rows aligned to this many bytes, 0 for none (default: cpu 0,\n"
        "                     gpu 32, a memory sector)\n"
        "  --precision LIST   sp,dp (default both)\n"
        "  --collision LIST   bgk,trt,mrt (default bgk)\n"
        "  --kernel LIST      pull,pull_nt,aa,pull_aos (default: pull,pull_nt,aa where the\n"
        "                     backend has them); aa updates one lattice in place (its steps\n"
        "                     and warmup are rounded up to even); pull_aos is pull on an\n"
        "                     array of structures, for comparison\n"
        "  --geometry LIST    cavity,channel,periodic (default cavity)\n"
        "  --omega W          shear relaxation rate, 0 < W < 2 (default 1.6)\n"
        "  --viscosity NU     the same given as lattice viscosity (NU > 0); not with --omega\n"
        "  --lid U            cavity lid velocity (default 0.05; needs --geometry cavity)\n"
        "  --force G          channel body force along x (default 1e-6; needs --geometry\n"
        "                     channel)\n"
        "  --steps N          updates per timed repetition (default: about 0.1 s of them)\n"
        "  --warmup N         untimed updates first (default 10)\n"
        "  --reps N           timed repetitions (default 5)\n"
        "  --peak-bw GBS      theoretical bandwidth for the row (gpu: from the device)\n"
        "  --block LIST       gpu: threads per block, multiples of 32 up to 1024\n"
        "  --threads LIST     cpu: OpenMP thread counts, one row each, e.g. 1,2,4,8:64:8\n"
        "                     (at most the CPUs this process may use; default\n"
        "                     OMP_NUM_THREADS or all); threads are placed as OMP_PROC_BIND\n"
        "                     and OMP_PLACES say\n"
        "Distributed runs (under mpirun; one GPU per rank, by node-local rank):\n"
        "  --procs LIST       rank grids PXxPYxPZ, e.g. 1x1x1,1x1x2,1x2x2 (default: all ranks,\n"
        "                     split by MPI_Dims_create, most along z: x splits are slowest)\n"
        "  --ranks LIST       rank counts, each split like the default, e.g. 1,2,4\n"
        "  --local LIST       weak scaling: each rank's box NXxNYxNZ (or N for a cube); the\n"
        "                     domain grows with the ranks. --size/--dims: strong scaling\n"
        "  --overlap LIST     on,off: update the interior while halos travel (default on)\n"
        "  --halo LIST        how halos travel: device (MPI takes GPU memory: CUDA-aware MPI;\n"
        "                     the CPU's own buffers), node (copied into pinned MPI shared\n"
        "                     memory of the receiving rank: same node only), host (MPI\n"
        "                     messages between pinned host buffers); auto (default): device\n"
        "                     where possible, else node, and host for other nodes\n"
        "  -o, --output FILE  write CSV there instead of stdout (- means stdout); an\n"
        "                     existing file that is not empty is refused unless\n"
        "  --overwrite        starts it afresh, or\n"
        "  --append           adds rows to it (its header must be this program's)\n"
        "  -h, --help         this text;  --version  the suite version\n"
        "Exit status: 0 ok, 1 a case failed verification or could not run, 2 bad input,\n"
        "3 the output cannot be written, 130 interrupted (SIGINT, SIGTERM).\n",
        prog);
}

enum {
    OPT_SIZE = 256,
    OPT_DIMS,
    OPT_PAD,
    OPT_ALIGN,
    OPT_PREC,
    OPT_COLL,
    OPT_KERNEL,
    OPT_GEOM,
    OPT_OMEGA,
    OPT_VISC,
    OPT_LID,
    OPT_FORCE,
    OPT_STEPS,
    OPT_WARMUP,
    OPT_REPS,
    OPT_PEAK,
    OPT_BLOCK,
    OPT_PROCS,
    OPT_RANKS,
    OPT_LOCAL,
    OPT_OVERLAP,
    OPT_HALO,
    OPT_VERSION,
    OPT_THREADS
};

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
    for (;;) {
        size_t v[3];
        for (int a = 0; a < 3; a++) {
            char *end;
            if (*p < '0' || *p > '9') {
                cli_fail(err, errlen, "%s '%s': expected boxes like %s, comma-separated", opt, text,
                         cube ? "256x128x64 or 256" : "2x2x1");
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
                         opt, text, cube ? "256x128x64" : "2x2x1", top);
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
    if (cli_parse_names(text, list, n, out, count, sub, sizeof sub)) {
        cli_fail(err, errlen, "%s: %s", opt, sub);
        return 1;
    }
    return 0;
}

int lbm_opts_parse(int argc, char **argv, const char *backend, struct lbm_opts *o, char *err,
                   size_t errlen)
{
    static const struct option longopts[] = {
        {"size", required_argument, 0, OPT_SIZE},
        {"dims", required_argument, 0, OPT_DIMS},
        {"pad", required_argument, 0, OPT_PAD},
        {"align", required_argument, 0, OPT_ALIGN},
        {"precision", required_argument, 0, OPT_PREC},
        {"collision", required_argument, 0, OPT_COLL},
        {"kernel", required_argument, 0, OPT_KERNEL},
        {"geometry", required_argument, 0, OPT_GEOM},
        {"omega", required_argument, 0, OPT_OMEGA},
        {"viscosity", required_argument, 0, OPT_VISC},
        {"lid", required_argument, 0, OPT_LID},
        {"force", required_argument, 0, OPT_FORCE},
        {"steps", required_argument, 0, OPT_STEPS},
        {"warmup", required_argument, 0, OPT_WARMUP},
        {"reps", required_argument, 0, OPT_REPS},
        {"peak-bw", required_argument, 0, OPT_PEAK},
        {"block", required_argument, 0, OPT_BLOCK},
        {"procs", required_argument, 0, OPT_PROCS},
        {"ranks", required_argument, 0, OPT_RANKS},
        {"local", required_argument, 0, OPT_LOCAL},
        {"overlap", required_argument, 0, OPT_OVERLAP},
        {"halo", required_argument, 0, OPT_HALO},
        {"threads", required_argument, 0, OPT_THREADS},
        {"output", required_argument, 0, 'o'},
        OUTPUT_LONGOPTS,
        {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0},
    };
    static const char *const onoff[2] = {"off", "on"};
    static const char *const halo_names[DIST_HALO_COUNT] = {"auto", "device", "node", "host"};
    int c, idx, have_pad = 0, have_align = 0, have_global = 0;
    int have_omega = 0, have_visc = 0, have_lid = 0, have_force = 0;
    double nu;
    struct cli_list sizes;
    size_t boxes[LBM_DECOMP_MAX][3];

    memset(o, 0, sizeof *o);
    o->omega = 1.6;
    o->lid_ux = 0.05;
    o->force = 1e-6;
    o->warmup = 10;
    o->reps = 5;
    o->peak_bw_GBs = NAN;
    opterr = 0;
    optind = 0; /* glibc: a full reset, also of a half-parsed cluster */
    while ((c = getopt_long(argc, argv, ":o:h", longopts, &idx)) != -1) {
        switch (c) {
        case OPT_SIZE:
            have_global = 1;
            if (cli_opt_list("--size", optarg, 0, 1, MAX_EDGE, &sizes, err, errlen)) return 2;
            for (size_t i = 0; i < sizes.n; i++) {
                if (add_dims(o, sizes.v[i], sizes.v[i], sizes.v[i], err, errlen)) return 2;
            }
            break;
        case OPT_DIMS:
        case OPT_LOCAL: { /* whole domains, or each rank's box (N alone: a cube) */
            const int local = c == OPT_LOCAL;
            int n = 0;
            if (local)
                o->weak = 1;
            else
                have_global = 1;
            if (parse_boxes(local ? "--local" : "--dims", optarg, local, MAX_EDGE,
                            o->dims + o->ndims, &n, LBM_DIMS_MAX - o->ndims, err, errlen))
                return 2;
            o->ndims += n;
            break;
        }
        case OPT_PROCS: {
            int n = 0;
            if (parse_boxes("--procs", optarg, 0, 4096, boxes, &n, LBM_DECOMP_MAX - o->nprocs, err,
                            errlen))
                return 2;
            for (int k = 0; k < n; k++)
                for (int a = 0; a < 3; a++)
                    o->procs[o->nprocs + k][a] = (int)boxes[k][a];
            o->nprocs += n;
            break;
        }
        case OPT_RANKS:
            if (cli_opt_list("--ranks", optarg, 0, 1, 65536, &o->ranks, err, errlen)) return 2;
            break;
        case OPT_OVERLAP:
            if (names("--overlap", optarg, onoff, 2, o->overlaps, &o->noverlaps, err, errlen))
                return 2;
            break;
        case OPT_HALO:
            if (names("--halo", optarg, halo_names, DIST_HALO_COUNT, o->halos, &o->nhalos, err,
                      errlen))
                return 2;
            break;
        case OPT_PAD:
            have_pad = 1;
            if (cli_opt_list("--pad", optarg, 0, 0, 4096, &o->pads, err, errlen)) return 2;
            break;
        case OPT_ALIGN:
            have_align = 1;
            if (cli_opt_list("--align", optarg, 0, 0, 4096, &o->aligns, err, errlen)) return 2;
            for (size_t i = 0; i < o->aligns.n; i++) {
                if (o->aligns.v[i] % 8) {
                    cli_fail(err, errlen,
                             "--align: %zu bytes is not a multiple of 8 (a double); "
                             "use 0 or e.g. 64,128",
                             o->aligns.v[i]);
                    return 2;
                }
            }
            break;
        case OPT_PREC:
            if (names("--precision", optarg, prec_names, PREC_COUNT, o->precs, &o->nprecs, err,
                      errlen))
                return 2;
            break;
        case OPT_COLL:
            if (names("--collision", optarg, lbm_collision_names, LBM_COLLISION_COUNT, o->colls,
                      &o->ncolls, err, errlen))
                return 2;
            break;
        case OPT_KERNEL:
            if (names("--kernel", optarg, lbm_kernel_names, LBM_KERNEL_COUNT, o->kernels,
                      &o->nkernels, err, errlen))
                return 2;
            break;
        case OPT_GEOM:
            if (names("--geometry", optarg, lbm_geometry_names, LBM_GEOMETRY_COUNT, o->geoms,
                      &o->ngeoms, err, errlen))
                return 2;
            break;
        case OPT_OMEGA:
            have_omega = 1;
            if (cli_opt_double("--omega", optarg, 0, 2, &o->omega, err, errlen)) return 2;
            break;
        case OPT_VISC:
            have_visc = 1;
            if (cli_opt_double("--viscosity", optarg, 0, 1e6, &nu, err, errlen)) return 2;
            o->omega = 1.0 / (3.0 * nu + 0.5);
            break;
        case OPT_LID:
            have_lid = 1;
            if (cli_opt_double("--lid", optarg, -0.5, 0.5, &o->lid_ux, err, errlen)) return 2;
            break;
        case OPT_FORCE:
            have_force = 1;
            if (cli_opt_double("--force", optarg, -0.01, 0.01, &o->force, err, errlen)) return 2;
            break;
        case OPT_STEPS:
            if (cli_opt_int("--steps", optarg, 1, 1000000, &o->steps, err, errlen)) return 2;
            break;
        case OPT_WARMUP:
            if (cli_opt_int("--warmup", optarg, 0, 1000000, &o->warmup, err, errlen)) return 2;
            break;
        case OPT_REPS:
            if (cli_opt_int("--reps", optarg, 1, 100000, &o->reps, err, errlen)) return 2;
            break;
        case OPT_PEAK:
            if (cli_opt_double("--peak-bw", optarg, 0, 1e9, &o->peak_bw_GBs, err, errlen)) return 2;
            break;
        case OPT_THREADS:
            if (cli_opt_threads(backend, optarg, &o->threads, err, errlen)) return 2;
            break;
        case OPT_BLOCK:
            if (strcmp(backend, "gpu") != 0) {
                cli_fail(err, errlen, "--block applies to lbm-gpu only (threads per CUDA block)");
                return 2;
            }
            if (cli_opt_block("--block", optarg, &o->block, err, errlen)) return 2;
            break;
        default: {
            int r = output_mode_option(c, &o->out_mode, err, errlen);
            if (r >= 0) {
                if (r) return r;
                break;
            }
            r = cli_common_option(c, OPT_VERSION, optarg, argv, optind, &o->out, usage, err,
                                  errlen);
            if (r) return r;
            break;
        }
        }
    }
    if (cli_no_operands(argc, argv, optind, err, errlen)) return 2;
    if (o->weak && have_global) {
        cli_fail(err, errlen,
                 "--local (each rank's box, weak scaling) and --size/--dims (the "
                 "whole domain, strong scaling) exclude each other");
        return 2;
    }
    if (o->nprocs && o->ranks.n) {
        cli_fail(err, errlen,
                 "--procs and --ranks exclude each other (--procs names the grids, "
                 "--ranks lets MPI_Dims_create choose them)");
        return 2;
    }
    if (o->noverlaps == 0) {
        o->overlaps[0] = 1;
        o->noverlaps = 1;
    }
    if (o->nhalos == 0) {
        o->halos[0] = DIST_HALO_AUTO;
        o->nhalos = 1;
    }
    if (!o->omega || !(o->omega > 0 && o->omega < 2)) {
        cli_fail(err, errlen, "--viscosity gives omega %g, outside (0, 2)", o->omega);
        return 2;
    }
    if (!have_pad) o->pads.n = 1; /* {0} */
    if (!have_align) {
        /* gpu: rows on 32-byte sectors; an unaligned pitch cost 30% (sp) on the H100
         * (data/lbm/padding-h100-2026-11-22). `--align 0` still asks for none. */
        o->aligns.n = 1;
        o->aligns.v[0] = strcmp(backend, "gpu") == 0 ? 32 : 0;
    }
    if (o->nprecs == 0) {
        o->precs[0] = PREC_SP;
        o->precs[1] = PREC_DP;
        o->nprecs = 2;
    }
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
    if (have_omega && have_visc) {
        cli_fail(err, errlen,
                 "--omega and --viscosity set the same rate (nu = (1/omega - 1/2)/3): "
                 "give one of them");
        return 2;
    }
    if (have_lid && !has_geometry(o, LBM_CAVITY)) {
        cli_fail(err, errlen, "--lid: only the cavity has a lid (add --geometry cavity)");
        return 2;
    }
    if (have_force && !has_geometry(o, LBM_CHANNEL)) {
        cli_fail(err, errlen,
                 "--force: only the channel is driven by a body force (add "
                 "--geometry channel)");
        return 2;
    }
    return 0;
}
