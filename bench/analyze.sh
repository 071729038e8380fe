#!/usr/bin/env bash
# `gpueff analyze` end to end (translation + trace + report) against `translate` alone, on the sample export
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
measure() { # label, inputs...
    local label=$1; shift
    rm -rf "$out"; mkdir -p "$out"
    local t0=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$out.rss" taskset -c "$core" "$bin" analyze "$@" -o "$out" -q --stats >"$out.stats"
    local t1=$(date +%s.%N)
    local prv=$(du -b "$out"/*.prv | cut -f1)
    printf '| %s | %s | %.2f | %s | %s MB |\n' "$label" "$(cat "$out.stats")" "$(echo "$t1 - $t0" | bc)" \
        "$((prv / 1000000)) MB" "$(( $(cat "$out.rss") / 1024 ))"
    rm -f "$out"/*.prv
}
echo "| input | phases (s) | wall (s) | .prv | peak RSS |"
echo "|---|---|---|---|---|"
for i in 1 2 3; do measure sample "$root/data/nsys/mfu_2gpu_h100_nccl.sqlite"; done
[ -f "$work/mfu_2gpu_h100_nccl_x250.sqlite" ] && measure 1M "$work/mfu_2gpu_h100_nccl_x250.sqlite"
if [ "$scale" = full ]; then
    measure "16 x 1M" "$work/mfu_2gpu_h100_nccl_x250.sqlite" "$work"/mfu_2gpu_h100_nccl_x250_rank??.sqlite
fi
