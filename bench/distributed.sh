#!/usr/bin/env bash
# bench/distributed.sh
#
# `mpirun -n R gpueff analyze` against one process: R processes share the reports (jobs/Distributed.h), each
# running the pre-pass over a share of them (the findings exchanged) and the names pass and the reading over
# its own share. For each case prints the
# wall seconds (best of $DIST_REPS), the CPU seconds of all processes, the peak RSS of the largest process, and
# checks that report.json (and the .prv when written) equals the one-process run's.
# Inputs: $DIST_REPORTS rank exports, $DIST_COPIES copies of $BENCH_SRC in time (bench/make_export.sh RANK),
# cached in bench/work/dist/ (git-ignored).
#
# Environment: GPUEFF (default build/gpueff), BENCH_SRC (default data/nsys/mfu_2gpu_h100_nccl.sqlite),
# DIST_REPORTS (8), DIST_COPIES (8), DIST_RANKS ("1 2"), DIST_REPS (2), DIST_TRACE (0: --no-trace; 1: the .prv
# too), BENCH_WORK.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}/dist
src=${BENCH_SRC:-$root/data/nsys/mfu_2gpu_h100_nccl.sqlite}
reports=${DIST_REPORTS:-8}
copies=${DIST_COPIES:-8}
ranks_list=${DIST_RANKS:-1 2}
reps=${DIST_REPS:-2}
trace=${DIST_TRACE:-0}
gpueff=${GPUEFF:-$root/build/gpueff}
source "$here/rank_exports.sh"
need_tools sqlite3 mpirun /usr/bin/time bc
mkdir -p "$work/out"
rank_exports "$work" "$src" "$copies" "$reports"
flags=(-q -j 1)
((trace)) || flags+=(--no-trace)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# run RANKS OUTDIR -> "wall cpu max_rss_kb"
measure() {
    local n=$1 out=$2 start end
    rm -rf "$out" "$work/out"/time.*
    start=$(date +%s.%N)
    if ((n == 0)); then
        /usr/bin/time -f "%U %S %M" -o "$work/out/time.0" "$gpueff" analyze "${flags[@]}" "${inputs[@]}" -o "$out"
    else
        mpirun -n "$n" sh -c '/usr/bin/time -f "%U %S %M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$work/out/time" \
            "$gpueff" analyze "${flags[@]}" "${inputs[@]}" -o "$out"
    fi
    end=$(date +%s.%N)
    local cpu=0 rss=0 u s m
    for t in "$work/out"/time.*; do
        read -r u s m <"$t"
        cpu=$(echo "$cpu + $u + $s" | bc)
        ((m > rss)) && rss=$m
    done
    echo "$(echo "$end - $start" | bc) $cpu $rss"
}

printf '%-22s %8s %8s %9s %8s %s\n' run wall_s cpu_s rss_MB speedup same
base=""
for n in 0 $ranks_list; do
    best=""
    for ((i = 0; i < reps; ++i)); do
        m=$(measure "$n" "$work/out/r$n")
        if [[ -z $best ]] || (($(echo "${m%% *} < ${best%% *}" | bc))); then best=$m; fi
    done
    read -r wall cpu rss <<<"$best"
    [[ -z $base ]] && base=$wall
    same=yes
    if ((n > 0)); then
        cmp -s <(sed "s#$work/out/r0#D#g" "$work/out/r0/report.json") \
            <(sed "s#$work/out/r$n#D#g" "$work/out/r$n/report.json") || same=NO
        if ((trace)); then cmp -s "$work/out/r0/"*.prv "$work/out/r$n/"*.prv || same=NO; fi
    fi
    label="one process"
    ((n > 0)) && label="mpirun -n $n"
    printf '%-22s %8.2f %8.2f %9.1f %7.2fx %s\n' "$label" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)" \
        "$(echo "$base / $wall" | bc -l)" "$same"
done
