#!/usr/bin/env bash
# bench/parallel.sh
#
# Parallel and bounded reading of many reports: `gpueff translate -j 1` against `-j 2` (pinned to two cores
# with taskset) on R rank exports merged into one trace, for each R in $PAR_REPORTS. Prints per case: records,
# wall seconds (best of $PAR_REPS), CPU seconds (user + sys of that run), records/s, records per CPU second,
# peak RSS, open file descriptors at the peak (sampled), and the speedup of -j 2 over -j 1.
# Rank exports are $PAR_COPIES copies of $BENCH_SRC in time (bench/make_export.sh RANK), cached in
# bench/work/par/ (git-ignored). The machine may be shared: wall times are then upper bounds, CPU seconds
# are the steadier measure of work.
#
# Environment: GPUEFF (binary, default build/gpueff), BENCH_SRC (default data/nsys/mfu_2gpu_h100_nccl.sqlite),
# PAR_COPIES (1), PAR_REPORTS ("1 16 64"), PAR_JOBS ("1 2"), PAR_REPS (2), PAR_CORES ("0,1"), BENCH_WORK.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}/par
src=${BENCH_SRC:-$root/data/nsys/mfu_2gpu_h100_nccl.sqlite}
copies=${PAR_COPIES:-1}
reports=${PAR_REPORTS:-1 16 64}
jobs_list=${PAR_JOBS:-1 2}
reps=${PAR_REPS:-2}
cores=${PAR_CORES:-0,1}
gpueff=${GPUEFF:-$root/build/gpueff}
mkdir -p "$work/out"
for tool in sqlite3 taskset /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is required" >&2; exit 2; }
done
[[ -x $gpueff ]] || { echo "$0: $gpueff not built (cmake --build build)" >&2; exit 2; }

max=0
for r in $reports; do ((r > max)) && max=$r; done
for ((k = 0; k < max; ++k)); do
    f=$work/c${copies}_r$k.sqlite
    [[ -f $f && $f -nt $here/make_export.sh ]] || "$here/make_export.sh" "$src" "$f" "$copies" "$k" >/dev/null
done

# run JOBS INPUTS... -> "wall cpu rss_kb records fds"
measure() {
    local jobs=$1
    shift
    local t=$work/out/time.txt
    taskset -c "$cores" /usr/bin/time -f "%e %U %S %M" -o "$t" \
        "$gpueff" translate -q --stats -j "$jobs" "$@" -o "$work/out/trace" >"$work/out/stats.txt" &
    local pid=$! peak=0 n
    # The fds of gpueff itself (the child of time), sampled every 10 ms.
    while kill -0 $pid 2>/dev/null; do
        for c in $(pgrep -P $pid 2>/dev/null); do
            n=$(ls /proc/$c/fd 2>/dev/null | wc -l)
            ((n > peak)) && peak=$n
        done
        sleep 0.01
    done
    wait $pid
    local records
    records=$(sed -n 's/.*records=\([0-9]*\).*/\1/p' "$work/out/stats.txt")
    read -r wall user sys rss <"$t"
    echo "$wall $(echo "$user + $sys" | bc) $rss $records $peak"
}

printf '%-8s %-4s %10s %8s %8s %12s %14s %9s %5s %8s\n' reports jobs records wall_s cpu_s records/s \
    records/cpu_s rss_MB fds speedup
for r in $reports; do
    inputs=()
    for ((k = 0; k < r; ++k)); do inputs+=("$work/c${copies}_r$k.sqlite"); done
    cat "${inputs[@]}" >/dev/null # warm page cache
    base=""
    for j in $jobs_list; do
        best=""
        for ((i = 0; i < reps; ++i)); do
            m=$(measure "$j" "${inputs[@]}")
            if [[ -z $best ]] || (($(echo "${m%% *} < ${best%% *}" | bc))); then best=$m; fi
        done
        read -r wall cpu rss records fds <<<"$best"
        [[ -z $base ]] && base=$wall
        printf '%-8s %-4s %10s %8.2f %8.2f %12.0f %14.0f %9.1f %5s %7.2fx\n' "$r" "$j" "$records" "$wall" "$cpu" \
            "$(echo "$records / $wall" | bc -l)" "$(echo "$records / $cpu" | bc -l)" \
            "$(echo "$rss / 1024" | bc -l)" "$fds" "$(echo "$base / $wall" | bc -l)"
    done
done
rm -f "$work/out/trace".{prv,pcf,row,json}
