#!/usr/bin/env bash
# make_export.sh SRC.sqlite OUT.sqlite COPIES [RANK]
#
# Builds a large Nsight Systems SQLite export by tiling a real one in time, for benchmarks:
#   * copies SRC to OUT (SRC is only read);
#   * for every time-bearing table present (see TABLES below) appends COPIES-1 copies of its rows, copy k
#     shifted by k * (span of SRC + GAP_NS) in start/end, so copies never overlap;
#   * offsets correlationId by k * (max correlationId + 1) in the GPU tables, RUNTIME and SYNCHRONIZATION,
#     so every copy's launches still join their own API call and ids stay unique per process;
#   * RANK (default 0) adds RANK * PID_STEP to the PID of every globalPid/globalTid/endGlobalTid column
#     (PID = bits 24..47) in all tables, and to PROCESSES.pid, and sets the Hostname to nodeNN (RANK 0 too), so that
#     rank files made from the same SRC can be merged by `gpueff translate` (they are not duplicates).
#     MPI_RANKS.rank, when that table exists, is set to RANK.
# Only the sqlite3 CLI and bash are used. Copies are made by doubling (INSERT ... SELECT of the rows
# already there), so COPIES=250 takes 8 INSERTs per table.
#
# Environment: GAP_NS (default 1000000, 1 ms), PID_STEP (default 100000),
#   UNIQUE_NVTX=1: append " #k" to the explicit text of every NVTX_EVENTS row of copy k, so that names do not
#   repeat between copies (like PyTorch emit_nvtx ranges, whose names carry a unique op_id); without it the
#   tiled export has only the source's distinct names, however many copies.
set -euo pipefail

if [[ $# -lt 3 || $# -gt 4 ]]; then
    echo "usage: $0 SRC.sqlite OUT.sqlite COPIES [RANK]" >&2
    exit 2
fi
src=$1 out=$2 copies=$3 rank=${4:-0}
gap=${GAP_NS:-1000000}
pid_step=${PID_STEP:-100000}
[[ $copies =~ ^[1-9][0-9]*$ ]] || { echo "$0: COPIES must be a positive integer" >&2; exit 2; }
[[ $rank =~ ^[0-9]+$ ]] || { echo "$0: RANK must be a non-negative integer" >&2; exit 2; }
[[ -f $src ]] || { echo "$0: $src: no such file" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "$0: sqlite3 CLI not found" >&2; exit 2; }

# Time-bearing tables that are tiled (those absent from SRC are ignored).
TABLES=(CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET
        CUPTI_ACTIVITY_KIND_GRAPH_TRACE CUPTI_ACTIVITY_KIND_RUNTIME CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
        NVTX_EVENTS OSRT_API)

tmp="$out.tmp.$$"
trap 'rm -f "$tmp" "$tmp-journal"' EXIT
cp "$src" "$tmp"
chmod u+w "$tmp"

q() { sqlite3 -batch -noheader "$tmp" "$@"; }

present=()
for t in "${TABLES[@]}"; do
    [[ -n $(q "SELECT 1 FROM sqlite_master WHERE type='table' AND name='$t'") ]] && present+=("$t")
done
[[ ${#present[@]} -gt 0 ]] || { echo "$0: $src has none of the time-bearing tables" >&2; exit 1; }

has_col() { [[ -n $(q "SELECT 1 FROM pragma_table_info('$1') WHERE name='$2'") ]]; }

# Span of the source over all tiled tables, and the correlation id stride.
span_sql="" corr_sql=""
for t in "${present[@]}"; do
    end_expr=start
    has_col "$t" end && end_expr="coalesce(end, start)"
    span_sql+="${span_sql:+ UNION ALL }SELECT min(start) AS s, max($end_expr) AS e FROM $t"
    has_col "$t" correlationId && corr_sql+="${corr_sql:+ UNION ALL }SELECT max(correlationId) AS c FROM $t"
done
IFS='|' read -r t0 t1 < <(q "SELECT min(s), max(e) FROM ($span_sql)")
[[ -n $t0 && -n $t1 ]] || { echo "$0: $src: the time-bearing tables are empty" >&2; exit 1; }
period=$(( t1 - t0 + gap ))
corr_stride=1
[[ -n $corr_sql ]] && corr_stride=$(( $(q "SELECT coalesce(max(c), 0) FROM ($corr_sql)") + 1 ))

# ---- rank: PIDs and host (done on the small source, before tiling) ----
rank_sql="PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
if (( rank > 0 )); then
    max_pid=$(q "SELECT coalesce(max(pid), 0) FROM PROCESSES" 2>/dev/null || echo 0)
    if (( max_pid + rank * pid_step >= 16777216 )); then
        echo "$0: PID $max_pid + $rank * $pid_step does not fit in 24 bits (lower PID_STEP)" >&2
        exit 1
    fi
    delta=$(( rank * pid_step * 16777216 )) # PID is bits 24..47 of a global id
    while IFS='|' read -r t c; do
        rank_sql+=" UPDATE \"$t\" SET \"$c\" = \"$c\" + $delta WHERE \"$c\" IS NOT NULL;"
    done < <(q "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
                WHERE m.type='table' AND lower(p.name) IN ('globalpid', 'globaltid', 'endglobaltid')")
    has_col PROCESSES pid && rank_sql+=" UPDATE PROCESSES SET pid = pid + $(( rank * pid_step ));"
fi
if has_col TARGET_INFO_SYSTEM_ENV name && has_col TARGET_INFO_SYSTEM_ENV value; then
    host="printf('node%02d', $rank)"
    if [[ -n $(q "SELECT 1 FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' LIMIT 1") ]]; then
        rank_sql+=" UPDATE TARGET_INFO_SYSTEM_ENV SET value = $host WHERE name = 'Hostname';"
    else # some exports have no Hostname row: add one, other columns taken from an existing row
        env_cols="" env_sel=""
        while read -r c; do
            env_cols+="${env_cols:+, }\"$c\""
            case $c in name) env_sel+="${env_sel:+, }'Hostname'" ;; value) env_sel+="${env_sel:+, }$host" ;;
                       *) env_sel+="${env_sel:+, }\"$c\"" ;; esac
        done < <(q "SELECT name FROM pragma_table_info('TARGET_INFO_SYSTEM_ENV') ORDER BY cid")
        rank_sql+=" INSERT INTO TARGET_INFO_SYSTEM_ENV ($env_cols) SELECT $env_sel FROM TARGET_INFO_SYSTEM_ENV LIMIT 1;"
    fi
fi # exports without TARGET_INFO_SYSTEM_ENV keep no host: their rank copies differ by PID only
has_col MPI_RANKS rank && rank_sql+=" UPDATE MPI_RANKS SET rank = $rank;"
rank_sql+=" COMMIT;"
q "$rank_sql" >/dev/null

# ---- tiling by doubling: with n copies present, add m = min(n, COPIES - n) copies shifted by n ----
# Rows of copy k start in [t0 + k*period, t0 + k*period + span], so "start < t0 + m*period" selects
# exactly copies 0..m-1.
declare -A cols
for t in "${present[@]}"; do
    list="" sel=""
    while read -r c; do
        list+="${list:+, }\"$c\""
        case $c in
            start|end) sel+="${sel:+, }\"$c\" + @SHIFT@" ;;
            correlationId) sel+="${sel:+, }\"$c\" + @CORR@" ;;
            *) sel+="${sel:+, }\"$c\"" ;;
        esac
    done < <(q "SELECT name FROM pragma_table_info('$t') ORDER BY cid")
    cols[$t]="$list"
    cols[$t.sel]="$sel"
