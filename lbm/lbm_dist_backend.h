/* lbm_dist_backend.h: the backend calls a distributed run (lbm/driver/dist.c) needs beyond the
 * single-domain contract of lbm.h: queues, updates of boxes, halo packing, buffers. Every backend
 * defines them; the CPU's complete each call before returning. */
#ifndef LBM_DIST_BACKEND_H
#define LBM_DIST_BACKEND_H

#include <stddef.h>

#include "lbm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Queue 0 carries the boundary work and the halo, queue 1 the
 * interior (two CUDA streams; on the CPU every call completes before it returns). */
enum { LBM_QUEUE_BOTH = -1, LBM_QUEUE_EDGE = 0, LBM_QUEUE_INTERIOR = 1 };
/* lbm_halo_copy: from the lattice into the buffer (pack) or back (unpack) */
enum lbm_halo_dir { LBM_HALO_PACK = 0, LBM_HALO_UNPACK = 1 };
/* lbm_buffer_alloc: backend memory (device memory on the GPU) or host memory that the backend
 * copies fastest (pinned on the GPU) */
enum lbm_buffer_mem { LBM_BUFFER_BACKEND = 0, LBM_BUFFER_HOST = 1 };
/* lbm_buffer_copy: which way, between backend and host memory */
enum lbm_copy_dir { LBM_COPY_TO_BACKEND = 0, LBM_COPY_TO_HOST = 1 };
/* lbm_host_register: pin or release */
enum lbm_pin { LBM_UNPIN = 0, LBM_PIN = 1 };
/* One update of the local cells in [lo, hi) from the current lattice into the next. */
int lbm_update_box(struct lbm_state *s, const size_t lo[3], const size_t hi[3], int queue,
                   char *err, size_t errlen);
/* Copies populations dirs[0..ndirs) of the cells in [lo, hi) (local coordinates; -1 and n name
 * ghost layers) between the next lattice and buf, ordered [dir][z][y][x]; LBM_HALO_UNPACK writes
 * the lattice. buf is backend memory (lbm_buffer_alloc). */
int lbm_halo_copy(struct lbm_state *s, enum lbm_halo_dir dir, const int *dirs, int ndirs,
                  const long lo[3], const long hi[3], void *buf, int queue, char *err,
                  size_t errlen);
/* Updates the cells in [lo, hi) (inside the local box) from the current lattice as
 * lbm_update_box does and writes their populations dirs[0..ndirs) into buf, ordered as
 * lbm_halo_copy packs them: the halo of an x face, whose cells then need no shell updated before
 * the exchange (the interior box updates them again, to the same values). The GPU leaves the
 * lattice alone; the CPU updates the cells into the next lattice and packs them. */
int lbm_halo_update(struct lbm_state *s, const int *dirs, int ndirs, const long lo[3],
                    const long hi[3], void *buf, int queue, char *err, size_t errlen);
/* An x face's halos (side 0: the face at x = 0 and its ghost layer x = -1; side 1: x = nx - 1
 * and x = nx), each ordered as lbm_halo_copy packs it, [k][z][y] over the face's ny x nz cells,
 * k for population dirs[k] (the 5 that cross the face, in direction order).
 * lbm_halo_in_place offers buf, the received halo, to the updates from the next lattice on in
 * place of the ghost layer, until the next offer for the side: *taken = 1 where the backend takes
 * it (it queues what it still needs in the lattice), and the caller unpacks nothing; 0 where it
 * does not, and the caller unpacks. A backend whose lattice has no x ghost layer
 * (lbm_x_faces_in_rows) must take it.
 * lbm_halo_sent_by_update offers buf, the face's send buffer, to every later update: 1 where the
 * backend writes it as it updates the face's cells, and then the face needs no pack after an
 * update; 0 where it does not. */
int lbm_halo_in_place(struct lbm_state *s, int side, const int dirs[5], const void *buf, int queue,
                      int *taken, char *err, size_t errlen);
int lbm_halo_sent_by_update(struct lbm_state *s, int side, const int dirs[5], void *buf);
/* Halo buffers (enum lbm_buffer_mem). Copies between them run on queue 0. */
void *lbm_buffer_alloc(size_t bytes, enum lbm_buffer_mem mem);
void lbm_buffer_free(void *p, enum lbm_buffer_mem mem);
int lbm_buffer_copy(struct lbm_state *s, void *dst, const void *src, size_t bytes,
                    enum lbm_copy_dir dir, char *err, size_t errlen);
/* Pins (LBM_PIN) or releases host memory not from lbm_buffer_alloc (MPI's node-shared halo
 * buffers) so that lbm_buffer_copy moves it as fast as its own (CPU: nothing to do). */
int lbm_host_register(void *p, size_t bytes, enum lbm_pin pin, char *err, size_t errlen);
/* 1 when MPI may read and write backend memory itself (the CPU); 0 on the GPU, where dist.c
 * asks the MPI library at run time whether it takes device pointers. */
int lbm_buffers_on_host(void);
/* 1 when update and halo calls only queue the work (the GPU); 0 when they complete it (CPU). */
int lbm_queues_async(void);
/* Waits for a queue (LBM_QUEUE_BOTH: both) to finish; lbm_queues_join orders everything queued so
 * far before anything queued later on either queue. lbm_swap makes the next lattice current. */
int lbm_wait(struct lbm_state *s, int queue, char *err, size_t errlen);
int lbm_queues_join(struct lbm_state *s, char *err, size_t errlen);
void lbm_swap(struct lbm_state *s);
/* Cells across each x shell of a distributed update (decomp_boxes): the width at which the
 * backend updates a box a few cells wide along x about as fast per cell as the interior. */
size_t lbm_shell_x_cells(void);
/* 1 where the backend is faster at precision p with x faces' halos updated into their buffers
 * (lbm_halo_update) and no x shells, 0 with x shells (the default of LBMR_X_FACES, dist.c). */
int lbm_x_faces_updated(enum prec p);
/* 1 where kernel k's rows read a received x face where it arrived (lbm_halo_in_place) and need
 * no x ghost layer for it (lbm_place.x_faces_in_rows); 0 where the face fills a ghost layer. */
int lbm_x_faces_in_rows(enum lbm_kernel k);
/* Picks this rank's GPU from its node-local rank (CPU: nothing). Before lbm_backend_open.
 * *first_on_device: 1 when no lower rank of the node uses the same device (its power meter
 * counts once in a run's energy), 0 when this rank shares a lower rank's GPU or, on the CPU, its
 * packages. */
int lbm_backend_select(int local_rank, int *first_on_device, char *err, size_t errlen);
/* The CPUs this rank's threads may run on as a bit set (bit c of word c / 64: CPU c) in
 * bits[0..words), and how many words it filled; 0 where the backend's threads are not the host's
 * (the GPU), so no CPU check applies. After lbm_backend_open. */
int lbm_backend_cpu_set(unsigned long long *bits, int words);

#ifdef __cplusplus
}
#endif
#endif
