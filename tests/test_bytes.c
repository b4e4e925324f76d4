/* test_bytes.c: stream/'s tables: the byte table in both conventions (DESIGN.md section 2) and
 * the array layout both backends allocate by. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "stream.h"
#include "stream_values.h"

static int traffic_is(enum stream_kernel k, size_t s, int wa, double prog, double dram)
{
    struct stream_traffic t;
    if (stream_traffic(k, s, wa, &t)) return 0;
    return t.prog_bytes == prog && t.dram_bytes == dram && t.write_allocate == (wa != 0);
}

int main(void)
{
    struct stream_traffic t;
    /* copy: 2 s per element; write-allocate adds the read of the destination line: 3 s */
    CHECK(traffic_is(STREAM_COPY, 8, 1, 16, 24));
    CHECK(traffic_is(STREAM_COPY, 4, 1, 8, 12));
    CHECK(traffic_is(STREAM_COPY, 8, 0, 16, 16)); /* GPU: no write-allocate */
    CHECK(traffic_is(STREAM_COPY_NT, 8, 0, 16, 16));
    CHECK(traffic_is(STREAM_MEMCPY, 4, 0, 8, 8));
    /* copy19 = the D3Q19 two-lattice update: 152/304 B program, 228/456 B with write-allocate */
    CHECK(traffic_is(STREAM_COPY19, 4, 1, 152, 228));
    CHECK(traffic_is(STREAM_COPY19, 8, 1, 304, 456));
    CHECK(traffic_is(STREAM_COPY19_NT, 4, 0, 152, 152));
    CHECK(traffic_is(STREAM_COPY19, 8, 0, 304, 304));
    /* STREAM's scale like copy; add and triad read two arrays: 3 s program, 4 s with
     * write-allocate; load reads one and stores none, so write-allocate adds nothing and the
     * flag stays 0; store writes one: s program, 2 s with write-allocate */
    CHECK(traffic_is(STREAM_SCALE, 8, 1, 16, 24));
    CHECK(traffic_is(STREAM_SCALE, 4, 0, 8, 8));
    CHECK(traffic_is(STREAM_ADD, 8, 1, 24, 32));
    CHECK(traffic_is(STREAM_ADD, 4, 0, 12, 12));
    CHECK(traffic_is(STREAM_TRIAD, 4, 1, 12, 16));
    CHECK(traffic_is(STREAM_TRIAD, 8, 0, 24, 24));
    CHECK(traffic_is(STREAM_TRIAD_NT, 8, 0, 24, 24));
    CHECK(traffic_is(STREAM_STORE, 8, 1, 8, 16));
    CHECK(traffic_is(STREAM_STORE, 4, 0, 4, 4));
    CHECK(traffic_is(STREAM_STORE_NT, 4, 0, 4, 4));
    CHECK(traffic_is(STREAM_LOAD, 8, 0, 8, 8));
    /* update stores in place, into lines its own loads brought in: 2 s in both conventions, and
     * the flag stays 0 even where ordinary stores write-allocate */
    CHECK(traffic_is(STREAM_UPDATE, 8, 0, 16, 16));
    CHECK(stream_traffic(STREAM_UPDATE, 4, 1, &t) == 0 && t.prog_bytes == 8 && t.dram_bytes == 8 &&
          t.write_allocate == 0);
    CHECK(stream_traffic(STREAM_LOAD, 4, 1, &t) == 0 && t.prog_bytes == 4 && t.dram_bytes == 4 &&
          t.write_allocate == 0);
    /* the store kind: the _nt kernels and only they stream their stores */
    for (int k = 0; k < STREAM_KERNEL_COUNT; k++) {
        size_t len = strlen(stream_kernel_names[k]);
        int named_nt = len > 3 && strcmp(stream_kernel_names[k] + len - 3, "_nt") == 0;
        CHECK(stream_kernel_nt((enum stream_kernel)k) == named_nt);
        /* every name once, so --kernel finds each kernel */
        for (int j = 0; j < k; j++)
            CHECK(strcmp(stream_kernel_names[j], stream_kernel_names[k]) != 0);
    }
    CHECK(stream_kernel_nt(STREAM_KERNEL_COUNT) == -1);
    /* update, and only it, is in place */
    for (int k = 0; k < STREAM_KERNEL_COUNT; k++)
        CHECK(stream_kernel_in_place((enum stream_kernel)k) == (k == STREAM_UPDATE));
    CHECK(stream_kernel_in_place(STREAM_KERNEL_COUNT) == -1);
    /* STREAM's names in the table, each with its own arithmetic (stream_values.h); the help list
     * carries every name */
    CHECK(strcmp(stream_kernel_names[STREAM_SCALE], "scale") == 0);
    CHECK(strcmp(stream_kernel_names[STREAM_ADD], "add") == 0);
    CHECK(strcmp(stream_kernel_names[STREAM_TRIAD], "triad") == 0);
    CHECK(strcmp(stream_kernel_names[STREAM_LOAD], "load") == 0);
    CHECK(strcmp(stream_kernel_names[STREAM_STORE], "store") == 0);
    for (int k = 0; k < STREAM_KERNEL_COUNT; k++) {
        char word[32];
        snprintf(word, sizeof word, " %s ", stream_kernel_names[k]);
        CHECK(strstr(STREAM_KERNEL_HELP_LIST " ", word) != NULL);
    }
    CHECK(stream_expect(STREAM_SCALE, 5, 0) == 3.0 * stream_value(5, 0));
    CHECK(stream_expect(STREAM_ADD, 5, 0) == stream_value(5, 0) + stream_value(5, 1));
    CHECK(stream_expect(STREAM_TRIAD, 5, 0) == stream_value(5, 0) + 3.0 * stream_value(5, 1));
    CHECK(stream_expect(STREAM_STORE, 5, 0) == STREAM_STORE_VALUE && STREAM_STORE_VALUE < 0);
    CHECK(stream_expect(STREAM_COPY19, 5, 7) == stream_value(5, 7));
    /* update is checked after an odd number of passes, where every element must differ from the
     * value it started with (an untouched array fails); the backends add a pass to an even count */
    CHECK(stream_update_check_pass(STREAM_UPDATE, 0) && stream_update_check_pass(STREAM_UPDATE, 4));
    CHECK(!stream_update_check_pass(STREAM_UPDATE, 3) && !stream_update_check_pass(STREAM_COPY, 4));
    for (size_t i = 0; i < 4096; i++)
        CHECK(stream_expect(STREAM_UPDATE, i, 0) == -stream_value(i, 0) &&
              stream_expect(STREAM_UPDATE, i, 0) != stream_value(i, 0));
    /* the expected results are exact in single precision: the check may demand equality */
    for (size_t i = 0; i < 4096; i++) {
        CHECK((double)(float)stream_expect(STREAM_TRIAD, i, 0) ==
              stream_expect(STREAM_TRIAD, i, 0));
        CHECK((double)(float)stream_expect(STREAM_ADD, i, 0) == stream_expect(STREAM_ADD, i, 0));
        CHECK((double)(float)stream_expect(STREAM_SCALE, i, 0) ==
              stream_expect(STREAM_SCALE, i, 0));
        /* and fused: a single rounding of x + q y gives the same value */
        CHECK((float)fma(STREAM_Q, (float)stream_value(i, 1), (float)stream_value(i, 0)) ==
              (float)stream_expect(STREAM_TRIAD, i, 0));
    }
    /* load's reference: the serial sum, exact; a float accumulator would not be (2^24 < sum x
     * 2^16), which is why the kernels add in double */
    {
        double s = 0;
        for (size_t i = 0; i < 1000; i++)
            s += stream_value(i, 0);
        CHECK(stream_load_sum(1000) == s && s > 1000 && s < 2000);
        CHECK(stream_load_tolerance(1000) == 0);
        CHECK(stream_load_tolerance((size_t)1 << 40) > 0);
    }
    CHECK(stream_traffic(STREAM_KERNEL_COUNT, 8, 0, &t) != 0);
    CHECK(stream_traffic(STREAM_COPY, 0, 0, &t) != 0);

    /* layout: copy19 sp, 1000 elements, read offset 1, write offset 3, CPU-style stagger */
    {
        struct stream_case c = {0};
        struct stream_layout l;
        c.kernel = STREAM_COPY19;
        c.prec = PREC_SP;
        c.n = 1000;
        c.read_offset = 1;
        c.write_offset = 3;
        CHECK(stream_layout(&c, 4096, 192, &l) == 0);
        CHECK(l.nsrc == 19 && l.ndst == 19);
        CHECK(l.stride % 4096 == 0 && l.stride >= (1000 + 3) * 4 + 4096);
        CHECK(l.total == 38 * l.stride);
        for (int j = 0; j < 19; j++) {
            /* a pair shares its page offset (up to the read/write offsets) */
            CHECK((l.src[j] - 4) % 4096 == (l.dst[j] - 12) % 4096);
            CHECK(l.dst[j] + 1000 * 4 <= l.total);
            if (j) CHECK((l.src[j] - 4) % 4096 != (l.src[j - 1] - 4) % 4096);
        }
        c.kernel = STREAM_COPY;
        c.read_offset = c.write_offset = 0;
        CHECK(stream_layout(&c, 65536, 0, &l) == 0); /* GPU-style: aligned, no stagger */
        CHECK(l.nsrc == 1 && l.ndst == 1 && l.src[0] == 0 && l.dst[0] == 65536 &&
              l.total == 131072);
        CHECK(stream_layout(&c, 0, 0, &l) != 0);
        /* triad: two sources, one destination after them */
        c.kernel = STREAM_TRIAD;
        CHECK(stream_layout(&c, 65536, 0, &l) == 0);
        CHECK(l.nsrc == 2 && l.ndst == 1 && l.src[1] == 65536 && l.dst[0] == 131072 &&
              l.total == 3 * 65536);
        /* load reads one array, store writes one */
        c.kernel = STREAM_LOAD;
        CHECK(stream_layout(&c, 65536, 0, &l) == 0 && l.nsrc == 1 && l.ndst == 0 &&
              l.total == 65536);
        /* update: one array, its source and destination, placed by the read offset */
        c.kernel = STREAM_UPDATE;
        c.read_offset = 1;
        c.write_offset = 3;
        CHECK(stream_layout(&c, 4096, 192, &l) == 0 && l.nsrc == 1 && l.ndst == 1 &&
              l.src[0] == 4 && l.dst[0] == l.src[0] && l.total == l.stride);
        c.read_offset = 0;
        c.kernel = STREAM_STORE;
        c.write_offset = 3;
        CHECK(stream_layout(&c, 4096, 192, &l) == 0 && l.nsrc == 0 && l.ndst == 1 &&
              l.dst[0] == 12 && l.total == l.stride);
        /* an offset the kernel does not apply leaves its layout as it was: store has no source,
         * load no destination (the driver gives each one case for the unused offset) */
        struct stream_layout l2;
        c.read_offset = 4000;
        CHECK(stream_layout(&c, 4096, 192, &l2) == 0 && l2.stride == l.stride &&
              l2.dst[0] == l.dst[0] && l2.total == l.total);
        c.kernel = STREAM_LOAD;
        c.read_offset = 1;
        c.write_offset = 0;
        CHECK(stream_layout(&c, 4096, 192, &l) == 0);
        c.write_offset = 4000;
        CHECK(stream_layout(&c, 4096, 192, &l2) == 0 && l2.stride == l.stride &&
              l2.src[0] == l.src[0] && l2.total == l.total);
    }
    /* the offsets each kernel applies: a source's read offset where it loads, a destination's
     * write offset where it stores into an array of its own */
    for (int k = 0; k < STREAM_KERNEL_COUNT; k++) {
        int loads, stores, rd = -1, wr = -1;
        CHECK(stream_kernel_arrays((enum stream_kernel)k, &loads, &stores) == 0);
        CHECK(stream_kernel_offsets((enum stream_kernel)k, &rd, &wr) == 0);
        CHECK(rd == (loads > 0) && wr == (stores > 0 && k != STREAM_UPDATE));
    }
    {
        int rd, wr;
        CHECK(stream_kernel_offsets(STREAM_STORE, &rd, &wr) == 0 && rd == 0 && wr == 1);
        CHECK(stream_kernel_offsets(STREAM_LOAD, &rd, &wr) == 0 && rd == 1 && wr == 0);
        CHECK(stream_kernel_offsets(STREAM_KERNEL_COUNT, &rd, &wr) != 0);
    }
    return check_report("test_bytes");
}
