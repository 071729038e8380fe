#!/usr/bin/env bash
# bench/run.sh [SCALE]     SCALE: "default" (when omitted) or "full"
#
# Throughput benchmark of `gpueff translate` against the floor of a plain sqlite3 scan of the same tables.
#   sample   the real export $BENCH_SRC as is, $SAMPLE_REPS runs (median wall, peak RSS)
#   1M       one export tiled to ~1M kernels ($BENCH_COPIES copies of $BENCH_SRC)
#   full     (SCALE=full only) $BENCH_RANKS rank exports of ~1M kernels each, translated into one trace
#   1M-uniq  (BENCH_UNIQUE_NVTX=1 only) the 1M export with NVTX names made unique per copy (UNIQUE_NVTX=1
#            of make_export.sh), as in real PyTorch emit_nvtx profiles
# Exports are generated with bench/make_export.sh and cached in bench/work/ (git-ignored); they are rebuilt
# when missing or older than make_export.sh. Everything is timed with /usr/bin/time on one core
# (taskset -c 0) after the inputs were read once (warm page cache). See bench/README.md.
#
# Environment: GPUEFF (binary, default build/gpueff; built if missing), GPUEFF_REV (a commit: build it from
# `git archive` in bench/work/build-REV and use that instead), BENCH_SRC, BENCH_COPIES (250),
# BENCH_RANKS (16), BENCH_REPS (runs per 1M case, 3), SAMPLE_REPS (10), BENCH_WORK (bench/work),
# BENCH_UNIQUE_NVTX=1 (adds the 1M-uniq case), BENCH_CORE (0), KEEP_OUTPUT=1 (keep the .prv files; by
# default they are deleted after being measured).
set -euo pipefail

scale=${1:-default}
case $scale in default|full) ;; *) echo "usage: $0 [default|full]" >&2; exit 2 ;; esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}
src=${BENCH_SRC:-/work/shared/data/nsys/mfu_2gpu_h100_nccl.sqlite}
copies=${BENCH_COPIES:-250}
ranks=${BENCH_RANKS:-16}
reps=${BENCH_REPS:-3}
sample_reps=${SAMPLE_REPS:-10}
gpueff=${GPUEFF:-$root/build/gpueff}
core=${BENCH_CORE:-0}
mkdir -p "$work/out"

for tool in sqlite3 taskset /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is required" >&2; exit 2; }
done
if [[ -n ${GPUEFF_REV:-} ]]; then # a clean build of one commit, independent of the working tree
    rev=$(git -C "$root" rev-parse --short "$GPUEFF_REV")
    gpueff="$work/build-$rev/gpueff"
    if [[ ! -x $gpueff ]]; then
        echo "== building gpueff $rev in $work/build-$rev" >&2
        rm -rf "$work/src-$rev" && mkdir -p "$work/src-$rev"
        git -C "$root" archive "$rev" | tar -x -C "$work/src-$rev"
        cmake -S "$work/src-$rev" -B "$work/build-$rev" -DGPUEFF_TESTS=OFF >/dev/null
        cmake --build "$work/build-$rev" -j2 >/dev/null
    fi
elif [[ ! -x $gpueff ]]; then
    echo "== building $gpueff" >&2
    cmake -S "$root" -B "$root/build" -DGPUEFF_TESTS=OFF >/dev/null
    cmake --build "$root/build" -j2 >/dev/null
fi

# ---------------------------------------------------------------- generation (cached)
stale() { [[ ! -f $1 || $1 -ot $here/make_export.sh || $1 -ot $src ]]; }

gen() { # gen OUT RANK
    if stale "$1"; then
        "$here/make_export.sh" "$src" "$1" "$copies" "$2" >&2
    fi
}

