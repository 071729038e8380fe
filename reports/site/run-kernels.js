'use strict';
// The run page's concurrency and kernels (run.js is the page): communication / computation overlap, kernels
// in flight and queued, overlap per NCCL kernel, tensor-core use, the kernel summary, durations, categories,
// and kernels alone versus overlapped with communication.
(function () {
    const gpueff = window.gpueff;
    const runPage = gpueff.runPage;
    const {el, num, text, derived} = gpueff;
    const P = gpueff.path;
    const isNum = gpueff.isNum;
    const {h3, p, muted, table, has, cols, deviceNode, deviceColumn, chartBox} = runPage;

    // ---- concurrency -----------------------------------------------------------------------------------

    function renderOverlap(ctx, sec, report) {
        const rows = report.overlap || [];
        const table_ = report.overlap_table;
        const levels = new Set(table_ ? table_.concurrency : []);
        for (const r of rows) for (const k of Object.keys(r.time_ns_by_concurrency || {})) levels.add(Number(k));
        const sorted = [...levels].sort((a, b) => a - b);
        if (!sorted.length) {
            sec.appendChild(muted('No communication (NCCL kernel or memory operation) ran in the window.'));
            if (rows.length) sec.appendChild(overlapTimes(ctx, rows, sorted));
            return;
        }
        const alone = sorted[sorted.length - 1] <= 1;
        if (alone) {
            const total = rows.reduce((s, r) => s + (isNum(r.communication_ns) ? r.communication_ns : 0), 0);
            sec.appendChild(p('No communication overlapped computation: the ', derived(total, 'ns', 'sum of overlap[].communication_ns'),
                ' of communication (NCCL kernels and memory operations, summed over devices) all ran while no kernel computed on the same device.'));
        } else {
            sec.appendChild(p('While communication (an NCCL kernel or a memory operation) runs on a device: the time at each count of activities running at once; 1 = communication alone.'));
        }
        const parts = [
            h3('Time at each count'), overlapTimes(ctx, rows, sorted),
            h3('Share of communication time'), overlapShares(ctx, rows, sorted, table_, 'fraction_of_communication'),
            h3('Share of window time'), overlapShares(ctx, rows, sorted, table_, 'fraction_of_window'),
        ];
        if (alone) sec.appendChild(el('details', {}, el('summary', {}, 'The overlap tables'), ...parts));
        else sec.append(...parts);
    }

    // The header of a concurrency level: the figure of overlap_table.concurrency when it lists the level.
    function levelLabel(ctx, k) {
        const table_ = ctx.report.overlap_table;
        const j = table_ && Array.isArray(table_.concurrency) ? table_.concurrency.indexOf(k) : -1;
        return j >= 0 ? num(k, P('overlap_table.concurrency', j)) : String(k);
    }

    function overlapTimes(ctx, rows, levels) {
        const base = (i) => P('overlap', i);
        return table([
            deviceColumn(ctx, base),
            ...cols(base, [['communication_ns', 'Communication', 'ns']]),
            ...levels.map((k) => ({key: `t${k}`, label: levelLabel(ctx, k), format: 'ns', value: (r) => (r.time_ns_by_concurrency || {})[k],
                path: (r, i) => P(base(i), 'time_ns_by_concurrency', k)})),
        ], rows);
    }

    // A view of the overlap (of communication, of the window): a row per device, then overlap_table's
    // statistics over the devices at its columns (Total is a sum over devices, so it may exceed 100 %;
    // Avg/Max is a ratio of two shares, shown as a number).
    function overlapShares(ctx, rows, levels, stats, view) {
        const base = (i) => P('overlap', i);
        const foot = [];
        if (stats && stats[view]) {
            for (const [name, values] of Object.entries(stats[view])) {
                const row = {stat: name, values: {}, paths: {}};
                stats.concurrency.forEach((k, j) => {
                    row.values[k] = values[j];
                    row.paths[k] = P('overlap_table', view, name, j);
                });
                foot.push(row);
            }
        }
        const valueAt = (r, k) => (r.stat ? r.values[k] : (r[view] || {})[k]);
        const pathAt = (r, i, k) => (r.stat ? r.paths[k] : has(r[view], String(k)) ? P(base(i), view, k) : null);
        const columns = [
            {key: 'device', label: 'Device', format: 'text', sortValue: (r) => ctx.deviceOrder(r.device),
                render: (r, i) => (r.stat ? el('strong', {}, r.stat) : deviceNode(ctx, r.device, P(base(i), 'device')))},
            ...levels.map((k) => ({
                key: `f${k}`, label: levelLabel(ctx, k), format: 'share', value: (r) => valueAt(r, k),
                render: (r, i) => (r.stat === 'Avg/Max' ? num(valueAt(r, k), pathAt(r, i, k), 'number')
                    : [num(valueAt(r, k), pathAt(r, i, k), 'share'), isNum(valueAt(r, k)) ? gpueff.bar(valueAt(r, k)) : null]),
            })),
        ];
        return table(columns, rows, {foot});
    }

    // Share of the window at each count (kernels in flight, queue depth): a chart and the times themselves.
    function histogramPart(ctx, sec, rows, base, key, opts) {
        const counts = new Set();
        for (const r of rows) for (const k of Object.keys(r[key] || {})) counts.add(Number(k));
        const sorted = [...counts].sort((a, b) => a - b);
        const totals = rows.map((r) => Object.values(r[key] || {}).reduce((s, v) => s + v, 0));
        const chart = chartBox();
        sec.appendChild(chart);
        gpueff.lineChart(chart, {
            name: opts.chart, x: sorted, xLabel: opts.xLabel, yLabel: 'share of the window', yFormat: 'share', bars: true,
            series: rows.map((r, i) => ({name: ctx.deviceLabel(r.device), values: sorted.map((k) => (totals[i] > 0 && r[key] && isNum(r[key][k]) ? r[key][k] / totals[i] : null)), color: gpueff.colour(i)})),
        });
        sec.appendChild(el('details', {}, el('summary', {}, opts.timesTitle), table([
            {key: 'k', label: opts.countLabel, format: 'number', derived: 'count', value: (k) => k},
            ...rows.map((r, i) => ({key: `d${i}`, label: ctx.deviceLabel(r.device), format: 'ns', value: (k) => (r[key] || {})[k], path: (k) => (has(r[key], String(k)) ? P(base(i), key, k) : null)})),
        ], sorted)));
    }

    function renderInFlight(ctx, sec, report) {
        const rows = report.kernels_in_flight || [];
        const base = (i) => P('kernels_in_flight', i);
        sec.appendChild(p('Time of the window with k kernels (compute + NCCL + graph launches) executing on the device.'));
        sec.appendChild(table([
            deviceColumn(ctx, base),
            ...cols(base, [['mean', 'Mean', 'number', {title: 'Time-weighted'}], ['maximum', 'Maximum', 'number']]),
            {key: 'busy', label: 'At least one', format: 'share', derived: '1 - time_ns_by_count[0] / sum', value: (r) => busyShare(r.time_ns_by_count), bar: 'share'},
            {key: 'busy_mem', label: 'At least one, memory counted', format: 'share', derived: '1 - with_memory_time_ns_by_count[0] / sum', value: (r) => busyShare(r.with_memory_time_ns_by_count), bar: 'share'},
        ], rows));
        if (!rows.length) return;
        // Both histograms are built at once (their times carry data-path) and drawn at full width; the
        // checkbox shows one of them.
        const parts = {};
        const toggle = el('input', {type: 'checkbox', id: 'in-flight-memory'});
        sec.appendChild(el('div', {class: 'controls'}, el('label', {}, toggle, ' count memory operations too')));
        for (const [key, chart, title] of [
            ['time_ns_by_count', 'kernels-in-flight', 'Time at each count'],
            ['with_memory_time_ns_by_count', 'kernels-in-flight-memory', 'Time at each count, memory operations counted'],
        ]) {
            parts[key] = el('div', {'data-histogram': key});
            sec.appendChild(parts[key]);
            histogramPart(ctx, parts[key], rows, base, key, {chart, xLabel: 'kernels in flight', countLabel: 'Kernels', timesTitle: title});
        }
        parts.with_memory_time_ns_by_count.hidden = true;
        toggle.addEventListener('change', () => {
            parts.time_ns_by_count.hidden = toggle.checked;
            parts.with_memory_time_ns_by_count.hidden = !toggle.checked;
        });
    }

    function busyShare(hist) {
        if (!hist) return null;
        const total = Object.values(hist).reduce((s, v) => s + v, 0);
        return total > 0 ? 1 - (hist['0'] || 0) / total : null;
    }

    function launchCoverage(ctx, report) {
        const low = (report.devices || []).filter((d) => isNum(d.kernels) && isNum(d.kernels_with_launch) && d.kernels > 0 && d.kernels_with_launch < 0.9 * d.kernels);
        if (!low.length) return null;
        return el('p', {class: 'warning'}, 'Launch calls found for only part of the kernels (', low.map((d, i) => [i ? ', ' : '', ctx.deviceLabel(d.id), ' ',
            derived(d.kernels_with_launch / d.kernels, 'share', 'kernels_with_launch / kernels')]), '): the figures below count those kernels only.');
    }

    function renderQueued(ctx, sec, report) {
        const rows = report.kernels_queued || [];
        sec.appendChild(p('Time with k kernels (and graph launches) launched but not yet started on the device: from the launch call\'s end (or the GPU start, if earlier) to the GPU start.'));
        const warning = launchCoverage(ctx, report);
        if (warning) sec.appendChild(warning);
        if (!rows.length) {
            sec.appendChild(muted('n/a: not computed for this trace (why: see Notes).'));
            return;
        }
        const base = (i) => P('kernels_queued', i);
        sec.appendChild(table([
            deviceColumn(ctx, base),
            ...cols(base, [['mean', 'Mean depth', 'number', {title: 'Time-weighted'}], ['maximum', 'Maximum', 'number']]),
            {key: 'busy', label: 'At least one queued', format: 'share', derived: '1 - time_ns_by_depth[0] / sum', value: (r) => busyShare(r.time_ns_by_depth), bar: 'share'},
        ], rows));
        histogramPart(ctx, sec, rows, base, 'time_ns_by_depth', {chart: 'kernels-queued', xLabel: 'kernels queued', countLabel: 'Depth', timesTitle: 'Time at each depth'});
    }

    function renderNcclOverlap(ctx, sec, report) {
        const rows = report.nccl_overlap || [];
        if (rows.length && !rows.some((r) => r.overlapped_ns > 0))
            sec.appendChild(p('No NCCL kernel ran beside a compute kernel or a memory operation on its device.'));
        else sec.appendChild(p('Per device and NCCL kernel: the time of its executions during which a compute kernel or a memory operation ran on the same device.'));
        const base = (i) => P('nccl_overlap', i);
        sec.appendChild(table([
            deviceColumn(ctx, base),
            ...cols(base, [['kernel', 'NCCL kernel', 'text', {cls: 'kernel'}], ['instances', 'Instances', 'number'], ['time_ns', 'Time', 'ns', {bar: 'max'}],
                ['overlapped_ns', 'Overlapped', 'ns'], ['overlapped_fraction', 'Overlapped share', 'share', {bar: 'share'}]]),
        ], rows, {filter: rows.length > 12, empty: 'No NCCL kernel.'}));
    }

    // ---- kernels ---------------------------------------------------------------------------------------

    function renderTensorCore(ctx, sec, report) {
        const tc = report.tensor_core;
        gpueff.markShown('tensor_core.available');
        if (!tc.available) {
            sec.appendChild(p('Not available: ', text(tc.reason, 'tensor_core.reason')));
            return;
        }
        const kernels = tc.kernels || [];
        const stats = tc.rows || {};
        sec.appendChild(p('Time-weighted mean of "', text(tc.metric, 'tensor_core.metric'), '" during each GEMM kernel\'s executions, over the tasks.'));
        const statCols = Object.keys(stats).map((name) => ({
            key: name, label: name, format: name === 'Avg/Max' ? 'number' : 'percent', value: (k) => (stats[name] || {})[k],
            path: (k) => (has(stats[name], k) ? P('tensor_core.rows', name, k) : null),
        }));
        sec.appendChild(table([
            {key: 'kernel', label: 'GEMM kernel', format: 'text', cls: 'kernel', value: (k) => k, path: (k, i) => P('tensor_core.kernels', i)},
            ...statCols,
        ], kernels, {filter: kernels.length > 12}));
        const perTask = [];
        (tc.tasks || []).forEach((t, ti) => kernels.forEach((k) => perTask.push({t, ti, k})));
        if (perTask.length) {
            sec.appendChild(el('details', {}, el('summary', {}, 'Per task'), table([
                {key: 'task', label: 'Task', format: 'number', value: (r) => r.t.task, path: (r) => P('tensor_core.tasks', r.ti, 'task')},
                {key: 'device', label: 'Device', format: 'text', render: (r) => deviceNode(ctx, r.t.device, P('tensor_core.tasks', r.ti, 'device')), sortValue: (r) => ctx.deviceOrder(r.t.device)},
                {key: 'kernel', label: 'GEMM kernel', format: 'text', cls: 'kernel', value: (r) => r.k},
                {key: 'value', label: 'Tensor active', format: 'percent', value: (r) => (r.t.tensor_active_percent || {})[r.k],
                    path: (r) => (has(r.t.tensor_active_percent, r.k) ? P('tensor_core.tasks', r.ti, 'tensor_active_percent', r.k) : null)},
            ], perTask, {filter: perTask.length > 12})));
        }
    }

    // A kernel-row table (nsys stats' cuda_gpu_kern_sum form), sortable, filterable, full names.
    function kernelRowTable(rows, basePath, nameLabel, countLabel, extra) {
        const base = (i) => P(basePath, i);
        return table([
            ...cols(base, [[ 'name', nameLabel || 'Name', 'text', {cls: 'kernel'}]]),
            ...(extra || []).map((c) => ({...c, path: (r, i) => P(base(i), c.key)})),
            ...cols(base, [
                ['time_percent', 'Time %', 'percent', {bar: 'max'}], ['total_ns', 'Total', 'ns'], ['instances', countLabel || 'Instances', 'number'],
                ['avg_ns', 'Avg', 'ns'], ['med_ns', 'Med', 'ns'], ['min_ns', 'Min', 'ns'], ['max_ns', 'Max', 'ns'], ['stddev_ns', 'StdDev', 'ns'],
            ]),
        ], rows, {filter: rows.length > 8, cls: 'kernel-rows'});
    }

    function renderKernelSummary(ctx, sec, report) {
        const ks = report.kernel_summary;
        sec.appendChild(p('As ', el('code', {}, 'nsys stats -r cuda_gpu_kern_sum'), ': kernels (not graph launches) over the whole trace, not clipped to the window; median = mean of the two middle values for an even count; standard deviation of the sample.'));
        const views = [{value: 'overall', label: 'All devices'}, ...(ks.devices || []).map((d, i) => ({value: String(i), label: ctx.deviceLabel(d.device)}))];
        const tables = {overall: el('div', {'data-kernels': 'overall'}, kernelRowTable(ks.overall || [], 'kernel_summary.overall', 'Kernel'))};
        (ks.devices || []).forEach((d, i) => {
            tables[String(i)] = el('div', {'data-kernels': d.device, hidden: true},
                el('p', {class: 'muted small'}, 'Kernels of ', deviceNode(ctx, d.device, P('kernel_summary.devices', i, 'device')), ':'),
                kernelRowTable(d.rows || [], P('kernel_summary.devices', i, 'rows'), 'Kernel'));
        });
        const show = (v) => Object.entries(tables).forEach(([k, node]) => (node.hidden = k !== v));
        if (views.length > 2) sec.appendChild(el('div', {class: 'controls'}, gpueff.choice('kernel-summary-device', views, 'overall', show)));
        sec.append(...Object.values(tables));
    }

    function renderDurations(ctx, sec, report) {
        const list = report.kernel_durations || [];
        sec.appendChild(p('Are all instances of a kernel alike? Several modes (peaks of the duration density) mean several kinds of calls under one name. Click a kernel for its histogram (20 equal bins).'));
        if (!list.length) {
            sec.appendChild(muted('No kernel.'));
            return;
        }
        list.forEach((d, i) => gpueff.cover(P('kernel_durations', i, 'bins')));
        const chart = chartBox();
        const title = el('p', {class: 'chart-title'});
        let g = null;
        let selected = 0;
        const base = (i) => P('kernel_durations', i);
        const t = table([
            ...cols(base, [['name', 'Kernel', 'text', {cls: 'kernel'}], ['instances', 'Instances', 'number']]),
            {key: 'modes_ns', label: 'Modes', format: 'text', render: (d, i) => el('span', {class: 'value-list'}, (d.modes_ns || []).map((m, j) => [j ? ', ' : '', num(m, P(base(i), 'modes_ns', j), 'ns')])),
                sortValue: (d) => (d.modes_ns || []).length},
            {key: 'lower', label: 'From', format: 'ns', value: (d) => (d.bins && d.bins.length ? d.bins[0].lower_ns : undefined), path: (d, i) => P(base(i), 'bins', 0, 'lower_ns')},
            {key: 'upper', label: 'To', format: 'ns', value: (d) => (d.bins && d.bins.length ? d.bins[d.bins.length - 1].upper_ns : undefined), path: (d, i) => P(base(i), 'bins', (d.bins || []).length - 1, 'upper_ns')},
        ], list, {filter: list.length > 8, onRowClick: (d, i) => draw(i), rowAttrs: (d, i) => ({'data-kernel-index': i})});
        sec.append(title, chart, t);
        function draw(i) {
            selected = i;
            const d = list[i];
            const bins = d.bins || [];
            gpueff.destroyChart(g);
            title.replaceChildren(el('code', {class: 'kernel'}, d.name));
            g = gpueff.lineChart(chart, {
                name: 'kernel-durations', x: bins.map((b) => (b.lower_ns + b.upper_ns) / 2), xLabel: 'duration', xFormat: 'ns', yLabel: 'instances', bars: true,
                series: [{name: 'instances', values: bins.map((b) => b.count), color: '#0072B2'}],
                markers: (d.modes_ns || []).map((m) => ({x: m, label: `mode ${gpueff.fmtNs(m)}`, color: '#D55E00'})),
            });
            t.querySelectorAll('tr[data-kernel-index]').forEach((tr) => tr.classList.toggle('selected', Number(tr.getAttribute('data-kernel-index')) === selected));
        }
        draw(0);
    }

    function renderCategories(ctx, sec, report) {
        const list = report.kernel_categories || [];
        const total = list.reduce((s, c) => s + (isNum(c.time_ns) ? c.time_ns : 0), 0);
        sec.appendChild(p('Kernels by the patterns of their names (sum of durations, whole trace) and memory operations (union per device in the window).'));
        const base = (i) => P('kernel_categories', i);
        sec.appendChild(table([
            ...cols(base, [['category', 'Kind of work', 'text'], ['time_ns', 'Time', 'ns']]),
            {key: 'share', label: 'Share', format: 'share', derived: 'time_ns / sum of time_ns', value: (c) => (total > 0 ? c.time_ns / total : null), bar: 'share'},
            ...cols(base, [['instances', 'Instances', 'number']]),
        ], list, {empty: 'No kernel.'}));
    }

    function renderKernelOverlap(ctx, sec, report) {
        const list = report.kernel_overlap || [];
        const split = list.some((k) => isNum(k.slowdown));
        sec.appendChild(p('Are all kernels born equal? Instances of the top compute kernels split by whether they ran while communication ran on the same device; slowdown = median overlapped / median alone.'));
        if (list.length && !split) sec.appendChild(muted('No kernel ran both during and outside communication: nothing to compare.'));
        const base = (i) => P('kernel_overlap', i);
        const group = (g, key) => ({
            key: `${g}_${key}`, value: (k) => (k[g] ? k[g][key] : undefined),
            path: (k, i) => (k[g] ? P(base(i), g, key) : null),
        });
        const main = table([
            ...cols(base, [['name', 'Kernel', 'text', {cls: 'kernel'}]]),
            {...group('alone', 'instances'), label: 'Alone', format: 'number'},
            {...group('alone', 'med_ns'), label: 'Median alone', format: 'ns'},
            {...group('overlapped', 'instances'), label: 'Overlapped', format: 'number'},
            {...group('overlapped', 'med_ns'), label: 'Median overlapped', format: 'ns'},
            ...cols(base, [['slowdown', 'Slowdown', 'factor']]),
        ], list, {filter: list.length > 8, empty: 'No compute kernel.'});
        // Without a kernel to compare the table only repeats the kernel summary: folded.
        sec.appendChild(split || !list.length ? main : el('details', {}, el('summary', {}, 'The kernels, alone'), main));
        // Every statistic of each group, one row per kernel and group.
        const groups = [];
        list.forEach((k, i) => ['alone', 'overlapped'].forEach((g) => {
            if (k[g]) groups.push({k, i, g, s: k[g]});
            else if (has(k, g)) gpueff.markShown(P(base(i), g));
        }));
        const gcol = (key, label, format) => ({key, label, format, value: (r) => r.s[key], path: (r) => (has(r.s, key) ? P(base(r.i), r.g, key) : null)});
        sec.appendChild(el('details', {}, el('summary', {}, 'Every statistic of each group'), table([
            {key: 'name', label: 'Kernel', format: 'text', cls: 'kernel', value: (r) => r.k.name},
            {key: 'group', label: 'Group', format: 'text', value: (r) => r.g},
            gcol('instances', 'Instances', 'number'), gcol('total_ns', 'Total', 'ns'), gcol('avg_ns', 'Avg', 'ns'), gcol('med_ns', 'Med', 'ns'),
            gcol('min_ns', 'Min', 'ns'), gcol('max_ns', 'Max', 'ns'),
            {key: 'modes_ns', label: 'Modes', format: 'text', render: (r) => el('span', {class: 'value-list'}, (r.s.modes_ns || []).map((m, j) => [j ? ', ' : '', num(m, P(base(r.i), r.g, 'modes_ns', j), 'ns')]))},
            gcol('tensor_active_percent', 'Tensor active', 'percent'),
        ], groups, {filter: groups.length > 8})));
    }

    // The renderers of this file's sections, by their ids in run.js's SECTIONS.
    Object.assign(runPage.sections, {
        'sec-overlap': renderOverlap,
        'sec-kernels-in-flight': renderInFlight,
        'sec-kernels-queued': renderQueued,
        'sec-nccl-overlap': renderNcclOverlap,
        'sec-tensor-core': renderTensorCore,
        'sec-kernel-summary': renderKernelSummary,
        'sec-kernel-durations': renderDurations,
        'sec-kernel-categories': renderCategories,
        'sec-kernel-overlap': renderKernelOverlap,
    });
    // What the gaps (launch coverage) and the nsys stats (kernel-row tables) show with.
    Object.assign(runPage, {launchCoverage, kernelRowTable});
})();
