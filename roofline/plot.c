/* plot.c: the studies as SVG through gnuplot: the roofline (each roof = a copy bandwidth that
 * bounds LBM rows, over bytes per update; each kernel x precision x device its own colour in
 * the colour family of its roof), MFLUP/s against domain size and against padding (a colour
 * family per device, each dashed ceiling the colour of its series), and MFLUP/s against the mean
 * power of the timed work (a colour family per device). The .gp files name their
 * .dat and .svg without a folder, so a moved results folder still renders (cd there; gnuplot
 * FILE.gp). gnuplot runs without a shell (fork, execvp), its stdout sent to stderr. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ceiling.h"
#include "roofline.h"

/* colour families (ColorBrewer sequential schemes, dark to light), one per roof or device */
#define SHADES 4
static const char *const families[][SHADES] = {
    {"#08519c", "#3182bd", "#6baed6", "#9ecae1"}, /* blues */
    {"#a63603", "#e6550d", "#fd8d3c", "#fdae6b"}, /* oranges */
    {"#006d2c", "#31a354", "#74c476", "#a1d99b"}, /* greens */
    {"#54278f", "#756bb1", "#9e9ac8", "#bcbddc"}, /* purples */
    {"#a50f15", "#de2d26", "#fb6a4a", "#fc9272"}, /* reds */
    {"#252525", "#636363", "#969696", "#bdbdbd"}, /* greys */
};
#define NFAMILIES ((int)(sizeof families / sizeof families[0]))

static const char *colour(int family, int member)
{
    return families[family % NFAMILIES][member % SHADES];
}

/* a gnuplot single-quoted string: a quote doubled */
static void gp_str(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', gp);
        fputc(*s, gp);
    }
    fputc('\'', gp);
}

static FILE *open_in(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    FILE *f = NULL;
    if (path) {
        snprintf(path, len, "%s/%s", dir, name);
        f = fopen(path, "w");
        free(path);
    }
    return f;
}

/* the plots roof_plot writes into its folder: NAME.dat and NAME.gp each, NAME.svg by gnuplot */
static const char *const plot_names[] = {"roofline", "size", "padding", "energy"};
static const char *const plot_exts[] = {".dat", ".gp", ".svg"};

/* The last name of path (writable) and its length, trailing slashes left out. */
static const char *last_name(const char *path, size_t *len)
{
    size_t n = strlen(path), s;
    while (n > 1 && path[n - 1] == '/')
        n--;
    for (s = n; s > 0 && path[s - 1] != '/'; s--)
        ;
    *len = n - s;
    return path + s;
}

/* Cuts path (writable, at least 2 bytes) to its folder: "." for a bare name, "/" at the root. */
static void cut_to_folder(char *path)
{
    size_t len, s;
    s = (size_t)(last_name(path, &len) - path);
    while (s > 1 && path[s - 1] == '/')
        s--;
    if (s == 0)
        strcpy(path, ".");
    else
        path[s] = '\0';
}

/* 1 when paths a and b name one file, whether or not it exists yet: the same inode, or, where
 * neither is there (a folder --plot is to make), the same last name in the same folder, asked
 * the same way up the path (each step up ends at a folder that exists: "." or "/" at last). */
static int same_file(const char *a, const char *b)
{
    char *x = malloc(strlen(a) + 2), *y = malloc(strlen(b) + 2);
    int same = 0;
    if (!x || !y) { /* then no answer: said as "the same", so -o refuses rather than clobbers */
        free(x);
        free(y);
        return 1;
    }
    strcpy(x, a);
    strcpy(y, b);
    for (;;) {
        struct stat sx, sy;
        size_t nx, ny;
        const int ex = stat(x, &sx) == 0, ey = stat(y, &sy) == 0;
        if (ex || ey) {
            same = ex && ey && sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
            break;
        }
        const char *bx = last_name(x, &nx), *by = last_name(y, &ny);
        if (nx == 1 && *bx == '.') { /* "new/.": the folder itself */
            cut_to_folder(x);
            continue;
        }
        if (ny == 1 && *by == '.') {
            cut_to_folder(y);
            continue;
        }
        if (nx != ny || strncmp(bx, by, nx) != 0) break;
        cut_to_folder(x);
        cut_to_folder(y);
    }
    free(x);
    free(y);
    return same;
}

