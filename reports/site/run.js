'use strict';
// The page of one run (run.html?run=ID): loads runs/ID.js, which calls gpueffRun(data) with data = {id,
// label, attributes, source, links, prev, next, report: report.json}, and shows everything report.md says,
// interactive, in its order: header, summary, device efficiency, devices, states over time, iterations,
// phases, collectives, concurrency, kernels, gaps, host, nsys stats, HTA, notes. A key of report.json no
// section knows is shown by a generic renderer, and whatever a section left out is listed under "Other data":
// nothing of the report is lost. Every figure carries its JSON path (common.js: gpueff.num).
//
// This file holds the page: its header, the list and order of the sections, the generic renderer and the
// helpers every section uses. The sections themselves are drawn by run-efficiency.js (summary, device
// efficiency, devices, states over time), run-levels.js (iterations, phases, collectives), run-kernels.js
// (concurrency and kernels) and run-host.js (gaps, host, nsys stats, HTA, notes), loaded after this one: each
// registers its renderers in gpueff.runPage.sections under the ids of SECTIONS below.
(function () {
    const gpueff = window.gpueff;
    const {el, num, text, sortableTable} = gpueff;
    const P = gpueff.path;

    // What the run-*.js files share: the helpers below (taken when they load, after this file) and the
    // renderers they register, looked up when the page renders.
    const runPage = {sections: {}};
    gpueff.runPage = runPage;

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

    // The helpers every section uses, for the run-*.js files.
    Object.assign(runPage, {CONVENTIONS, CONVENTION_CHOICES, FACTORS, h3, p, muted, table, has, cols, deviceNode, deviceColumn, facts, noteList, chartBox});

    // ---- the header -------------------------------------------------------------------------------------

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
            ['alignment_evidence', 'Evidence', 'number'], ['utc_start_ns', 'Time 0 (UTC)', 'utc'],
        ];
        for (const [key, label, format] of optional)
            if (inputs.some((r) => has(r, key))) columns.push(...cols(base, [[key, label, format]]));
        parent.appendChild(table(columns, inputs));
        parent.appendChild(muted('Offset: what is added to an input\'s own times to give the trace\'s, so a time of report.json minus the offset is the time in that export. Clock: how the input was aligned (docs/events.md, "Time").'));
    }

    // ---- the page --------------------------------------------------------------------------------------

    // The sections in report.md's order; a section whose keys the report does not hold is skipped. Their
    // renderers are in the run-*.js files, registered in runPage.sections under these ids.
    const SECTIONS = [
        {id: 'sec-summary', title: 'Summary', keys: ['summary']},
        {id: 'sec-efficiency', title: 'Device efficiency', keys: ['efficiency']},
        {id: 'sec-devices', title: 'Devices', keys: ['devices']},
        {id: 'sec-timeline', title: 'Device states over time', keys: ['timeline']},
        {id: 'sec-iterations', title: 'Iterations', keys: ['iteration_detection', 'iterations', 'focus']},
        {id: 'sec-phases', title: 'Phases', keys: ['phases']},
        {id: 'sec-collectives', title: 'Collectives and stragglers', keys: ['collectives']},
        {id: 'sec-overlap', title: 'Communication / computation overlap', keys: ['overlap', 'overlap_table']},
        {id: 'sec-kernels-in-flight', title: 'Kernels in flight', keys: ['kernels_in_flight']},
        {id: 'sec-kernels-queued', title: 'Kernels queued', keys: ['kernels_queued']},
        {id: 'sec-nccl-overlap', title: 'Overlap per NCCL kernel', keys: ['nccl_overlap']},
        {id: 'sec-tensor-core', title: 'Tensor-core use per GEMM kernel', keys: ['tensor_core']},
        {id: 'sec-kernel-summary', title: 'Kernel summary', keys: ['kernel_summary']},
        {id: 'sec-kernel-durations', title: 'Kernel durations', keys: ['kernel_durations']},
        {id: 'sec-kernel-categories', title: 'Where the GPU time went', keys: ['kernel_categories']},
        {id: 'sec-kernel-overlap', title: 'Kernels alone and overlapped with communication', keys: ['kernel_overlap']},
        {id: 'sec-gaps', title: 'GPU idle gaps', keys: ['gaps']},
        {id: 'sec-host', title: 'Host', keys: ['host']},
        {id: 'sec-nsys-stats', title: 'nsys stats summaries', keys: ['nsys_stats']},
        {id: 'sec-hta', title: 'HTA\'s definitions', keys: ['hta']},
        {id: 'sec-notes', title: 'Notes', keys: ['notes']},
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

    // The renderer of a section: a run-*.js that did not load leaves an error box in its sections.
    function rendererOf(s) {
        const fn = runPage.sections[s.id];
        if (typeof fn !== 'function') throw new Error(`no renderer for ${s.id}: a run-*.js file of the page did not load`);
        return fn;
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
            guarded(ctx, sec, () => rendererOf(s)(ctx, sec, report));
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
