/* plot.c: the studies as SVG through gnuplot: the roofline (ceilings as bandwidth / bytes per
 * update, LBM rows as points at their bytes per update), MFLUP/s against domain size with the
 * ceiling, MFLUP/s against padding. The .dat and .gp files are always written; without gnuplot
 * the report still succeeds and stderr says how to render them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ceiling.h"
#include "roofline.h"

static FILE *open_in(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fopen(path, "w");
}

/* a series is one (host, device, backend, precision, kernel, collision, align, pad) with
 * `vary` naming what moves along x: "size" or "pad" */
static int same_series(const struct csv_record *a, const struct csv_record *b, int vary_pad)
{
    return roof_same_device(a, b) && strcmp(a->kernel, b->kernel) == 0 &&
           strcmp(a->collision, b->collision) == 0 && strcmp(a->geometry, b->geometry) == 0 &&
           a->align == b->align && (vary_pad ? a->nx == b->nx && a->ny == b->ny && a->nz == b->nz
                                             : a->pad == b->pad);
}

static int cmp_x;
static int by_x(const void *pa, const void *pb)
{
    const struct csv_record *a = *(const struct csv_record *const *)pa;
    const struct csv_record *b = *(const struct csv_record *const *)pb;
    long long xa = cmp_x ? a->pad : a->nx, xb = cmp_x ? b->pad : b->nx;
    return (xa > xb) - (xa < xb);
}

/* one gnuplot index block per series with at least two points; returns the block count */
static int write_series(FILE *dat, FILE *gp, const struct csv_table *t, int vary_pad,
                        const char *datname)
{
    int blocks = 0;
    const struct csv_record **pts = malloc(t->n * sizeof *pts);
    if (!pts)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct csv_record *r = &t->rows[i];
        size_t n = 0;
        int first = 1;
        if (strcmp(r->bench, "lbm") != 0)
            continue;
        for (size_t j = 0; j < i; j++)
            if (strcmp(t->rows[j].bench, "lbm") == 0 && same_series(&t->rows[j], r, vary_pad))
                first = 0;
        if (!first)
            continue;
        for (size_t j = 0; j < t->n; j++)
            if (strcmp(t->rows[j].bench, "lbm") == 0 && same_series(&t->rows[j], r, vary_pad))
                pts[n++] = &t->rows[j];
        if (n < 2)
            continue;
        cmp_x = vary_pad;
        qsort(pts, n, sizeof *pts, by_x);
        fprintf(dat, "# %s %s %s %s %s align %lld%s\n", r->device, r->backend, r->precision,
                r->kernel, r->collision, (long long)(r->align > 0 ? r->align : 0),
                vary_pad ? "" : " (x: nx)");
        for (size_t j = 0; j < n; j++) {
            struct roof_eval e;
            roof_evaluate(t, pts[j], &e);
            fprintf(dat, "%lld %.6g %.6g\n", (long long)(vary_pad ? pts[j]->pad : pts[j]->nx),
                    pts[j]->mflups, e.ceiling_mflups);
        }
        fprintf(dat, "\n\n");
        fprintf(gp, "%s '%s' index %d using 1:2 with linespoints title '%s %s %s %s align %lld', "
                    "'' index %d using 1:3 with lines dashtype 2 notitle",
                blocks ? ", \\\n    " : "plot ", datname, blocks, r->backend, r->precision,
                r->kernel, r->collision, (long long)(r->align > 0 ? r->align : 0), blocks);
        blocks++;
    }
    if (blocks)
        fprintf(gp, "\n");
    free(pts);
    return blocks;
}

static int have_gnuplot(void)
{
    return system("gnuplot --version >/dev/null 2>&1") == 0;
}