int roof_plot_writes(const char *dir, const char *path, char *what, size_t len)
{
    const size_t room = strlen(dir) + 32;
    char *p = malloc(room);
    int hit = 0;
    if (!p) { /* no answer: refused rather than clobbered */
        snprintf(what, len, "perhaps a file of --plot %s (out of memory to tell)", dir);
        return 1;
    }
    if (same_file(path, dir)) {
        snprintf(what, len, "the --plot folder itself");
        hit = 1;
    }
    for (size_t i = 0; !hit && i < sizeof plot_names / sizeof plot_names[0]; i++) {
        for (size_t e = 0; !hit && e < sizeof plot_exts / sizeof plot_exts[0]; e++) {
            snprintf(p, room, "%s/%s%s", dir, plot_names[i], plot_exts[e]);
            if (same_file(path, p)) {
                snprintf(what, len, "%s%s of --plot %s, which the report would replace",
                         plot_names[i], plot_exts[e], dir);
                hit = 1;
            }
        }
    }
    free(p);
    return hit;
}

static void remove_in(const char *dir, const char *name)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path) remove(path);
}

static int close_both(FILE *a, FILE *b)
{
    int bad = 0;
    if (a) bad |= ferror(a) | (fclose(a) != 0);
    if (b) bad |= ferror(b) | (fclose(b) != 0);
    return bad;
}

static const char *no_data =
    "unset logscale\nunset border\nunset tics\nunset key\n"
    "set label 'no data' at graph 0.5,0.5 center font ',20'\nplot [0:1][0:1] NaN notitle\n";

/* ---- 1. the roofline ---- */
static int cmp_roof_series(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device)) ||
        (c = strcmp(a->backend, b->backend)) || (c = strcmp(a->precision, b->precision)) ||
        (c = (a->write_allocate > b->write_allocate) - (a->write_allocate < b->write_allocate)))
        return c;
    return strcmp(a->kernel, b->kernel);
}

static int write_roofline(FILE *dat, FILE *gp, const struct csv_table *t,
                          const struct roof_ceilings *c)
{
    size_t n = 0, *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    const struct csv_row *roof = NULL;
    int block = 0, elems = 0, family = -1, member = 0;
    if (!idx) return 1;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].bench, "lbm") == 0) idx[n++] = i;
    /* sorted by store group then kernel: the series of one roof are neighbours */
    roof_sort_rows(t, idx, n, cmp_roof_series);
    fprintf(gp, "set terminal svg size 1000,800 dynamic background rgb 'white' noenhanced\n"
                "set output 'roofline.svg'\n"
                "set xlabel 'modelled DRAM bytes per fluid-cell update'\nset ylabel 'MFLUP/s'\n"
                "set title 'LBM rows under their copy-bandwidth roofs (roof = bandwidth / "
                "bytes per update)'\n");
    if (n == 0) {
        fputs(no_data, gp);
        free(idx);
        return 0;
    }
    fprintf(gp, "set logscale xy\nset xtics (76, 114, 152, 228, 304, 456)\nset xrange [60:600]\n"
                /* the key's empty title line keeps it off the x label */
                "set key outside below left Left reverse maxcols 2 title ' '\nset grid\n");
    for (size_t k = 0; k < n;) {
        const struct csv_row *r = &t->rows[idx[k]];
        struct roof_eval e;
        char title[640];
        size_t j = k;
        roof_evaluate(c, r, &e);
        if (block == 0 || e.copy != roof) {
            roof = e.copy;
            member = 0;
            if (roof) {
                /* the roof in the darkest shade of its family, its series in the lighter ones */
                family++;
                /* dp's roof dashed: sp's and dp's copies run at nearly one bandwidth, so
                 * their lines lie on each other */
                fprintf(gp, "%s%.6g*1e3/x with lines lw 2 dt %d lc rgb '%s' title ",
                        elems ? ", \\\n    " : "plot ", roof->bw_dram_GBs * roof_devices(r),
                        strcmp(roof->precision, "dp") == 0 ? 2 : 1, colour(family, 0));
                snprintf(title, sizeof title, "roof: %s %s %s %s %.4g GB/s", roof->device,
                         roof->backend, roof->precision, roof->kernel, roof->bw_dram_GBs);
                gp_str(gp, title);
                elems++;
            }
        }
        fprintf(dat, "# %s %s %s %s %s\n", r->host, r->device, r->backend, r->precision, r->kernel);
        for (; j < n && cmp_roof_series(&t->rows[idx[j]], r) == 0; j++)
            fprintf(dat, "%.6g %.6g\n", t->rows[idx[j]].dram_bytes, t->rows[idx[j]].mflups);
        fprintf(dat, "\n\n");
        snprintf(title, sizeof title, "%s %s %s %s%s", r->device, r->backend, r->kernel,
                 r->precision, roof ? "" : " (no ceiling)");
        fprintf(gp,
                "%s'roofline.dat' index %d using 1:2 with points pt %d ps 1.3 lc rgb '%s' "
                "title ",
                elems ? ", \\\n    " : "plot ", block, 5 + 2 * (member % 4),
                roof ? colour(family, 1 + member % (SHADES - 1)) : colour(NFAMILIES - 1, member));
        gp_str(gp, title);
        block++;
        elems++;
        member++;
        k = j;
    }
    fprintf(gp, "\n");
    free(idx);
    return 0;
}

