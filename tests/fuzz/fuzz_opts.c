/* fuzz_opts.c: the whole command line of stream-* and lbm-* (getopt_long, every option's value
 * parser, --dims boxes): the input's lines are the arguments. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_common.h"
#include "lbm_opts.h"
#include "stream_opts.h"

#define MAX_ARGS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size, 4096), *argv[MAX_ARGS + 2], err[512];
    static struct stream_opts so;
    static struct lbm_opts lo;
    int argc = 0;

    argv[argc++] = "fuzz";
    for (char *p = s; argc <= MAX_ARGS && *p;) {
        char *nl = strchr(p, '\n');
        argv[argc++] = p;
        if (!nl) break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;
    for (int backend = 0; backend < 2; backend++) {
        const char *b = backend ? "gpu" : "cpu";
        char *copy[MAX_ARGS + 2];
        int rc;
        memcpy(copy, argv, sizeof argv); /* getopt_long permutes its argv */
        err[0] = '\0';
        rc = stream_opts_parse(argc, copy, b, &so, err, sizeof err);
        fuzz_check_message(rc == 2, err);
        memcpy(copy, argv, sizeof argv);
        err[0] = '\0';
        rc = lbm_opts_parse(argc, copy, b, &lo, err, sizeof err);
        fuzz_check_message(rc == 2, err);
    }
    free(s);
    return 0;
}
