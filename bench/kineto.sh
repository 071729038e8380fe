#!/usr/bin/env bash
# bench/kineto.sh
#
# Kineto (torch.profiler) input: a real trace ($KINETO_SRC) repeated $KINETO_COPIES times in time
# (bench/kineto_scale.py, cached in bench/work/kineto/, git-ignored), plain and gzip-compressed, through
# `gpueff analyze --no-trace --stats -j 1` and `gpueff translate -j 1`, pinned to one core. Prints per input:
# the JSON's uncompressed size, import_s (the streamed parse into the tables in memory) and its MB/s of JSON,
# the whole command's seconds and MB/s, and peak RSS. Best of $KINETO_REPS runs. A shared machine makes the
# times upper bounds.
#
# Then the JSON parsers alone, side by side (bench/kineto_parse.cpp, built in the binary's build directory).
#
# Environment: GPUEFF (default build/gpueff), KINETO_SRC (default data/kineto/trace_diff_test_test.json.gz),
# KINETO_COPIES (10), KINETO_REPS (3), KINETO_CORE (0), BENCH_WORK.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
work=${BENCH_WORK:-$here/work}/kineto
src=${KINETO_SRC:-$root/data/kineto/trace_diff_test_test.json.gz}
copies=${KINETO_COPIES:-10}
reps=${KINETO_REPS:-3}
core=${KINETO_CORE:-0}
gpueff=${GPUEFF:-$root/build/gpueff}
for tool in python3 gzip taskset /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is required" >&2; exit 2; }
done
[[ -x $gpueff ]] || { echo "$0: $gpueff not built (cmake --build build)" >&2; exit 2; }
mkdir -p "$work/out"
big=$work/$(basename "$src" .json.gz)_x$copies.json
[[ -f $big ]] || python3 "$here/kineto_scale.py" "$src" "$copies" "$big"
[[ -f $big.gz ]] || gzip -k -1 "$big"
mb=$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1]) / 1e6)" "$big")

printf '%-28s %9s %9s %9s %9s %9s %9s\n' input json_MB import_s import_MBs total_s total_MBs rss_MB
for input in "$big" "$big.gz"; do
    for command in analyze translate; do
        best_import=inf best_total=inf rss=0
        for ((r = 0; r < reps; r++)); do
            rm -rf "$work/out"/*
            if [[ $command == analyze ]]; then
                args=(analyze --no-trace --stats -q -j 1 "$input" -o "$work/out/a")
            else
                args=(translate -q -j 1 "$input" -o "$work/out/t")
            fi
            log=$( { /usr/bin/time -f 'time %e %M' taskset -c "$core" "$gpueff" "${args[@]}"; } 2>&1 )
            total=$(sed -n 's/^time \([0-9.]*\) .*/\1/p' <<<"$log")
            kb=$(sed -n 's/^time [0-9.]* \([0-9]*\)/\1/p' <<<"$log")
            import=$(sed -n 's/.*import_s=\([0-9.]*\).*/\1/p' <<<"$log")
            best_total=$(python3 -c "print(min(float('$best_total'), $total))")
            [[ -n $import ]] && best_import=$(python3 -c "print(min(float('$best_import'), $import))")
            rss=$(( kb > rss ? kb : rss ))
        done
        python3 - "$(basename "$input") $command" "$mb" "$best_import" "$best_total" "$rss" <<'PY'
import sys
name, mb, imp, total, rss = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
fmt = lambda v: "-" if v == float("inf") else f"{v:.2f}"
rate = lambda s: "-" if s == float("inf") else f"{mb / s:.0f}"
print(f"{name[-28:]:<28} {mb:9.1f} {fmt(imp):>9} {rate(imp):>9} {total:9.2f} {rate(total):>9} {rss / 1024:9.0f}")
PY
    done
done

# The JSON parsers side by side on the same inputs (bench/kineto_parse.cpp): gpueff's reader, nlohmann's SAX
# parser keeping nothing, simdjson's DOM per event. Best of $KINETO_REPS.
build=$(dirname "$gpueff")
if cmake --build "$build" --target gpueff_bench_kineto_parse >/dev/null 2>&1; then
    printf '\n%-9s %-28s %9s\n' parser input MB/s
    for input in "$big" "$big.gz"; do
        for parser in gpueff nlohmann dom; do
            best=0
            for ((r = 0; r < reps; r++)); do
                rate=$(taskset -c "$core" "$build/gpueff_bench_kineto_parse" "$parser" "$input" | awk '{print $(NF-1)}')
                best=$(( rate > best ? rate : best ))
            done
            printf '%-9s %-28s %9s\n' "$parser" "$(basename "$input" | tail -c 28)" "$best"
        done
    done
else
    echo "$0: gpueff_bench_kineto_parse did not build in $build; parsers not compared" >&2
fi