/* ---- 2. and 3. rate against size or padding ---- */
static int vary_pad_mode;

/* a series: (host, device, backend, precision, kernel, collision, geometry, layout, align, and
 * pad or the dims), then x */
static int cmp_series(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device)) ||
        (c = strcmp(a->backend, b->backend)) || (c = strcmp(a->precision, b->precision)) ||
        (c = strcmp(a->kernel, b->kernel)) || (c = strcmp(a->collision, b->collision)) ||
        (c = strcmp(a->geometry, b->geometry)) || (c = strcmp(a->layout, b->layout)))
        return c;
    if (a->align != b->align) return (a->align > b->align) - (a->align < b->align);
    if (vary_pad_mode) {
        if (a->nx != b->nx) return (a->nx > b->nx) - (a->nx < b->nx);
        if (a->ny != b->ny) return (a->ny > b->ny) - (a->ny < b->ny);
        if (a->nz != b->nz) return (a->nz > b->nz) - (a->nz < b->nz);
    } else if (a->pad != b->pad) {
        return (a->pad > b->pad) - (a->pad < b->pad);
    }
    return 0;
}

static int cmp_series_x(const struct csv_row *a, const struct csv_row *b)
{
    int c = cmp_series(a, b);
    int64_t xa = vary_pad_mode ? a->pad : a->nx, xb = vary_pad_mode ? b->pad : b->nx;
    return c ? c : (xa > xb) - (xa < xb);
}

static int same_machine(const struct csv_row *a, const struct csv_row *b)
{
    return roof_eq(a->host, b->host) && roof_eq(a->device, b->device) &&
           roof_eq(a->backend, b->backend);
}

/* a series worth a line: at least two distinct x values (rows ix[k..j) sorted by x) */
static int series_has_line(const struct csv_table *t, const size_t *ix, size_t k, size_t j)
{
    const struct csv_row *a = &t->rows[ix[k]], *b = &t->rows[ix[j - 1]];
    return vary_pad_mode ? a->pad != b->pad : a->nx != b->nx;
}

/* One panel per device (gnuplot multiplot), one gnuplot index block per series with at least
 * two distinct x values, its ceiling dashed in its colour. Returns the block count, or -1
 * when out of memory. */