base=$(basename "$src" .sqlite)
one="$work/${base}_x${copies}.sqlite"
t=$SECONDS
gen "$one" 0
rank_files=()
if [[ $scale == full ]]; then
    # rank 0 is the 1M export itself (make_export.sh gives rank 0 the host node00 and the original PIDs)
    rank_files+=("$one")
    for ((r = 1; r < ranks; r++)); do rank_files+=("$work/${base}_x${copies}_rank$(printf %02d "$r").sqlite"); done
    # two generators at a time (make_export.sh is mostly single-threaded)
    pids=()
    for ((r = 1; r < ranks; r++)); do
        gen "${rank_files[r]}" "$r" &
        pids+=($!)
        if (( ${#pids[@]} == 2 )); then wait "${pids[0]}"; wait "${pids[1]}"; pids=(); fi
    done
    for p in "${pids[@]}"; do wait "$p"; done
fi
uniq="$work/${base}_x${copies}_uniq.sqlite"
if [[ ${BENCH_UNIQUE_NVTX:-0} == 1 ]] && stale "$uniq"; then
    UNIQUE_NVTX=1 "$here/make_export.sh" "$src" "$uniq" "$copies" 0 >&2
fi
gen_s=$(( SECONDS - t ))
echo "== inputs ready in ${gen_s} s; $work holds $(du -sh "$work" | cut -f1) ($(df -h --output=avail "$work" | tail -1 | tr -d ' ') free)" >&2

# ---------------------------------------------------------------- measurement helpers
# Columns gpueff reads from each time-bearing table (those missing in a file are left out).
declare -A scan_cols=(
    [CUPTI_ACTIVITY_KIND_KERNEL]="start end globalPid deviceId streamId correlationId demangledName gridX gridY gridZ blockX blockY blockZ staticSharedMemory dynamicSharedMemory localMemoryTotal registersPerThread graphNodeId graphId"
    [CUPTI_ACTIVITY_KIND_MEMCPY]="start end globalPid deviceId streamId correlationId copyKind bytes srcKind dstKind"
    [CUPTI_ACTIVITY_KIND_MEMSET]="start end globalPid deviceId streamId correlationId bytes"
    [CUPTI_ACTIVITY_KIND_GRAPH_TRACE]="start end globalPid deviceId streamId correlationId graphId graphExecId"
    [CUPTI_ACTIVITY_KIND_RUNTIME]="start end globalTid nameId correlationId"
    [CUPTI_ACTIVITY_KIND_SYNCHRONIZATION]="start end globalPid syncType correlationId"
    [NVTX_EVENTS]="start end eventType text textId domainId category globalTid uint64Value int64Value doubleValue uint32Value int32Value floatValue jsonText jsonTextId"
    [OSRT_API]="start end globalTid nameId"
)

# scan_sql FILE ORDER: one SELECT per table present; ORDER is "" or " ORDER BY start"
scan_sql() {
    local f=$1 order=$2 sql="" t c cols
    for t in "${!scan_cols[@]}"; do
        cols=""
        for c in ${scan_cols[$t]}; do
            [[ -n $(sqlite3 "$f" "SELECT 1 FROM pragma_table_info('$t') WHERE name='$c'") ]] && cols+="${cols:+,}$c"
        done
        [[ -n $cols ]] && sql+="SELECT $cols FROM $t$order;"
    done
    echo "$sql"
}

rows_of() { # rows in the scanned tables of all files
    local n=0 f t
    for f; do
        for t in "${!scan_cols[@]}"; do
            if [[ -n $(sqlite3 "$f" "SELECT 1 FROM sqlite_master WHERE name='$t'") ]]; then
                n=$(( n + $(sqlite3 "$f" "SELECT count(*) FROM $t") ))
            fi
        done
    done
    echo "$n"
}

kernels_of() {
    local n=0 f
    for f; do n=$(( n + $(sqlite3 "$f" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") )); done
    echo "$n"
}

median() { sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# timed OUTFILE CMD...: runs CMD on one core under /usr/bin/time; appends "wall_s rss_kb" to OUTFILE
timed() {
    local o=$1; shift
    /usr/bin/time -f '%e %M' -o "$o.t" taskset -c "$core" "$@"
    cat "$o.t" >> "$o"
    rm -f "$o.t"
}

results=()
# measure NAME REPS FILES...
measure() {
    local name=$1 n=$2; shift 2
    local files=("$@") out="$work/out/$name" tg="$work/out/$name.gpueff" ts="$work/out/$name.scan"
    local tso="$work/out/$name.sorted" script="$work/out/$name.scan.sh" f i
    rm -f "$tg" "$ts" "$tso" "$tg.stats"
    cat "${files[@]}" > /dev/null # warm the page cache for both contenders
    echo "== $name: ${#files[@]} input(s), $n run(s)" >&2
    for ((i = 0; i < n; i++)); do
        timed "$tg" "$gpueff" translate "${files[@]}" -o "$out" --quiet --stats >> "$tg.stats"
    done
    local out_disk
    out_disk=$(du -cb "$out".{prv,pcf,row,json} | tail -1 | cut -f1)
    [[ ${KEEP_OUTPUT:-0} == 1 ]] || rm -f "$out.prv"
    # floor: the same tables and columns, plain scan to /dev/null (and, for reference, sorted by start)
    : > "$script"
    for f in "${files[@]}"; do printf 'sqlite3 -batch %q %q\n' "$f" "$(scan_sql "$f" "")" >> "$script"; done
    for ((i = 0; i < n; i++)); do timed "$ts" bash "$script" > /dev/null; done
    : > "$script"
    for f in "${files[@]}"; do
        printf 'sqlite3 -batch %q %q\n' "$f" "PRAGMA temp_store=FILE; PRAGMA cache_size=-16384; $(scan_sql "$f" " ORDER BY start")" >> "$script"
    done
    timed "$tso" bash "$script" > /dev/null
    local records bytes kern rows
    records=$(head -1 "$tg.stats" | sed 's/.*records=\([0-9]*\).*/\1/')
    bytes=$(head -1 "$tg.stats" | sed 's/.*bytes=\([0-9]*\).*/\1/')
    kern=$(kernels_of "${files[@]}")
    rows=$(rows_of "${files[@]}")
    local gw grss sw srss sow
    gw=$(cut -d' ' -f1 "$tg" | median)
    local gs
    gs=$(sed 's/.*seconds=\([0-9.]*\).*/\1/' "$tg.stats" | median)
    grss=$(cut -d' ' -f2 "$tg" | sort -g | tail -1)
    sw=$(cut -d' ' -f1 "$ts" | median)
    srss=$(cut -d' ' -f2 "$ts" | sort -g | tail -1)
    sow=$(cut -d' ' -f1 "$tso" | median)
    results+=("$(awk -v name="$name" -v nf="${#files[@]}" -v k="$kern" -v rows="$rows" -v rec="$records" \
        -v bytes="$bytes" -v gw="$gw" -v gs="$gs" -v grss="$grss" -v sw="$sw" -v srss="$srss" -v sow="$sow" -v n="$n" \
        -v disk="$out_disk" 'BEGIN {
        gw1 = gw > 0 ? gw : 0.01; sw1 = sw > 0 ? sw : 0.01
        printf "%-7s %3d %9d %10d %11d %8.1f %3d %8.2f %8.3f %10.0f %7.1f %7.0f | %8.2f %10.0f %7.0f %8.2f | %6.2f\n",
            name, nf, k, rows, rec, disk / 1e6, n, gw, gs, rec / gw1, bytes / 1e6 / gw1, grss / 1024,
            sw, rows / sw1, srss / 1024, sow, gw / sw1 }')")
}

# ---------------------------------------------------------------- runs
measure sample "$sample_reps" "$src"
measure 1M "$reps" "$one"
[[ ${BENCH_UNIQUE_NVTX:-0} == 1 ]] && measure 1M-uniq "$reps" "$uniq"
if [[ $scale == full ]]; then
    measure full 1 "${rank_files[@]}"
fi

echo
echo "$("$gpueff" --version 2>/dev/null || echo gpueff) on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), one core (taskset -c $core), warm page cache"
echo "gpueff: $gpueff (modified $(date -r "$gpueff" '+%F %T')${rev:+, commit $rev})"
echo "gpueff: median wall over runs (/usr/bin/time, 10 ms resolution), stats_s: median of the --stats seconds"
echo "        (translation only, no process start/exit); records/s and MB/s from the median wall; peak RSS over runs."
echo "scan:   sqlite3 CLI, SELECT of the same columns from the same tables to /dev/null (the floor); sorted: the same with ORDER BY start."
echo "ratio = gpueff wall / scan wall."
printf '%-7s %3s %9s %10s %11s %8s %3s %8s %8s %10s %7s %7s | %8s %10s %7s %8s | %6s\n' \
    case files kernels rows records out_MB n wall_s stats_s records/s MB/s RSS_MB scan_s rows/s RSS_MB sorted_s ratio
for line in "${results[@]}"; do echo "$line"; done
echo
echo "disk: $work holds $(du -sh "$work" | cut -f1) (inputs; .prv outputs are deleted after measuring unless KEEP_OUTPUT=1); $(df -h --output=avail "$work" | tail -1 | tr -d ' ') free"
