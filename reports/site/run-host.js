'use strict';
// The run page's host side and what other tools report (run.js is the page): GPU idle gaps and their causes,
// offload and MPI efficiency, nsys stats summaries, HTA's definitions, and the notes.
(function () {
    const gpueff = window.gpueff;
    const runPage = gpueff.runPage;
    const {el, num, text, derived} = gpueff;
    const P = gpueff.path;
    const {h3, p, muted, table, has, cols, deviceNode, deviceColumn, noteList, chartBox} = runPage;
    // Helpers of run-efficiency.js (runPage.factorCell) and run-kernels.js (launchCoverage, kernelRowTable) are
    // looked up as a section renders: the run-*.js files may load in any order after run.js.

    // ---- gaps, host ------------------------------------------------------------------------------------

    function renderGaps(ctx, sec, report) {
        const gaps = report.gaps || [];
        const warning = runPage.launchCoverage(ctx, report);
        if (warning) sec.appendChild(warning);
        const base = (i) => P('gaps', i);
        sec.appendChild(table([
            deviceColumn(ctx, base),
            ...cols(base, [['count', 'Gaps', 'number'], ['total_ns', 'Idle in gaps', 'ns', {bar: 'max'}], ['host_wait_ns', 'Host-wait', 'ns'], ['host_wait_count', '(count)', 'number'],
                ['kernel_wait_ns', 'Kernel-wait', 'ns'], ['kernel_wait_count', '(count)', 'number']]),
            {key: 'split', label: 'Host / kernel wait', format: 'text', cls: 'bar-cell', sortValue: (g) => (g.total_ns > 0 ? g.host_wait_ns / g.total_ns : null), render: (g) => gpueff.stackBar([
                {value: g.host_wait_ns, cls: 'seg-host', label: `host-wait ${gpueff.fmtNs(g.host_wait_ns)}`},
                {value: g.kernel_wait_ns, cls: 'seg-kernel', label: `kernel-wait ${gpueff.fmtNs(g.kernel_wait_ns)}`}])},
        ], gaps, {empty: 'No device.'}));
        sec.appendChild(muted(el('span', {class: 'swatch seg-host'}), ' Host-wait: the launch call of the next activity started after the gap began (the host was late); ',
            el('span', {class: 'swatch seg-kernel'}), ' kernel-wait: work was launched in time and the GPU still idle.'));
        const withBins = gaps.filter((g) => Array.isArray(g.by_duration) && g.by_duration.length);
        if (!withBins.length) return;
        sec.appendChild(h3('Idle time by gap length'));
        const bins = withBins[0].by_duration;
        // "4–16 us", "1.02–4.1 ms", "< 1 us", "≥ 16.4 ms": short enough for a tick.
        const label = (b) => {
            if (b.upper_ns === null) return `≥ ${gpueff.fmtNsTick(b.lower_ns)}`;
            if (b.lower_ns === 0) return `< ${gpueff.fmtNsTick(b.upper_ns)}`;
            const [lo, loUnit] = gpueff.fmtNsTick(b.lower_ns).split(' ');
            const [hi, hiUnit] = gpueff.fmtNsTick(b.upper_ns).split(' ');
            return loUnit === hiUnit ? `${lo}–${hi} ${hiUnit}` : `${lo} ${loUnit}–${hi} ${hiUnit}`;
        };
        const chart = chartBox();
        sec.appendChild(chart);
        gpueff.lineChart(chart, {
            name: 'gap-durations', x: bins.map((b, j) => j), xTicks: bins.map((b, j) => ({v: j, label: label(b)})), xLabel: 'gap length', yLabel: 'idle time', yFormat: 'ns', bars: true,
            series: withBins.map((g, i) => ({name: ctx.deviceLabel(g.device), values: bins.map((b, j) => (g.by_duration[j] ? g.by_duration[j].time_ns : null)), color: gpueff.colour(i)})),
        });
        const rowsOf = bins.map((b, j) => j);
        sec.appendChild(table([
            {key: 'lower', label: 'From', format: 'ns', value: (j) => bins[j].lower_ns, path: (j) => P('gaps', gaps.indexOf(withBins[0]), 'by_duration', j, 'lower_ns')},
            {key: 'upper', label: 'To', format: (v) => (v === null ? '∞' : gpueff.fmtNs(v)), value: (j) => bins[j].upper_ns, path: (j) => P('gaps', gaps.indexOf(withBins[0]), 'by_duration', j, 'upper_ns')},
            ...withBins.flatMap((g) => {
                const gi = gaps.indexOf(g);
                const maxTime = g.by_duration.reduce((m, b) => Math.max(m, b.time_ns), 0);
                return [
                    {key: `c${gi}`, label: `${ctx.deviceLabel(g.device)}: gaps`, format: 'number', value: (j) => (g.by_duration[j] || {}).count, path: (j) => P('gaps', gi, 'by_duration', j, 'count')},
                    {key: `t${gi}`, label: 'idle', format: 'ns', value: (j) => (g.by_duration[j] || {}).time_ns, path: (j) => P('gaps', gi, 'by_duration', j, 'time_ns'),
                        render: (j) => [num((g.by_duration[j] || {}).time_ns, P('gaps', gi, 'by_duration', j, 'time_ns'), 'ns'), gpueff.bar(maxTime > 0 ? (g.by_duration[j] || {}).time_ns / maxTime : 0)]},
                ];
            }),
        ], rowsOf));
        // The bounds of the other devices' bins are those of the first (the same 1 us x 4^k bins).
        withBins.forEach((g) => g.by_duration.forEach((b, j) => {
            gpueff.markShown(P('gaps', gaps.indexOf(g), 'by_duration', j, 'lower_ns'));
            gpueff.markShown(P('gaps', gaps.indexOf(g), 'by_duration', j, 'upper_ns'));
        }));
    }

    function renderHost(ctx, sec, report) {
        const host = report.host;
        sec.appendChild(h3('Offload efficiency'));
        const offload = host.offload || [];
        if (!offload.length) {
            sec.appendChild(muted('n/a: not computed for this trace (why: see Notes).'));
        } else {
            const base = (i) => P('host.offload', i);
            const columns = cols(base, [['task', 'Task', 'number'], ['name', 'Process', 'text'], ['blocking_ns', 'Blocked in sync', 'ns'],
                ['offload_efficiency', 'Offload efficiency', 'share', {bar: 'share'}]]);
            if (offload.some((o) => has(o, 'launch_blocked_ns')))
                columns.push(...cols(base, [['launch_blocked_ns', 'Blocked in launches', 'ns'], ['offload_efficiency_with_launches', 'Incl. launches', 'share', {bar: 'share'}]]));
            sec.appendChild(table(columns, offload));
            sec.appendChild(muted('Offload efficiency = (window − time inside blocking CUDA API calls) / window. Blocked in launches: launch calls longer than 4× the task\'s median one, beyond that median (the launch queue was full); the last column counts both.'));
        }
        sec.appendChild(h3('MPI efficiency'));
        const mpi = host.mpi;
        if (!mpi) {
            sec.appendChild(p('MPI is not traced in this run.'));
            gpueff.markShown('host.mpi');
            return;
        }
        sec.appendChild(gpueff.scrollBox(el('table', {class: 'factors'}, el('tbody', {},
            [['parallel_efficiency', 'Parallel efficiency'], ['load_balance', 'Load balance', true], ['communication_efficiency', 'Communication efficiency', true]].map(([key, label, indent]) =>
                el('tr', {}, el('th', {scope: 'row', class: ['text', indent && 'indent']}, label), el('td', {class: 'num'}, runPage.factorCell(mpi[key], P('host.mpi', key)), gpueff.bar(mpi[key], gpueff.popClass(mpi[key])))))))));
        const base = (i) => P('host.mpi.tasks', i);
        sec.appendChild(table([
            ...cols(base, [['task', 'Task', 'number'], ['mpi_ns', 'In MPI', 'ns'], ['outside_mpi_ns', 'Outside MPI', 'ns']]),
            {key: 'bar', label: 'Outside / in MPI', format: 'text', cls: 'bar-cell', sortValue: (t) => t.outside_mpi_ns, render: (t) => gpueff.stackBar([
                {value: t.outside_mpi_ns, cls: 'seg-useful', label: 'outside MPI'}, {value: t.mpi_ns, cls: 'seg-communication', label: 'in MPI'}])},
        ], mpi.tasks || []));
        sec.appendChild(muted('Per task, the union of its MPI calls; LB = mean / max of the time outside MPI, CommE = max outside / T, PE = mean outside / T.'));
    }

    // ---- nsys stats, HTA, notes ------------------------------------------------------------------------

    function renderNsysStats(ctx, sec, report) {
        const s = report.nsys_stats;
        sec.appendChild(p('As ', el('code', {}, 'nsys stats'), ' reports them, from the trace\'s records over the whole trace (not clipped to the window); rows by total time.'));
        const leftOut = (key) => {
            const l = s.left_out && s.left_out[key];
            if (!l) return null;
            const base = P('nsys_stats.left_out', key);
            return el('p', {class: 'warning'}, num(l.rows, P(base, 'rows')), ' rows with less time (', num(l.instances, P(base, 'instances')), ' instances, ',
                num(l.total_ns, P(base, 'total_ns'), 'ns'), ') are left out of report.json.');
        };
        if (has(s, 'nvtx_sum')) {
            sec.appendChild(h3('NVTX ranges (nvtx_sum)', 'nvtx-sum'));
            sec.appendChild(runPage.kernelRowTable(s.nvtx_sum, 'nsys_stats.nvtx_sum', 'Range', 'Instances', [
                {key: 'domain', label: 'Domain', format: 'text'}, {key: 'style', label: 'Style', format: 'text'}]));
            gpueff.append(sec, leftOut('nvtx_sum'));
        }
        if (has(s, 'cuda_api_sum')) {
            sec.appendChild(h3('CUDA API calls (cuda_api_sum)', 'cuda-api-sum'));
            sec.appendChild(runPage.kernelRowTable(s.cuda_api_sum, 'nsys_stats.cuda_api_sum', 'API call', 'Calls'));
            gpueff.append(sec, leftOut('cuda_api_sum'));
        }
        if (has(s, 'gpu_mem_time_sum')) {
            sec.appendChild(h3('GPU memory operations by time (cuda_gpu_mem_time_sum)', 'gpu-mem-time-sum'));
            sec.appendChild(runPage.kernelRowTable(s.gpu_mem_time_sum, 'nsys_stats.gpu_mem_time_sum', 'Operation', 'Count'));
        }
        if (has(s, 'gpu_mem_size_sum')) {
            sec.appendChild(h3('GPU memory operations by size (cuda_gpu_mem_size_sum)', 'gpu-mem-size-sum'));
            const base = (i) => P('nsys_stats.gpu_mem_size_sum', i);
            sec.appendChild(table(cols(base, [
                ['name', 'Operation', 'text', {cls: 'kernel'}], ['total_bytes', 'Total', 'bytes', {bar: 'max'}], ['instances', 'Count', 'number'], ['avg_bytes', 'Avg', 'bytes'],
                ['med_bytes', 'Med', 'bytes'], ['min_bytes', 'Min', 'bytes'], ['max_bytes', 'Max', 'bytes'], ['stddev_bytes', 'StdDev', 'bytes'], ['bandwidth_gbps', 'Bandwidth', 'gbps'],
            ]), s.gpu_mem_size_sum, {empty: 'None in the trace.'}));
            sec.appendChild(muted('1 MB = 10^6 bytes, as nsys; bandwidth = bytes over time, both summed over the operations.'));
        }
    }

    function renderHta(ctx, sec, report) {
        const hta = report.hta;
        const devices = hta.devices || [];
        sec.appendChild(p('The same devices as Holistic Trace Analysis (Meta) defines its figures: over each device\'s own span (first start to last end), idle = no kernel or memory operation runs, compute = compute kernels run, non-compute = only NCCL kernels or memory operations run; comm-comp overlap = time compute kernels run during NCCL kernels / NCCL time.'));
        const base = (i) => P('hta.devices', i);
        const ofSpan = (key, label) => ({key, label, format: 'ns', path: (d, i) => P(base(i), key),
            render: (d, i) => [num(d[key], P(base(i), key), 'ns'), ' ', el('span', {class: 'muted small'}, '(', derived(d.kernel_time_ns > 0 ? d[key] / d.kernel_time_ns : null, 'share', `${key} / kernel_time_ns`), ')')]});
        sec.appendChild(table([
            deviceColumn(ctx, base),
            ...cols(base, [['kernel_time_ns', 'Span', 'ns']]),
            ofSpan('idle_ns', 'Idle'), ofSpan('compute_ns', 'Compute'), ofSpan('non_compute_ns', 'Non-compute'),
            ...cols(base, [['comm_comp_overlap', 'Comm-comp overlap', 'share', {bar: 'share'}]]),
            {key: 'bar', label: 'Compute / non-compute / idle', format: 'text', cls: 'bar-cell', sortValue: (d) => d.compute_ns, render: (d) => gpueff.stackBar([
                {value: d.compute_ns, cls: 'seg-useful', label: 'compute'}, {value: d.non_compute_ns, cls: 'seg-communication', label: 'non-compute'}, {value: d.idle_ns, cls: 'seg-idle', label: 'idle'}], d.kernel_time_ns)},
        ], devices));
        sec.appendChild(h3('Idle time by cause'));
        sec.appendChild(p('Idle time between consecutive operations of each stream, summed over the device\'s streams (so it can exceed the device\'s idle time): host wait = the launch call of the next operation started after the previous one ended; kernel wait = a gap under ',
            num(hta.consecutive_kernel_delay_ns, 'hta.consecutive_kernel_delay_ns', 'ns'), ' (HTA\'s consecutive_kernel_delay); other = the rest.'));
        sec.appendChild(table([
            deviceColumn(ctx, base),
            ...cols((i) => P(base(i), 'idle_by_cause'), [['host_wait_ns', 'Host wait', 'ns'], ['kernel_wait_ns', 'Kernel wait', 'ns'], ['other_ns', 'Other', 'ns']])
                .map((c) => ({...c, value: (d) => (d.idle_by_cause || {})[c.key]})),
        ], devices));
        // HTA's own rules: what HTA itself would show, each rule alone (null where it changes nothing).
        const rules = [];
        devices.forEach((d, i) => {
            for (const [rule, r] of Object.entries(d.rules || {})) {
                if (r) rules.push({d, i, rule, r});
                else gpueff.markShown(P(base(i), 'rules', rule));
            }
        });
        sec.appendChild(h3('What HTA itself would show'));
        if (!rules.length) {
            sec.appendChild(muted('HTA\'s own rules change nothing for this trace.'));
            return;
        }
        const ruleText = {
            last_profiler_step: 'keeps only the GPU work launched before the last ProfilerStep began',
            whole_microseconds: 'rounds starts up and ends down to whole microseconds',
            host_events_with_stream: 'counts host events with a CUDA stream argument as GPU work',
        };
        const keys = [];
        for (const r of rules) for (const k of Object.keys(r.r)) if (!keys.includes(k)) keys.push(k);
        const labels = {kernel_time_ns: 'Span', idle_ns: 'Idle', compute_ns: 'Compute', step_begin_ns: 'Last step begins', operations_dropped: 'Operations dropped',
            dropped_ns: 'Dropped time', events: 'Host events', time_ns: 'Their time'};
        sec.appendChild(table([
            {key: 'device', label: 'Device', format: 'text', render: (r) => deviceNode(ctx, r.d.device, P(base(r.i), 'device')), sortValue: (r) => ctx.deviceOrder(r.d.device)},
            {key: 'rule', label: 'Rule', format: 'text', value: (r) => r.rule, render: (r) => [el('code', {}, r.rule), el('div', {class: 'muted small'}, ruleText[r.rule] || '')]},
            ...keys.map((k) => ({key: k, label: labels[k] || k, format: gpueff.formatForKey(k), value: (r) => r.r[k], path: (r) => (has(r.r, k) ? P(base(r.i), 'rules', r.rule, k) : null)})),
        ], rules));
    }

    function renderNotes(ctx, sec, report) {
        if (!report.notes.length) {
            sec.appendChild(muted('None.'));
            return;
        }
        sec.appendChild(noteList(report.notes, 'notes'));
    }

    // The renderers of this file's sections, by their ids in run.js's SECTIONS.
    Object.assign(runPage.sections, {
        'sec-gaps': renderGaps,
        'sec-host': renderHost,
        'sec-nsys-stats': renderNsysStats,
        'sec-hta': renderHta,
        'sec-notes': renderNotes,
    });
})();