static int write_series(FILE *dat, FILE *gp, const struct csv_table *t,
                        const struct roof_ceilings *c, int vary_pad)
{
    static const char *const names[] = {"size", "padding"};
    int blocks = 0, panels = 0, member = 0;
    const struct csv_row *machine = NULL;
    size_t n = 0, *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    if (!idx) return -1;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].bench, "lbm") == 0) idx[n++] = i;
    vary_pad_mode = vary_pad;
    roof_sort_rows(t, idx, n, cmp_series_x);
    /* first pass: the panels (devices with a line), for the page size */
    for (size_t k = 0; k < n;) {
        const struct csv_row *r = &t->rows[idx[k]];
        size_t j = k;
        while (j < n && cmp_series(&t->rows[idx[j]], r) == 0)
            j++;
        if (series_has_line(t, idx, k, j) && (!machine || !same_machine(machine, r))) {
            machine = r;
            panels++;
        }
        k = j;
    }
    if (panels == 0) {
        free(idx);
        return 0;
    }
    fprintf(gp,
            "set terminal svg size 1000,%d dynamic background rgb 'white' noenhanced\n"
            "set output '%s.svg'\nset xlabel '%s'\nset ylabel 'MFLUP/s'\nset grid\n"
            "set key outside right top\nset yrange [0:*]\n"
            "set multiplot layout %d,1 title 'MFLUP/s against %s, one panel per device "
            "(dashed: the ceiling of the series of the same colour)'\n",
            80 + 380 * panels, names[vary_pad],
            vary_pad ? "pad (elements per x row)" : "nx (domain edge)", panels,
            vary_pad ? "padding" : "domain size");
    machine = NULL;
    for (size_t k = 0; k < n;) {
        const struct csv_row *r = &t->rows[idx[k]];
        size_t j = k;
        const char *col;
        char title[640];
        while (j < n && cmp_series(&t->rows[idx[j]], r) == 0)
            j++;
        if (!series_has_line(t, idx, k, j)) {
            k = j;
            continue;
        }
        if (!machine || !same_machine(machine, r)) {
            if (machine) fprintf(gp, "\n");
            machine = r;
            member = 0;
            snprintf(title, sizeof title, "%s (%s on host %s)", r->device, r->backend, r->host);
            fprintf(gp, "set title ");
            gp_str(gp, title);
            fprintf(gp, "\nplot ");
        } else {
            fprintf(gp, ", \\\n    ");
        }
        col = colour(member % NFAMILIES, member / NFAMILIES); /* a hue per series of a panel */
        member++;
        fprintf(dat, "# %s %s %s %s %s %s align %lld%s\n", r->host, r->device, r->backend,
                r->precision, r->kernel, r->collision, (long long)(r->align > 0 ? r->align : 0),
                vary_pad ? "" : " (x: nx)");
        for (size_t q = k; q < j; q++) {
            struct roof_eval e;
            const struct csv_row *p = &t->rows[idx[q]];
            roof_evaluate(c, p, &e);
            fprintf(dat, "%lld %.6g %.6g\n", (long long)(vary_pad ? p->pad : p->nx), p->mflups,
                    e.ceiling_mflups);
        }
        fprintf(dat, "\n\n");
        snprintf(title, sizeof title, "%s %s %s%s%s align %lld%s", r->precision, r->kernel,
                 r->collision, r->layout[0] ? " " : "", r->layout,
                 (long long)(r->align > 0 ? r->align : 0),
                 vary_pad ? "" : (r->pad > 0 ? " padded" : ""));
        fprintf(gp, "'%s.dat' index %d using 1:2 with linespoints lw 2 pt 7 lc rgb '%s' title ",
                names[vary_pad], blocks, col);
        gp_str(gp, title);
        fprintf(gp, ", '' index %d using 1:3 with lines dashtype 2 lw 1.5 lc rgb '%s' notitle",
                blocks, col);
        blocks++;
        k = j;
    }
    fprintf(gp, "\nunset multiplot\n");
    free(idx);
    return blocks;
}

/* ---- 4. rate against power ---- */
/* a series: one device's kernel x precision */
static int cmp_energy_series(const struct csv_row *a, const struct csv_row *b)
{
    int c;
    if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->device, b->device)) ||
        (c = strcmp(a->backend, b->backend)) || (c = strcmp(a->precision, b->precision)))
        return c;
    return strcmp(a->kernel, b->kernel);
}

static int has_energy(const struct csv_row *r)
{
    return strcmp(r->bench, "lbm") == 0 && r->power_W > 0 && r->mflups_per_W > 0;
}

