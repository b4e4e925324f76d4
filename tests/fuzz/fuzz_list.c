/* fuzz_list.c: the list syntax ("32:512:16", "1M:1G:x2", "64,128,256") and name lists. */
#include <stdint.h>

#include "cli.h"
#include "fuzz_common.h"

static struct cli_list list;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512] = "";
    char *s = fuzz_string(data, size, 2048);
    static const char *const names[] = {"copy", "copy_nt", "copy19", "memcpy"};
    int ids[8], n = 0;
    size_t v;

    err[0] = '\0';
    fuzz_check_message(cli_parse_list(s, 1, 0, (size_t)-1, &list, err, sizeof err) != 0, err);
    err[0] = '\0';
    fuzz_check_message(cli_parse_list(s, 0, 32, 1024, &list, err, sizeof err) != 0, err);
    err[0] = '\0';
    fuzz_check_message(cli_parse_value(s, 1, &v, err, sizeof err) != 0, err);
    err[0] = '\0';
    fuzz_check_message(cli_parse_names(s, names, 4, ids, &n, err, sizeof err) != 0, err);
    free(s);
    return 0;
}