done

n=1
while (( n < copies )); do
    m=$(( copies - n < n ? copies - n : n ))
    shift_ns=$(( n * period )) corr=$(( n * corr_stride )) limit=$(( t0 + m * period ))
    sql="PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144; PRAGMA temp_store=FILE; BEGIN;"
    for t in "${present[@]}"; do
        sel=${cols[$t.sel]//@SHIFT@/$shift_ns}
        sel=${sel//@CORR@/$corr}
        sql+=" INSERT INTO $t (${cols[$t]}) SELECT $sel FROM $t WHERE start < $limit;"
    done
    sql+=" COMMIT;"
    q "$sql" >/dev/null
    n=$(( n + m ))
done

# The session grows with the copies: gpueff skips rows that start after ANALYSIS_DETAILS' duration.
if [[ -n $(q "SELECT 1 FROM sqlite_master WHERE type='table' AND name='ANALYSIS_DETAILS'") ]]; then
    grow=$(( (copies - 1) * period ))
    q "UPDATE ANALYSIS_DETAILS SET duration = duration + $grow, stopTime = stopTime + $grow;" >/dev/null
fi

if [[ ${UNIQUE_NVTX:-0} == 1 && " ${present[*]} " == *" NVTX_EVENTS "* ]] && has_col NVTX_EVENTS text; then
    q "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144;
       UPDATE NVTX_EVENTS SET text = text || ' #' || ((start - $t0) / $period) WHERE text IS NOT NULL;" >/dev/null
fi

mv "$tmp" "$out"
trap - EXIT
kernels=0
[[ " ${present[*]} " == *" CUPTI_ACTIVITY_KIND_KERNEL "* ]] &&
    kernels=$(sqlite3 "$out" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")
echo "$out: $copies copies of $src (period ${period} ns, correlationId stride $corr_stride, rank $rank${UNIQUE_NVTX:+, UNIQUE_NVTX=$UNIQUE_NVTX}): $kernels kernels, $(du -h "$out" | cut -f1)"
