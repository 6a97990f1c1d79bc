#!/bin/sh
# bench/run.sh - planning benchmarks (docs/bench.md).
#
#   bench/run.sh [--quick] [--runs N] [--build DIR]
#
# Builds ac-bench (in $BUILD, default build/), generates synthetic joint
# graphs with bench/gen_joint.py (transformer stacks and ResNets of about 10k,
# 25k, 50k and 100k ops; --quick: 10k only) into bench/out/graphs/, and runs
# ac-bench over examples/corpus/*.mlir and them: a block per graph and a
# summary table on stdout (also bench/out/bench.txt), CSV in bench/out/
# (graphs.csv, timing.csv, quality.csv).  Times are CPU-time medians of
# --runs runs (default 5; 3 for graphs over 20k ops); nothing is asserted.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
runs=5
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --runs) runs=$2; shift ;;
    --build) build=$2; shift ;;
    *) echo "usage: bench/run.sh [--quick] [--runs N] [--build DIR]" >&2; exit 2 ;;
  esac
  shift
done

out=$root/bench/out
mkdir -p "$out/graphs"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target ac-bench -j2 >/dev/null

python=/usr/bin/python3
[ -x "$python" ] || python=python3
sizes="10000 25000 50000 100000"
[ "$quick" = 1 ] && sizes="10000"
small=""
large=""
for n in $sizes; do
  for kind in tx conv; do
    f=$out/graphs/${kind}_${n}.mlir
    if [ ! -f "$f" ] || [ "$root/bench/gen_joint.py" -nt "$f" ]; then
      "$python" "$root/bench/gen_joint.py" "$kind" --ops "$n" --name "${kind}_${n}" -o "$f"
    fi
    if [ "$n" -le 20000 ]; then small="$small $f"; else large="$large $f"; fi
  done
done

bench=$build/bin/ac-bench
{
  "$bench" --runs "$runs" --out "$out/small" "$root"/examples/corpus/*.mlir $small
  if [ -n "$large" ]; then
    lruns=$runs
    [ "$lruns" -gt 3 ] && lruns=3
    "$bench" --runs "$lruns" --out "$out/large" $large
  fi
} | tee "$out/bench.txt"

# One CSV of each kind over both runs.
for csv in graphs timing quality; do
  head -n 1 "$out/small/$csv.csv" >"$out/$csv.csv"
  for part in small large; do
    [ -f "$out/$part/$csv.csv" ] && tail -n +2 "$out/$part/$csv.csv" >>"$out/$csv.csv"
  done
done
rm -rf "$out/small" "$out/large"
echo "CSV: $out/graphs.csv $out/timing.csv $out/quality.csv"
