#!/usr/bin/env bash
# `gpueff analyze` end to end (translation + trace + report in one pass; --no-trace: the report only) against
# `translate` alone, on the sample export
# and on the large exports of make_export.sh (run.sh generates them). Usage: bench/analyze.sh [default|full]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}
scale=${1:-default}
bin=$work/gpueff-analyze
cp "${GPUEFF:-$root/build/gpueff}" "$bin" # a rebuild during the run does not change what is measured
core=${BENCH_CORE:-0}
out=$work/analyze-out
# One row: analyze (trace and report in one pass), analyze --no-trace (the report only) or translate alone.
measure() { # label, mode (analyze|no-trace|translate), inputs...
    local label=$1 mode=$2; shift 2
    rm -rf "$out"; mkdir -p "$out"
    local t0=$(date +%s.%N)
    case $mode in
    analyze) /usr/bin/time -f "%M" -o "$out.rss" taskset -c "$core" "$bin" analyze "$@" -o "$out" -q --stats >"$out.stats" ;;
    no-trace) /usr/bin/time -f "%M" -o "$out.rss" taskset -c "$core" "$bin" analyze "$@" -o "$out" -q --stats --no-trace >"$out.stats" ;;
    translate) /usr/bin/time -f "%M" -o "$out.rss" taskset -c "$core" "$bin" translate "$@" -o "$out/t" -q; echo "-" >"$out.stats" ;;
    esac
    local t1=$(date +%s.%N)
    local prv=$( (du -bc "$out"/*.prv 2>/dev/null || echo 0) | tail -1 | cut -f1)
    printf '| %s | %s | %s | %.2f | %s | %s MB |\n' "$label" "$mode" "$(cat "$out.stats")" "$(echo "$t1 - $t0" | bc)" \
        "$((prv / 1000000)) MB" "$(( $(cat "$out.rss") / 1024 ))"
    rm -f "$out"/*.prv
}
echo "| input | run | phases (s) | wall (s) | .prv | peak RSS |"
echo "|---|---|---|---|---|---|"
for mode in translate analyze no-trace; do
    for i in 1 2 3; do measure sample $mode "$root/data/nsys/mfu_2gpu_h100_nccl.sqlite"; done
    [ -f "$work/mfu_2gpu_h100_nccl_x250.sqlite" ] && measure 1M $mode "$work/mfu_2gpu_h100_nccl_x250.sqlite"
    if [ "$scale" = full ]; then
        measure "16 x 1M" $mode "$work/mfu_2gpu_h100_nccl_x250.sqlite" "$work"/mfu_2gpu_h100_nccl_x250_rank??.sqlite
    fi
done
