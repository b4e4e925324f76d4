/* stream_opts.h: the options of stream-cpu and stream-gpu (one set for both). */
#ifndef LBMR_STREAM_OPTS_H
#define LBMR_STREAM_OPTS_H

#include "cli.h"
#include "options.h"
#include "stream.h"

struct stream_opts {
    struct options_common c;                    /* precision, reps, warmup, threads, output */
    struct cli_list sizes;                      /* bytes per array; n == 0: backend default */
    int kernels[STREAM_KERNEL_COUNT], nkernels; /* nkernels == 0: backend default */
    struct cli_list block;                      /* gpu threads per block */
    struct cli_list blocks;                     /* gpu grid sizes; n == 0: cover the array */
    struct cli_list ilp;
    struct cli_list read_offsets, write_offsets;
    int scalar;
};

/* Returns 0 to run, 2 on bad input (message in err), -1 when help or version was printed. */
int stream_opts_parse(int argc, char **argv, const char *backend, struct stream_opts *o, char *err,
                      size_t errlen);

#endif
