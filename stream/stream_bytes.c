/* stream_bytes.c: the byte table (bytes = arrays x sizeof(value) per index), one place for it. */
#include "stream.h"

const char *const stream_kernel_names[STREAM_KERNEL_COUNT] = {
    [STREAM_COPY] = "copy",         [STREAM_COPY_NT] = "copy_nt", [STREAM_COPY19] = "copy19",
    [STREAM_COPY19_NT] = "copy19_nt", [STREAM_MEMCPY] = "memcpy",
};

static const struct {
    int loads, stores;
} weights[STREAM_KERNEL_COUNT] = {
    [STREAM_COPY] = {1, 1},    [STREAM_COPY_NT] = {1, 1},   [STREAM_COPY19] = {19, 19},
    [STREAM_COPY19_NT] = {19, 19}, [STREAM_MEMCPY] = {1, 1},
};

int stream_kernel_arrays(enum stream_kernel k, int *loads, int *stores)
{
    if ((unsigned)k >= STREAM_KERNEL_COUNT)
        return 1;
    *loads = weights[k].loads;
    *stores = weights[k].stores;
    return 0;
}

int stream_traffic(enum stream_kernel k, size_t elem_size, int write_allocate,
                   struct stream_traffic *t)
{
    int loads, stores;
    if (stream_kernel_arrays(k, &loads, &stores) || elem_size == 0)
        return 1;
    t->prog_bytes = (double)((size_t)(loads + stores) * elem_size);
    t->dram_bytes = t->prog_bytes + (write_allocate ? (double)((size_t)stores * elem_size) : 0.0);
    t->write_allocate = write_allocate ? 1 : 0;
    return 0;
}
