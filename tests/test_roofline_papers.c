/* test_roofline_papers.c: the roofline arithmetic against Habich et al. 2012: Table 3's node
 * bandwidth (40.2 GB/s, write-allocate counted) over 228 and 456 bytes per update gives Table 4's
 * X5650 row (176 and 88 MFLUP/s), and every dp model value in Table 4 is half the sp one. Reads the
 * transcribed tables in data/reference/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "check.h"

/* field `col` (0-based) of the data line whose first field starts with `key` */
static int field(const char *path, const char *key, int col, char *out, size_t len)
{
    char line[512];
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, strlen(key)) == 0) {
            char *p = line;
            for (int c = 0; c < col && p; c++) {
                p = strchr(p, ',');
                if (p) p++;
            }
            if (p) {
                snprintf(out, len, "%.*s", (int)strcspn(p, ",\n"), p);
                fclose(f);
                return 0;
            }
        }
    }
    fclose(f);
    return 1;
}

int main(int argc, char **argv)
{
    char dir[400], t3[512], t4[512], v[64];
    const char *rows[] = {"Intel X5650 node", "C2070,", "C2070 ECC", "C1060"};
    double bw, sp, dp;
    snprintf(dir, sizeof dir, "%s", argc > 1 ? argv[1] : "data/reference");
    snprintf(t3, sizeof t3, "%s/habich2012_table3.csv", dir);
    snprintf(t4, sizeof t4, "%s/habich2012_table4.csv", dir);

    CHECK(field(t3, "Intel X5650,1 node", 3, v, sizeof v) == 0);
    bw = atof(v);
    CHECK(bw == 40.2);
    CHECK(field(t4, "Intel X5650 node", 1, v, sizeof v) == 0);
    sp = atof(v);
    CHECK(field(t4, "Intel X5650 node", 2, v, sizeof v) == 0);
    dp = atof(v);
    CHECK(lround(roof_ceiling_mflups(bw, 228)) == (long)sp); /* 176 */
    CHECK(lround(roof_ceiling_mflups(bw, 456)) == (long)dp); /* 88 */
    fprintf(stderr, "X5650 node: %.1f GB/s -> %.1f / %.1f MFLUP/s (Table 4: %.0f / %.0f)\n", bw,
            roof_ceiling_mflups(bw, 228), roof_ceiling_mflups(bw, 456), sp, dp);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double s, d;
        CHECK(field(t4, rows[i], 1, v, sizeof v) == 0);
        s = atof(v);
        CHECK(field(t4, rows[i], 2, v, sizeof v) == 0);
        d = atof(v);
        CHECK(fabs(d - s / 2) <= 0.5); /* dp moves twice the bytes per update */
    }
    return check_report("test_roofline_papers");
}
