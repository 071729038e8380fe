#!/usr/bin/env bash
# bench/stages.sh
#
# Every stage on the workers: `gpueff analyze --no-trace`, `analyze` and `translate` at -j 1 and -j 2 on R rank
# exports, with --stats' line per stage (stage=GROUP.NAME wall_s cpu_s on_workers peak_rss_mb). Prints, per
# command, each stage's -j 1 CPU seconds, its -j 1 and -j 2 wall seconds and whether it runs on the workers,
# then the whole runs (wall, best of $STAGE_REPS; the speed-up of -j 2) and what the stages imply at N cores:
# Amdahl's law from the CPU seconds of -j 1: the stages on the workers are the parallel work P, the others
# and the time outside every stage (start, the report's writing) the serial work S; at N cores the whole
# takes S + P / N, a speed-up of (S + P) / (S + P / N) on paper. It assumes the parallel stages find N
# reports or shards to share (true for 128 reports at 64 cores, not for 8 reports beyond 8) and no loss to
# contention; two cores show that loss: each stage's own -j 2 speed-up is printed beside it.
# Every report.json and .prv of -j 2 is compared with -j 1's (`same`).
# Inputs: $STAGE_REPORTS rank exports of $STAGE_COPIES copies of $BENCH_SRC (bench/make_export.sh RANK),
# cached in bench/work/stages/ (git-ignored).
#
# Environment: GPUEFF (default build/gpueff), BENCH_SRC (default data/nsys/mfu_2gpu_h100_nccl.sqlite),
# STAGE_REPORTS (8), STAGE_COPIES (12), STAGE_REPS (3), STAGE_COMMANDS ("no-trace analyze translate"),
# BENCH_WORK.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}/stages
src=${BENCH_SRC:-$root/data/nsys/mfu_2gpu_h100_nccl.sqlite}
reports=${STAGE_REPORTS:-8}
copies=${STAGE_COPIES:-12}
reps=${STAGE_REPS:-3}
commands=${STAGE_COMMANDS:-no-trace analyze translate}
gpueff=${GPUEFF:-$root/build/gpueff}
source "$here/rank_exports.sh"
need_tools sqlite3 /usr/bin/time awk bc
mkdir -p "$work/out"
rank_exports "$work" "$src" "$copies" "$reports"

# run COMMAND JOBS -> the best run's stats in $work/out/COMMAND.jJOBS.stats, its wall on the last line
run() {
    local cmd=$1 jobs=$2 best="" out=$work/out/$1.j$2 args
    case $cmd in
    no-trace) args=(analyze --no-trace) ;;
    analyze) args=(analyze --name t) ;;
    translate) args=(translate) ;;
    esac
    for ((i = 0; i < reps; ++i)); do
        rm -rf "$out"
        local dest=$out
        [[ $cmd == translate ]] && { mkdir -p "$out"; dest=$out/t; }
        /usr/bin/time -f "%e" -o "$work/out/time" "$gpueff" "${args[@]}" -q --stats -j "$jobs" "${inputs[@]}" \
            -o "$dest" >"$work/out/stats"
        local wall
        wall=$(tail -1 "$work/out/time")
        if [[ -z $best ]] || (($(echo "$wall < $best" | bc))); then
            best=$wall
            { grep '^stage=' "$work/out/stats"; echo "wall $wall"; } >"$out.stats"
        fi
    done
}

for cmd in $commands; do
    run "$cmd" 1
    run "$cmd" 2
    same=yes
    case $cmd in
    translate) cmp -s "$work/out/$cmd.j1/t.prv" "$work/out/$cmd.j2/t.prv" || same=NO ;;
    *)
        cmp -s <(sed "s#$work/out/$cmd.j1#D#g" "$work/out/$cmd.j1/report.json") \
            <(sed "s#$work/out/$cmd.j2#D#g" "$work/out/$cmd.j2/report.json") || same=NO
        [[ $cmd == analyze ]] && { cmp -s "$work/out/$cmd.j1/t.prv" "$work/out/$cmd.j2/t.prv" || same=NO; }
        ;;
    esac
    echo "## $cmd ($reports reports x $copies copies; same: $same)"
    awk '
        FNR == 1 { file++ }
        /^wall/ { total[file] = $2; next }
        {
            split($1, a, "="); name = a[2]
            for (i = 2; i <= NF; ++i) { split($i, kv, "="); v[file, name, kv[1]] = kv[2] }
            if (file == 1) order[++n] = name
        }
        END {
            printf "| stage | -j 1 CPU s | -j 1 wall s | -j 2 wall s | -j 2 CPU s | on the workers | -j 2 speed-up |\n"
            printf "|---|---|---|---|---|---|---|\n"
            serial = 0; parallel = 0; staged = 0
            for (k = 1; k <= n; ++k) {
                s = order[k]; w1 = v[1, s, "wall_s"]; w2 = v[2, s, "wall_s"]; par = v[2, s, "on_workers"]
                c1 = v[1, s, "cpu_s"]
                staged += w1
                if (par == 1) parallel += c1; else serial += c1
                if (w1 >= 0.005 || w2 >= 0.005)
                    printf "| %s | %.3f | %.3f | %.3f | %.3f | %s | %.2fx |\n", s, c1, w1, w2, v[2, s, "cpu_s"],
                           (par ? "yes" : "no"), (w2 > 0 ? w1 / w2 : 0)
            }
            rest = total[1] - staged; if (rest < 0) rest = 0
            serial += rest
            f = serial / (serial + parallel)
            printf "\nwhole: -j 1 %.2f s, -j 2 %.2f s (%.2fx); serial %.2f s (%.1f %%: stages not on the workers %.2f s, outside the stages %.2f s), parallel %.2f s\n", total[1], total[2], total[1] / total[2], serial, 100 * f, serial - rest, rest, parallel
            printf "on paper: %.1fx at 16 cores, %.1fx at 64\n\n", 1 / (f + (1 - f) / 16), 1 / (f + (1 - f) / 64)
        }' "$work/out/$cmd.j1.stats" "$work/out/$cmd.j2.stats"
done
