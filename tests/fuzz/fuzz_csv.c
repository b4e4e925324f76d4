/* fuzz_csv.c: the schema-1 reader behind roofline (quoting, field counts, numbers, headers). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct csv_table t = {0};
    char err[512] = "";
    FILE *f;
    int rc;
    if (size == 0)
        return 0; /* fmemopen refuses empty buffers; the empty file has its own unit test */
    f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    rc = csv_read(f, "fuzz.csv", &t, err, sizeof err);
    fuzz_check_message(rc != 0, err);
    fclose(f);
    csv_table_free(&t);
    return 0;
}
