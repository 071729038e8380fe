'use strict';
// The page of one run (run.html?run=ID): loads runs/ID.js, which calls gpueffRun(data) with data = {id,
// label, attributes, source, links, prev, next, report: report.json}, and shows everything report.md says,
// interactive, in its order: header, summary, device efficiency, devices, states over time, iterations,
// phases, collectives, concurrency, kernels, gaps, host, nsys stats, HTA, notes. A key of report.json no
// section knows is shown by a generic renderer, and whatever a section left out is listed under "Other data":
// nothing of the report is lost. Every figure carries its JSON path (common.js: gpueff.num).
(function () {
    const gpueff = window.gpueff;
    const {el, num, text, derived, sortableTable} = gpueff;
    const P = gpueff.path;
    const isNum = gpueff.isNum;

    const CONVENTIONS = [
        {key: 'nccl_as_communication', label: 'NCCL as communication'},
        {key: 'nccl_as_useful', label: 'NCCL as useful'},
    ];
    // The conventions as the options of a switch (gpueff.choice).
    const CONVENTION_CHOICES = CONVENTIONS.map((c) => ({value: c.key, label: c.label}));
    // The factors of PE = LB x CommE x OrchE, in report.md's order and the colours of its plots.
    const FACTORS = [
        {key: 'parallel_efficiency', label: 'Parallel efficiency', short: 'PE', colour: '#000000'},
        {key: 'load_balance', label: 'Load balance', short: 'LB', colour: '#0072B2', indent: true},
        {key: 'communication_efficiency', label: 'Communication efficiency', short: 'CommE', colour: '#E69F00', indent: true},
        {key: 'orchestration_efficiency', label: 'Orchestration efficiency', short: 'OrchE', colour: '#009E73', indent: true},
    ];
    const STATE_COLOURS = {useful: '#0072B2', communication: '#E69F00', idle: '#b8b8b8'};

    // ---- page helpers ----------------------------------------------------------------------------------

    // A section of the page, appended at once so that charts made in it know their width.
    function section(ctx, id, title) {
        const sec = el('section', {id, class: 'report-section'}, el('h2', {}, el('a', {href: `#${id}`, class: 'anchor'}, title)));
        ctx.main.appendChild(sec);
        ctx.toc.push({id, title});
        return sec;
    }
    const h3 = (title, id) => el('h3', {id}, title);
    const p = (...children) => el('p', {}, ...children);
    const muted = (...children) => el('p', {class: 'muted'}, ...children);
    const table = (columns, rows, opts) => gpueff.scrollBox(sortableTable(columns, rows, opts));
    const has = (obj, key) => obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key);
    const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

    // Columns of one row path each: cols(i => 'gaps.' + i, [[key, label, format, extra], ...]).
    function cols(base, specs) {
        return specs.map(([key, label, format, extra]) => Object.assign({key, label, format, path: (row, i) => P(base(i, row), key)}, extra || {}));
    }

    // A device named as report.md names it (its label, "rank r / GPU g"), its id in the tooltip and data-value.
    function deviceNode(ctx, id, path) {
        const node = text(id, path, ctx.deviceLabel(id));
        node.classList.add('device');
        node.title = id;
        return node;
    }
    function deviceColumn(ctx, base, key, label) {
        key = key || 'device';
        return {
            key, label: label || 'Device', format: 'text',
            render: (row, i) => deviceNode(ctx, row[key], P(base(i, row), key)),
            sortValue: (row) => ctx.deviceOrder(row[key]),
        };
    }

    // A definition list of [label, node] pairs (falsy pairs skipped), each pair in a <div> so that the
    // list can be laid out as a grid or as a row of items.
    function facts(pairs, cls) {
        return el('dl', {class: ['facts', cls]}, pairs.filter(Boolean).map(([label, value]) => el('div', {}, el('dt', {}, label), el('dd', {}, value))));
    }

    // A list of notes (strings of report.json) with their paths.
    function noteList(notes, base) {
        return el('ul', {class: 'notes'}, notes.map((n, i) => el('li', {}, text(n, P(base, i)))));
    }

    // A chart container of the page (gpueff.lineChart fills it).
    const chartBox = () => el('div', {class: 'chart'});

    // ---- generic rendering (keys without a section of their own) --------------------------------------

    function scalar(value, path) {
        if (typeof value === 'number' || value === null) return num(value, path, gpueff.formatForKey(path));
        return text(value, path);
    }

    // Arrays of flat objects become sortable tables, objects definition lists, arrays of values lists.
    function generic(value, path) {
        if (value === null || typeof value !== 'object') return scalar(value, path);
        if (Array.isArray(value)) {
            if (!value.length) return el('span', {class: 'muted'}, 'none');
            if (value.every((v) => v === null || typeof v !== 'object')) {
                const list = el('span', {class: 'value-list'}, value.map((v, i) => [i ? ', ' : '', scalar(v, P(path, i))]));
                return value.length > 40 ? el('details', {}, el('summary', {}, `${value.length} values`), list) : list;
            }
            if (value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) return genericTable(value, path);
            return el('ol', {start: 0, class: 'generic'}, value.map((v, i) => el('li', {}, generic(v, P(path, i)))));
        }
        const keys = Object.keys(value);
        if (!keys.length) return el('span', {class: 'muted'}, 'none');
        return el('dl', {class: 'generic'}, keys.map((k) => [el('dt', {}, k), el('dd', {}, generic(value[k], P(path, k)))]));
    }

    function genericTable(rows, path) {
        const keys = [];
        for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
        const columns = keys.map((k) => {
            const values = rows.map((r) => r[k]).filter((v) => v !== undefined);
            const flat = values.every((v) => v === null || typeof v !== 'object');
            const numeric = flat && values.some((v) => typeof v === 'number') && values.every((v) => v === null || typeof v === 'number');
            if (!flat) return {key: k, label: k, format: 'text', render: (row, i) => (row[k] === undefined ? '' : generic(row[k], P(path, i, k)))};
            return {key: k, label: k, format: numeric ? gpueff.formatForKey(k) : 'text', path: (row, i) => P(path, i, k)};
        });
        return table(columns, rows, {filter: rows.length > 10});
    }

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

    // ---- sections ---------------------------------------------------------------------------------------

    function renderHeader(ctx, data, report) {
        const head = el('header', {id: 'sec-header', class: 'run-header'});
        ctx.main.appendChild(head);
        head.appendChild(el('h1', {}, data.label || data.id || 'Run'));
        const attrs = data.attributes || {};
        const tags = attrs.tags && typeof attrs.tags === 'object' ? Object.entries(attrs.tags) : [];
        const tool = report.tool || {};
        head.appendChild(facts([
            ['Run', el('code', {}, data.id || 'n/a')],
            attrs.commit && ['Commit', el('code', {}, String(attrs.commit))],
            attrs.date && ['Date', String(attrs.date)],
            attrs.branch && ['Branch', String(attrs.branch)],
            attrs.gpus !== undefined && attrs.gpus !== null && ['GPUs', String(attrs.gpus)],
            tags.length && ['Tags', el('span', {class: 'tags'}, tags.map(([k, v]) => gpueff.badge(`${k}=${v}`, 'tag')))],
            data.source && ['Report', el('code', {class: 'path'}, data.source)],
            ['Produced by', [text(tool.name, 'tool.name'), ' ', text(tool.version, 'tool.version')]],
            ['Schema', [text(report.schema, 'schema'), report.schema !== 'gpueff-report/1' ? el('span', {class: 'badge warn'}, 'unexpected schema: parts may be missing') : null]],
        ], 'meta'));
        if (Array.isArray(data.links) && data.links.length) {
            head.appendChild(el('div', {class: 'links'}, el('span', {class: 'links-title'}, 'Files'),
                el('ul', {}, data.links.map((l) => el('li', {}, el('a', {href: l.href}, l.name || l.href)))),
                el('span', {class: 'muted small'}, 'Open the .prv (with its .pcf and .row beside it) and the cfgs in wxparaver.')));
        }
        const trace = report.trace;
        if (trace) {
            const writers = {gpueff: 'gpueff translate', nsys2prv: "nsys2prv (BSC's translator)", other: 'another tool'};
            head.appendChild(facts([
                ['Paraver trace', el('code', {class: 'path'}, text(trace.prv === '' ? '(not written: --no-trace)' : trace.prv, 'trace.prv'))],
                has(trace, 'tasks') && ['Tasks', num(trace.tasks, 'trace.tasks')],
                has(trace, 'threads') && ['Threads', num(trace.threads, 'trace.threads')],
                has(trace, 'writer') && ['Written by', text(trace.writer, 'trace.writer', writers[trace.writer] || trace.writer)],
                has(trace, 'cut_shift_ns') && ['Cut at', [num(trace.cut_shift_ns, 'trace.cut_shift_ns', 'ns'), ' of the trace it was cut from']],
            ], 'meta'));
        }
        renderWindow(ctx, head, report);
        renderInputs(ctx, head, report);
    }

    function renderWindow(ctx, parent, report) {
        const w = report.window;
        if (!w) return;
        const why = {
            'gpu-activity': 'first start to last end of the GPU activity of all devices (default)',
            arguments: 'given with --begin/--end',
            region: 'span of the NVTX region',
        };
        parent.appendChild(el('p', {class: 'window'}, el('strong', {}, 'Analysis window: '),
            num(w.begin_ns, 'window.begin_ns', 'ns'), ' to ', num(w.end_ns, 'window.end_ns', 'ns'), ' of trace time, ',
            num(w.duration_ns, 'window.duration_ns', 'ns'), ' long. Source: ', text(w.source, 'window.source'), ' — ', why[w.source] || '',
            has(w, 'region') ? [' "', text(w.region, 'window.region'), '"'] : null, '. Every figure below is measured over it unless said otherwise.'));
    }

    function renderInputs(ctx, parent, report) {
        const inputs = report.inputs || [];
        parent.appendChild(h3('Inputs', 'inputs'));
        if (!inputs.length) {
            const writer = report.trace && report.trace.writer;
            parent.appendChild(muted(writer === 'nsys2prv'
                ? 'None recorded: the trace was written by nsys2prv, which records no inputs; its times are the Nsight Systems export\'s.'
                : 'None recorded: the trace\'s sidecar (its name with .json) was not beside it.'));
            return;
        }
        const base = (i) => P('inputs', i);
        const columns = [
            {key: 'n', label: '#', format: 'number', derived: 'position', value: (r, i) => i + 1},
            {key: 'path', label: 'Input', format: 'text', path: (r, i) => P(base(i), 'path'), cls: 'path'},
            {key: 'nsys_version', label: 'Recorded by', format: 'text', path: (r, i) => P(base(i), 'nsys_version'),
                render: (r, i) => text(r.nsys_version, P(base(i), 'nsys_version'),
                    r.nsys_version === null ? 'n/a' : String(r.nsys_version).startsWith('Kineto') ? `PyTorch profiler (${r.nsys_version})` : `Nsight Systems ${r.nsys_version}`)},
            ...cols(base, [['host', 'Host', 'text'], ['offset_ns', 'Offset', 'ns', {title: 'Added to the input\'s own times to give the trace\'s'}]]),
        ];
        const optional = [
            ['alignment', 'Clock', 'text'], ['sync_point', 'Sync point', 'text'], ['alignment_uncertainty_ns', 'Uncertainty', 'ns'],
            ['alignment_evidence', 'Evidence', 'number'], ['utc_start_ns', 'Session start', 'utc'],
        ];
        for (const [key, label, format] of optional)
            if (inputs.some((r) => has(r, key))) columns.push(...cols(base, [[key, label, format]]));
        parent.appendChild(table(columns, inputs));
        parent.appendChild(muted('Offset: what is added to an input\'s own times to give the trace\'s, so a time of report.json minus the offset is the time in that export. Clock: how the input was aligned (docs/events.md, "Time").'));
    }

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

    // ---- iterations and phases -------------------------------------------------------------------------

    function renderIterations(ctx, sec, report) {
        const det = report.iteration_detection;
        const its = Array.isArray(report.iterations) ? report.iterations : [];
        if (det) renderDetection(ctx, sec, det, its);
        if (has(report, 'focus')) renderFocus(ctx, sec, report);
        if (!its.length) return;

        let convention = 'nccl_as_communication';
        let selected = Math.max(0, its.findIndex((it) => it.status === 'steady'));
        sec.appendChild(h3('Factors per iteration', 'iteration-factors'));
        sec.appendChild(el('div', {class: 'controls'}, gpueff.choice('iteration-convention', CONVENTION_CHOICES, convention, (c) => {
            convention = c;
            drawFactors();
            drawTable();
        })));
        const factorsBox = chartBox();
        const timeBox = chartBox();
        const detail = el('div', {class: 'detail', id: 'iteration-detail'});
        const tableBox = el('div', {});
        sec.append(factorsBox, muted('Shaded: iterations not steady (warm-up, outlier). Click an iteration for its figures per device.'), timeBox, detail);
        sec.appendChild(h3('Iterations', 'iteration-table'));
        sec.appendChild(tableBox);

        // Every iteration's figures are shown on demand in the detail view.
        its.forEach((it, i) => {
            for (const key of ['efficiency', 'tasks', 'end_ns']) if (has(it, key)) gpueff.cover(P('iterations', i, key));
            if (it.straggler) gpueff.cover(P('iterations', i, 'straggler', 'useful_end_ns'));
        });
        const x = its.map((it) => it.index);
        const bands = its.filter((it) => it.status !== 'steady').map((it) => ({
            from: it.index - 0.5, to: it.index + 0.5, color: it.status === 'warm-up' ? 'rgba(240,228,66,0.3)' : 'rgba(213,94,0,0.15)'}));
        const flagged = its.filter((it) => it.status !== 'steady');
        const annotations = flagged.length <= 40 ? flagged.map((it) => ({x: it.index, text: it.status === 'warm-up' ? 'W' : 'O', title: `iteration ${it.index}: ${it.status}`})) : [];
        const indexOf = (xv) => its.findIndex((it) => it.index === xv);
        const onPointClick = (xv) => indexOf(xv) >= 0 && select(indexOf(xv), false);

        let factorsChart = null;
        function drawFactors() {
            gpueff.destroyChart(factorsChart);
            const eff = (it) => (it.efficiency && it.efficiency[convention]) || {};
            factorsChart = gpueff.lineChart(factorsBox, {
                name: 'iteration-factors', x, xLabel: 'iteration', xInteger: true, yLabel: 'efficiency', yFormat: 'share', yRange: [0, 1.05],
                series: [
                    ...FACTORS.map((f) => ({name: f.short, values: its.map((it) => eff(it)[f.key]), color: f.colour})),
                    {name: 'overlap share', values: its.map((it) => it.overlap_share), color: '#CC79A7', dashed: true},
                ],
                drawPoints: its.length <= 200, bands, annotations, onPointClick,
            });
        }
        drawFactors();
        // The straggler's lag on an axis of its own: microseconds beside iterations of milliseconds.
        const lags = its.some((it) => it.straggler);
        gpueff.lineChart(timeBox, {
            name: 'iteration-time', x, xLabel: 'iteration', xInteger: true, yLabel: 'duration', yFormat: 'ns', y2Label: lags ? 'straggler lag' : undefined, y2Format: 'ns',
            series: [
                {name: 'duration', values: its.map((it) => it.duration_ns), color: '#0072B2'},
                lags && {name: 'straggler lag', values: its.map((it) => (it.straggler ? it.straggler.lag_ns : null)), color: '#D55E00', axis: 'y2', dashed: true},
            ].filter(Boolean),
            drawPoints: its.length <= 200, bands, onPointClick, height: 240,
        });

        let rowsByIndex = new Map();
        function drawTable() {
            const base = (i) => P('iterations', i);
            const eff = (i) => P('iterations', i, 'efficiency', convention);
            const columns = [
                ...cols(base, [['index', '#', 'number'], ['name', 'Name', 'text']]),
                {key: 'status', label: 'Status', format: 'text', render: (it, i) => statusBadge(it.status, P(base(i), 'status'))},
                ...cols(base, [['begin_ns', 'Begin', 'ns'], ['duration_ns', 'Duration', 'ns', {bar: 'max'}]]),
                ...FACTORS.map((f) => ({key: f.key, label: f.short, format: 'share', title: f.label, value: (it) => (it.efficiency && it.efficiency[convention] || {})[f.key], path: (it, i) => P(eff(i), f.key)})),
                ...cols(base, [['overlap_share', 'Overlap', 'share'], ['kernels_in_flight_mean', 'In flight', 'number', {title: 'Mean kernels in flight while any runs'}]]),
                {key: 'straggler', label: 'Last device', format: 'text', value: (it) => (it.straggler ? ctx.deviceLabel(it.straggler.device) : null),
                    render: (it, i) => (it.straggler ? deviceNode(ctx, it.straggler.device, P(base(i), 'straggler', 'device')) : text(null, P(base(i), 'straggler'), '—'))},
                {key: 'lag', label: 'Lag', format: 'ns', value: (it) => (it.straggler ? it.straggler.lag_ns : undefined), path: (it, i) => P(base(i), 'straggler', 'lag_ns'), title: 'How much later than the first device its useful work ended'},
            ];
            rowsByIndex = new Map();
            const t = table(columns, its, {
                filter: its.length > 12,
                rowAttrs: (it, i) => ({'data-iteration': it.index, class: it.status !== 'steady' ? 'not-steady' : null}),
                onRowClick: (it, i) => select(i, true),
            });
            t.querySelectorAll('tbody tr[data-iteration]').forEach((tr, i) => rowsByIndex.set(i, tr));
            tableBox.replaceChildren(t);
            highlight();
        }
        function highlight() {
            rowsByIndex.forEach((tr, i) => tr.classList.toggle('selected', i === selected));
        }
        function select(i, scroll) {
            selected = i;
            const it = its[i];
            const base = P('iterations', i);
            detail.replaceChildren();
            gpueff.append(detail,
                el('h4', {}, 'Iteration ', num(it.index, P(base, 'index')), it.name && it.name !== `iteration ${it.index}` ? [' (', text(it.name, P(base, 'name')), ')'] : '', ' ', statusBadge(it.status)),
                facts([
                    ['Time', [num(it.begin_ns, P(base, 'begin_ns'), 'ns'), ' to ', num(it.end_ns, P(base, 'end_ns'), 'ns'), ', ', num(it.duration_ns, P(base, 'duration_ns'), 'ns'), ' long']],
                    it.straggler && ['Straggler', [deviceNode(ctx, it.straggler.device, P(base, 'straggler', 'device')), ' ended its useful work last, at ',
                        num(it.straggler.useful_end_ns, P(base, 'straggler', 'useful_end_ns'), 'ns'), ', ', num(it.straggler.lag_ns, P(base, 'straggler', 'lag_ns'), 'ns'), ' after the first device']],
                ], 'inline'),
                Array.isArray(it.tasks) && it.tasks.length ? [el('h5', {}, 'Where each task ran its part'), table([
                    ...cols((j) => P(base, 'tasks', j), [['task', 'Task', 'number'], ['begin_ns', 'Begin', 'ns'], ['end_ns', 'End', 'ns']]),
                    {key: 'span', label: 'Span', format: 'ns', derived: 'end_ns - begin_ns', value: (t) => t.end_ns - t.begin_ns},
                ], it.tasks)] : null,
                levelDetail(ctx, it, base, it.duration_ns));
            highlight();
            if (scroll) detail.scrollIntoView({block: 'nearest'});
        }
        drawTable();
        select(selected, false);
        renderStragglers(ctx, sec, its);
    }

    function statusBadge(status, path) {
        const badge = gpueff.badge(status || 'n/a', `status-${status}`);
        return path ? gpueff.tag(badge, status, path) : badge;
    }

    function renderDetection(ctx, sec, det, its) {
        const how = {
            markers: 'NVTX ranges matching the pattern, placed where the work launched inside them ran',
            detected: 'repetitions of the kernel sequence of the first GPU',
            none: 'no iterations found (--iterations REGEX names the NVTX ranges that mark them)',
            off: 'not looked for (--iterations-from off)',
        };
        const counts = {steady: 0, 'warm-up': 0, outlier: 0};
        for (const it of its) counts[it.status] = (counts[it.status] || 0) + 1;
        sec.appendChild(facts([
            ['Found by', [text(det.source, 'iteration_detection.source'), ': ', how[det.source] || '']],
            ['Placement', text(det.placement, 'iteration_detection.placement', det.placement === null ? 'n/a' : undefined)],
            det.pattern !== null && ['Pattern', el('code', {}, text(det.pattern, 'iteration_detection.pattern'))],
            det.anchor !== null && ['Anchor kernel', el('code', {class: 'kernel'}, text(det.anchor, 'iteration_detection.anchor'))],
            ['Iterations', [num(det.count, 'iteration_detection.count'), ', of which ', num(det.steady, 'iteration_detection.steady'), ' steady (',
                derived(counts['warm-up'], 'number', 'iterations with status warm-up'), ' warm-up, ', derived(counts.outlier, 'number', 'iterations with status outlier'),
                ' outlier: further from the median duration than 3 robust deviations and 5 %)']],
        ]));
        gpueff.markShown('iteration_detection.pattern');
        gpueff.markShown('iteration_detection.anchor');
        if (det.markers_per_task && det.markers_per_task.length)
            sec.appendChild(table(cols((i) => P('iteration_detection.markers_per_task', i), [['task', 'Task', 'number'], ['count', 'Markers', 'number']]), det.markers_per_task));
        if (det.notes && det.notes.length) sec.appendChild(noteList(det.notes, 'iteration_detection.notes'));
    }

    function renderFocus(ctx, sec, report) {
        const f = report.focus;
        sec.appendChild(h3('Focus of analysis', 'focus'));
        if (!f) {
            sec.appendChild(muted('No steady iteration: no focus of analysis.'));
            gpueff.markShown('focus');
            return;
        }
        sec.appendChild(p('Iterations ', num(f.first, 'focus.first'), ' to ', num(f.last, 'focus.last'), ', the first to the last steady one: ',
            num(f.begin_ns, 'focus.begin_ns', 'ns'), ' to ', num(f.end_ns, 'focus.end_ns', 'ns'), ' (', num(f.duration_ns, 'focus.duration_ns', 'ns'), ').'));
        // The factors of the whole window beside the focus': how much the warm-up and outliers cost.
        const rows = FACTORS.map((fa) => fa);
        const body = el('tbody', {}, rows.map((fa) => el('tr', {}, el('th', {scope: 'row', class: ['text', fa.indent && 'indent']}, fa.label),
            CONVENTIONS.map((c) => [
                el('td', {class: 'num'}, report.efficiency && report.efficiency[c.key] ? factorCell(report.efficiency[c.key][fa.key], P('efficiency', c.key, fa.key)) : 'n/a'),
                el('td', {class: 'num'}, f.efficiency && f.efficiency[c.key] ? factorCell(f.efficiency[c.key][fa.key], P('focus.efficiency', c.key, fa.key)) : 'n/a'),
            ]))));
        const head = el('thead', {},
            el('tr', {}, el('th', {}), CONVENTIONS.map((c) => el('th', {colspan: 2, class: 'group'}, c.label))),
            el('tr', {}, el('th', {class: 'text'}, 'Factor'), CONVENTIONS.map(() => [el('th', {class: 'num'}, 'Whole window'), el('th', {class: 'num'}, 'Focus')])));
        sec.appendChild(gpueff.scrollBox(el('table', {class: 'factors'}, head, body)));
        sec.appendChild(el('details', {}, el('summary', {}, 'The focus per device'), levelDetail(ctx, f, 'focus', f.duration_ns)));
    }

    // Which device the steady iterations waited for (report.md's list under the iterations).
    function renderStragglers(ctx, sec, its) {
        const steady = its.filter((it) => it.status === 'steady');
        const last = new Map();
        for (const it of steady) {
            if (!it.straggler) continue;
            const l = last.get(it.straggler.device) || {count: 0, lag: 0};
            l.count++;
            l.lag += it.straggler.lag_ns;
            last.set(it.straggler.device, l);
        }
        if (!last.size) return;
        sec.appendChild(h3('Stragglers of the steady iterations'));
        sec.appendChild(el('ul', {}, [...last.entries()].map(([device, l]) => el('li', {},
            el('span', {class: 'device', title: device}, ctx.deviceLabel(device)), ' ended its useful work last in ', derived(l.count, 'number', 'steady iterations it ended last'),
            ' of the ', derived(steady.length, 'number', 'steady iterations'), ' steady iterations, ', derived(l.lag / l.count, 'ns', 'mean straggler.lag_ns'), ' after the first device on average.'))));
    }

    function renderPhases(ctx, sec, report) {
        const phases = report.phases || [];
        if (!phases.length) {
            sec.appendChild(muted('No phases: no NVTX ranges one level inside the iteration ranges.'));
            return;
        }
        let convention = 'nccl_as_communication';
        let selected = 0;
        const tableBox = el('div');
        const detail = el('div', {class: 'detail', id: 'phase-detail'});
        sec.append(el('div', {class: 'controls'}, gpueff.choice('phase-convention', CONVENTION_CHOICES, convention, (c) => {
            convention = c;
            draw();
        })), tableBox, detail);
        phases.forEach((ph, i) => gpueff.cover(P('phases', i, 'efficiency')));
        const base = (i) => P('phases', i);
        function draw() {
            const columns = [
                ...cols(base, [['name', 'Phase', 'text', {cls: 'kernel'}], ['iterations', 'Iterations', 'number'], ['time_ns', 'Time', 'ns'],
                    ['mean_ns', 'Per iteration', 'ns', {bar: 'max', title: 'Mean time per iteration'}]]),
                ...FACTORS.map((f) => ({key: f.key, label: f.short, title: f.label, format: 'share', value: (ph) => (ph.efficiency && ph.efficiency[convention] || {})[f.key],
                    path: (ph, i) => P(base(i), 'efficiency', convention, f.key)})),
                ...cols(base, [['overlap_share', 'Overlap', 'share'], ['kernels_in_flight_mean', 'In flight', 'number']]),
            ];
            tableBox.replaceChildren(table(columns, phases, {filter: phases.length > 12, onRowClick: (ph, i) => select(i, true), rowAttrs: (ph, i) => ({'data-phase': i})}));
            select(selected, false);
        }
        function select(i, scroll) {
            selected = i;
            const ph = phases[i];
            tableBox.querySelectorAll('tr[data-phase]').forEach((tr) => tr.classList.toggle('selected', Number(tr.getAttribute('data-phase')) === i));
            detail.replaceChildren(el('h4', {}, 'Phase ', el('code', {class: 'kernel'}, ph.name)), levelDetail(ctx, ph, base(i), ph.time_ns));
            if (scroll) detail.scrollIntoView({block: 'nearest'});
        }
        draw();
        sec.appendChild(muted('Phases: NVTX ranges one level inside the iteration ranges, matched by name (digits masked as #) over the steady iterations; times summed over them. A phase\'s window is the hull of its ranges\' work, so phases may add up to more than the iteration. Click a phase for its figures per device.'));
    }

    function renderCollectives(ctx, sec, report) {
        const c = report.collectives;
        sec.appendChild(c.matched > 0
            ? p(num(c.matched, 'collectives.matched'), ' collectives matched (the 20 with the largest skew listed below): the k-th instance of an NCCL kernel on each device is one collective; it waits for the last device to arrive (kernel start). Skew = last minus first arrival.')
            : p(num(c.matched, 'collectives.matched'), ' collectives matched: no NCCL kernel ran on several devices.'));
        if (c.notes && c.notes.length) sec.appendChild(noteList(c.notes, 'collectives.notes'));
        const dbase = (i) => P('collectives.devices', i);
        if (c.devices && c.devices.length) {
            sec.appendChild(h3('Who arrived last'));
            sec.appendChild(table([
                deviceColumn(ctx, dbase),
                ...cols(dbase, [['last_count', 'Arrived last', 'number'], ['last_percent', 'Of the collectives', 'percent'],
                    ['wait_caused_ns', 'Wait caused', 'ns', {bar: 'max', title: 'Over the collectives it arrived last at, the sum of its arrival minus each other device\'s'}]]),
            ], c.devices));
        }
        const ibase = (i) => P('collectives.instances', i);
        if (!c.instances.length) return;
        sec.appendChild(h3('Largest arrival skews'));
        sec.appendChild(table([
            ...cols(ibase, [['kernel', 'Collective', 'text', {cls: 'kernel'}], ['sequence', '#', 'number'], ['first_arrival_ns', 'First arrival', 'ns'],
                ['skew_ns', 'Skew', 'ns', {bar: 'max'}]]),
            deviceColumn(ctx, ibase, 'last_device', 'Last device'),
        ], c.instances, {filter: c.instances.length > 12, empty: 'No collective matched.'}));
    }

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

    // ---- gaps, host ------------------------------------------------------------------------------------

    function renderGaps(ctx, sec, report) {
        const gaps = report.gaps || [];
        const warning = launchCoverage(ctx, report);
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
                el('tr', {}, el('th', {scope: 'row', class: ['text', indent && 'indent']}, label), el('td', {class: 'num'}, factorCell(mpi[key], P('host.mpi', key)), gpueff.bar(mpi[key], gpueff.popClass(mpi[key])))))))));
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
            sec.appendChild(kernelRowTable(s.nvtx_sum, 'nsys_stats.nvtx_sum', 'Range', 'Instances', [
                {key: 'domain', label: 'Domain', format: 'text'}, {key: 'style', label: 'Style', format: 'text'}]));
            gpueff.append(sec, leftOut('nvtx_sum'));
        }
        if (has(s, 'cuda_api_sum')) {
            sec.appendChild(h3('CUDA API calls (cuda_api_sum)', 'cuda-api-sum'));
            sec.appendChild(kernelRowTable(s.cuda_api_sum, 'nsys_stats.cuda_api_sum', 'API call', 'Calls'));
            gpueff.append(sec, leftOut('cuda_api_sum'));
        }
        if (has(s, 'gpu_mem_time_sum')) {
            sec.appendChild(h3('GPU memory operations by time (cuda_gpu_mem_time_sum)', 'gpu-mem-time-sum'));
            sec.appendChild(kernelRowTable(s.gpu_mem_time_sum, 'nsys_stats.gpu_mem_time_sum', 'Operation', 'Count'));
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

    // ---- the page --------------------------------------------------------------------------------------

    // The sections in report.md's order; a section whose keys the report does not hold is skipped.
    const SECTIONS = [
        {id: 'sec-summary', title: 'Summary', keys: ['summary'], render: renderSummary},
        {id: 'sec-efficiency', title: 'Device efficiency', keys: ['efficiency'], render: renderEfficiency},
        {id: 'sec-devices', title: 'Devices', keys: ['devices'], render: renderDevices},
        {id: 'sec-timeline', title: 'Device states over time', keys: ['timeline'], render: renderTimeline},
        {id: 'sec-iterations', title: 'Iterations', keys: ['iteration_detection', 'iterations', 'focus'], render: renderIterations},
        {id: 'sec-phases', title: 'Phases', keys: ['phases'], render: renderPhases},
        {id: 'sec-collectives', title: 'Collectives and stragglers', keys: ['collectives'], render: renderCollectives},
        {id: 'sec-overlap', title: 'Communication / computation overlap', keys: ['overlap', 'overlap_table'], render: renderOverlap},
        {id: 'sec-kernels-in-flight', title: 'Kernels in flight', keys: ['kernels_in_flight'], render: renderInFlight},
        {id: 'sec-kernels-queued', title: 'Kernels queued', keys: ['kernels_queued'], render: renderQueued},
        {id: 'sec-nccl-overlap', title: 'Overlap per NCCL kernel', keys: ['nccl_overlap'], render: renderNcclOverlap},
        {id: 'sec-tensor-core', title: 'Tensor-core use per GEMM kernel', keys: ['tensor_core'], render: renderTensorCore},
        {id: 'sec-kernel-summary', title: 'Kernel summary', keys: ['kernel_summary'], render: renderKernelSummary},
        {id: 'sec-kernel-durations', title: 'Kernel durations', keys: ['kernel_durations'], render: renderDurations},
        {id: 'sec-kernel-categories', title: 'Where the GPU time went', keys: ['kernel_categories'], render: renderCategories},
        {id: 'sec-kernel-overlap', title: 'Kernels alone and overlapped with communication', keys: ['kernel_overlap'], render: renderKernelOverlap},
        {id: 'sec-gaps', title: 'GPU idle gaps', keys: ['gaps'], render: renderGaps},
        {id: 'sec-host', title: 'Host', keys: ['host'], render: renderHost},
        {id: 'sec-nsys-stats', title: 'nsys stats summaries', keys: ['nsys_stats'], render: renderNsysStats},
        {id: 'sec-hta', title: 'HTA\'s definitions', keys: ['hta'], render: renderHta},
        {id: 'sec-notes', title: 'Notes', keys: ['notes'], render: renderNotes},
    ];
    const HEADER_KEYS = ['schema', 'tool', 'trace', 'inputs', 'window'];

    // The device labels ("rank 0 / GPU 0") and order of the report, for every table naming devices by id.
    function makeContext(data, report, main) {
        const labels = new Map();
        const order = new Map();
        (report.devices || []).forEach((d, i) => {
            labels.set(d.id, d.label || d.id);
            order.set(d.id, i);
        });
        return {
            data, report, main, toc: [],
            deviceLabel: (id) => labels.get(id) || id,
            deviceOrder: (id) => (order.has(id) ? order.get(id) : Number.MAX_SAFE_INTEGER),
        };
    }

    // A section that failed to render says so in place; the rest of the page still renders.
    function guarded(ctx, sec, fn) {
        try {
            fn();
        } catch (e) {
            console.error(e);
            sec.appendChild(el('div', {class: 'error', role: 'alert'}, `This section could not be rendered: ${e && e.message ? e.message : e}`));
        }
    }

    // The parts of the report no section showed (whole subtrees), shown generically: nothing is lost.
    function leftovers(report) {
        const out = [];
        function walk(value, path) {
            if (gpueff.isShown(path)) return;
            const container = value !== null && typeof value === 'object';
            if (container && !Object.keys(value).length) return; // an empty list or object holds nothing
            if (container && gpueff.isPartlyShown(path)) {
                for (const [k, v] of Object.entries(value)) walk(v, P(path, k));
                return;
            }
            out.push(path);
        }
        for (const [k, v] of Object.entries(report)) walk(v, P('', k));
        return out;
    }

    function navigation(data) {
        const q = (id) => `run.html?run=${encodeURIComponent(id)}`;
        return gpueff.navBar([
            {href: 'index.html', text: 'All runs'},
            {href: 'scaling.html', text: 'Scaling'},
            {href: data.prev ? q(data.prev) : null, text: '← Previous run', title: data.prev || 'first run'},
            {href: data.next ? q(data.next) : null, text: 'Next run →', title: data.next || 'last run'},
        ], data.label || data.id);
    }

    function render(data) {
        const report = data.report;
        document.title = `${data.label || data.id} — gpueff`;
        const nav = navigation(data);
        document.body.insertBefore(nav, document.body.firstChild);
        const main = document.getElementById('main');
        main.replaceChildren();
        const ctx = makeContext(data, report, main);
        renderHeader(ctx, data, report);
        const tocBox = el('nav', {class: 'toc', 'aria-label': 'Sections'});
        main.appendChild(tocBox);
        const known = new Set(HEADER_KEYS);
        for (const s of SECTIONS) s.keys.forEach((k) => known.add(k));
        for (const s of SECTIONS) {
            if (s.id === 'sec-notes') {
                // Keys of report.json no section knows (a newer gpueff): each in a section of its own.
                for (const key of Object.keys(report)) {
                    if (known.has(key)) continue;
                    const sec = section(ctx, `sec-${key.replace(/[^A-Za-z0-9]+/g, '-')}`, key);
                    sec.classList.add('generic-section');
                    guarded(ctx, sec, () => sec.appendChild(generic(report[key], P('', key))));
                }
            }
            if (!s.keys.some((k) => has(report, k))) continue; // a report from before these keys
            const sec = section(ctx, s.id, s.title);
            guarded(ctx, sec, () => s.render(ctx, sec, report));
        }
        const rest = leftovers(report);
        if (rest.length) {
            const sec = section(ctx, 'sec-other', 'Other data');
            sec.appendChild(muted('Parts of report.json that no section above shows.'));
            guarded(ctx, sec, () => sec.appendChild(el('dl', {class: 'generic'}, rest.map((path) => [el('dt', {}, el('code', {}, path)), el('dd', {}, generic(gpueff.resolve(report, path), path))]))));
        }
        tocBox.appendChild(el('ul', {}, ctx.toc.map((t) => el('li', {}, el('a', {href: `#${t.id}`}, t.title)))));
        if (window.location.hash) {
            const target = document.getElementById(window.location.hash.slice(1));
            if (target) target.scrollIntoView();
        }
    }

    // An error box under the nav bar: the reader can still reach the index from a failed page.
    function failPage(message, data) {
        if (!document.querySelector('body > nav.nav')) document.body.insertBefore(navigation(data || {}), document.body.firstChild);
        gpueff.fail(message);
    }

    // runs/ID.js calls this with the run's data.
    let received = false;
    window.gpueffRun = function (data) {
        if (received) return; // a second call (a data file loaded twice) changes nothing
        received = true;
        const report = data && data.report;
        if (!report || typeof report !== 'object' || Array.isArray(report)) {
            failPage(`The data file of run "${data && data.id}" holds no report.`, {id: data && data.id});
            return;
        }
        try {
            render(data);
            gpueff.ready();
        } catch (e) {
            console.error(e);
            failPage(`The run could not be shown: ${e && e.message ? e.message : e}`, data);
        }
    };

    function start() {
        const id = gpueff.param('run');
        if (!id) {
            failPage('No run given: open run.html?run=ID from the index (index.html).');
            return;
        }
        // An id names a file of runs/: nothing that could leave that folder.
        if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id) || id.includes('..')) {
            failPage(`"${id}" is not a run id.`);
            return;
        }
        const src = `runs/${encodeURIComponent(id)}.js`;
        gpueff.loadScript(src, () => failPage(`Unknown run "${id}": ${src} could not be loaded. The index (index.html) lists the runs of this site.`, {id}),
            () => received || failPage(`${src} loaded but did not call gpueffRun(data).`, {id}));
    }

    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
    else start();
})();
