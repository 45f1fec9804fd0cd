#!/usr/bin/env bash
# Streams a generated multi-GB game file through `kifu convert` and reports peak memory.
#
#   bash benches/stream_memory.sh [GIB]     (default 2; needs GIB of free disk under target/)
#
# The file is Logistello logbook lines (tests/data/logbook-200.gam) repeated until it passes
# GIB gibibytes. The figure that matters is "Maximum resident set size": it must stay far below
# 200 MB whatever the input size, because records are read, converted and written in bounded
# batches.
set -euo pipefail
cd "$(dirname "$0")/.."
gib="${1:-2}"
dir=target/stream-bench
mkdir -p "$dir"
big="$dir/big-${gib}g.gam"
if [[ ! -f "$big" ]]; then
    cp tests/data/logbook-200.gam "$dir/seed.gam"
    target_bytes=$((gib * 1024 * 1024 * 1024))
    while [[ $(stat -c %s "$dir/seed.gam") -lt $target_bytes ]]; do
        cat "$dir/seed.gam" "$dir/seed.gam" > "$dir/next.gam"
        mv "$dir/next.gam" "$dir/seed.gam"
    done
    mv "$dir/seed.gam" "$big"
fi
cargo build --release --quiet
echo "input: $big, $(stat -c %s "$big") bytes, $(wc -l < "$big") games"
/usr/bin/time -v target/release/kifu convert "$big" --to transcript -q > /dev/null 2> "$dir/time.txt" || true
grep -E "Maximum resident set size|Elapsed|User time|System time|Exit status" "$dir/time.txt"
