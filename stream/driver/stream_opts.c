/* stream_opts.c: command-line parsing for the STREAM pair; nothing runs before all of it passed. */
#define _POSIX_C_SOURCE 200809L
#include "stream_opts.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "sysinfo.h"

static const char *const prec_names[PREC_COUNT] = {"sp", "dp"};

static void usage(const char *prog)
{
    fprintf(
        stdout,
        "usage: %s [options]\n"
        "Measures STREAM bandwidth; writes CSV (schema 1) to stdout or -o FILE.\n"
        "  --size LIST          bytes per array: suffix KiB/MiB/GiB/TiB or bare K/M/G/T\n"
        "                       (powers of 1024), KB/MB/GB/TB (powers of 1000); a list like\n"
        "                       1M,64M or a range 1M:1G:x2, 1M:1G (the same: no step\n"
        "                       doubles) or 1M:2M:64K (a step of at least one element)\n"
        "                       (default: cpu 4x the last-level cache, gpu 1 GiB; copy19\n"
        "                       kernels: that total over 38 arrays)\n"
        "  --kernel LIST        comma-separated (default: all this backend supports) of\n"
        "    " STREAM_KERNEL_HELP_LIST "\n"
        "                       STREAM's copy, scale b=3c, add c=a+b, triad a=b+3c; load:\n"
        "                       sum of one array; store: one value to every element; _nt:\n"
        "                       non-temporal stores (cpu); copy19: D3Q19 traffic, 38 arrays;\n"
        "                       memcpy: cudaMemcpy (gpu)\n"
        "  --precision LIST     sp,dp (default both)\n"
        "  --reps N             timed repetitions (default 20)\n"
        "  --warmup N           untimed runs before them (default 2)\n"
        "  --read-offset LIST   elements the source starts past an aligned address (default 0)\n"
        "  --write-offset LIST  elements the destination starts past it (default 0)\n"
        "  --peak-bw GBS        theoretical bandwidth for the row (default: gpu from the\n"
        "                       memory clock and bus width; cpu unknown)\n"
        "  --threads LIST       cpu: OpenMP thread counts, one row each, e.g. 1,2,4,8:64:8\n"
        "                       (at most the CPUs this process may use; default\n"
        "                       OMP_NUM_THREADS or all); threads are placed as\n"
        "                       OMP_PROC_BIND and OMP_PLACES say\n"
        "  --block LIST         gpu: threads per block, multiples of 32 up to 1024\n"
        "  --blocks LIST        gpu: grid size (default: one pass over the array)\n"
        "  --ilp LIST           gpu: accesses in flight per thread, 1,2,4 or 8\n"
        "  --access MODE        gpu: wide (16- or 8-byte words where alignment allows; default)\n"
        "                       or scalar (one element per access)\n"
        "  -o, --output FILE    write CSV there instead of stdout (- means stdout); an\n"
        "                       existing file that is not empty is refused unless\n"
        "  --overwrite          starts it afresh, or\n"
        "  --append             adds rows to it (its header must be this program's)\n"
        "  -h, --help           this text;  --version  the suite version\n"
        "Exit status: 0 ok, 1 a case failed verification or could not run, 2 bad input,\n"
        "3 the output cannot be written, 130 interrupted (SIGINT, SIGTERM).\n",
        prog);
}

enum {
    OPT_SIZE = 256,
    OPT_KERNEL,
    OPT_PREC,
    OPT_REPS,
    OPT_WARMUP,
    OPT_ROFF,
    OPT_WOFF,
    OPT_PEAK,
    OPT_BLOCK,
    OPT_BLOCKS,
    OPT_ILP,
    OPT_ACCESS,
    OPT_VERSION,
    OPT_THREADS
};

static int gpu_only(const char *backend, const char *name, char *err, size_t errlen)
{
    if (strcmp(backend, "gpu") == 0) return 0;
    cli_fail(err, errlen, "%s applies to stream-gpu only (threads and grid of a CUDA launch)",
             name);
    return 1;
}

