#!/usr/bin/env python3
"""Scores a depth-limited search against exact labels.

    score.py LABELS.csv RUN.csv       labels from `kifu solve [--all-moves] --format csv`
    score.py --obf RUN.csv FILE.obf...  labels from OBF move scores (the FFO files)

RUN.csv is `kifu solve --depth D [--selectivity S] --format csv` on the same positions in the
same order. Prints the mean absolute error of the searched score against the exact best score,
the share of positions whose searched best move is one of the exactly best moves, and the
nodes and seconds summed.
"""
import csv
import sys


def from_allmoves(path):
    labels = []
    for row in csv.DictReader(open(path)):
        if row['moves']:
            moves = {m.split(':')[0]: int(m.split(':')[1]) for m in row['moves'].split()}
        else:
            # Labels from a plain `kifu solve`: the best move only (other moves of the same
            # score count as misses, so the best-move share is a lower bound).
            moves = {row['best_move'].lower(): int(row['score'])}
        labels.append(moves)
    return labels


def from_obf(paths):
    labels = []
    for path in paths:
        for line in open(path):
            parts = [p.strip() for p in line.strip().split(';') if p.strip()]
            labels.append({m.split(':')[0].strip().lower(): int(m.split(':')[1]) for m in parts[1:]})
    return labels


def main(argv):
    if argv[:1] == ['--obf']:
        run, labels = argv[1], from_obf(argv[2:])
    else:
        run, labels = argv[1], from_allmoves(argv[0])
    rows = list(csv.DictReader(open(run)))
    if len(rows) != len(labels):
        sys.exit(f"{len(rows)} results for {len(labels)} labelled positions")
    error = best = 0
    for row, moves in zip(rows, labels):
        top = max(moves.values())
        error += abs(float(row['score']) - top)
        best += moves.get(row['best_move'].lower(), -999) == top
    n = len(rows)
    nodes = sum(int(r['nodes']) for r in rows) / 1e6
    seconds = sum(float(r['seconds']) for r in rows)
    print(f"positions {n}  error {error / n:.2f}  best {100 * best / n:.0f}%  nodes {nodes:.1f} M  seconds {seconds:.1f}")


if __name__ == '__main__':
    main(sys.argv[1:])
