/* stream_bytes.c: the byte table (bytes = arrays x sizeof(value) per index), one place for it;
 * its rows come from STREAM_KERNELS in stream.h. */
#include <stdio.h>

#include "stream_model.h"

#define STREAM_KERNEL_NAME(id, name, loads, stores, st) [id] = name,
const char *const stream_kernel_names[STREAM_KERNEL_COUNT] = {STREAM_KERNELS(STREAM_KERNEL_NAME)};
#undef STREAM_KERNEL_NAME

#define STREAM_KERNEL_WEIGHTS(id, name, loads, stores, st) [id] = {loads, stores, STREAM_ST_##st},
static const struct {
    int loads, stores;
    enum stream_store st;
} weights[STREAM_KERNEL_COUNT] = {STREAM_KERNELS(STREAM_KERNEL_WEIGHTS)};
#undef STREAM_KERNEL_WEIGHTS

int stream_kernel_arrays(enum stream_kernel k, int *loads, int *stores)
{
    if ((unsigned)k >= STREAM_KERNEL_COUNT) return 1;
    *loads = weights[k].loads;
    *stores = weights[k].stores;
    return 0;
}

int stream_kernel_nt(enum stream_kernel k)
{
    return (unsigned)k < STREAM_KERNEL_COUNT ? weights[k].st == STREAM_ST_NT : -1;
}

int stream_kernel_in_place(enum stream_kernel k)
{
    return (unsigned)k < STREAM_KERNEL_COUNT ? weights[k].st == STREAM_ST_INPLACE : -1;
}

int stream_kernel_offsets(enum stream_kernel k, int *read, int *write)
{
    if ((unsigned)k >= STREAM_KERNEL_COUNT) return 1;
    *read = weights[k].loads > 0;
    *write = weights[k].stores > 0 && weights[k].st != STREAM_ST_INPLACE;
    return 0;
}

int stream_prec_supported(enum stream_kernel k, enum prec p, char *why, size_t whylen)
{
    const int copy = k == STREAM_COPY || k == STREAM_COPY_NT || k == STREAM_COPY19 ||
                     k == STREAM_COPY19_NT || k == STREAM_MEMCPY;
    if (!prec_is_16bit(p)) return 0;
    if (p == PREC_FP16C) {
        snprintf(why, whylen,
                 "--precision fp16c: the 2-byte copies move bits, the same for both 16-bit "
                 "formats; use fp16s (its rows are fp16c's ceiling too)");
        return 1;
    }
    if (!copy) {
        snprintf(why, whylen,
                 "--precision fp16s: kernel %s has no 2-byte form; fp16s runs copy, copy_nt, "
                 "copy19, copy19_nt and memcpy",
                 (unsigned)k < STREAM_KERNEL_COUNT ? stream_kernel_names[k] : "?");
        return 1;
    }
    return 0;
}

/* Program bytes: (loads + stores) x s. Modelled DRAM bytes: + one read of every stored line when
 * ordinary stores write-allocate (copy 3 s, add/triad 4 s, store 2 s); a kernel that stores
 * nothing (load) moves what it reads whatever the store kind, and one that stores in place
 * (update: 2 s) stores into lines its own loads just brought in, so no store reads memory. */
int stream_traffic(enum stream_kernel k, size_t elem_size, int write_allocate,
                   struct stream_traffic *t)
{
    int loads, stores;
    if (stream_kernel_arrays(k, &loads, &stores) || elem_size == 0) return 1;
    t->write_allocate = write_allocate && stores > 0 && !stream_kernel_in_place(k) ? 1 : 0;
    t->prog_bytes = (double)((size_t)(loads + stores) * elem_size);
    t->dram_bytes =
        t->prog_bytes + (t->write_allocate ? (double)((size_t)stores * elem_size) : 0.0);
    return 0;
}