int stream_opts_parse(int argc, char **argv, const char *backend, struct stream_opts *o, char *err,
                      size_t errlen)
{
    static const struct option longopts[] = {
        {"size", required_argument, 0, OPT_SIZE},
        {"kernel", required_argument, 0, OPT_KERNEL},
        {"precision", required_argument, 0, OPT_PREC},
        {"reps", required_argument, 0, OPT_REPS},
        {"warmup", required_argument, 0, OPT_WARMUP},
        {"read-offset", required_argument, 0, OPT_ROFF},
        {"write-offset", required_argument, 0, OPT_WOFF},
        {"peak-bw", required_argument, 0, OPT_PEAK},
        {"block", required_argument, 0, OPT_BLOCK},
        {"blocks", required_argument, 0, OPT_BLOCKS},
        {"ilp", required_argument, 0, OPT_ILP},
        {"access", required_argument, 0, OPT_ACCESS},
        {"threads", required_argument, 0, OPT_THREADS},
        {"output", required_argument, 0, 'o'},
        OUTPUT_LONGOPTS,
        {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0},
    };
    int c, idx;
    char sub[256];

    memset(o, 0, sizeof *o);
    o->reps = 20;
    o->warmup = 2;
    o->peak_bw_GBs = NAN;
    o->read_offsets.n = o->write_offsets.n = 1; /* {0} */
    opterr = 0;
    optind = 0; /* glibc: a full reset, also of a half-parsed cluster */
    while ((c = getopt_long(argc, argv, ":o:h", longopts, &idx)) != -1) {
        switch (c) {
        case OPT_SIZE:
            if (cli_opt_list("--size", optarg, 1, 64, (size_t)1 << 50, &o->sizes, err, errlen))
                return 2;
            break;
        case OPT_KERNEL:
            if (cli_parse_names(optarg, stream_kernel_names, STREAM_KERNEL_COUNT, o->kernels,
                                &o->nkernels, sub, sizeof sub)) {
                cli_fail(err, errlen, "--kernel: %s", sub);
                return 2;
            }
            break;
        case OPT_PREC:
            if (cli_parse_names(optarg, prec_names, PREC_COUNT, o->precs, &o->nprecs, sub,
                                sizeof sub)) {
                cli_fail(err, errlen, "--precision: %s", sub);
                return 2;
            }
            break;
        case OPT_REPS:
            if (cli_opt_int("--reps", optarg, 1, 1000000, &o->reps, err, errlen)) return 2;
            break;
        case OPT_WARMUP:
            if (cli_opt_int("--warmup", optarg, 0, 1000000, &o->warmup, err, errlen)) return 2;
            break;
        case OPT_ROFF:
            if (cli_opt_list("--read-offset", optarg, 0, 0, 4096, &o->read_offsets, err, errlen))
                return 2;
            break;
        case OPT_WOFF:
            if (cli_opt_list("--write-offset", optarg, 0, 0, 4096, &o->write_offsets, err, errlen))
                return 2;
            break;
        case OPT_PEAK:
            if (cli_opt_double("--peak-bw", optarg, 0, 1e9, &o->peak_bw_GBs, err, errlen)) return 2;
            break;
        case OPT_BLOCK:
            if (gpu_only(backend, "--block", err, errlen) ||
                cli_opt_block("--block", optarg, &o->block, err, errlen))
                return 2;
            break;
        case OPT_BLOCKS:
            if (gpu_only(backend, "--blocks", err, errlen) ||
                cli_opt_list("--blocks", optarg, 1, 1, 2147483647, &o->blocks, err, errlen))
                return 2;
            break;
        case OPT_ILP:
            if (gpu_only(backend, "--ilp", err, errlen) ||
                cli_opt_list("--ilp", optarg, 0, 1, 8, &o->ilp, err, errlen))
                return 2;
            for (size_t i = 0; i < o->ilp.n; i++) {
                size_t v = o->ilp.v[i];
                if (v != 1 && v != 2 && v != 4 && v != 8) {
                    cli_fail(err, errlen, "--ilp: %zu is not one of 1,2,4,8", v);
                    return 2;
                }
            }
            break;
        case OPT_THREADS:
            if (cli_opt_threads(backend, optarg, &o->threads, err, errlen)) return 2;
            break;
        case OPT_ACCESS:
            if (gpu_only(backend, "--access", err, errlen)) return 2;
            if (strcmp(optarg, "wide") == 0) {
                o->scalar = 0;
            } else if (strcmp(optarg, "scalar") == 0) {
                o->scalar = 1;
            } else {
                cli_fail(err, errlen, "--access '%s': expected wide or scalar", optarg);
                return 2;
            }
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
    if (o->nprecs == 0) {
        o->precs[0] = PREC_SP;
        o->precs[1] = PREC_DP;
        o->nprecs = 2;
    }
    for (int i = 0; i < o->nprecs; i++) {
        const size_t es = prec_size((enum prec)o->precs[i]);
        if (o->sizes.min_step && o->sizes.min_step < es) {
            cli_fail(err, errlen,
                     "--size: a step of %zu bytes is less than one %s element (%zu "
                     "bytes); use a larger step, or a:b (doubling) or a:b:xF",
                     o->sizes.min_step, prec_name((enum prec)o->precs[i]), es);
            return 2;
        }
    }
    return 0;
}
