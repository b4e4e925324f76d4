#!/usr/bin/env python3
"""tick_summary.py: from nvml_tick's CSVs in this folder, how often NVML's energy counter steps,
what a read of it costs, how often the instantaneous power changes and where against the
counter's steps, and the counter's power against the polled power step by step (printed as
tick-summary.txt)."""
import bisect
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return [(float(r['t_s']), float(r['read_s']), int(r['mJ']), float(r['instant_W']))
                for r in csv.DictReader(f)]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


for name in ['tick-idle.csv', 'tick-load.csv', 'tick-load-200us.csv']:
    R = load(name)
    # a counter step: first read showing a new value, at the read's middle (s)
    steps = [(R[i][0] + R[i][1] / 2, R[i][2]) for i in range(1, len(R)) if R[i][2] != R[i - 1][2]]
    period = [b[0] - a[0] for a, b in zip(steps, steps[1:])]
    # an instantaneous-power change, at the end of the energy read it followed (s)
    posts = [R[i][0] + R[i][1] for i in range(1, len(R)) if R[i][3] != R[i - 1][3]]
    post_period = [b - a for a, b in zip(posts, posts[1:])]
    offs = [p - min((s for s, _ in steps), key=lambda s: abs(s - p)) for p in posts]
    reads = [r[1] for r in R]
    dt = [b[0] - a[0] for a, b in zip(R, R[1:])]
    print(f'{name}: {len(R)} reads over {R[-1][0]:.2f} s, one every {pct(dt, 50) * 1e3:.1f} ms (median)')
    print(f'  energy read: median {pct(reads, 50) * 1e3:.1f} ms, 90th pct {pct(reads, 90) * 1e3:.1f}, '
          f'99th {pct(reads, 99) * 1e3:.1f}, max {max(reads) * 1e3:.1f}')
    print(f'  counter steps: {len(steps)}, period min {min(period) * 1e3:.1f} median '
          f'{pct(period, 50) * 1e3:.1f} max {max(period) * 1e3:.1f} ms')
    print(f'  instantaneous power changes: {len(posts)}, period median {pct(post_period, 50) * 1e3:.1f} ms; '
          f'offset from the nearest counter step, first to last: '
          + ' '.join(f'{o * 1e3:.0f}' for o in offs) + ' ms')
    if name == 'tick-load.csv':
        T = [r[0] + r[1] for r in R]
        W = [r[3] for r in R]

        def polled(a, b):  # the instantaneous power held from each read to the next, over [a, b]
            J, t = 0.0, a
            j = bisect.bisect(T, a)
            while t < b:
                nxt = T[j] if j < len(T) and T[j] < b else b
                J += W[max(j - 1, 0)] * (nxt - t)
                t, j = nxt, j + 1
            return J
        print('  step by step: span (s), counter W, polled instantaneous W')
        for (a, e0), (b, e1) in zip(steps, steps[1:]):
            print(f'    {a:.3f}-{b:.3f}  {(e1 - e0) * 1e-3 / (b - a):7.1f}  {polled(a, b) / (b - a):7.1f}')
