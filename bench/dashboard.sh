#!/usr/bin/env bash
# The dashboard at scale (issue: 1,000 runs of 8 devices and 50 iterations; bench/README.md "Dashboard"):
# the time and memory of `gpueff dashboard` writing the site, the weight of the index, and how long the index
# and a run's page take to be ready in headless Chromium (gpueff_browse, tests/HeadlessBrowser.h).
# Usage: bench/dashboard.sh [RUNS] [REPS]   (defaults 1000 and 3; inputs cached in bench/work/)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000}" reps="${2:-3}"
gpueff="${GPUEFF:-build/gpueff}" browse="${GPUEFF_BROWSE:-build/gpueff_browse}"
work="bench/work/dashboard"
inputs="$work/reports$runs"
if [ ! -d "$inputs" ]; then
  "$gpueff" analyze data/nsys/mfu_2gpu_h100_nccl.sqlite -q --no-trace -o "$work/template"
  python3 bench/make_reports.py "$work/template/report.json" "$inputs" "$runs" 8 50
fi
echo "inputs: $runs reports, $(du -sm "$inputs" | cut -f1) MB"
site="$work/site"
for i in $(seq "$reps"); do
  rm -rf "$site"
  /usr/bin/time -f "write: %e s wall, %U s user, %S s sys, %M KB peak RSS" "$gpueff" dashboard "$inputs" -o "$site" -q
done
index=$(( $(stat -c %s "$site/index.html" "$site/data/index.js" "$site"/assets/* | paste -sd+) ))
echo "index page weight: $index bytes (index.html, data/index.js, assets/)"
echo "a run's data file: $(stat -c %s "$site/runs/r0001.js") bytes"
for i in $(seq "$reps"); do
  "$browse" "file://$(realpath "$site")/index.html" | sed 's/^/index: /'
done
for i in $(seq "$reps"); do
  "$browse" "file://$(realpath "$site")/run.html?run=r0500" | sed 's/^/run page: /'
done