/* a round step (1, 2 or 5 x a power of ten) that cuts [0, hi] into about `parts` */
static double round_step(double hi, int parts)
{
    double raw = hi / parts, d = pow(10.0, floor(log10(raw)));
    return raw <= d ? d : raw <= 2 * d ? 2 * d : raw <= 5 * d ? 5 * d : 10 * d;
}

/* the point shape of a kernel: filled for sp (and other precisions), open for dp */
static int energy_point(int kernel, const char *precision)
{
    static const int filled[] = {7, 5, 9, 13, 11}, open[] = {6, 4, 8, 12, 10};
    int k = kernel % 5;
    return strcmp(precision, "dp") == 0 ? open[k] : filled[k];
}

/* the power limits of the devices, each distinct figure once with the devices that have it */
#define MAX_LIMITS 8
struct limit {
    double watts;
    char devices[512];
};

static void add_limit(struct limit *l, int *nl, const struct csv_row *r)
{
    int k = 0;
    if (!(r->power_limit_W > 0)) return;
    while (k < *nl && l[k].watts != r->power_limit_W)
        k++;
    if (k == *nl) {
        if (*nl == MAX_LIMITS) return;
        l[k].watts = r->power_limit_W;
        l[k].devices[0] = '\0';
        (*nl)++;
    }
    if (!strstr(l[k].devices, r->device)) {
        size_t used = strlen(l[k].devices);
        snprintf(l[k].devices + used, sizeof l[k].devices - used, "%s%s", used ? ", " : "",
                 r->device);
    }
}

/* MFLUP/s (the energy window's mean rate: mflups_per_W x power_W, so that a point's slope
 * from the origin is its MFLUP/s per W) against mean power. A colour per device, a shape per
 * kernel, filled for sp and open for dp; each legend entry gives its MFLUP/s per W; grey
 * dotted lines of equal MFLUP/s per W through the origin, labelled where they leave the
 * chart; a dashed line at each power limit. Returns 0, or -1 when out of memory. */
