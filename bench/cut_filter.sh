#!/usr/bin/env bash
# Benchmark of `gpueff cut` and `gpueff filter` on a multi-GB .prv: translates mfu_2gpu_h100_nccl (3.2 MB of
# .prv), tiles it in time with tile_prv.sh to COPIES copies (default 500, about 1.6 GB) and times, on one core,
#   cut    the middle half of the trace (--begin end/4 --end 3*end/4)
#   cut    the first 1% (a small window: a trace gpueff wrote is read up to the window's end only)
#   filter --types 63000006,9400-9499 (kernels and GPU metrics)
#   filter --min-duration 20000 (kernels, calls, ranges shorter than 20 us)
#   filter --devices 1
# and, on an export tiled with make_export.sh (REGION_COPIES copies of the same source, default 30),
#   cut    --region ncclSend --occurrence 2 (a first pass finds the span: of an export, over its NVTX ranges)
#   cut    --begin/--end of that span (the second pass alone)
# printing input MB/s (input bytes / wall seconds, and / CPU seconds, user + system, which a machine shared with
# other jobs inflates less) and peak RSS. A `cat > /dev/null` of the file is the floor.
#   bench/cut_filter.sh [COPIES]
set -euo pipefail
cd "$(dirname "$0")/.."
GPUEFF=${GPUEFF:-build/gpueff}
copies=${1:-500}
work=${BENCH_WORK:-bench/work}/cutfilter
mkdir -p "$work"
src=${BENCH_SRC:-data/nsys/mfu_2gpu_h100_nccl.sqlite}
[[ -x $GPUEFF ]] || { cmake -S . -B build -DGPUEFF_TESTS=OFF >/dev/null && cmake --build build -j2 --target gpueff >/dev/null; }
[[ -f $work/one.prv ]] || "$GPUEFF" translate "$src" -o "$work/one" -q
big=$work/tiled_x$copies.prv
[[ -f $big ]] || bench/tile_prv.sh "$work/one.prv" "$big" "$copies"
end=$(head -1 "$big" | sed -E 's/^#Paraver \([^)]*\):([0-9]+).*/\1/')
mb=$(awk -v b="$(stat -c %s "$big")" 'BEGIN{printf "%.1f", b/1e6}')
core=${BENCH_CORE:-0}
measure() { # name, command...
    local name=$1 log
    shift
    log=$(mktemp)
    /usr/bin/time -f "TIME %e %M %U %S" taskset -c "$core" "$@" >/dev/null 2>"$log" || { cat "$log"; exit 1; }
    read -r secs rss user sys < <(awk '/^TIME/{print $2, $3, $4, $5}' "$log")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
    out=$(stat -c %s "$work/out.prv" 2>/dev/null || echo 0)
    printf "%-34s %9s %8s %8s %9s %9s %9s %10s\n" "$name" "$mb" "$secs" "$cpu" \
        "$(awk -v m="$mb" -v s="$secs" 'BEGIN{printf "%.0f", m/s}')" \
        "$(awk -v m="$mb" -v s="$cpu" 'BEGIN{printf "%.0f", m/(s > 0 ? s : 0.01)}')" \
        "$(awk -v b="$out" 'BEGIN{printf "%.1f", b/1e6}')" "$((rss / 1024))"
    rm -f "$log" "$work"/out.*
}
printf "%-34s %9s %8s %8s %9s %9s %9s %10s\n" case in_MB wall_s cpu_s MB/s MB/cpu_s out_MB peak_MB
measure "cat (floor)" cat "$big"
measure "cut middle half" "$GPUEFF" cut "$big" -o "$work/out" -q --begin $((end / 4)) --end $((3 * end / 4))
measure "cut first 1%" "$GPUEFF" cut "$big" -o "$work/out" -q --begin 0 --end $((end / 100))
measure "filter --types kernels,metrics" "$GPUEFF" filter "$big" -o "$work/out" -q --types 63000006,9400-9499
measure "filter --min-duration 20us" "$GPUEFF" filter "$big" -o "$work/out" -q --min-duration 20000
measure "filter --devices 1" "$GPUEFF" filter "$big" -o "$work/out" -q --devices 1
[[ -n ${KEEP_INPUT:-} ]] || rm -f "$big"
# --region of nsys exports: in MB of the export
region_copies=${REGION_COPIES:-30}
export_big=$work/export_x$region_copies.sqlite
[[ -f $export_big ]] || bench/make_export.sh "$src" "$export_big" "$region_copies" >/dev/null
mb=$(awk -v b="$(stat -c %s "$export_big")" 'BEGIN{printf "%.1f", b/1e6}')
measure "export: cut --region (2 passes)" "$GPUEFF" cut "$export_big" -o "$work/out" -q --region ncclSend --occurrence 2
span=$("$GPUEFF" cut "$export_big" -o "$work/out" --region ncclSend --occurrence 2 2>&1 |
    sed -nE "s/^gpueff: region .*: ([0-9]+) \.\. ([0-9]+).*/\1 \2/p")
rm -f "$work"/out.*
read -r span_begin span_end <<<"$span"
measure "export: cut --begin/--end (1 pass)" "$GPUEFF" cut "$export_big" -o "$work/out" -q --begin "$span_begin" --end "$span_end"
[[ -n ${KEEP_INPUT:-} ]] || rm -f "$export_big"
