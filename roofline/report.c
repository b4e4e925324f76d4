/* report.c: the default report: every LBM row with its ceiling, percent of ceiling (best,
 * median, worst repetition), the tighter copy19 ceiling, percent of peak, flags, and the energy
 * of the timed work (nJ per fluid-cell update, mean W, MFLUP/s per W) where it was measured, the
 * row's layout, and for an in-place kernel its in-place ceiling (update's rate). */
#include <math.h>
#include <string.h>

#include "ceiling.h"
#include "roofline.h"

static const char *const header =
    "host,device,backend,kernel,collision,geometry,precision,nx,ny,nz,pad,align,mflups,"
    "mflups_med,convention,bytes_per_update,ceiling_kernel,ceiling_bw_GBs,ceiling_mflups,"
    "pct_of_ceiling,pct_of_ceiling_med,copy19_kernel,copy19_ceiling_mflups,pct_of_copy19,"
    "peak_bw_GBs,pct_of_peak,flags,version,timestamp,pct_of_ceiling_min,energy_nJ_per_update,"
    "power_W,mflups_per_W,energy_polled_dev_pct,layout,in_place_kernel,in_place_ceiling_mflups,"
    "pct_of_in_place,threads\n";

/* 2 with one line on stderr when the input gives the report nothing to say: no lbm rows, or no
 * verified copy row of any lbm row's machine (its stream CSV not given, or every copy in it
 * failed); else 0. A machine whose copies lack a row's precision or store kind (a 16-bit row
 * without a 2-byte copy) is no refusal: that row is flagged no_ceiling and stderr says why, as
 * in --table, whatever other rows the input holds. */
static int refuse(const struct roof_ceilings *c, const struct csv_table *t)
{
    size_t lbm = 0, matched = 0, first = 0;
    char msg[512];
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->rows[i].bench, "lbm") != 0) continue;
        if (lbm++ == 0) first = i;
        matched += roof_machine_has_copy(c, &t->rows[i]);
    }
    if (lbm == 0) {
        fprintf(stderr, "roofline: no lbm rows in the input (give lbm-cpu / lbm-gpu CSV files)\n");
        return 2;
    }
    if (matched > 0) return 0;
    roof_no_ceiling_reason(c, t, &t->rows[first], msg, sizeof msg);
    fprintf(stderr,
            "roofline: no lbm row has stream copy rows of its host, device and backend that "
            "passed verification (first: %s)\n",
            msg);
    return 2;
}

int roof_report_check(const struct csv_table *t)
{
    struct roof_ceilings *c;
    if (roof_ceilings_build(t, &c)) {
        fprintf(stderr, "roofline: out of memory\n");
        return 2;
    }
    const int rc = refuse(c, t);
    roof_ceilings_free(c);
    return rc;
}

int roof_report(FILE *out, const struct csv_table *t)
{
    struct roof_ceilings *c;
    if (roof_ceilings_build(t, &c)) {
        fprintf(stderr, "roofline: out of memory\n");
        return 2;
    }
    /* refuse before writing anything: no partial CSV */
    if (refuse(c, t)) {
        roof_ceilings_free(c);
        return 2;
    }
    roof_say_missing_ceilings(c, t);
    fputs(header, out);
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_row *r = &t->rows[i];
        struct roof_eval e;
        char flags[96];
        if (strcmp(r->bench, "lbm") != 0) continue;
        const int no_ceiling = roof_evaluate(c, r, &e);
        roof_flags(&e, no_ceiling, strcmp(r->verified, "pass") != 0, flags, sizeof flags);
        roof_str(out, r->host, 0);
        roof_str(out, r->device, 0);
        roof_str(out, r->backend, 0);
        roof_str(out, r->kernel, 0);
        roof_str(out, r->collision, 0);
        roof_str(out, r->geometry, 0);
        roof_str(out, r->precision, 0);
        roof_num(out, (double)r->nx, 0);
        roof_num(out, (double)r->ny, 0);
        roof_num(out, (double)r->nz, 0);
        roof_num(out, (double)r->pad, 0);
        roof_num(out, r->align >= 0 ? (double)r->align : 0, 0);
        roof_num(out, r->mflups, 0);
        roof_num(out, r->mflups_med, 0);
        roof_str(out, "dram", 0);
        roof_num(out, r->dram_bytes, 0);
        roof_str(out, e.copy ? e.copy->kernel : "", 0);
        roof_num(out, e.copy ? e.copy->bw_dram_GBs : (double)NAN, 0);
        roof_num(out, e.ceiling_mflups, 0);
        roof_num(out, e.pct, 0);
        roof_num(out, e.pct_med, 0);
        roof_str(out, e.copy19 ? e.copy19->kernel : "", 0);
        roof_num(out, e.copy19_mflups, 0);
        roof_num(out, e.pct_copy19, 0);
        roof_num(out, r->peak_bw_GBs, 0);
        roof_num(out, e.pct_of_peak, 0);
        roof_str(out, flags, 0);
        roof_str(out, r->version, 0);
        roof_str(out, r->timestamp, 0);
        roof_num(out, e.pct_min, 0);
        roof_num(out, roof_nJ_per_update(r), 0);
        roof_num(out, r->power_W, 0);
        roof_num(out, r->mflups_per_W, 0);
        roof_num(out, roof_polled_dev_pct(r), 0);
        roof_str(out, r->layout, 0); /* the gate keys its cases by it when this is a baseline */
        roof_str(out, e.in_place ? e.in_place->kernel : "", 0);
        roof_num(out, e.in_place_mflups, 0);
        roof_num(out, e.pct_in_place, 0);
        /* cpu OpenMP threads or gpu threads a block: a thread sweep's rows apart */
        roof_num(out, r->threads > 0 ? (double)r->threads : NAN, 1);
    }
    roof_ceilings_free(c);
    return 0;
}
