/* stream_layout.c: placement of a case's arrays in one allocation, shared by both backends. */
#include "stream_model.h"

int stream_layout(const struct stream_case *c, size_t round, size_t stagger,
                  struct stream_layout *l)
{
    int loads, stores, in_place, reads, writes;
    size_t es = prec_size(c->prec);
    size_t room = stagger ? 4096 : 0; /* for the page offsets */

    if (stream_kernel_arrays(c->kernel, &loads, &stores) || loads > 19 || stores > 19 || round == 0)
        return 1;
    stream_kernel_offsets(c->kernel, &reads, &writes);
    /* elements past the aligned start: only the offsets the kernel applies (expand gives it 0
     * for the others), so an unused one cannot change the stride */
    const size_t ro = reads ? c->read_offset : 0, wo = writes ? c->write_offset : 0;
    const size_t off = ro > wo ? ro : wo;
    in_place = stream_kernel_in_place(c->kernel) == 1;
    l->nsrc = loads;
    l->ndst = stores;
    l->stride = ((c->n + off) * es + room + round - 1) / round * round;
    l->total = l->stride * (size_t)(in_place ? loads : loads + stores);
    for (int j = 0; j < 19; j++) {
        size_t page_off = stagger ? (size_t)j * stagger % 4096 : 0;
        l->src[j] = j < loads ? (size_t)j * l->stride + page_off + c->read_offset * es : 0;
        l->dst[j] =
            j < stores ? (size_t)(loads + j) * l->stride + page_off + c->write_offset * es : 0;
        if (in_place) l->dst[j] = l->src[j]; /* one array: the read offset places it */
    }
    return 0;
}
