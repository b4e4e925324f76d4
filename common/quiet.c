/* quiet.c: judging timed repetitions by the clock readings around them (quiet.h). */
#include "quiet.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* One reading (the lowest thread's); the highest thread's raises the process's high. NaN-free:
 * a probe that cannot read gives 0, which judges nothing (see is_quiet). */
static double probe(struct quiet_judge *q)
{
    double low, high;
    if (q->probe(q->threads, &low, &high) || !(low > 0) || !(high > 0)) return 0;
    if (high > q->high) q->high = high;
    if (low < q->row_low) q->row_low = low;
    return low;
}

/* repetition i (of a closed block) by this process's readings: read and quiet (an unread probe,
 * 0, judges nothing) */
static int quiet_here(const struct quiet_judge *q, int i)
{
    return q->low[i] <= 0 || q->low[i] >= QUIET_CLOCK_FRACTION * q->high;
}

/* repetition i (of a closed block) is quiet: here and wherever else it was judged */
static int is_quiet(const struct quiet_judge *q, int i)
{
    return !q->veto[i] && quiet_here(q, i);
}

/* repetitions of the open block that may still turn out quiet (none vetoed) */
static int open_hopes(const struct quiet_judge *q)
{
    return q->pending - q->open_vetoed;
}

void quiet_begin(struct quiet_judge *q, int wanted)
{
    q->wanted = wanted;
    q->made = q->pending = q->nquiet = q->open_vetoed = 0;
    q->changed_from = INT_MAX;
    q->since = 0;
    q->row_low = 1e300;
    q->show_high = 0;
    if (q->probe) q->before = probe(q);
}

int quiet_count(const struct quiet_judge *q)
{
    return q->probe ? q->nquiet : q->made;
}

int quiet_after(struct quiet_judge *q, double seconds)
{
    double after, low, high;
    if (!q->probe) {
        q->made++;
        return 0;
    }
    if (q->made == q->room) {
        int room = q->room ? 2 * q->room : 64;
        double *more = realloc(q->low, (size_t)room * sizeof *more);
        if (!more) return 1;
        q->low = more;
        unsigned char *vmore = realloc(q->veto, (size_t)room);
        if (!vmore) return 1;
        q->veto = vmore;
        q->room = room;
    }
    q->veto[q->made] = 0;
    q->made++;
    q->pending++;
    q->since += seconds;
    if (q->since < QUIET_PROBE_SPACING_S && quiet_count(q) + open_hopes(q) < q->wanted &&
        q->made < QUIET_ATTEMPTS_FACTOR * q->wanted)
        return 0; /* the block stays open */
    high = q->high;
    after = probe(q);
    /* an unread end (0) leaves the other to judge */
    low = after > 0 && (q->before <= 0 || after < q->before) ? after : q->before;
    for (int i = q->made - q->pending; i < q->made; i++)
        q->low[i] = low;
    if (q->high > high) { /* a new highest clock: every block judged again */
        q->nquiet = 0;
        for (int i = 0; i < q->made; i++)
            q->nquiet += is_quiet(q, i);
        q->changed_from = 0;
    } else {
        for (int i = q->made - q->pending; i < q->made; i++)
            q->nquiet += is_quiet(q, i);
        if (q->made - q->pending < q->changed_from) q->changed_from = q->made - q->pending;
    }
    q->pending = q->open_vetoed = 0;
    q->since = 0;
    q->before = after;
    return 0;
}

int quiet_more(const struct quiet_judge *q)
{
    if (!q->probe) return q->made < q->wanted;
    return quiet_count(q) + open_hopes(q) < q->wanted &&
           q->made < QUIET_ATTEMPTS_FACTOR * q->wanted;
}

int quiet_disturbed_here(const struct quiet_judge *q, int i)
{
    return q->probe && i < q->made - q->pending && !quiet_here(q, i);
}

void quiet_veto(struct quiet_judge *q, int i)
{
    if (!q->probe || i < 0 || i >= q->made || q->veto[i]) return;
    if (i >= q->made - q->pending)
        q->open_vetoed++;
    else if (is_quiet(q, i))
        q->nquiet--; /* counted among the closed */
    q->veto[i] = 1;
}

int quiet_changed_since(struct quiet_judge *q)
{
    const int from = q->changed_from < q->made ? q->changed_from : q->made;
    q->changed_from = INT_MAX;
    return from;
}

void quiet_show_clocks(struct quiet_judge *q, double high_MHz, double low_MHz)
{
    if (high_MHz > 0) q->show_high = high_MHz;
    if (low_MHz > 0 && low_MHz < q->row_low) q->row_low = low_MHz;
}

int quiet_select(const struct quiet_judge *q, double *times)
{
    int n = 0;
    if (!q->probe) return q->made;
    for (int i = 0; i < q->made; i++)
        if (is_quiet(q, i)) times[n++] = times[i];
    return n > 0 ? n : q->made;
}

void quiet_fill_row(const struct quiet_judge *q, struct csv_record *r)
{
    if (!q->probe) return;
    const double high = q->show_high > q->high ? q->show_high : q->high;
    r->cpu_clock_MHz = high > 0 ? high : r->cpu_clock_MHz;
    r->cpu_clock_low_MHz = q->row_low < 1e300 ? q->row_low : r->cpu_clock_low_MHz;
    r->reps_disturbed = q->made - quiet_count(q);
    if (quiet_count(q) < q->wanted) { /* the row's timing stands on fewer quiet reps than asked */
        size_t len = strlen(r->clock_events);
        if (len == 0 || strcmp(r->clock_events, "none") == 0)
            csv_set(r->clock_events, "cpu_unsteady");
        else if (len + sizeof "+cpu_unsteady" <= sizeof r->clock_events)
            strcat(r->clock_events, "+cpu_unsteady");
    }
}

void quiet_free(struct quiet_judge *q)
{
    free(q->low);
    q->low = NULL;
    free(q->veto);
    q->veto = NULL;
    q->room = 0;
}
