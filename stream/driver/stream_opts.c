/* stream_opts.c: the options of the STREAM pair as a table (common/options.h parses it and writes
 * --help from it); nothing runs before all of them passed. */
#define _POSIX_C_SOURCE 200809L
#include "stream_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_size(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    return 2 * cli_opt_list("--size", a, 1, 64, (size_t)1 << 50, &o->sizes, err, errlen);
}

static int parse_kernel(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    char sub[256];
    if (cli_parse_names(a, stream_kernel_names, STREAM_KERNEL_COUNT, o->kernels, &o->nkernels, sub,
                        sizeof sub))
        return 2 * cli_fail(err, errlen, "--kernel: %s", sub);
    return 0;
}

static int parse_read_offset(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    return 2 * cli_opt_list("--read-offset", a, 0, 0, 4096, &o->read_offsets, err, errlen);
}

static int parse_write_offset(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    return 2 * cli_opt_list("--write-offset", a, 0, 0, 4096, &o->write_offsets, err, errlen);
}

static int parse_block(void *p, const char *a, char *err, size_t errlen)
{
    return 2 * cli_opt_block("--block", a, &((struct stream_opts *)p)->block, err, errlen);
}

static int parse_blocks(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    return 2 * cli_opt_list("--blocks", a, 1, 1, 2147483647, &o->blocks, err, errlen);
}

static int parse_ilp(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    if (cli_opt_list("--ilp", a, 0, 1, 8, &o->ilp, err, errlen)) return 2;
    for (size_t i = 0; i < o->ilp.n; i++) {
        size_t v = o->ilp.v[i];
        if (v != 1 && v != 2 && v != 4 && v != 8)
            return 2 * cli_fail(err, errlen, "--ilp: %zu is not one of 1,2,4,8", v);
    }
    return 0;
}

static int parse_access(void *p, const char *a, char *err, size_t errlen)
{
    struct stream_opts *o = p;
    if (strcmp(a, "wide") != 0 && strcmp(a, "scalar") != 0)
        return 2 * cli_fail(err, errlen, "--access '%s': expected wide or scalar", a);
    o->scalar = strcmp(a, "scalar") == 0;
    return 0;
}

#define GPU_ONLY "gpu", "applies to stream-gpu only (threads and grid of a CUDA launch)"

static const struct options_entry entries[] = {
    {"size", 0, "LIST",
     "bytes per array: suffix KiB/MiB/GiB/TiB or bare K/M/G/T (powers of 1024), KB/MB/GB/TB "
     "(powers of 1000); a list like 1M,64M or a range 1M:1G:x2, 1M:1G (the same: no step "
     "doubles) or 1M:2M:64K (a step of whole elements); at least 64 bytes. A size that is not a "
     "whole number of elements is rounded down to whole ones (said once on stderr); sizes that "
     "round to the same element count run once (default: cpu 4x the last-level cache, gpu 1 GiB; "
     "copy19 kernels: copy's two arrays' bytes spread over their 38)",
     NULL, NULL, OPTIONS_PARSE, parse_size},
    {"kernel", 0, "LIST",
     "comma-separated (default: all this backend supports; with fp16s those that have a 2-byte "
     "form) of\n" STREAM_KERNEL_HELP_LIST
     "\nSTREAM's copy, scale b=3c, add c=a+b, triad a=b+3c; load: sum of one array; store: one "
     "value to every element; update: one array scaled by -1 in place (the in-place LBM kernel's "
     "pattern); _nt: non-temporal stores (cpu); copy19: D3Q19 traffic, 38 arrays; memcpy: "
     "cudaMemcpy (gpu)",
     NULL, NULL, OPTIONS_PARSE, parse_kernel},
    {"read-offset", 0, "LIST",
     "elements the source starts past an aligned address (default 0; store, which reads "
     "nothing, runs once, with read_offset 0)",
     NULL, NULL, OPTIONS_PARSE, parse_read_offset},
    {"write-offset", 0, "LIST",
     "elements the destination starts past it (default 0; load, which writes nothing, runs once, "
     "with write_offset 0; update's one array takes the read offset)",
     NULL, NULL, OPTIONS_PARSE, parse_write_offset},
    {"block", 0, "LIST", "gpu: threads per block, multiples of 32 up to 1024", GPU_ONLY,
     OPTIONS_PARSE, parse_block},
    {"blocks", 0, "LIST", "gpu: grid size (default: one pass over the array)", GPU_ONLY,
     OPTIONS_PARSE, parse_blocks},
    {"ilp", 0, "LIST", "gpu: accesses in flight per thread, 1,2,4 or 8", GPU_ONLY, OPTIONS_PARSE,
     parse_ilp},
    {"access", 0, "MODE",
     "gpu: wide (16- or 8-byte words where alignment allows; default) or scalar (one element "
     "per access)",
     GPU_ONLY, OPTIONS_PARSE, parse_access},
};

static const struct options_program program = {
    "Measures STREAM bandwidth; writes CSV (schema 1) to stdout or -o FILE.", entries,
    sizeof entries / sizeof entries[0], NULL};

/* --precision's help: the precisions some kernel has a form in (stream_prec_supported, which
 * main refuses the others by), so the list cannot drift from what runs: no fp16c */
static const char *stream_precisions(void)
{
    static char names[64];
    char why[256];
    names[0] = '\0';
    for (int p = 0; p < PREC_COUNT; p++) {
        int any = 0;
        for (int k = 0; k < STREAM_KERNEL_COUNT && !any; k++)
            any = !stream_prec_supported((enum stream_kernel)k, (enum prec)p, why, sizeof why);
        if (any)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? "," : "", prec_name((enum prec)p));
    }
    return names;
}

int stream_opts_parse(int argc, char **argv, const char *backend, struct stream_opts *o, char *err,
                      size_t errlen)
{
    int rc;
    memset(o, 0, sizeof *o);
    o->c.backend = backend;
    o->c.reps = 20;
    o->c.reps_max = 1000000;
    o->c.warmup = 2;
    o->c.warmup_help = "runs";
    o->c.precisions = stream_precisions();
    o->read_offsets.n = o->write_offsets.n = 1; /* {0} */
    rc = options_parse(argc, argv, &program, o, &o->c, err, errlen);
    if (rc) return rc;
    if (o->c.nprecs == 0) {
        o->c.precs[0] = PREC_SP;
        o->c.precs[1] = PREC_DP;
        o->c.nprecs = 2;
    }
    for (int i = 0; i < o->c.nprecs; i++) {
        const size_t es = prec_size((enum prec)o->c.precs[i]);
        if (o->sizes.min_step && o->sizes.min_step < es) {
            cli_fail(err, errlen,
                     "--size: a step of %zu bytes is less than one %s element (%zu "
                     "bytes); use a larger step, or a:b (doubling) or a:b:xF",
                     o->sizes.min_step, prec_name((enum prec)o->c.precs[i]), es);
            return 2;
        }
        /* 1K:2K:12 in dp would round to 128, 129, 131, ... elements: uneven, 130 skipped */
        if (o->sizes.step_gcd % es) {
            cli_fail(err, errlen,
                     "--size: a range step of %zu bytes%s is not a whole number of %s elements "
                     "(%zu bytes), so the sizes would not be evenly spaced in elements; use a "
                     "multiple of %zu bytes, or a:b (doubling) or a:b:xF",
                     o->sizes.step_gcd,
                     o->sizes.step_gcd == o->sizes.min_step ? "" : " (the steps' common divisor)",
                     prec_name((enum prec)o->c.precs[i]), es, es);
            return 2;
        }
    }
    return 0;
}
