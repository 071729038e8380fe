'use strict';
// The index of a gpueff dashboard (index.html): the runs in order as charts over the runs (iteration time,
// the device factors, global efficiency against the reference) with the regressions the gates found marked,
// the badges of the latest run, and the runs as a table sortable and filterable by tag. Its data,
// data/index.js, calls gpueffIndex(data) (docs/dashboard.md "Index data").
(function () {
    const el = gpueff.el;
    const CONVENTIONS = [
        {value: 'nccl_as_communication', label: 'NCCL as communication'},
        {value: 'nccl_as_useful', label: 'NCCL as useful'},
    ];
    const FACTORS = [
        {key: 'parallel_efficiency', label: 'Parallel efficiency'},
        {key: 'load_balance', label: 'Load balance'},
        {key: 'communication_efficiency', label: 'Communication efficiency'},
        {key: 'orchestration_efficiency', label: 'Orchestration efficiency'},
    ];
    const BADGES = ['parallel_efficiency', 'load_balance', 'communication_efficiency', 'orchestration_efficiency', 'iteration_time'];

    const runHref = (run) => `run.html?run=${encodeURIComponent(run.id)}`;
    const runPath = (i, ...keys) => gpueff.path('runs', String(i), ...keys);

    // The run number on the x axis is its position in the order (1-based); hovering names the run.
    function xOptions(data) {
        // A tick per run while they fit, else dygraphs' own numeric ticks.
        const ticks = data.runs.length <= 30 ? data.runs.map((r, i) => ({v: i + 1, label: String(i + 1)})) : undefined;
        return {
            xTicks: ticks,
            xRangePad: 16,
            x: data.runs.map((r, i) => i + 1),
            xLabel: 'Run',
            xFormat: (v) => {
                const run = data.runs[Math.round(v) - 1];
                return run ? `${Math.round(v)}: ${run.label}` : String(v);
            },
            onPointClick: (x) => {
                const run = data.runs[Math.round(x) - 1];
                if (run) window.location.href = runHref(run);
            },
        };
    }

    // One mark per regression, on the first series of the chart, titled with the failed gates' sentences.
    function regressionMarks(data, series) {
        return data.runs
            .map((r, i) => ({r, i}))
            .filter(({r}) => r.regression)
            .map(({r, i}) => ({
                x: i + 1,
                text: '▲',
                series,
                title: `${r.label}: ` + r.gates.filter((g) => g.failed).map((g) => `${g.gate}: ${g.detail}`).join('; '),
            }));
    }

    function chartSection(title, note, ...content) {
        return el('section', {class: 'card'}, el('h2', {}, title), note && el('p', {class: 'note'}, note), ...content);
    }

    function iterationTimeChart(main, data) {
        const box = el('div');
        const per = data.runs.some((r) => r.unit === 'window') ? 'Mean steady iteration, or the window where a run has no steady iterations' : 'Mean steady iteration';
        const section = chartSection('Iteration time', `${per}. ▲ marks a regression (${data.gates.join(', ')} against the run before, beyond the run-to-run noise). Drag to zoom, double-click to reset, click a point to open the run.`, box);
        main.appendChild(section);
        gpueff.lineChart(box, Object.assign(xOptions(data), {
            name: 'iteration_time',
            series: [{name: 'Iteration time', values: data.runs.map((r) => r.iteration_time_ns)}],
            yLabel: 'Time',
            yFormat: 'ns',
            drawPoints: true,
            annotations: regressionMarks(data, 'Iteration time'),
        }));
    }

    function factorsChart(main, data) {
        const box = el('div');
        const draw = (convention) =>
            gpueff.lineChart(box, Object.assign(xOptions(data), {
                name: 'factors',
                series: FACTORS.map((f) => ({name: f.label, values: data.runs.map((r) => r.efficiency[convention][f.key])})),
                yLabel: 'Efficiency',
                yFormat: 'share',
                yRange: [0, 1.05],
                drawPoints: true,
                annotations: regressionMarks(data, FACTORS[0].label),
            }));
        const section = chartSection('Device efficiency factors', 'Over each run\'s unit (the steady iterations taken together, else the window). Parallel efficiency = load balance × communication × orchestration.',
            gpueff.choice('convention', CONVENTIONS, CONVENTIONS[0].value, draw), box);
        main.appendChild(section);
        draw(CONVENTIONS[0].value);
    }

    function globalChart(main, data) {
        const box = el('div');
        main.appendChild(chartSection('Global efficiency', `Against the reference run "${data.reference}": global = parallel efficiency × computational efficiency (sum of useful time of the reference / of the run, per unit), as gpueff compare computes them.`, box));
        gpueff.lineChart(box, Object.assign(xOptions(data), {
            name: 'global_efficiency',
            series: CONVENTIONS.flatMap((c) => [
                {name: `Global efficiency (${c.label})`, values: data.runs.map((r) => r.global_efficiency[c.value])},
                {name: `Computational efficiency (${c.label})`, values: data.runs.map((r) => r.computational_efficiency[c.value]), dashed: true},
            ]),
            yLabel: 'Against the reference',
            yFormat: 'share',
            drawPoints: true,
        }));
    }

    function badges(data) {
        const latest = data.runs[data.runs.length - 1];
        const markdown = BADGES.map((b) => `![${b.replace(/_/g, ' ')}](badges/${b}.svg)`).join(' ');
        return el('section', {class: 'card', id: 'badges'},
            el('h2', {}, 'Latest run: ', el('a', {href: runHref(latest)}, latest.label)),
            el('p', {}, ...BADGES.map((b) => el('img', {src: `badges/${b}.svg`, alt: b.replace(/_/g, ' '), class: 'badge-img'}))),
            el('details', {}, el('summary', {}, 'Badges for a README'), el('pre', {}, markdown)));
    }

    // The runs table: a tag selector narrows the rows to runs with that tag value; the filter box to a text.
    function runsTable(data) {
        const box = el('div');
        let convention = CONVENTIONS[0].value;
        let tagFilter = '';
        const tagValues = [];
        for (const name of data.tags) {
            const values = new Set(data.runs.map((r) => r.attributes.tags[name]).filter((v) => v !== undefined));
            for (const v of values) tagValues.push({value: `${name}=${v}`, label: `${name} = ${v}`});
        }
        const columns = () => [
            {key: 'index', label: '#', format: 'number', value: (r) => r._i + 1},
            {key: 'label', label: 'Run', render: (r) => el('a', {href: runHref(r), 'data-path': runPath(r._i, 'label')}, r.label), value: (r) => r.label},
            {key: 'start', label: 'Start (UTC)', format: 'text', value: (r) => (r.start_utc_ns === null ? '' : gpueff.fmtUtc(r.start_utc_ns))},
            {key: 'commit', label: 'Commit', format: 'text', value: (r) => r.attributes.commit || ''},
            {key: 'branch', label: 'Branch', format: 'text', value: (r) => r.attributes.branch || ''},
            {key: 'devices', label: 'Devices', format: 'number', path: (r) => runPath(r._i, 'devices')},
            {key: 'tags', label: 'Tags', format: 'text', value: (r) => Object.entries(r.attributes.tags).map(([k, v]) => `${k}=${v}`).join(' ')},
            {key: 'iteration_time_ns', label: 'Iteration time', format: 'ns', path: (r) => runPath(r._i, 'iteration_time_ns')},
            ...FACTORS.map((f) => ({key: f.key, label: f.label, format: 'share', bar: f.key === 'parallel_efficiency' ? 'share' : undefined,
                value: (r) => r.efficiency[convention][f.key], path: (r) => runPath(r._i, 'efficiency', convention, f.key)})),
            {key: 'global', label: 'Global efficiency', format: 'share', value: (r) => r.global_efficiency[convention], path: (r) => runPath(r._i, 'global_efficiency', convention)},
            {key: 'speedup', label: 'Speedup', format: (v) => gpueff.fmtFactor(v), path: (r) => runPath(r._i, 'speedup')},
            {key: 'regression', label: 'Against the run before', value: (r) => (r.regression ? 'regression' : r.gates.length ? 'ok' : ''),
                render: (r) => (r.regression ? gpueff.badge('regression', 'pop-bad') : r.gates.length ? gpueff.badge('ok', 'pop-good') : ''),
                sortValue: (r) => (r.regression ? 1 : 0)},
        ];
        const draw = () => {
            const rows = data.runs.filter((r) => {
                if (!tagFilter) return true;
                const [name, value] = tagFilter.split(/=(.*)/s);
                return r.attributes.tags[name] === value;
            });
            box.replaceChildren(gpueff.scrollBox(gpueff.sortableTable(columns(), rows, {filter: true, id: 'runs',
                rowAttrs: (r) => ({'data-run': r.id, title: r.gates.map((g) => `${g.gate}: ${g.detail}`).join('\n') || null})})));
        };
        const controls = el('div', {class: 'controls'}, gpueff.choice('runs-convention', CONVENTIONS, convention, (c) => {
            convention = c;
            draw();
        }));
        if (tagValues.length) {
            const select = el('select', {'aria-label': 'Tag', id: 'tag-filter'}, el('option', {value: ''}, 'all tags'),
                ...tagValues.map((t) => el('option', {value: t.value}, t.label)));
            select.addEventListener('change', () => {
                tagFilter = select.value;
                draw();
            });
            controls.appendChild(el('label', {}, 'Tag: ', select));
        }
        draw();
        return el('section', {class: 'card'}, el('h2', {}, `Runs (${data.runs.length})`), controls, box);
    }

    function header(data) {
        const regressions = data.runs.filter((r) => r.regression).length;
        return el('header', {},
            el('h1', {}, 'GPU efficiency over the runs'),
            el('p', {class: 'note'}, `${data.runs.length} runs ordered by ${data.order_by}; reference "${data.reference}"; `,
                `${regressions} regression${regressions === 1 ? '' : 's'} (gates ${data.gates.join(', ')}, each run against the one before). `,
                `Written by ${data.generator}.`),
            data.warnings.length ? el('div', {class: 'warning', role: 'status'}, el('strong', {}, 'Skipped or unmatched: '),
                el('ul', {}, ...data.warnings.map((w) => el('li', {}, w)))) : null);
    }

    window.gpueffIndex = function (data) {
        try {
            const main = document.getElementById('main');
            data.runs.forEach((r, i) => (r._i = i));
            document.body.insertBefore(gpueff.navBar([{href: 'index.html', text: 'All runs', current: true},
                {href: 'scaling.html', text: 'Scaling', title: data.scaling ? null : 'no scaling study'}]), document.body.firstChild);
            main.replaceChildren(header(data), badges(data));
            // Charts are drawn into attached containers, so that dygraphs can measure them.
            iterationTimeChart(main, data);
            factorsChart(main, data);
            globalChart(main, data);
            main.appendChild(runsTable(data));
            gpueff.ready();
        } catch (e) {
            gpueff.fail(`the index could not be drawn: ${e.message}`);
            throw e;
        }
    };

    document.addEventListener('DOMContentLoaded', () =>
        gpueff.loadScript('data/index.js', (src) => gpueff.fail(`${src} could not be loaded: the site is incomplete`)));
})();
