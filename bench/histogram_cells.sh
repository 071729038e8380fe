#!/usr/bin/env bash
# A histogram with many written cells, where evaluating each cell's statistic is the most work it can be:
# THREADS threads (default 400) of EVENTS events each (default 5000), values pseudo-random in [0, 10000), one
# Last Evt Val window and a `Sum bursts` histogram over NumColumns 5000 columns (about 1.26 M written cells).
# Times `gpueff histogram` with farm-bench (median of RUNS, default 3), against GPUEFF_B when it is given
# (pairs run in turn), and checks that both wrote the same table.
#   [GPUEFF=build/gpueff] [GPUEFF_B=other/gpueff] bench/histogram_cells.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GPUEFF=$(realpath "${GPUEFF:-build/gpueff}")
work=${BENCH_WORK:-bench/work/cells}
threads=${THREADS:-400} events=${EVENTS:-5000}
mkdir -p "$work"
work=$(realpath "$work")
prv=$work/cells_${threads}x${events}.prv
if [[ ! -f $prv ]]; then
    awk -v T="$threads" -v N="$events" 'BEGIN {
        srand(24)
        printf "#Paraver (01/01/2024 at 00:00):%d_ns:1(%d):1:%d(", N * 100 + 100, T, T
        for (t = 1; t <= T; t++) printf "%s1:1", (t > 1 ? "," : "")
        print ")"
        for (k = 0; k < N; k++)
            for (t = 1; t <= T; t++) printf "2:%d:1:%d:1:%d:100:%d\n", t, t, k * 100, int(rand() * 10000)
    }' >"$prv"
    printf 'EVENT_TYPE\n0    100    Value\n' >"${prv%.prv}.pcf"
fi
cfg=$work/sum_bursts_5000_columns.cfg
cat >"$cfg" <<'CFG'
#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 1
window_name Value
window_type single
window_units Nanoseconds
window_level thread
window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, Last Evt Val}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, =}, {evt_value, All} } }
window_filter_module evt_type 1 100
< NEW ANALYZER2D >
Analyzer2D.Name: Sum per value
Analyzer2D.ControlWindow: 1
Analyzer2D.DataWindow: 1
Analyzer2D.Statistic: Sum bursts
Analyzer2D.AnalysisLimits: Alltrace
Analyzer2D.ComputeYScale: False
Analyzer2D.Minimum: 0
Analyzer2D.Maximum: 10000
Analyzer2D.NumColumns: 5000
CFG
a=(farm-bench -n "${RUNS:-3}" --timeout 600)
[[ -n ${GPUEFF_B:-} ]] && a+=(--vs "$(realpath "$GPUEFF_B") histogram -q -o $work/out_b $prv $cfg")
"${a[@]}" -- "$GPUEFF" histogram -q -o "$work/out_a" "$prv" "$cfg"
if [[ -n ${GPUEFF_B:-} ]]; then
    cmp "$work/out_a/sum_bursts_5000_columns.txt" "$work/out_b/sum_bursts_5000_columns.txt" &&
        echo "outputs: identical"
fi
