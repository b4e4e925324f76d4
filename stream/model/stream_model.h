/* stream_model.h: what the STREAM kernels are, independent of any backend: the kernel list, a
 * case, where its arrays sit (stream_layout.c) and the byte table (stream_bytes.c). */
#ifndef LBMR_STREAM_MODEL_H
#define LBMR_STREAM_MODEL_H

#include <stddef.h>

#include "precision.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a kernel's stores reach memory (the byte table's last column): ordinary stores, which
 * write-allocate on the CPU; non-temporal stores (CPU streaming stores: no write-allocate); or
 * stores in place, to the lines the same index just loaded, so the line is already in cache and
 * no store reads memory first (the pattern of the in-place LBM kernel aa). */
enum stream_store { STREAM_ST_PLAIN, STREAM_ST_NT, STREAM_ST_INPLACE };

/* The kernels, one line each: X(id, name, loads, stores, store kind). loads and stores are the
 * arrays read and written per index (the byte table's weights, stream_bytes.c); an in-place
 * kernel reads and writes the same array. The enum, the names, --kernel, --help and the byte
 * table all come from this list; each backend says which it runs (stream_kernel_supported). New
 * kernels go at the end. STREAM's kernels (McCalpin 1995) with q = STREAM_Q map onto sources s0,
 * s1 and destination d0 as scale d0 = q s0 (b = q c), add d0 = s0 + s1 (c = a + b), triad
 * d0 = s0 + q s1 (a = b + q c); load, store and update follow likwid-bench (sum of one array; one
 * value written to every element; every element of one array scaled in place, here by
 * STREAM_UPDATE_Q). */
#define STREAM_KERNELS(X)                                                                          \
    X(STREAM_COPY, "copy", 1, 1, PLAIN)          /* d0 = s0, ordinary stores */                    \
    X(STREAM_COPY_NT, "copy_nt", 1, 1, NT)       /* the same, non-temporal stores (CPU) */         \
    X(STREAM_COPY19, "copy19", 19, 19, PLAIN)    /* 19 sources, 19 destinations: D3Q19 */          \
    X(STREAM_COPY19_NT, "copy19_nt", 19, 19, NT) /* the same, non-temporal stores (CPU) */         \
    X(STREAM_MEMCPY, "memcpy", 1, 1, PLAIN)      /* cudaMemcpyAsync device to device (GPU) */      \
    X(STREAM_SCALE, "scale", 1, 1, PLAIN)        /* d0 = q s0 */                                   \
    X(STREAM_ADD, "add", 2, 1, PLAIN)            /* d0 = s0 + s1 */                                \
    X(STREAM_TRIAD, "triad", 2, 1, PLAIN)        /* d0 = s0 + q s1 */                              \
    X(STREAM_LOAD, "load", 1, 0, PLAIN)          /* sum of s0, kept for the check */               \
    X(STREAM_STORE, "store", 0, 1, PLAIN)        /* d0 = STREAM_STORE_VALUE */                     \
    X(STREAM_TRIAD_NT, "triad_nt", 2, 1, NT)     /* triad, non-temporal stores (CPU) */            \
    X(STREAM_STORE_NT, "store_nt", 0, 1, NT)     /* store, non-temporal stores (CPU) */            \
    X(STREAM_UPDATE, "update", 1, 1, INPLACE)    /* s0 = STREAM_UPDATE_Q s0, in place */

#define STREAM_KERNEL_ENUM(id, name, loads, stores, st) id,
enum stream_kernel { STREAM_KERNELS(STREAM_KERNEL_ENUM) STREAM_KERNEL_COUNT };
#undef STREAM_KERNEL_ENUM

/* The names as one string literal, " copy copy_nt ...", for --help. */
#define STREAM_KERNEL_HELP_NAME(id, name, loads, stores, st) " " name
#define STREAM_KERNEL_HELP_LIST STREAM_KERNELS(STREAM_KERNEL_HELP_NAME)

extern const char *const stream_kernel_names[STREAM_KERNEL_COUNT];

/* Arrays read and written per index (the byte table's weights). */
int stream_kernel_arrays(enum stream_kernel k, int *loads, int *stores);
/* 1 if the kernel's stores are non-temporal, 0 if not, -1 for no kernel. */
int stream_kernel_nt(enum stream_kernel k);
/* 1 if the kernel reads and writes one array in place (its one source is its one destination), 0
 * if not, -1 for no kernel. */
int stream_kernel_in_place(enum stream_kernel k);
/* Which of a case's offsets kernel k applies: *read 1 if it has a source (loads), *write 1 if it
 * has a destination of its own (stores, not in place: an in-place kernel's one array sits at the
 * read offset). An offset a kernel does not apply changes nothing it measures. 0, or 1 for no
 * kernel. */
int stream_kernel_offsets(enum stream_kernel k, int *read, int *write);
/* 0 if kernel k has a form in precision p, else 1 with the one-line reason in why: the 16-bit
 * precisions name a 2-byte element (fp16s; fp16c's copy is the same bits), which only the
 * copies, moving bits, have. */
int stream_prec_supported(enum stream_kernel k, enum prec p, char *why, size_t whylen);

struct stream_case {
    enum stream_kernel kernel;
    enum prec prec;
    size_t n;            /* elements per array */
    size_t read_offset;  /* elements the source starts past an aligned address */
    size_t write_offset; /* elements the destination starts past an aligned address */
    int threads;         /* gpu: threads per block; cpu: OpenMP threads (0: backend default) */
    long blocks;         /* gpu: grid size (0: cover the array); cpu: ignored */
    int ilp;             /* gpu: independent accesses in flight per thread (0: default) */
    int scalar; /* gpu: 1 forces element-wide accesses, 0 takes the widest alignment allows */
};

/* Where the arrays of a case sit in one allocation (stream_layout.c): the sources, then the
 * destinations (an in-place kernel's destination is its source: one array). Array k starts at a
 * multiple of `round` bytes; source j and destination j share the page offset (j x stagger) mod
 * 4096, so a load running ahead never 4K-aliases its own pending store, and the pairs differ from
 * each other; the read and write offsets come on top. */
struct stream_layout {
    int nsrc, ndst;          /* arrays read and written (the byte table's loads and stores) */
    size_t stride;           /* bytes between array starts */
    size_t total;            /* bytes to allocate */
    size_t src[19], dst[19]; /* byte offsets of the first element each kernel touches */
};
int stream_layout(const struct stream_case *c, size_t round, size_t stagger,
                  struct stream_layout *l);

/* Byte accounting (stream_bytes.c): bytes per index in both conventions. */
struct stream_traffic {
    double prog_bytes;  /* loads + stores the code asks for */
    double dram_bytes;  /* what memory moves: + one read per stored line under write-allocate */
    int write_allocate; /* 1 if dram_bytes counts those reads (write-allocate, stores not in place)
                         */
};
int stream_traffic(enum stream_kernel k, size_t elem_size, int write_allocate,
                   struct stream_traffic *t);

#ifdef __cplusplus
}
#endif
#endif
