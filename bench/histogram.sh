#!/usr/bin/env bash
# Benchmark of the semantic engine: tiles epoch_4proc (3.4 MB) in time to 1x, 4x (14 MB, the size of
# paramedir's 16-process reference), 16x and COPIES_MAX (default 300, about 1 GB) and times
# `gpueff histogram --stats` on the five histogram cfgs of pypop, printing MB/s and peak RSS.
#   bench/histogram.sh [copies...]
set -euo pipefail
cd "$(dirname "$0")/.."
GPUEFF=${GPUEFF:-build/gpueff}
work=bench/work/prv
mkdir -p "$work"
src=${BENCH_PRV:-/work/shared/data/paraver/epoch/epoch_4proc.prv.gz}
cfgdir=${BENCH_CFGS:-/work/shared/data/paraver/cfgs}
cfgs="$cfgdir/total_runtime.cfg $cfgdir/total_useful_computation.cfg $cfgdir/useful_instructions.cfg $cfgdir/useful_cycles.cfg $cfgdir/serial_useful_computation.cfg"
copies=("$@")
[[ ${#copies[@]} -gt 0 ]] || copies=(1 4 16 ${COPIES_MAX:-300})
[[ -x $GPUEFF ]] || cmake -S . -B build -DGPUEFF_TESTS=OFF >/dev/null && cmake --build build -j2 --target gpueff >/dev/null
printf "%-8s %9s %10s %10s %9s %9s %9s %9s %9s %9s %10s\n" copies MB load_s load_MB/s runtime useful instr cycles serial total_s peak_MB
for n in "${copies[@]}"; do
    t=$work/epoch4_x$n.prv
    [[ -f $t ]] || bench/tile_prv.sh "$src" "$t" "$n"
    mb=$(awk -v b="$(stat -c %s "$t")" 'BEGIN{printf "%.1f", b/1e6}')
    log=$(mktemp)
    /usr/bin/time -f "TIME %e %M" taskset -c ${BENCH_CORE:-0} "$GPUEFF" histogram "$t" $cfgs -o "$work/out_$n" -q --stats 2>"$log"
    load=$(awk '/^load/{print $(NF-1)}' "$log")
    per=$(awk '/^cfg/{printf "%s ", $(NF-1)}' "$log")
    read -r total rss < <(awk '/^TIME/{print $2, $3}' "$log")
    printf "%-8s %9s %10s %10s %9s %9s %9s %9s %9s %9s %10s\n" "$n" "$mb" "$load" \
        "$(awk -v m="$mb" -v s="$load" 'BEGIN{printf "%.0f", m/s}')" $per "$total" "$((rss / 1024))"
    rm -f "$log"
done
