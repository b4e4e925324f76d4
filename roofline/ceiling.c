/* ceiling.c: ceilings in one convention (modelled DRAM bytes on both sides), percent of ceiling
 * and of the theoretical peak, the flags a reader must not miss. */
#include "ceiling.h"

#include <math.h>
#include <string.h>

double roof_ceiling_mflups(double bw_GBs, double bytes_per_update)
{
    return bw_GBs * 1e9 / bytes_per_update / 1e6;
}

int roof_same_device(const struct csv_record *a, const struct csv_record *b)
{
    return strcmp(a->host, b->host) == 0 && strcmp(a->device, b->device) == 0 &&
           strcmp(a->backend, b->backend) == 0 && strcmp(a->precision, b->precision) == 0;
}

/* Devices whose bandwidth a row used: one per rank on the GPU; CPU ranks share their host's
 * memory (the ranks of one node are compared with that node's ceiling). */
double roof_devices(const struct csv_record *r)
{
    return r->ranks > 1 && strcmp(r->backend, "gpu") == 0 ? (double)r->ranks : 1.0;
}

int roof_cache_resident(const struct csv_record *r)
{
    double s = strcmp(r->precision, "sp") == 0 ? 4 : 8;
    double pitch = r->pitch > 0 ? (double)r->pitch : (double)r->nx;
    double ny = r->local_ny > 0 ? (double)r->local_ny : (double)r->ny;
    double nz = r->local_nz > 0 ? (double)r->local_nz : (double)r->nz;
    double bytes = 2.0 * 19.0 * pitch * ny * nz * s; /* per rank */
    return r->llc_bytes > 0 && bytes <= 2.0 * (double)r->llc_bytes;
}

static int is_copy(const char *k)
{
    return strcmp(k, "copy") == 0 || strcmp(k, "copy_nt") == 0 || strcmp(k, "memcpy") == 0;
}

static int is_copy19(const char *k)
{
    return strcmp(k, "copy19") == 0 || strcmp(k, "copy19_nt") == 0;
}

int roof_evaluate(const struct csv_table *t, const struct csv_record *lbm, struct roof_eval *e)
{
    memset(e, 0, sizeof *e);
    e->lbm = lbm;
    e->ceiling_mflups = e->pct = e->pct_med = e->copy19_mflups = e->pct_copy19 = NAN;
    e->pct_of_peak = NAN;
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_record *s = &t->rows[i];
        if (strcmp(s->bench, "stream") != 0 || strcmp(s->verified, "pass") != 0 ||
            !roof_same_device(s, lbm) || s->write_allocate != lbm->write_allocate)
            continue;
        if (is_copy(s->kernel) && (!e->copy || s->bw_dram_GBs > e->copy->bw_dram_GBs))
            e->copy = s;
        if (is_copy19(s->kernel) && (!e->copy19 || s->bw_dram_GBs > e->copy19->bw_dram_GBs))
            e->copy19 = s;
    }
    e->cache_resident = roof_cache_resident(lbm);
    if (lbm->peak_bw_GBs > 0)
        e->pct_of_peak = 100.0 * lbm->bw_dram_GBs / (lbm->peak_bw_GBs * roof_devices(lbm));
    if (e->copy19) {
        e->copy19_mflups =
            roof_ceiling_mflups(e->copy19->bw_dram_GBs * roof_devices(lbm), lbm->dram_bytes);
        e->pct_copy19 = 100.0 * lbm->mflups / e->copy19_mflups;
    }
    if (!e->copy)
        return 1;
    e->ceiling_mflups = roof_ceiling_mflups(e->copy->bw_dram_GBs * roof_devices(lbm),
                                            lbm->dram_bytes);
    e->pct = 100.0 * lbm->mflups / e->ceiling_mflups;
    e->pct_med = 100.0 * lbm->mflups_med / e->ceiling_mflups;
    e->above_ceiling = e->pct > 100.0;
    return 0;
}
