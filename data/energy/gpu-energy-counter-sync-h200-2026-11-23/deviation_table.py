#!/usr/bin/env python3
"""deviation_table.py: (energy_polled_J - energy_J) / energy_J row by row, for this study's three
runs and the two earlier H200 studies, as the markdown table in COMMAND.md; then this study's
windows (energy_J / power_W, s) and mean power (W)."""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
UP = os.path.dirname(HERE)
COLS = [('gpu-energy-clocks-h200 (b24e402)', 'gpu-energy-clocks-h200-2026-11-23', ['gpu-stream.csv', 'gpu-lbm.csv']),
        ('window-fix run 1 (0f8a522)', 'gpu-energy-window-fix-h200-2026-11-23', ['gpu-stream.csv', 'gpu-lbm.csv']),
        ('window-fix run 2 (lbm only)', 'gpu-energy-window-fix-h200-2026-11-23', ['gpu-lbm-repeat.csv'])]
COLS += [(f'counter-sync run {i}', os.path.basename(HERE), [f'gpu-stream-run{i}.csv', f'gpu-lbm-run{i}.csv'])
         for i in (1, 2, 3)]
ROWS = ['copy sp', 'copy dp', 'pull sp', 'aa sp', 'pull dp', 'aa dp']


def rows(folder, files):
    out = {}
    for f in files:
        with open(os.path.join(UP, folder, f)) as h:
            for r in csv.DictReader(h):
                out[f"{r['kernel']} {r['precision']}"] = r
    return out


data = [rows(folder, files) for _, folder, files in COLS]
print('| row | ' + ' | '.join(c[0] for c in COLS) + ' |')
print('|---' * (len(COLS) + 1) + '|')
worst = 0.0
for name in ROWS:
    cells = []
    for k, d in enumerate(data):
        r = d.get(name)
        if r is None:
            cells.append('-')
            continue
        dev = (float(r['energy_polled_J']) - float(r['energy_J'])) / float(r['energy_J']) * 100
        if k >= 3:
            worst = max(worst, abs(dev))
        cells.append(f'{dev:+.2f}%')
    print(f'| {name} | ' + ' | '.join(cells) + ' |')
print(f'\nlargest |deviation| over the three counter-sync runs: {worst:.2f}%\n')
print('| row | ' + ' | '.join(f'run {i}: window s, W, reps' for i in (1, 2, 3)) + ' |')
print('|---' * 4 + '|')
for name in ROWS:
    cells = []
    for d in data[3:]:
        r = d[name]
        cells.append(f"{float(r['energy_J']) / float(r['power_W']):.3f}, {float(r['power_W']):.1f}, {r['reps']}")
    print(f'| {name} | ' + ' | '.join(cells) + ' |')
print('\nmean power (power_W, W) and mean SM clock (MHz) in every study, and the clock events seen:\n')
print('| row | ' + ' | '.join(c[0] for c in COLS) + ' |')
print('|---' * (len(COLS) + 1) + '|')
for name in ROWS:
    cells = []
    for d in data:
        r = d.get(name)
        cells.append('-' if r is None else
                     f"{float(r['power_W']):.0f}, {float(r['sm_clock_MHz']):.0f}, {r['clock_events']}")
    print(f'| {name} | ' + ' | '.join(cells) + ' |')