static int write_energy(FILE *dat, FILE *gp, const struct csv_table *t)
{
    size_t n = 0, *idx = malloc((t->n ? t->n : 1) * sizeof *idx);
    const char **kernels = malloc((t->n ? t->n : 1) * sizeof *kernels);
    const struct csv_row *machine = NULL;
    struct limit limits[MAX_LIMITS];
    double xmax = 0, ymax = 0, emax = 0, step;
    int block = 0, family = -1, nlimits = 0, nkernels = 0;
    if (!idx || !kernels) {
        free(idx);
        free(kernels);
        return -1;
    }
    for (size_t i = 0; i < t->n; i++)
        if (has_energy(&t->rows[i])) idx[n++] = i;
    roof_sort_rows(t, idx, n, cmp_energy_series);
    fprintf(gp, "set terminal svg size 1000,760 dynamic background rgb 'white' noenhanced\n"
                "set output 'energy.svg'\n");
    if (n == 0) {
        fputs("set title 'MFLUP/s against power: no lbm rows with energy (power_W, "
              "mflups_per_W)'\n",
              gp);
        fputs(no_data, gp);
        free(idx);
        free(kernels);
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        const struct csv_row *r = &t->rows[idx[k]];
        double y = r->mflups_per_W * r->power_W;
        int q = 0;
        xmax = r->power_W > xmax ? r->power_W : xmax;
        xmax = r->power_limit_W > xmax ? r->power_limit_W : xmax;
        ymax = y > ymax ? y : ymax;
        emax = r->mflups_per_W > emax ? r->mflups_per_W : emax;
        add_limit(limits, &nlimits, r);
        while (q < nkernels && !roof_eq(kernels[q], r->kernel))
            q++;
        if (q == nkernels) kernels[nkernels++] = r->kernel;
    }
    xmax *= 1.1;
    ymax *= 1.15;
    fprintf(gp,
            "set title 'LBM MFLUP/s against mean power over the timed work (grey dotted: equal "
            "MFLUP/s per W)'\n"
            "set xlabel 'mean power during the timed repetitions, W (idle power not "
            "subtracted)'\n"
            "set ylabel 'MFLUP/s (mean over the energy window)'\n"
            "set xrange [0:%.6g]\nset yrange [0:%.6g]\nset grid\n"
            "set key outside below left Left reverse maxcols 2 title 'colour: device;  shape: "
            "kernel;  filled: sp, open: dp'\n",
            xmax, ymax);
    for (int k = 0; k < nlimits; k++) {
        char label[640];
        fprintf(gp,
                "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 1.5 lc rgb "
                "'#636363'\n",
                limits[k].watts, limits[k].watts);
        snprintf(label, sizeof label, "power limit %.4g W (%s)", limits[k].watts,
                 limits[k].devices);
        fprintf(gp, "set label ");
        gp_str(gp, label);
        /* at the foot of the line: the slopes' labels take the top and the right edge */
        fprintf(gp, " at %.6g, graph %.3f right offset -0.5,0 tc rgb '#636363'\n", limits[k].watts,
                0.04 + 0.04 * k);
    }
    /* lines of equal MFLUP/s per W: about four round slopes up to the best figure, each
     * labelled where it leaves the chart (the right edge, or the top) */
    step = round_step(emax, 4);
    fprintf(gp, "set style textbox opaque noborder\nplot "); /* labels hide what they cross */
    for (int i = 1; i * step <= emax * 1.5 && i <= 12; i++) {
        double s = i * step, x = xmax, y = s * xmax, above = 0.6; /* above a shallow line */
        if (y > ymax) {
            x = ymax / s; /* leaves through the top: the label under the edge, left of it */
            y = ymax;
            above = -0.6;
        }
        fprintf(gp, "%s%.6g*x with lines dt 3 lw 1.2 lc rgb '#969696' notitle", i > 1 ? ", " : "",
                s);
        fprintf(gp,
                ", '+' using (%.6g):(%.6g):('%.4g MFLUP/s per W') every ::0::0 with labels "
                "boxed right offset -0.4,%.1f tc rgb '#737373' notitle",
                x, y, s, above);
    }
    for (size_t k = 0; k < n;) {
        const struct csv_row *r = &t->rows[idx[k]];
        double lo = INFINITY, hi = 0;
        char title[640], per_w[64];
        int q = 0;
        size_t j = k;
        if (!machine || !same_machine(machine, r)) {
            machine = r;
            family++;
        }
        while (!roof_eq(kernels[q], r->kernel))
            q++;
        fprintf(dat, "# %s %s %s %s %s: power_W, window MFLUP/s, MFLUP/s per W\n", r->host,
                r->device, r->backend, r->precision, r->kernel);
        for (; j < n && cmp_energy_series(&t->rows[idx[j]], r) == 0; j++) {
            const struct csv_row *p = &t->rows[idx[j]];
            fprintf(dat, "%.6g %.6g %.6g\n", p->power_W, p->mflups_per_W * p->power_W,
                    p->mflups_per_W);
            lo = p->mflups_per_W < lo ? p->mflups_per_W : lo;
            hi = p->mflups_per_W > hi ? p->mflups_per_W : hi;
        }
        fprintf(dat, "\n\n");
        if (j - k == 1)
            snprintf(per_w, sizeof per_w, "%.1f", hi);
        else
            snprintf(per_w, sizeof per_w, "%.1f-%.1f", lo, hi);
        snprintf(title, sizeof title, "%s %s %s %s: %s MFLUP/s per W", r->device, r->backend,
                 r->kernel, r->precision, per_w);
        fprintf(gp,
                ", \\\n    'energy.dat' index %d using 1:2 with points pt %d ps 1.8 lw 2 lc rgb "
                "'%s' title ",
                block, energy_point(q, r->precision), colour(family, 1));
        gp_str(gp, title);
        block++;
        k = j;
    }
    fprintf(gp, "\n");
    free(idx);
    free(kernels);
    return 0;
}

