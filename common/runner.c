/* runner.c: the sweep both drivers run: expand, check, then run the cases and write their rows. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"

static int all_max(const struct runner *r, int v)
{
    return r->all_max ? r->all_max(v) : v;
}

int runner_add(struct runner *r, const void *c)
{
    if (r->ncases == RUNNER_CASES_MAX) {
        r->too_many = 1;
        return 1;
    }
    if (r->ncases == r->room) {
        size_t room = r->room ? 2 * r->room : 64;
        char *more = realloc(r->cases, room * r->ops->case_size);
        if (!more) return 1;
        r->cases = more;
        r->room = room;
    }
    memcpy(r->cases + r->ncases++ * r->ops->case_size, c, r->ops->case_size);
    return 0;
}

int runner_write(struct runner *r, const struct csv_record *row)
{
    char err[512];
    if (output_commit(&r->output, csv_write_row(output_stream(&r->output), row), err, sizeof err)) {
        r->write_failed = 1;
        cli_error(r->prog, OUTPUT_EXIT, "%s", err);
        return 1;
    }
    r->rows++;
    return 0;
}

/* The list, every case checked and the largest against the memory: 0, 1 (out of memory) or 2
 * (bad input), said by rank 0. */
static int prepare(struct runner *r)
{
    size_t largest = 0;
    char why[512];
    if (r->ops->expand(r->ctx, r)) {
        if (!r->too_many) return cli_error(r->prog, 1, "out of memory");
        return r->rank == 0
                   ? cli_error(r->prog, 2, "the sweep has more than %d cases: narrow its lists",
                               RUNNER_CASES_MAX)
                   : 2;
    }
    for (size_t i = 0; i < r->ncases; i++) {
        size_t bytes = 0;
        if (r->ops->check(r->ctx, r->cases + i * r->ops->case_size, &bytes, why, sizeof why))
            return r->rank == 0 ? cli_error(r->prog, 2, "%s", why) : 2;
        largest = bytes > largest ? bytes : largest;
    }
    if (r->memory_available > 0 && (double)largest > 0.9 * (double)r->memory_available) {
        if (r->rank == 0)
            cli_error(r->prog, 2, "%s needs %.2f GiB%s but only %.2f GiB are available: %s",
                      r->needs_what, largest / 1073741824.0, r->needs_per,
                      r->memory_available / 1073741824.0, r->needs_hint);
        return 2;
    }
    r->times = malloc((size_t)r->ntimes * sizeof *r->times);
    if (!r->times) return cli_error(r->prog, 1, "out of memory");
    return 0;
}

/* Every case in turn; 0, 1 (a case could not run or its row not be written) or 130. An
 * interrupt on any process stops all of them between two cases. */
static int sweep(struct runner *r)
{
    for (size_t i = 0; i < r->ncases; i++) {
        const void *c = r->cases + i * r->ops->case_size;
        char what[256];
        if (all_max(r, interrupt_requested())) return 130;
        r->ops->describe(r->ctx, c, what, sizeof what);
        if (r->rank == 0) progress_case(&r->progress, (int)i + 1, what);
        if (all_max(r, r->ops->run(r->ctx, r, c, what)))
            return all_max(r, interrupt_requested() && !r->write_failed) ? 130 : 1;
    }
    return 0;
}

/* The driver's note (a default size, a rounding), after the last refusal: bad input gets its one
 * line on stderr, no note before it (the output file's refusals come last) */
static void say_note(const struct runner *r)
{
    if (r->note) fprintf(stderr, "%s: %s\n", r->prog, r->note);
}

int runner_run(struct runner *r)
{
    char err[512];
    int rc;

    r->output.fd = -1;
    rc = all_max(r, prepare(r));
    if (rc) goto done;
    if (r->check_only) { /* the output's refusals too, the file made and changed in no way */
        if (r->rank == 0) {
            rc = output_check(r->out, r->out_mode, csv_write_header, err, sizeof err);
            if (rc) {
                rc = cli_error(r->prog, rc, "%s", err);
            } else {
                say_note(r);
                fprintf(stderr, "%s: --check: %zu case(s), every one accepted; none run\n", r->prog,
                        r->ncases);
            }
        }
        goto done;
    }
    if (r->rank == 0) { /* rank 0 alone writes the CSV */
        rc = output_open(&r->output, r->out, r->out_mode, csv_write_header, err, sizeof err);
        if (rc)
            rc = cli_error(r->prog, rc, "%s", err);
        else
            say_note(r);
        progress_start(&r->progress, r->prog, (int)r->ncases);
    }
    rc = all_max(r, rc);
    if (rc) goto done;
    energy_session_open(&r->energy, r->rank == 0 ? r->prog : NULL, r->energy_enabled,
                        r->energy_why_off);
    rc = sweep(r);
    if (rc == 130 && r->rank == 0)
        fprintf(stderr,
                "%s: interrupted: %d of %zu cases measured and written, the unfinished one "
                "dropped; the rows written are complete\n",
                r->prog, r->rows, r->ncases);
    if (r->failures) {
        fprintf(stderr, "%s: %d case(s) failed verification (verified=fail in their rows)\n",
                r->prog, r->failures);
        rc = 1;
    }
    if (r->write_failed) rc = OUTPUT_EXIT;
done:
    energy_session_close(&r->energy);
    if (output_close(&r->output, err, sizeof err)) rc = cli_error(r->prog, OUTPUT_EXIT, "%s", err);
    free(r->times);
    free(r->cases);
    quiet_free(&r->quiet);
    r->times = NULL;
    r->cases = NULL;
    return all_max(r, rc);
}
