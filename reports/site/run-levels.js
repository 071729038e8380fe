'use strict';
// The run page's levels below the whole window (run.js is the page): iteration detection, the iterations
// and the focus of analysis, the stragglers, the phases inside iterations, and the collectives matched
// across devices.
(function () {
    const gpueff = window.gpueff;
    const runPage = gpueff.runPage;
    const {el, num, text, derived} = gpueff;
    const P = gpueff.path;
    const {CONVENTIONS, CONVENTION_CHOICES, FACTORS, h3, p, muted, table, has, cols, deviceNode, deviceColumn, facts, noteList, chartBox} = runPage;
    // Helpers of run-efficiency.js (runPage.factorCell, levelDetail) are looked up as a section renders: the
    // run-*.js files may load in any order after run.js.

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
                runPage.levelDetail(ctx, it, base, it.duration_ns));
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
                el('td', {class: 'num'}, report.efficiency && report.efficiency[c.key] ? runPage.factorCell(report.efficiency[c.key][fa.key], P('efficiency', c.key, fa.key)) : 'n/a'),
                el('td', {class: 'num'}, f.efficiency && f.efficiency[c.key] ? runPage.factorCell(f.efficiency[c.key][fa.key], P('focus.efficiency', c.key, fa.key)) : 'n/a'),
            ]))));
        const head = el('thead', {},
            el('tr', {}, el('th', {}), CONVENTIONS.map((c) => el('th', {colspan: 2, class: 'group'}, c.label))),
            el('tr', {}, el('th', {class: 'text'}, 'Factor'), CONVENTIONS.map(() => [el('th', {class: 'num'}, 'Whole window'), el('th', {class: 'num'}, 'Focus')])));
        sec.appendChild(gpueff.scrollBox(el('table', {class: 'factors'}, head, body)));
        sec.appendChild(el('details', {}, el('summary', {}, 'The focus per device'), runPage.levelDetail(ctx, f, 'focus', f.duration_ns)));
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
            detail.replaceChildren(el('h4', {}, 'Phase ', el('code', {class: 'kernel'}, ph.name)), runPage.levelDetail(ctx, ph, base(i), ph.time_ns));
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

    // The renderers of this file's sections, by their ids in run.js's SECTIONS.
    Object.assign(runPage.sections, {
        'sec-iterations': renderIterations,
        'sec-phases': renderPhases,
        'sec-collectives': renderCollectives,
    });
})();
