#!/usr/bin/env bash
# `gpueff histogram` in bounded memory: one load against passes over the .prv forced by --memory-limit, on
# epoch_4proc tiled in time (bench/tile_prv.sh; COPIES, default 100: about 350 MB), with the five histogram
# cfgs of pypop (BENCH_PRV and CFGS choose another trace and cfgs). Prints wall and CPU time, peak RSS (GNU
# time), the passes made, and whether the outputs are byte-identical to the single load's. Big files go to
# WORK (default /tmp/gpueff-bench-passes), never the repository.
#   bench/histogram_passes.sh [LIMIT...]        (default: 1100M 700M 300M; gz=1 times the .prv.gz too)
set -euo pipefail
cd "$(dirname "$0")/.."
GPUEFF=${GPUEFF:-build/gpueff}
work=${WORK:-/tmp/gpueff-bench-passes}
copies=${COPIES:-100}
mkdir -p "$work"
src=${BENCH_PRV:-data/paraver/epoch/epoch_4proc.prv.gz}
cfgdir=${BENCH_CFGS:-data/paraver/cfgs}
cfgs=${CFGS:-"$cfgdir/total_runtime.cfg $cfgdir/total_useful_computation.cfg $cfgdir/useful_instructions.cfg $cfgdir/useful_cycles.cfg $cfgdir/serial_useful_computation.cfg"}
limits=("$@")
[[ ${#limits[@]} -gt 0 ]] || limits=(1100M 700M 300M)
t=$work/$(basename "${src%.gz}" .prv)_x$copies.prv
[[ -f $t ]] || bench/tile_prv.sh "$src" "$t" "$copies"
traces=("$t")
if [[ ${gz:-0} == 1 ]]; then
    [[ -f $t.gz ]] || gzip -1 -k "$t"
    traces+=("$t.gz")
fi
printf "%-30s %8s %8s %8s %9s %8s %s\n" trace limit wall_s cpu_s peak_MB passes same
for trace in "${traces[@]}"; do
    base=$(basename "$trace")
    for limit in none "${limits[@]}"; do
        log=$(mktemp)
        args=()
        [[ $limit == none ]] || args=(--memory-limit "$limit")
        # With no limit given, the default (half of MemAvailable) holds the whole trace: one load.
        /usr/bin/time -f "TIME %e %M %U %S" taskset -c "${BENCH_CORE:-0}" "$GPUEFF" histogram "$trace" $cfgs \
            -o "$work/out_${base}_$limit" "${args[@]}" 2>"$log"
        read -r wall rss cpu < <(awk '/^TIME/{print $2, $3, $4 + $5}' "$log")
        passes=$(sed -nE 's/.*read in ([0-9]+) passes.*/\1/p' "$log")
        same=ref
        if [[ $limit != none ]]; then
            diff -r "$work/out_${base}_none" "$work/out_${base}_$limit" >/dev/null && same=yes || same=NO
        fi
        printf "%-30s %8s %8s %8s %9s %8s %s\n" "$base" "$limit" "$wall" "$cpu" "$((rss / 1024))" "${passes:-1}" "$same"
        rm -f "$log"
    done
done
