/* gate.c: the regression gate. LBM rows keyed by (device, bench, kernel, collision, precision,
 * dims, pad, align) are compared by their median percent of ceiling, not absolute rates, so a
 * slower machine day raises no alarm; a drop beyond the tolerance is a regression unless the
 * repetitions themselves spread wider than the tolerance (inconclusive). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ceiling.h"
#include "roofline.h"

static void key_of(const struct csv_record *r, char *k, size_t len)
{
    snprintf(k, len, "%s|%s|%s|%s|%s|%s|%lldx%lldx%lld|%lld|%lld", r->device, r->backend, r->bench,
             r->kernel, r->collision, r->precision, (long long)r->nx, (long long)r->ny,
             (long long)r->nz, (long long)r->pad, (long long)(r->align > 0 ? r->align : 0));
}

/* best median percent of ceiling among rows of t with key k; NaN if none; *spread: their
 * repetition spread (max - min) / median, in percent */
static double pct_for(const struct csv_table *t, const char *k, double *spread,
                      const struct csv_record **row)
{
    double best = NAN;
    char kk[1280];
    *row = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_record *r = &t->rows[i];
        struct roof_eval e;
        if (strcmp(r->bench, "lbm") != 0)
            continue;
        key_of(r, kk, sizeof kk);
        if (strcmp(kk, k) != 0 || roof_evaluate(t, r, &e))
            continue;
        if (isnan(best) || e.pct_med > best) {
            best = e.pct_med;
            *spread = 100.0 * (r->t_max_s - r->t_min_s) / r->t_med_s;
            *row = r;
        }
    }
    return best;
}

static int seen_before(const struct csv_table *t, size_t i, const char *k)
{
    char kk[1280];
    for (size_t j = 0; j < i; j++) {
        if (strcmp(t->rows[j].bench, "lbm") != 0)
            continue;
        key_of(&t->rows[j], kk, sizeof kk);
        if (strcmp(kk, k) == 0)
            return 1;
    }
    return 0;
}

static void gate_row(FILE *out, const struct csv_record *r, double b, double c, double spread,
                     const char *status)
{
    roof_str(out, r->device, 0);
    roof_str(out, r->backend, 0);
    roof_str(out, r->bench, 0);
    roof_str(out, r->kernel, 0);
    roof_str(out, r->collision, 0);
    roof_str(out, r->precision, 0);
    roof_num(out, (double)r->nx, 0);
    roof_num(out, (double)r->ny, 0);
    roof_num(out, (double)r->nz, 0);
    roof_num(out, (double)r->pad, 0);
    roof_num(out, r->align > 0 ? (double)r->align : 0, 0);
    roof_num(out, b, 0);
    roof_num(out, c, 0);
    roof_num(out, c - b, 0);
    roof_num(out, spread, 0);
    roof_str(out, status, 1);
}

int roof_gate(FILE *out, const struct csv_table *base, const struct csv_table *cur, double tol)
{
    int regressed = 0, compared = 0;
    char k[1280];
    fputs("device,backend,bench,kernel,collision,precision,nx,ny,nz,pad,align,"
          "baseline_pct_of_ceiling_med,current_pct_of_ceiling_med,delta_pct,spread_pct,status\n",
          out);
    for (size_t i = 0; i < cur->n; i++) {
        const struct csv_record *r = &cur->rows[i], *rc, *rb;
        double sc = 0, sb = 0, c, b;
        const char *status;
        if (strcmp(r->bench, "lbm") != 0)
            continue;
        key_of(r, k, sizeof k);
        if (seen_before(cur, i, k))
            continue;
        c = pct_for(cur, k, &sc, &rc);
        b = pct_for(base, k, &sb, &rb);
        if (isnan(c))
            continue; /* no ceiling in the current files: the report says why */
        if (isnan(b)) {
            status = "new";
        } else {
            double spread = sc > sb ? sc : sb;
            compared++;
            if (c - b < -tol) {
                status = spread > tol ? "inconclusive" : "regressed";
                regressed += spread <= tol;
            } else {
                status = c - b > tol ? "improved" : "ok";
            }
            sc = spread;
        }
        gate_row(out, rc, b, c, sc, status);
    }
    for (size_t i = 0; i < base->n; i++) {
        const struct csv_record *r = &base->rows[i], *rc, *rb;
        double s, b;
        if (strcmp(r->bench, "lbm") != 0)
            continue;
        key_of(r, k, sizeof k);
        if (seen_before(base, i, k) || !isnan(pct_for(cur, k, &s, &rc)))
            continue;
        b = pct_for(base, k, &s, &rb);
        if (!isnan(b))
            gate_row(out, rb, b, NAN, NAN, "missing");
    }
    fprintf(stderr, "roofline: gate: %d case(s) compared, %d regressed beyond %.3g points\n",
            compared, regressed, tol);
    return regressed ? 1 : 0;
}
