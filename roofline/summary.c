/* summary.c: one row per device (host, device, backend): copy bandwidth in both conventions
 * against the theoretical figure, and the best LBM rates sp and dp at the largest domain both
 * precisions were run at: the hardware-procurement view across machines. */
#include <math.h>
#include <string.h>

#include "ceiling.h"
#include "roofline.h"

static int same_machine(const struct csv_record *a, const struct csv_record *b)
{
    return strcmp(a->host, b->host) == 0 && strcmp(a->device, b->device) == 0 &&
           strcmp(a->backend, b->backend) == 0;
}

static int is_single_copy(const char *k)
{
    return strcmp(k, "copy") == 0 || strcmp(k, "copy_nt") == 0 || strcmp(k, "memcpy") == 0;
}

/* best LBM row of a machine and precision at exactly `cells` fluid cells */
static const struct csv_record *best_lbm(const struct csv_table *t, const struct csv_record *m,
                                         const char *prec, long long cells)
{
    const struct csv_record *best = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_record *r = &t->rows[i];
        if (strcmp(r->bench, "lbm") == 0 && same_machine(r, m) &&
            strcmp(r->precision, prec) == 0 && r->fluid_cells == cells &&
            strcmp(r->verified, "pass") == 0 && (!best || r->mflups > best->mflups))
            best = r;
    }
    return best;
}

static long long largest_size(const struct csv_table *t, const struct csv_record *m, int both)
{
    long long best = -1;
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_record *r = &t->rows[i];
        if (strcmp(r->bench, "lbm") != 0 || !same_machine(r, m) || r->fluid_cells <= best)
            continue;
        if (!both || (best_lbm(t, m, "sp", r->fluid_cells) && best_lbm(t, m, "dp", r->fluid_cells)))
            best = r->fluid_cells;
    }
    return best;
}

int roof_summary(FILE *out, const struct csv_table *t)
{
    int rows = 0;
    fputs("host,device,backend,copy_kernel,copy_prog_GBs,copy_dram_GBs,peak_bw_GBs,"
          "pct_of_peak,lbm_cells,mflups_sp,pct_of_ceiling_sp,mflups_dp,pct_of_ceiling_dp,"
          "mflups_sp_per_copy_GBs\n", out);
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_record *m = &t->rows[i], *copy = NULL, *sp, *dp;
        int seen = 0;
        long long cells;
        for (size_t j = 0; j < i; j++)
            seen |= same_machine(&t->rows[j], m);
        if (seen)
            continue;
        for (size_t j = 0; j < t->n; j++) {
            const struct csv_record *r = &t->rows[j];
            if (strcmp(r->bench, "stream") == 0 && same_machine(r, m) &&
                is_single_copy(r->kernel) && strcmp(r->verified, "pass") == 0 &&
                (!copy || r->bw_prog_GBs > copy->bw_prog_GBs))
                copy = r;
        }
        cells = largest_size(t, m, 1);
        if (cells < 0)
            cells = largest_size(t, m, 0);
        sp = best_lbm(t, m, "sp", cells);
        dp = best_lbm(t, m, "dp", cells);
        {
            struct roof_eval es, ed;
            int ok_sp = sp && roof_evaluate(t, sp, &es) == 0;
            int ok_dp = dp && roof_evaluate(t, dp, &ed) == 0;
            double peak = copy ? copy->peak_bw_GBs : (sp ? sp->peak_bw_GBs : NAN);
            roof_str(out, m->host, 0);
            roof_str(out, m->device, 0);
            roof_str(out, m->backend, 0);
            roof_str(out, copy ? copy->kernel : "", 0);
            roof_num(out, copy ? copy->bw_prog_GBs : NAN, 0);
            roof_num(out, copy ? copy->bw_dram_GBs : NAN, 0);
            roof_num(out, peak, 0);
            roof_num(out, copy && peak > 0 ? 100.0 * copy->bw_dram_GBs / peak : NAN, 0);
            roof_num(out, cells > 0 ? (double)cells : NAN, 0);
            roof_num(out, sp ? sp->mflups : NAN, 0);
            roof_num(out, ok_sp ? es.pct : NAN, 0);
            roof_num(out, dp ? dp->mflups : NAN, 0);
            roof_num(out, ok_dp ? ed.pct : NAN, 0);
            roof_num(out, sp && copy ? sp->mflups / copy->bw_dram_GBs : NAN, 1);
        }
        rows++;
    }
    return rows ? 0 : 2;
}
