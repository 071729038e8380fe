'use strict';
// The run page's efficiency model (run.js is the page): the factor tables and per-device states that every
// level of the model shows (the run, an iteration, the focus, a phase), and the sections of the whole window:
// summary, device efficiency, devices and device states over time.
(function () {
    const gpueff = window.gpueff;
    const runPage = gpueff.runPage;
    const {el, num, text} = gpueff;
    const P = gpueff.path;
    const isNum = gpueff.isNum;
    const {CONVENTIONS, CONVENTION_CHOICES, FACTORS, h3, p, muted, table, has, cols, deviceColumn, facts, chartBox} = runPage;

    const STATE_COLOURS = {useful: '#0072B2', communication: '#E69F00', idle: '#b8b8b8'};
    const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

    // ---- the efficiency model --------------------------------------------------------------------------

    // A factor with its POP colour square.
    function factorCell(value, path) {
        return el('span', {class: 'factor'}, el('span', {class: ['pop', gpueff.popClass(value)], 'aria-hidden': 'true'}), num(value, path, 'share'));
    }

    // The factors and the times they come from, both conventions side by side (report.md's table).
    function factorTable(efficiency, base) {
        const conventions = CONVENTIONS.filter((c) => has(efficiency, c.key));
        const head = el('tr', {}, el('th', {class: 'text'}, 'Metric'), conventions.map((c) => el('th', {class: 'num'}, c.label)));
        const body = el('tbody');
        for (const f of FACTORS) {
            body.appendChild(el('tr', {}, el('th', {scope: 'row', class: ['text', f.indent && 'indent']}, f.label),
                conventions.map((c) => el('td', {class: 'num'}, factorCell(efficiency[c.key][f.key], P(base, c.key, f.key)),
                    gpueff.bar(efficiency[c.key][f.key], gpueff.popClass(efficiency[c.key][f.key]))))));
        }
        const times = [
            ['useful_sum_ns', 'Useful time, sum over devices'],
            ['useful_max_ns', 'Useful time, maximum device'],
            ['active_max_ns', 'Active time (useful + communication), maximum device'],
        ];
        for (const [key, label] of times) {
            body.appendChild(el('tr', {}, el('th', {scope: 'row', class: 'text'}, label),
                conventions.map((c) => el('td', {class: 'num'}, num(efficiency[c.key][key], P(base, c.key, key), 'ns')))));
        }
        return gpueff.scrollBox(el('table', {class: 'factors'}, el('thead', {}, head), body));
    }

    // Per device: useful, communication and idle time of one convention, a bar of the three over the
    // level's time T, and where each device loses (U/T, U/max U, U/A, A/T as device_efficiency.svg).
    function deviceStateTable(ctx, convention, base, T) {
        const devices = convention.devices || [];
        const maxU = devices.reduce((m, d) => Math.max(m, isNum(d.useful_ns) ? d.useful_ns : 0), 0);
        const ratio = (a, b) => (isNum(a) && isNum(b) && b > 0 ? a / b : null);
        const active = (d) => (isNum(d.useful_ns) && isNum(d.communication_ns) ? d.useful_ns + d.communication_ns : null);
        const rowBase = (i) => P(base, 'devices', i);
        const columns = [
            deviceColumn(ctx, rowBase, 'id'),
            ...cols(rowBase, [
                ['useful_ns', 'Useful', 'ns'],
                ['communication_ns', 'Communication', 'ns'],
                ['idle_ns', 'Idle', 'ns'],
            ]),
            {
                key: 'state', label: 'Useful / communication / idle', format: 'text', cls: 'bar-cell',
                render: (d) => gpueff.stackBar([
                    {value: d.useful_ns, cls: 'seg-useful', label: `useful ${gpueff.fmtNs(d.useful_ns)}`},
                    {value: d.communication_ns, cls: 'seg-communication', label: `communication ${gpueff.fmtNs(d.communication_ns)}`},
                    {value: d.idle_ns, cls: 'seg-idle', label: `idle ${gpueff.fmtNs(d.idle_ns)}`},
                ], T),
                sortValue: (d) => d.useful_ns,
            },
            {key: 'ut', label: 'U/T', format: 'share', derived: 'useful_ns / window', value: (d) => ratio(d.useful_ns, T), title: 'Useful fraction: its mean over the devices is the parallel efficiency'},
            {key: 'umax', label: 'U/max U', format: 'share', derived: 'useful_ns / max useful_ns', value: (d) => ratio(d.useful_ns, maxU), title: 'Its mean over the devices is the load balance'},
            {key: 'ua', label: 'U/A', format: 'share', derived: 'useful_ns / (useful_ns + communication_ns)', value: (d) => ratio(d.useful_ns, active(d)), title: 'Share of the active time that was useful'},
            {key: 'at', label: 'A/T', format: 'share', derived: '(useful_ns + communication_ns) / window', value: (d) => ratio(active(d), T), title: 'Active fraction: the orchestration efficiency is its maximum'},
        ];
        return table(columns, devices);
    }

    // Per-device tables of both conventions, one shown at a time.
    function conventionDeviceTables(ctx, efficiency, base, T) {
        const box = el('div', {class: 'convention-tables'});
        const tables = {};
        for (const c of CONVENTIONS) {
            if (!has(efficiency, c.key)) continue;
            tables[c.key] = el('div', {'data-convention': c.key, hidden: c.key !== 'nccl_as_communication'}, deviceStateTable(ctx, efficiency[c.key], P(base, c.key), T));
        }
        const show = (key) => Object.entries(tables).forEach(([k, node]) => (node.hidden = k !== key));
        box.append(gpueff.choice('device-convention', CONVENTION_CHOICES, 'nccl_as_communication', show), ...Object.values(tables));
        return box;
    }

    // The figures of one level (iteration, focus, phase): the model in both conventions per device.
    function levelDetail(ctx, figures, base, T) {
        const box = el('div', {class: 'level-detail'});
        box.appendChild(facts([
            has(figures, 'overlap_share') && ['Overlap share', num(figures.overlap_share, P(base, 'overlap_share'), 'share')],
            has(figures, 'kernels_in_flight_mean') && ['Kernels in flight (mean while any runs)', num(figures.kernels_in_flight_mean, P(base, 'kernels_in_flight_mean'), 'number')],
        ], 'inline'));
        if (has(figures, 'efficiency')) {
            box.appendChild(factorTable(figures.efficiency, P(base, 'efficiency')));
            box.appendChild(conventionDeviceTables(ctx, figures.efficiency, P(base, 'efficiency'), T));
        }
        return box;
    }

    // ---- sections of the whole window ------------------------------------------------------------------

    function renderSummary(ctx, sec, report) {
        const s = report.summary;
        if (!s.computable) {
            sec.appendChild(muted('Not computable: the efficiency model has no useful time (', text(s.computable, 'summary.computable'), ').'));
            return;
        }
        gpueff.markShown('summary.computable');
        sec.appendChild(el('div', {class: 'headline'},
            el('div', {class: 'big'}, factorCell(s.parallel_efficiency, 'summary.parallel_efficiency'), el('span', {class: 'big-label'}, 'parallel efficiency')),
            el('p', {}, 'Of ', num(s.device_time_ns, 'summary.device_time_ns', 'ns'), ' of device time (window × devices), ',
                num(s.lost_ns, 'summary.lost_ns', 'ns'), ' went to no useful work (NCCL counted as communication). Where it went, largest first:')));
        const list = el('ol', {class: 'losses'});
        (s.losses || []).forEach((l, i) => {
            const base = P('summary.losses', i);
            list.appendChild(el('li', {class: ['loss', isNum(l.lost_share) && l.lost_share < 0.005 && 'minor']},
                el('div', {class: 'loss-head'},
                    el('strong', {}, text(l.factor, P(base, 'factor'), `${capital(l.factor)} efficiency`)), ' ', factorCell(l.efficiency, P(base, 'efficiency')),
                    el('span', {class: 'loss-lost'}, 'lost ', num(l.lost_ns, P(base, 'lost_ns'), 'ns'), ' (', num(l.lost_share, P(base, 'lost_share'), 'share'), ' of the device time)'),
                    gpueff.bar(l.lost_share, 'loss-bar')),
                el('p', {}, el('span', {class: 'label'}, 'Evidence: '), text(l.evidence, P(base, 'evidence'))),
                el('p', {}, el('span', {class: 'label'}, 'Next: '), text(l.recommendation, P(base, 'recommendation')))));
        });
        sec.appendChild(list);
    }

    function renderEfficiency(ctx, sec, report) {
        const e = report.efficiency;
        sec.appendChild(factorTable(e, 'efficiency'));
        sec.appendChild(muted('POP colour scale: ', el('span', {class: 'pop pop-good'}), ' ≥ 80 %, ', el('span', {class: 'pop pop-fair'}), ' 70–80 %, ',
            el('span', {class: 'pop pop-poor'}), ' 60–70 %, ', el('span', {class: 'pop pop-bad'}), ' < 60 %. Parallel efficiency = load balance × communication efficiency × orchestration efficiency. ',
            el('em', {}, 'NCCL as communication'), ': useful = compute kernels and CUDA graph launches, communication = NCCL kernels and memory operations. ',
            el('em', {}, 'NCCL as useful'), ': NCCL kernels count as useful, communication = memory operations.'));
        sec.appendChild(h3('Per device'));
        sec.appendChild(conventionDeviceTables(ctx, e, 'efficiency', report.window && report.window.duration_ns));
        sec.appendChild(muted('U useful, A active = useful + communication, T the window. The mean of U/T over the devices is the parallel efficiency and the mean of U/max U the load balance; U/A and A/T split each device\'s own loss between communication and idle time.'));
    }

    function renderDevices(ctx, sec, report) {
        const devices = report.devices || [];
        if (!devices.length) {
            sec.appendChild(muted('No device in the trace.'));
            return;
        }
        const base = (i) => P('devices', i);
        const launched = (d) => (isNum(d.kernels_with_launch) && isNum(d.kernels) && d.kernels > 0 ? d.kernels_with_launch / d.kernels : null);
        const columns = [
            deviceColumn(ctx, base, 'id', 'Device'),
            ...cols(base, [
                ['useful_ns', 'Useful', 'ns'], ['communication_ns', 'Communication', 'ns'], ['idle_ns', 'Idle', 'ns'],
                ['compute_ns', 'Compute', 'ns', {title: '|union| of compute kernels'}], ['nccl_ns', 'NCCL', 'ns', {title: '|union| of NCCL kernels'}],
                ['memory_ns', 'Memory', 'ns', {title: '|union| of memory operations'}], ['kernels', 'Kernels', 'number'],
            ]),
        ];
        // Devices are named by their labels everywhere on the page.
        devices.forEach((d, i) => has(d, 'label') && gpueff.markShown(P(base(i), 'label')));
        if (devices.some((d) => has(d, 'kernels_with_launch'))) {
            columns.push(...cols(base, [['kernels_with_launch', 'With launch', 'number', {title: 'Kernels whose launch call was found: kernels queued and the causes of gaps count those only'}]]));
            columns.push({key: 'launch_share', label: 'Launch found', format: 'share', derived: 'kernels_with_launch / kernels', value: launched});
        }
        columns.push(...cols(base, [['memory_operations', 'Memory ops', 'number']]));
        sec.appendChild(table(columns, devices));
        sec.appendChild(muted('Useful / communication / idle follow NCCL as communication. Compute, NCCL and memory: the union of each class of work in the window.'));

        // Communication by kind: a run whose communication is host-to-device copies is not a network problem.
        const kinds = [];
        for (const d of devices) for (const k of Object.keys(d.memory_by_kind_ns || {})) if (!kinds.includes(k)) kinds.push(k);
        sec.appendChild(h3('Communication by kind'));
        const kindColumns = [
            {...columns[0]},
            ...cols(base, [['nccl_ns', 'NCCL kernels', 'ns']]),
            ...kinds.map((k) => ({key: k, label: k, format: 'ns', value: (d) => (d.memory_by_kind_ns || {})[k], path: (d, i) => (has(d.memory_by_kind_ns, k) ? P(base(i), 'memory_by_kind_ns', k) : null)})),
        ];
        sec.appendChild(table(kindColumns, devices));
        sec.appendChild(muted('Time of each kind (union of its operations in the window; kinds can overlap each other).'));

        sec.appendChild(h3('Where each device is'));
        sec.appendChild(table([
            {...columns[0]},
            ...cols(base, [['host', 'Host', 'text'], ['pid', 'PID', 'number'], ['task', 'Task', 'number'], ['gpu', 'GPU', 'number'],
                ['id', 'Id in report.json', 'text', {cls: 'path'}], ['name', 'Stream row', 'text'], ['rows', 'Rows', 'number']]),
        ], devices));
        sec.appendChild(muted('Rank r is the r-th process of the run (in the order of the inputs), GPU g its CUDA device number.'));
    }

    function renderTimeline(ctx, sec, report) {
        const tl = report.timeline;
        const devices = tl.devices || [];
        const w = report.window || {};
        sec.appendChild(p('The window cut into ', num(tl.bins, 'timeline.bins'), ' bins of ', num(tl.bin_ns, 'timeline.bin_ns', 'ns'),
            ': per device, the shares of useful and communication time (NCCL as communication) and the mean number of kernels executing in each bin. Drag to zoom (the two charts follow each other), double-click to reset.'));
        gpueff.cover('timeline.devices');
        if (!devices.length || !(tl.bin_ns > 0)) {
            sec.appendChild(muted('Nothing to plot: no device, or an empty window.'));
            return;
        }
        const n = devices.reduce((m, d) => Math.max(m, (d.useful || []).length, (d.kernels_in_flight || []).length), 0);
        const begin = isNum(w.begin_ns) ? w.begin_ns : 0;
        // One point per bin start and one at the window's end, drawn as steps: a bin's value holds over it.
        const x = Array.from({length: n + 1}, (v, i) => begin + i * tl.bin_ns);
        // The value of bin i; the closing point repeats the last bin's.
        const binValue = (values, i) => (values && values.length ? values[Math.min(i, values.length - 1)] : null);
        const seriesOf = (values) => x.map((v, i) => binValue(values, i));
        const idle = (d) => x.map((v, i) => {
            const u = binValue(d.useful, i);
            const c = binValue(d.communication, i);
            return isNum(u) && isNum(c) ? Math.max(0, 1 - u - c) : null;
        });
        const views = [
            ...['useful', 'communication', 'idle'].map((metric) => ({value: `all:${metric}`, label: `All devices: ${metric}`})),
            ...devices.map((d, i) => ({value: `device:${i}`, label: `${ctx.deviceLabel(d.device)}: useful / communication / idle`})),
        ];
        const select = el('select', {'aria-label': 'Devices shown', id: 'timeline-view'}, views.map((v) => el('option', {value: v.value}, v.label)));
        if (devices.length === 1) select.value = 'device:0';
        sec.appendChild(el('div', {class: 'controls'}, el('label', {}, 'Show ', select)));
        const states = chartBox();
        const inFlight = chartBox();
        sec.append(states, inFlight);
        // Where the focus of analysis lies and where iterations begin, to read the states against them.
        const markers = [];
        const its = Array.isArray(report.iterations) ? report.iterations : [];
        if (its.length && its.length <= 200) for (const it of its) markers.push({x: it.begin_ns, color: '#b0b7bf', dash: [2, 4]});
        if (report.focus) markers.push({x: report.focus.begin_ns, label: 'focus', color: '#1a7f37'}, {x: report.focus.end_ns, color: '#1a7f37'});
        let charts = [];
        function draw(view) {
            const zoom = charts[0] && charts[0].isZoomed('x') ? charts[0].xAxisRange() : null;
            charts.forEach(gpueff.destroyChart);
            const [kind, which] = view.split(':');
            const shown = kind === 'device' ? [devices[Number(which)]] : devices;
            let series;
            if (kind === 'device') {
                const d = shown[0];
                // dygraphs stacks the last series at the bottom: useful there, its height read on the axis.
                series = [
                    {name: 'idle', values: idle(d), color: STATE_COLOURS.idle},
                    {name: 'communication', values: seriesOf(d.communication), color: STATE_COLOURS.communication},
                    {name: 'useful', values: seriesOf(d.useful), color: STATE_COLOURS.useful},
                ];
            } else {
                series = devices.map((d, i) => ({name: ctx.deviceLabel(d.device), color: gpueff.colour(i),
                    values: which === 'idle' ? idle(d) : seriesOf(d[which])}));
            }
            const common = {x, xLabel: 'trace time', xFormat: 'ns', stepPlot: true, group: 'timeline', markers};
            charts = [
                gpueff.lineChart(states, {...common, name: 'device-states', series, yLabel: kind === 'device' ? 'share of the bin' : `${which} share`,
                    yFormat: 'share', yRange: [0, 1.04], stacked: kind === 'device'}),
                gpueff.lineChart(inFlight, {...common, name: 'kernels-in-flight-timeline', yLabel: 'kernels in flight (mean)',
                    series: shown.map((d, i) => ({name: ctx.deviceLabel(d.device), values: seriesOf(d.kernels_in_flight), color: gpueff.colour(kind === 'device' ? Number(which) : i)}))}),
            ].filter(Boolean);
            if (zoom) charts.forEach((g) => g.updateOptions({dateWindow: zoom}));
        }
        select.addEventListener('change', () => draw(select.value));
        draw(select.value);
    }

    // The renderers of this file's sections, by their ids in run.js's SECTIONS.
    Object.assign(runPage.sections, {
        'sec-summary': renderSummary,
        'sec-efficiency': renderEfficiency,
        'sec-devices': renderDevices,
        'sec-timeline': renderTimeline,
    });
    // What the other levels of the model (iterations, focus, phases) and the MPI factors show with.
    Object.assign(runPage, {factorCell, levelDetail});
})();
