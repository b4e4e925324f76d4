/* test_bytes.c: stream/'s tables: the byte table in both conventions (DESIGN.md section 2) and
 * the array layout both backends allocate by. */
#include "check.h"
#include "stream.h"

static int traffic_is(enum stream_kernel k, size_t s, int wa, double prog, double dram)
{
    struct stream_traffic t;
    if (stream_traffic(k, s, wa, &t))
        return 0;
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
        CHECK(l.narrays == 19);
        CHECK(l.stride % 4096 == 0 && l.stride >= (1000 + 3) * 4 + 4096);
        CHECK(l.total == 38 * l.stride);
        for (int j = 0; j < 19; j++) {
            /* a pair shares its page offset (up to the read/write offsets) */
            CHECK((l.src[j] - 4) % 4096 == (l.dst[j] - 12) % 4096);
            CHECK(l.dst[j] + 1000 * 4 <= l.total);
            if (j)
                CHECK((l.src[j] - 4) % 4096 != (l.src[j - 1] - 4) % 4096);
        }
        c.kernel = STREAM_COPY;
        c.read_offset = c.write_offset = 0;
        CHECK(stream_layout(&c, 65536, 0, &l) == 0); /* GPU-style: aligned, no stagger */
        CHECK(l.narrays == 1 && l.src[0] == 0 && l.dst[0] == 65536 && l.total == 131072);
        CHECK(stream_layout(&c, 0, 0, &l) != 0);
    }
    return check_report("test_bytes");
}