/* the first executable `gnuplot` on PATH */
static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    char buf[4096];
    if (!path) return 0;
    while (*path) {
        size_t len = strcspn(path, ":");
        if (len && len + sizeof "/gnuplot" < sizeof buf) {
            memcpy(buf, path, len);
            memcpy(buf + len, "/gnuplot", sizeof "/gnuplot");
            if (access(buf, X_OK) == 0) return 1;
        }
        path += len + (path[len] == ':');
    }
    return 0;
}

/* gnuplot SCRIPT in dir, no shell; 0, or 1 with the reason on stderr */
static int run_gnuplot(const char *dir, const char *script)
{
    int status;
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "roofline: --plot: cannot start gnuplot: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        char *argv[] = {"gnuplot", (char *)script, NULL};
        /* stdout is the CSV's: gnuplot's chatter goes to stderr */
        if (chdir(dir) != 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) _exit(126);
        execvp("gnuplot", argv);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "roofline: --plot: waiting for gnuplot: %s\n", strerror(errno));
            return 1;
        }
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "roofline: --plot: gnuplot was killed by signal %d on %s/%s\n",
                WTERMSIG(status), dir, script);
        return 1;
    }
    if (WEXITSTATUS(status) != 0) {
        fprintf(stderr, "roofline: --plot: gnuplot failed (exit %d) on %s/%s\n",
                WEXITSTATUS(status), dir, script);
        return 1;
    }
    return 0;
}

int roof_plot_folder(const char *dir, int *made)
{
    *made = mkdir(dir, 0777) == 0;
    if (*made || errno == EEXIST) return 0;
    fprintf(stderr, "roofline: --plot %s: %s (give a folder that can be made or written)\n", dir,
            strerror(errno));
    return 2;
}

int roof_plot(const char *dir, const struct csv_table *t)
{
    const char *const *names = plot_names;
    struct roof_ceilings *c = NULL;
    int rc = 0;
    if (roof_ceilings_build(t, &c)) {
        fprintf(stderr, "roofline: out of memory\n");
        return 2;
    }
    for (int i = 0; i < 4 && rc == 0; i++) {
        char dname[32], gname[32];
        FILE *dat, *gp;
        int w = 0;
        snprintf(dname, sizeof dname, "%s.dat", names[i]);
        snprintf(gname, sizeof gname, "%s.gp", names[i]);
        dat = open_in(dir, dname);
        gp = open_in(dir, gname);
        if (!dat || !gp) {
            fprintf(stderr, "roofline: --plot %s: cannot write into it: %s\n", dir,
                    strerror(errno));
            close_both(dat, gp);
            rc = 2;
            break;
        }
        if (i == 0) {
            w = write_roofline(dat, gp, t, c);
        } else if (i == 3) {
            w = write_energy(dat, gp, t) < 0;
        } else {
            int vary_pad = i == 2;
            w = write_series(dat, gp, t, c, vary_pad);
            if (w == 0)
                fprintf(gp,
                        "set terminal svg size 1000,400 dynamic background rgb 'white' "
                        "noenhanced\nset output '%s.svg'\nset title 'MFLUP/s against %s: no "
                        "series with two or more %s'\n%s",
                        names[i], vary_pad ? "padding" : "domain size", vary_pad ? "pads" : "sizes",
                        no_data);
            w = w < 0;
        }
        errno = 0;
        if (close_both(dat, gp) || w) { /* a full disk, a size limit: no half-written pair */
            fprintf(stderr, "roofline: error: --plot %s: writing %s and %s failed%s%s\n", dir,
                    dname, gname, errno ? ": " : "", errno ? strerror(errno) : "");
            remove_in(dir, dname);
            remove_in(dir, gname);
            rc = 3;
        }
    }
    roof_ceilings_free(c);
    if (rc) return rc;
    if (!have_gnuplot()) {
        fprintf(stderr,
                "roofline: gnuplot not found: the plots are written as .gp and .dat in "
                "%s; render them there with: gnuplot roofline.gp size.gp padding.gp "
                "energy.gp\n",
                dir);
        return 0;
    }
    for (int i = 0; i < 4 && rc == 0; i++) {
        char gname[32];
        snprintf(gname, sizeof gname, "%s.gp", names[i]);
        if (run_gnuplot(dir, gname)) rc = 3;
    }
    return rc;
}
