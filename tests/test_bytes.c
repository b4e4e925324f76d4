/* test_bytes.c: the STREAM byte table in both conventions (DESIGN.md section 2). */
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
    return check_report("test_bytes");
}