int roof_plot(const char *dir, const struct csv_table *t)
{
    FILE *dat, *gp;
    int rc = 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "roofline: --plot %s: %s\n", dir, strerror(errno));
        return 2;
    }
    /* 1. the roofline itself: ceilings over bytes per update, LBM points at theirs */
    dat = open_in(dir, "roofline.dat");
    gp = open_in(dir, "roofline.gp");
    if (!dat || !gp) {
        fprintf(stderr, "roofline: cannot write into %s: %s\n", dir, strerror(errno));
        return 2;
    }
    fprintf(gp, "set terminal svg size 900,600 dynamic background rgb 'white' noenhanced\nset output '%s/roofline.svg'\n"
                "set logscale xy\nset xtics (152, 228, 304, 456)\nset xlabel 'modelled DRAM bytes per fluid-cell update'\n"
                "set ylabel 'MFLUP/s'\nset key top right\nset xrange [120:560]\n"
                "set title 'LBM against the copy bandwidth roof (ceiling = bandwidth / bytes)'\n",
            dir);
    {
        int nroof = 0;
        fprintf(dat, "# LBM points: bytes_per_update mflups (device, backend, precision, kernel)\n");
        for (size_t i = 0; i < t->n; i++) {
            const struct csv_record *r = &t->rows[i];
            if (strcmp(r->bench, "lbm") == 0)
                fprintf(dat, "%.6g %.6g\n", r->dram_bytes, r->mflups);
        }
        fprintf(dat, "\n\n");
        fprintf(gp, "plot '%s/roofline.dat' index 0 using 1:2 with points pt 7 title 'LBM rows'",
                dir);
        for (size_t i = 0; i < t->n; i++) {
            const struct csv_record *r = &t->rows[i];
            int first = 1;
            if (strcmp(r->bench, "stream") != 0 || strcmp(r->kernel, "copy") != 0)
                continue;
            for (size_t j = 0; j < i; j++)
                if (strcmp(t->rows[j].bench, "stream") == 0 &&
                    strcmp(t->rows[j].kernel, "copy") == 0 && roof_same_device(&t->rows[j], r))
                    first = 0;
            if (!first)
                continue;
            fprintf(gp, ", \\\n    %.6g*1e3/x title 'roof: %s %s %s copy %.0f GB/s'",
                    r->bw_dram_GBs, r->device, r->backend, r->precision, r->bw_dram_GBs);
            nroof++;
        }
        fprintf(gp, "\n");
        (void)nroof;
    }
    fclose(dat);
    fclose(gp);
    /* 2. rate against domain size, 3. against padding, each series with its ceiling dashed */
    for (int vary_pad = 0; vary_pad < 2; vary_pad++) {
        const char *name = vary_pad ? "padding" : "size";
        char datname[1024], file[64];
        snprintf(file, sizeof file, "%s.dat", name);
        snprintf(datname, sizeof datname, "%s/%s.dat", dir, name);
        dat = open_in(dir, file);
        snprintf(file, sizeof file, "%s.gp", name);
        gp = open_in(dir, file);
        if (!dat || !gp) {
            fprintf(stderr, "roofline: cannot write into %s: %s\n", dir, strerror(errno));
            return 2;
        }
        fprintf(gp, "set terminal svg size 1000,650 dynamic background rgb 'white' noenhanced\nset output '%s/%s.svg'\n"
                    "set xlabel '%s'\nset ylabel 'MFLUP/s'\nset logscale y\nset key outside right\n"
                    "set title 'MFLUP/s against %s (dashed: the ceiling of each series)'\n",
                dir, name, vary_pad ? "pad (elements per x row)" : "nx (domain edge)", name);
        if (write_series(dat, gp, t, vary_pad, datname) == 0)
            fprintf(gp, "unset logscale\nset yrange [0:2]\nset label 'no series with two or more points' at graph "
                        "0.3,0.5\nplot [0:1] 1 notitle\n");
        fclose(dat);
        fclose(gp);
    }
    if (!have_gnuplot()) {
        fprintf(stderr, "roofline: gnuplot not found: the plots are written as .gp and .dat in "
                        "%s; render them with: for f in %s/*.gp; do gnuplot \"$f\"; done\n",
                dir, dir);
        return 0;
    }
    {
        const char *names[] = {"roofline", "size", "padding"};
        for (int i = 0; i < 3; i++) {
            char cmd[2200];
            snprintf(cmd, sizeof cmd, "gnuplot '%s/%s.gp' 1>&2", dir, names[i]); /* stdout: CSV only */
            if (system(cmd) != 0) {
                fprintf(stderr, "roofline: gnuplot failed on %s/%s.gp\n", dir, names[i]);
                rc = 0; /* a failed plot never fails the report */
            }
        }
    }
    return rc;
}
