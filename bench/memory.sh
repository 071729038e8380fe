#!/usr/bin/env bash
# bench/memory.sh
#
# Memory limits that hold (issue 27): peak RSS of `gpueff analyze` and `translate` under `--memory-limit
# $MEM_LIMIT` against the limit + 64 MB, on 1, 8 and 128 rank exports of mfu_2gpu_h100_nccl (x12, x12, x1
# copies), on one export of 250 copies (1 M kernels, 4.8 M NVTX ranges, 1.87 M API calls in two tasks) and on
# that export with 1 % of its kernels (x250h: the host rows outweigh the devices) and on x250h with a name per
# NVTX range (x250n: 4.66 M distinct names):
# `analyze --no-trace`, `analyze` with the .prv and `translate`, -j 2. Prints one line per run: input,
# command, wall s, peak RSS MB, the bound, and what stderr said of the parts and of reports read in turn. Inputs cached in bench/work/ (git-ignored; bench/make_export.sh).
#
# Environment: GPUEFF (default build/gpueff), BENCH_SRC (default data/nsys/mfu_2gpu_h100_nccl.sqlite),
# MEM_LIMIT (64M), MEM_INPUTS ("r1 r8 r128 x250 x250h x250n"), MEM_COMMANDS ("no-trace analyze translate"), BENCH_WORK.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}
src=${BENCH_SRC:-$root/data/nsys/mfu_2gpu_h100_nccl.sqlite}
limit=${MEM_LIMIT:-64M}
sets=${MEM_INPUTS:-r1 r8 r128 x250 x250h x250n}
commands=${MEM_COMMANDS:-no-trace analyze translate}
gpueff=${GPUEFF:-$root/build/gpueff}
source "$here/rank_exports.sh"
need_tools sqlite3 /usr/bin/time awk bc
mkdir -p "$work/memory/out"

case $limit in
*K) limit_mb=$(( ${limit%K} / 1024 )) ;;
*M) limit_mb=${limit%M} ;;
*G) limit_mb=$(( ${limit%G} * 1024 )) ;;
*) echo "$0: MEM_LIMIT as 64M, 512K or 1G" >&2; exit 2 ;;
esac
bound=$((limit_mb + 64))

printf '%-6s %-9s %8s %12s %9s %s\n' input command wall_s peak_rss_mb bound_mb stderr_said
for set in $sets; do
    case $set in
    r1) rank_exports "$work/stages" "$src" 12 1 ;;
    r8) rank_exports "$work/stages" "$src" 12 8 ;;
    r128) rank_exports "$work/par" "$src" 1 128 ;;
    x250)
        inputs=("$work/memory/mfu_x250.sqlite")
        [[ -f ${inputs[0]} ]] || "$here/make_export.sh" "$src" "${inputs[0]}" 250 >/dev/null
        ;;
    x250h)
        # The same with one kernel and one memory operation in 100 kept: the host rows (4.8 M NVTX ranges,
        # 1.87 M API calls) outweigh the devices.
        inputs=("$work/memory/mfu_x250_host.sqlite")
        if [[ ! -f ${inputs[0]} ]]; then
            [[ -f $work/memory/mfu_x250.sqlite ]] ||
                "$here/make_export.sh" "$src" "$work/memory/mfu_x250.sqlite" 250 >/dev/null
            cp "$work/memory/mfu_x250.sqlite" "${inputs[0]}.tmp"
            sqlite3 "${inputs[0]}.tmp" "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 100 != 0;
                DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE rowid % 100 != 0;"
            mv "${inputs[0]}.tmp" "${inputs[0]}"
        fi
        ;;
    x250n)
        # x250h with a name per NVTX range (PyTorch names ranges by op_id, so a run 250 times longer has 250
        # times the names; tiling repeats them): 4.66 M distinct names.
        inputs=("$work/memory/mfu_x250_names.sqlite")
        if [[ ! -f ${inputs[0]} ]]; then
            MEM_INPUTS=x250h MEM_COMMANDS=none "$0" >/dev/null 2>&1 || true
            cp "$work/memory/mfu_x250_host.sqlite" "${inputs[0]}.tmp"
            sqlite3 "${inputs[0]}.tmp" "UPDATE NVTX_EVENTS SET text = text || ', n = ' || rowid
                WHERE text IS NOT NULL;"
            mv "${inputs[0]}.tmp" "${inputs[0]}"
        fi
        ;;
    *) echo "$0: unknown input set $set" >&2; exit 2 ;;
    esac
    for cmd in $commands; do
        out=$work/memory/out/$set.$cmd
        rm -rf "$out"
        dest=$out
        case $cmd in
        no-trace) args=(analyze --no-trace) ;;
        analyze) args=(analyze --name t) ;;
        translate) args=(translate) && mkdir -p "$out" && dest=$out/t ;;
        none) continue ;; # the inputs made, nothing run
        *) echo "$0: unknown command $cmd" >&2; exit 2 ;;
        esac
        /usr/bin/time -f "%e %M" -o "$work/memory/out/time" "$gpueff" "${args[@]}" -j 2 \
            --memory-limit "$limit" "${inputs[@]}" -o "$dest" 2>"$work/memory/out/stderr" >/dev/null
        read -r wall kb <"$work/memory/out/time"
        said=$(grep -o -e 'analysis in [0-9]* parts' -e 'read in turn' "$work/memory/out/stderr" | paste -sd, || true)
        printf '%-6s %-9s %8s %12.1f %9s %s\n' "$set" "$cmd" "$wall" "$(echo "$kb / 1024" | bc -l)" "$bound" \
            "${said:--}"
    done
done
