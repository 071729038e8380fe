'use strict';
// Shared browser helpers of the gpueff dashboard (run.html, index.html, scaling.html): building elements,
// formatting figures, numbers that name their place in report.json, sortable tables, dygraphs charts and the
// page's ready/fail protocol. The site is static and opened from file://, so data files are scripts that call
// a global function (JSONP style): browsers refuse fetch() and XHR on file:// URLs.
//
// The contract a browser test relies on: every figure taken from report.json is an element with
// data-path (its JSON path from the report root, keys and array indexes joined by '.', a '.' or '\' inside a
// key escaped with '\') and data-value (String(value), "null" for null); figures computed by the page from
// several values carry data-derived instead. window.gpueffReady is true once the page has rendered.
(function () {
    const gpueff = {};
    window.gpueff = gpueff;

    // ---- elements --------------------------------------------------------------------------------------

    // Appends children (strings, numbers, nodes, arrays of them) to `node`; null, undefined and false are
    // skipped so that callers can write `cond && child`.
    function append(node, children) {
        for (const child of children) {
            if (child === null || child === undefined || child === false) continue;
            if (Array.isArray(child)) append(node, child);
            else node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
        }
        return node;
    }
    gpueff.append = (node, ...children) => append(node, children);

    // el('a', {href: 'x', class: 'y', 'data-path': 'z', onclick: fn}, 'text', child, ...): one element.
    // Attributes set to null/undefined/false are left out, true gives an empty (boolean) attribute, a style
    // object is assigned property by property, on* functions become event listeners.
    gpueff.el = function (tag, attrs, ...children) {
        const node = document.createElement(tag);
        for (const [key, value] of Object.entries(attrs || {})) {
            if (value === null || value === undefined || value === false) continue;
            if (key === 'class') node.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
            else if (key === 'style' && typeof value === 'object') Object.assign(node.style, value);
            else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
            else node.setAttribute(key, value === true ? '' : String(value));
        }
        return append(node, children);
    };
    const el = gpueff.el;

    // ---- formats ---------------------------------------------------------------------------------------

    const isNum = (x) => typeof x === 'number' && Number.isFinite(x);
    gpueff.isNum = isNum;

    // "87.3 %"; a fraction above 1 (the Total rows of overlap_table) shows as it is, "104.4 %".
    gpueff.fmtShare = (x) => (isNum(x) ? `${(x * 100).toFixed(1)} %` : 'n/a');

    // A value already in percent (time_percent, tensor_active_percent, last_percent): "12.5 %".
    gpueff.fmtPercent = (x) => (isNum(x) ? `${x.toFixed(1)} %` : 'n/a');

    // Three significant digits, so that columns of durations read alike whatever their unit.
    function sig3(v) {
        const a = Math.abs(v);
        return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2);
    }

    // The largest unit under which the value is at least 1 once rounded (999.96 us is "1.00 ms", not
    // "1000 us"); units = [[size, name], ...] smallest first.
    function scaled(v, units) {
        let i = 0;
        while (i + 1 < units.length && Math.abs(v) / units[i + 1][0] >= 0.9995) i++;
        return `${sig3(v / units[i][0])} ${units[i][1]}`;
    }

    const NS_UNITS = [[1e3, 'us'], [1e6, 'ms'], [1e9, 's']];
    // "812 ns", "12.3 us", "4.56 ms", "1.23 s": times are nanoseconds throughout report.json.
    gpueff.fmtNs = function (ns) {
        if (!isNum(ns)) return 'n/a';
        if (Math.abs(ns) < 999.5) return `${Number.isInteger(ns) ? ns : sig3(ns)} ns`;
        return scaled(ns, NS_UNITS);
    };

    // A tick label of a time axis: "5 ms", "2.5 ms" (ticks fall on round values: no trailing zeros).
    gpueff.fmtNsTick = function (ns) {
        if (!isNum(ns)) return '';
        if (ns === 0) return '0';
        const [n, unit] = gpueff.fmtNs(ns).split(' ');
        return `${n.includes('.') ? n.replace(/\.?0+$/, '') : n} ${unit}`;
    };

    // Integers with thousands separators, other numbers to about three significant digits.
    gpueff.fmtNumber = function (x) {
        if (!isNum(x)) return x === null || x === undefined || typeof x === 'number' ? 'n/a' : String(x);
        if (Number.isInteger(x)) return x.toLocaleString('en-US');
        const a = Math.abs(x);
        if (a < 1) return String(Number(x.toPrecision(3)));
        return x.toLocaleString('en-US', {maximumFractionDigits: a >= 1000 ? 0 : a >= 100 ? 1 : 2});
    };

    // Bytes in decimal units, as nsys prints them (1 MB = 10^6 bytes).
    gpueff.fmtBytes = function (b) {
        if (!isNum(b)) return 'n/a';
        if (Math.abs(b) < 1000) return `${Number.isInteger(b) ? b : sig3(b)} B`;
        return scaled(b, [[1e3, 'kB'], [1e6, 'MB'], [1e9, 'GB'], [1e12, 'TB']]);
    };

    // A wall-clock time in UTC nanoseconds: "2026-11-28 04:21 UTC".
    gpueff.fmtUtc = function (ns) {
        if (!isNum(ns)) return 'n/a';
        const d = new Date(ns / 1e6);
        return Number.isNaN(d.getTime()) ? 'n/a' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    };

    // A ratio such as a slowdown: "1.23x".
    gpueff.fmtFactor = (x) => (isNum(x) ? `${x.toFixed(2)}x` : 'n/a');

    const FORMATS = {
        share: gpueff.fmtShare,
        percent: gpueff.fmtPercent,
        ns: gpueff.fmtNs,
        number: gpueff.fmtNumber,
        bytes: gpueff.fmtBytes,
        utc: gpueff.fmtUtc,
        factor: gpueff.fmtFactor,
        gbps: (x) => (isNum(x) ? `${x.toFixed(2)} GB/s` : 'n/a'),
        text: (x) => (x === null || x === undefined ? 'n/a' : String(x)),
    };
    gpueff.NUMERIC_FORMATS = new Set(['share', 'percent', 'ns', 'number', 'bytes', 'utc', 'factor', 'gbps']);

    // The function behind a format name (or the function itself).
    gpueff.formatter = (format) => (typeof format === 'function' ? format : FORMATS[format || 'number'] || FORMATS.number);

    // The format a report.json key implies, for parts shown without a renderer of their own: times end in
    // _ns (or hold it, as time_ns_by_count), efficiencies and fractions are shares.
    gpueff.formatForKey = function (path) {
        const parts = gpueff.splitPath(String(path)).reverse();
        for (const key of parts) {
            if (!/^[a-z][a-z0-9_]*$/.test(key)) continue; // indexes, counts, kernel names, "Avg/Max"
            if (/utc/.test(key)) return 'utc';
            if (/(^|_)ns($|_)/.test(key)) return 'ns';
            if (/bytes/.test(key)) return 'bytes';
            if (/gbps/.test(key)) return 'gbps';
            if (/percent/.test(key)) return 'percent';
            if (/efficiency|balance|fraction|share|overlap$|^useful$|^communication$/.test(key)) return 'share';
            if (/slowdown/.test(key)) return 'factor';
            return 'number';
        }
        return 'number';
    };

    // ---- paths into report.json -----------------------------------------------------------------------

    // One key of a path: '.' and '\' inside a key (kernel names) are escaped with '\'.
    const escapeKey = (key) => String(key).replace(/\\/g, '\\\\').replace(/\./g, '\\.');

    // path('efficiency', 'nccl_as_useful', 'devices', 0) = "efficiency.nccl_as_useful.devices.0"; a first
    // argument that is already a path is kept as it is.
    gpueff.path = (base, ...keys) => [base, ...keys.map(escapeKey)].filter((p) => p !== '' && p !== null && p !== undefined).join('.');

    gpueff.splitPath = function (path) {
        const keys = [];
        let key = '';
        for (let i = 0; i < path.length; i++) {
            const c = path[i];
            if (c === '\\' && i + 1 < path.length) key += path[++i];
            else if (c === '.') keys.push(key), (key = '');
            else key += c;
        }
        keys.push(key);
        return keys;
    };

    // The value at `path` in `root` (undefined when absent): what a test compares data-value with.
    gpueff.resolve = function (root, path) {
        let v = root;
        for (const key of gpueff.splitPath(path)) {
            if (v === null || typeof v !== 'object' || !(key in v)) return undefined;
            v = v[key];
        }
        return v;
    };

    // What the page has shown of the report: paths shown as figures or text, and prefixes shown whole (in a
    // chart, or on demand in a detail view). A page lists what is left (nothing must be lost).
    const shown = new Set();
    const touched = new Set(); // every ancestor of what was shown: the subtrees partly shown
    const coveredPrefixes = new Set();
    function touch(path) {
        const keys = gpueff.splitPath(path);
        for (let i = 1; i < keys.length; i++) touched.add(keys.slice(0, i).map(escapeKey).join('.'));
    }
    gpueff.markShown = function (path) {
        if (path === null || path === undefined || path === '') return;
        shown.add(path);
        touch(path);
    };
    gpueff.cover = function (path) {
        coveredPrefixes.add(path);
        touch(path);
    };
    gpueff.isShown = function (path) {
        if (shown.has(path) || coveredPrefixes.has(path)) return true;
        const keys = gpueff.splitPath(path);
        for (let i = 1; i < keys.length; i++) if (coveredPrefixes.has(keys.slice(0, i).map(escapeKey).join('.'))) return true;
        return false;
    };
    gpueff.isPartlyShown = (path) => touched.has(path);

    // Marks `node` as showing the report value at `path` (data-path, data-value), when there is one.
    function tag(node, value, path) {
        if (path === null || path === undefined || value === undefined) return node;
        node.setAttribute('data-path', path);
        node.setAttribute('data-value', value === null ? 'null' : String(value));
        gpueff.markShown(path);
        return node;
    }
    gpueff.tag = tag;

    // A figure of report.json: <span class="num" data-path data-value>formatted</span>; "n/a" without
    // data-path when the value is absent. The exact value is in the tooltip.
    gpueff.num = function (value, path, format) {
        const f = gpueff.formatter(format);
        const span = el('span', {class: 'num'}, f(value));
        if (isNum(value)) span.title = format === 'ns' ? `${value.toLocaleString('en-US')} ns` : String(value);
        return tag(span, value, path);
    };

    // A text of report.json (a name, a status) with its path, as num() does for figures.
    gpueff.text = function (value, path, shownText) {
        const span = el('span', {class: 'txt'}, shownText !== undefined ? shownText : value === null || value === undefined ? 'n/a' : String(value));
        return tag(span, value, path);
    };

    // A figure the page computed (a share of a total, a sum): data-derived says how, no data-path.
    gpueff.derived = function (value, format, how) {
        const span = el('span', {class: 'num derived', 'data-derived': how || 'computed'}, gpueff.formatter(format)(value));
        if (isNum(value)) span.title = `${how ? how + ': ' : ''}${value}`;
        return span;
    };

    // ---- small visuals ---------------------------------------------------------------------------------

    // POP's colour scale of an efficiency: >= 80 % good, 70-80 fair, 60-70 poor, below bad.
    gpueff.popClass = (x) => (!isNum(x) ? 'pop-na' : x >= 0.8 ? 'pop-good' : x >= 0.7 ? 'pop-fair' : x >= 0.6 ? 'pop-poor' : 'pop-bad');

    // An inline bar of a fraction in [0, 1] (clamped): a table column read at a glance.
    gpueff.bar = function (fraction, cls) {
        const w = isNum(fraction) ? Math.max(0, Math.min(1, fraction)) * 100 : 0;
        return el('span', {class: ['bar', cls], 'aria-hidden': 'true'}, el('span', {style: {width: `${w.toFixed(2)}%`}}));
    };

    // A bar cut into parts [{value, cls, label}] relative to `total` (useful / communication / idle).
    gpueff.stackBar = function (parts, total) {
        const sum = isNum(total) && total > 0 ? total : parts.reduce((s, p) => s + (isNum(p.value) ? p.value : 0), 0);
        const bar = el('span', {class: 'stack', 'aria-hidden': 'true'});
        for (const p of parts) {
            const w = sum > 0 && isNum(p.value) ? Math.max(0, p.value / sum) * 100 : 0;
            bar.appendChild(el('span', {class: p.cls, style: {width: `${w.toFixed(2)}%`}, title: p.label}));
        }
        return bar;
    };

    gpueff.badge = (text, cls) => el('span', {class: ['badge', cls]}, text);

    // A set of radio buttons that reads as one switch: choice('conv', [{value, label}], current, onChange).
    let choiceCount = 0;
    gpueff.choice = function (name, options, current, onChange) {
        const group = `${name}-${++choiceCount}`;
        const box = el('div', {class: 'choice', role: 'radiogroup', 'data-choice': name});
        for (const o of options) {
            const input = el('input', {type: 'radio', name: group, value: o.value, checked: o.value === current});
            input.addEventListener('change', () => input.checked && onChange(o.value));
            box.appendChild(el('label', {}, input, el('span', {}, o.label)));
        }
        return box;
    };

    // A box that scrolls a long or wide table inside the page, so that its sticky header stays in view.
    gpueff.scrollBox = (node, cls) => el('div', {class: ['table-wrap', cls]}, node);

    // ---- sortable tables -------------------------------------------------------------------------------

    // The raw value of a column in a row: col.value(row, i) or row[col.key].
    const cellValue = (col, row, i) => (col.value ? col.value(row, i) : row === null || row === undefined ? undefined : row[col.key]);
    const isNumericColumn = (col) => typeof col.format === 'function' || gpueff.NUMERIC_FORMATS.has(col.format);

    // One cell: a figure with its path (and a bar when asked), a text with its path, or what col.render makes.
    function makeCell(col, row, i, maxima, ci) {
        const raw = cellValue(col, row, i);
        const numeric = isNumericColumn(col) && (raw === null || raw === undefined || typeof raw === 'number');
        const td = el('td', {class: [numeric ? 'num' : 'text', col.cls]});
        const path = col.path ? col.path(row, i) : null;
        if (col.render) {
            append(td, [col.render(row, i, raw)]);
        } else if (numeric) {
            td.appendChild(col.derived ? gpueff.derived(raw, col.format, col.derived) : gpueff.num(raw, path, col.format));
            if (col.bar && isNum(raw)) {
                const of = col.bar === 'share' ? raw : maxima[ci] > 0 ? raw / maxima[ci] : 0;
                td.appendChild(gpueff.bar(of, col.barClass));
            }
        } else {
            td.appendChild(gpueff.text(raw, path));
        }
        const sortValue = col.sortValue ? col.sortValue(row, i) : raw;
        return {td, sortValue};
    }

    // Orders rows: numbers by value, text by natural order; absent values last in either direction.
    function compareValues(a, b) {
        const aMissing = a === null || a === undefined || (typeof a === 'number' && Number.isNaN(a));
        const bMissing = b === null || b === undefined || (typeof b === 'number' && Number.isNaN(b));
        if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
        if (typeof a === 'number' && typeof b === 'number') return a - b;
        return String(a).localeCompare(String(b), 'en', {numeric: true, sensitivity: 'base'});
    }

    // sortableTable(columns, rows, opts) -> <table class="sortable">. columns: [{key, label, format ('share'|
    // 'ns'|'number'|'percent'|'bytes'|'text'|function), path: (row, i) => JSON path or null, title, value:
    // (row, i) => raw value, render: (row, i, raw) => node, bar: 'share'|'max', barClass, derived: 'how',
    // cls}]. opts: {filter: true (a box filtering rows by substring), caption, id, foot: rows shown under the
    // body and not sorted, rowAttrs: (row, i) => attributes, onRowClick: (row, i, tr), empty: text}.
    gpueff.sortableTable = function (columns, rows, opts) {
        opts = opts || {};
        rows = rows || [];
        const table = el('table', {class: ['sortable', opts.cls], id: opts.id});
        const maxima = columns.map((col, ci) => {
            if (col.bar !== 'max') return 0;
            return rows.reduce((m, row, i) => Math.max(m, isNum(cellValue(col, row, i)) ? cellValue(col, row, i) : 0), 0);
        });
        const headRow = el('tr');
        const ths = columns.map((col, ci) => {
            const th = el('th', {scope: 'col', class: isNumericColumn(col) ? 'num' : 'text', title: col.title, 'aria-sort': 'none'},
                el('button', {type: 'button', class: 'sort', onclick: () => sortBy(ci)}, col.label));
            headRow.appendChild(th);
            return th;
        });
        table.appendChild(el('thead', {}, headRow));
        const tbody = el('tbody');
        const entries = rows.map((row, i) => {
            const tr = el('tr', opts.rowAttrs ? opts.rowAttrs(row, i) : {});
            const values = columns.map((col, ci) => {
                const {td, sortValue} = makeCell(col, row, i, maxima, ci);
                tr.appendChild(td);
                return sortValue;
            });
            if (opts.onRowClick) {
                tr.classList.add('clickable');
                tr.tabIndex = 0;
                tr.addEventListener('click', (e) => !e.target.closest('a, button, input') && opts.onRowClick(row, i, tr));
                tr.addEventListener('keydown', (e) => e.key === 'Enter' && opts.onRowClick(row, i, tr));
            }
            tbody.appendChild(tr);
            return {tr, values, index: i, text: tr.textContent.toLowerCase()};
        });
        table.appendChild(tbody);
        if (!rows.length)
            tbody.appendChild(el('tr', {class: 'empty'}, el('td', {colspan: columns.length}, opts.empty || 'none')));
        if (opts.foot && opts.foot.length) {
            const tfoot = el('tfoot');
            opts.foot.forEach((row, i) => {
                const tr = el('tr');
                columns.forEach((col, ci) => tr.appendChild(makeCell(col, row, i, maxima, ci).td));
                tfoot.appendChild(tr);
            });
            table.appendChild(tfoot);
        }

        // Sorting re-appends the rows in order; a second click on the same column reverses it.
        let sorted = -1;
        let ascending = true;
        function sortBy(ci) {
            ascending = sorted === ci ? !ascending : !isNumericColumn(columns[ci]);
            sorted = ci;
            const order = entries.slice().sort((a, b) => {
                const c = compareValues(a.values[ci], b.values[ci]);
                const missing = (v) => v === null || v === undefined;
                if (missing(a.values[ci]) || missing(b.values[ci])) return c || a.index - b.index;
                return (ascending ? c : -c) || a.index - b.index;
            });
            for (const e of order) tbody.appendChild(e.tr);
            ths.forEach((th, i) => th.setAttribute('aria-sort', i === ci ? (ascending ? 'ascending' : 'descending') : 'none'));
        }
        table.sortBy = sortBy;

        const caption = opts.caption || opts.filter ? el('caption', {}) : null;
        if (caption) {
            if (opts.caption) caption.appendChild(el('span', {class: 'caption-text'}, opts.caption));
            if (opts.filter && rows.length) {
                const count = el('span', {class: 'filter-count'}, `${rows.length} rows`);
                const input = el('input', {type: 'search', class: 'filter', placeholder: opts.filterPlaceholder || 'Filter rows…', 'aria-label': 'Filter rows'});
                input.addEventListener('input', () => {
                    const q = input.value.trim().toLowerCase();
                    let n = 0;
                    for (const e of entries) {
                        e.tr.hidden = q !== '' && !e.text.includes(q);
                        if (!e.tr.hidden) n++;
                    }
                    count.textContent = q ? `${n} of ${rows.length} rows` : `${rows.length} rows`;
                });
                caption.appendChild(el('span', {class: 'filter-box'}, input, count));
            }
            table.insertBefore(caption, table.firstChild);
        }
        return table;
    };

    // ---- charts (dygraphs) -----------------------------------------------------------------------------

    // Okabe-Ito, as the SVG plots of report.md (reports/SvgFrame.h): told apart with colour-vision deficiencies.
    gpueff.PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
    gpueff.colour = (i) => gpueff.PALETTE[i % gpueff.PALETTE.length];

    // Charts whose x ranges follow each other (zoom one, the others follow), by group name.
    const groups = new Map();
    let syncing = false;
    function syncGroup(g, group) {
        if (syncing || !group || !groups.has(group)) return;
        syncing = true;
        try {
            const range = g.xAxisRange();
            for (const other of groups.get(group)) if (other !== g) other.updateOptions({dateWindow: range});
        } finally {
            syncing = false;
        }
    }

    // Removes a chart made by lineChart (before making another in its container).
    const destroyed = new WeakSet(); // dygraphs' destroy() cannot run twice
    gpueff.destroyChart = function (g) {
        if (!g || destroyed.has(g)) return;
        destroyed.add(g);
        for (const set of groups.values()) set.delete(g);
        g.destroy();
    };

    // Grouped bars instead of lines: one bar per series at each x, side by side. dygraphs draws lines only;
    // histograms over a count read better as bars.
    function barPlotter(e) {
        const ctx = e.drawingContext;
        const points = e.points;
        if (!points.length) return;
        const all = e.allSeriesPoints[0] || points;
        let step = Infinity;
        for (let i = 1; i < all.length; i++) step = Math.min(step, all[i].canvasx - all[i - 1].canvasx);
        if (!Number.isFinite(step) || step <= 0) step = e.plotArea.w / 4;
        const group = step * 0.8;
        const width = Math.max(1, group / e.seriesCount);
        const zero = e.dygraph.toDomYCoord(0);
        ctx.fillStyle = e.color;
        for (const p of points) {
            if (!Number.isFinite(p.canvasy)) continue;
            const x = p.canvasx - group / 2 + e.seriesIndex * width;
            ctx.fillRect(x, Math.min(p.canvasy, zero), Math.max(1, width - (width > 3 ? 1 : 0)), Math.abs(zero - p.canvasy));
        }
    }

    // Shaded x ranges and vertical marker lines under the series (non-steady iterations, the focus window,
    // duration modes).
    function underlay(opts) {
        return function (ctx, area, g) {
            for (const b of opts.bands || []) {
                const left = g.toDomXCoord(b.from);
                const right = g.toDomXCoord(b.to);
                ctx.fillStyle = b.color || 'rgba(0,0,0,0.07)';
                ctx.fillRect(Math.max(left, area.x), area.y, Math.min(right, area.x + area.w) - Math.max(left, area.x), area.h);
            }
            for (const m of opts.markers || []) {
                const x = g.toDomXCoord(m.x);
                if (x < area.x || x > area.x + area.w) continue;
                ctx.save();
                ctx.strokeStyle = m.color || '#555';
                ctx.setLineDash(m.dash || [4, 3]);
                ctx.beginPath();
                ctx.moveTo(x, area.y);
                ctx.lineTo(x, area.y + area.h);
                ctx.stroke();
                if (m.label) {
                    ctx.fillStyle = m.color || '#555';
                    ctx.font = '11px system-ui, sans-serif';
                    ctx.fillText(m.label, x + 3, area.y + 12);
                }
                ctx.restore();
            }
        };
    }

    const toNumber = (v) => (isNum(v) ? v : null);

    // lineChart(container, {x, xLabel, series: [{name, values, color, axis: 'y2', dashed}], yLabel, y2Label,
    // yRange, stepPlot, stacked, bars, annotations: [{x, text, title, series}], bands: [{from, to, color}],
    // markers: [{x, label, color, dash}], xFormat, yFormat, y2Format ('ns'|'share'|'number'|function), xTicks:
    // [{v, label}], xInteger, group, name, height, drawPoints, onPointClick(x, points)}) -> a Dygraph
    // with drag-zoom (double-click resets) and a legend that shows the values under the mouse. Null values
    // are gaps. The container gets class "chart" and data-chart = opts.name.
    gpueff.lineChart = function (container, opts) {
        // A chart drawn again in its container replaces the one there (its listeners and zoom group too).
        if (container.dygraph) gpueff.destroyChart(container.dygraph);
        container.dygraph = null;
        container.classList.add('chart');
        if (opts.name) container.setAttribute('data-chart', opts.name);
        const legend = el('div', {class: 'chart-legend'});
        const plot = el('div', {class: 'chart-plot', style: opts.height ? {height: `${opts.height}px`} : null});
        container.replaceChildren(legend, plot);
        if (typeof window.Dygraph !== 'function') {
            plot.replaceChildren(el('p', {class: 'notice'}, 'Charts unavailable: assets/dygraph.min.js did not load.'));
            return null;
        }
        const series = opts.series || [];
        const x = opts.x || [];
        if (!x.length || !series.length) {
            plot.replaceChildren(el('p', {class: 'notice'}, 'No data to plot.'));
            return null;
        }
        const data = x.map((xv, i) => [xv, ...series.map((s) => toNumber(s.values[i]))]);
        // dygraphs needs distinct labels: a repeated name (two devices of one label) gets a count.
        const seen = new Map();
        const names = series.map((s) => {
            const n = (seen.get(s.name) || 0) + 1;
            seen.set(s.name, n);
            return n > 1 ? `${s.name} (${n})` : String(s.name);
        });
        const labels = [opts.xLabel || 'x', ...names];
        // Hover text: xFormat when given (it may say more than a tick: the run's label), else the tick's label.
        const tickLabel = (v) => (opts.xTicks.find((t) => t.v === v) || {label: gpueff.fmtNumber(v)}).label;
        const xf = opts.xFormat ? gpueff.formatter(opts.xFormat) : opts.xTicks ? tickLabel : gpueff.formatter('number');
        const yf = gpueff.formatter(opts.yFormat || 'number');
        const y2f = gpueff.formatter(opts.y2Format || opts.yFormat || 'number');
        const tick = (format) => (format === 'ns' ? gpueff.fmtNsTick : format === 'share' ? (v) => `${Math.round(v * 1000) / 10} %` : (v) => gpueff.fmtNumber(v));
        const seriesOptions = {};
        series.forEach((s, i) => {
            const o = (seriesOptions[names[i]] = {});
            if (s.axis === 'y2') o.axis = 'y2';
            // Past the palette's eight colours, series repeat a colour dashed so that they stay apart.
            if (s.dashed || (s.dashed === undefined && i >= gpueff.PALETTE.length && !opts.bars && !opts.stacked)) o.strokePattern = [6, 3];
        });
        const options = {
            labels,
            labelsDiv: legend,
            legend: 'always',
            labelsSeparateLines: false,
            xlabel: opts.xLabel,
            ylabel: opts.yLabel,
            y2label: opts.y2Label,
            colors: series.map((s, i) => s.color || gpueff.colour(i)),
            series: seriesOptions,
            stepPlot: !!opts.stepPlot,
            stackedGraph: !!opts.stacked,
            fillGraph: !!opts.stacked || !!opts.fill,
            fillAlpha: opts.stacked ? 0.75 : 0.15,
            strokeWidth: opts.bars ? 0 : 1.5,
            drawPoints: !!opts.drawPoints,
            pointSize: 2.5,
            highlightCircleSize: opts.bars ? 0 : 3.5,
            connectSeparatedPoints: false,
            valueRange: opts.yRange || null,
            includeZero: opts.includeZero !== false,
            xRangePad: opts.xRangePad || 0, // pixels, so that the first and last points keep their ticks
            animatedZooms: false,
            resizable: 'passive',
            gridLineColor: '#e4e7eb',
            axisLineColor: '#8c959f',
            underlayCallback: underlay(opts),
            drawCallback: (g, initial) => !initial && syncGroup(g, opts.group),
            axes: {
                x: {
                    valueFormatter: xf,
                    axisLabelFormatter: opts.xTicks ? tickLabel : tick(opts.xFormat),
                    pixelsPerLabel: 70,
                },
                y: {valueFormatter: yf, axisLabelFormatter: tick(opts.yFormat), axisLabelWidth: 64},
                y2: {valueFormatter: y2f, axisLabelFormatter: tick(opts.y2Format || opts.yFormat), axisLabelWidth: 64, independentTicks: true},
            },
        };
        // A ticker set to undefined would replace dygraphs' own: set only when the ticks are given.
        if (opts.xTicks) options.axes.x.ticker = (min, max) => opts.xTicks.filter((t) => t.v >= min && t.v <= max);
        let barStep = 1;
        let barSpan = 0;
        if (opts.bars) {
            // Half a bar group of room at each end (dygraphs pads in pixels), and a tick per category
            // when x counts something (kernels in flight, queue depth).
            options.plotter = barPlotter;
            const xs = x.filter(isNum);
            let step = Infinity;
            for (let i = 1; i < xs.length; i++) step = Math.min(step, xs[i] - xs[i - 1]);
            barStep = Number.isFinite(step) && step > 0 ? step : 1;
            barSpan = xs.length ? xs[xs.length - 1] - xs[0] : 0;
            if (barSpan === 0 && xs.length) options.dateWindow = [xs[0] - barStep / 2, xs[0] + barStep / 2];
        }
        // Integer x (counts, iteration indexes): ticks on whole values only, about one per 60 px.
        if (!opts.xTicks && (opts.bars || opts.xInteger) && x.every(Number.isInteger)) {
            options.axes.x.ticker = (min, max, pixels) => {
                const lo = Math.ceil(min);
                const hi = Math.floor(max);
                const room = Math.max(1, Math.floor(pixels / 60));
                const raw = (hi - lo) / room;
                const magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
                const every = [1, 2, 5, 10].map((m) => m * magnitude).find((m) => m >= raw) || 10 * magnitude;
                const ticks = [];
                for (let v = Math.ceil(lo / every) * every + 0; v <= hi; v += every) ticks.push({v, label: gpueff.fmtNumber(v + 0)}); // + 0: no "-0"
                return ticks;
            };
        }
        if (opts.onPointClick) options.clickCallback = (e, xv, points) => opts.onPointClick(xv, points);
        const g = new window.Dygraph(plot, data, options);
        // dygraphs pads the x range by a share of the plot's width (xRangePad, in pixels): known once drawn.
        if (opts.bars && barSpan > 0) g.updateOptions({xRangePad: (g.getArea().w * barStep) / (2 * barSpan)});
        if (opts.annotations && opts.annotations.length) {
            g.setAnnotations(opts.annotations.map((a) => ({
                series: a.series || labels[1],
                x: a.x,
                shortText: a.text,
                text: a.title || a.text,
                cssClass: 'chart-annotation',
                attachAtBottom: true, // along the x axis: the flags do not hide the lines
                tickHeight: 2,
            })));
        }
        container.dygraph = g; // for scripts and tests that drive the chart
        if (opts.group) {
            if (!groups.has(opts.group)) groups.set(opts.group, new Set());
            groups.get(opts.group).add(g);
        }
        return g;
    };

    // ---- page protocol ---------------------------------------------------------------------------------

    // Adds a <script> (data files are scripts: file:// forbids fetch); onerror(src) when it cannot load.
    gpueff.loadScript = function (src, onerror, onload) {
        const script = document.createElement('script');
        script.src = src;
        script.async = false;
        script.addEventListener('error', () => onerror && onerror(src));
        if (onload) script.addEventListener('load', () => onload(src));
        document.head.appendChild(script);
        return script;
    };

    gpueff.param = (name) => new URLSearchParams(window.location.search).get(name);

    // Tests wait for window.gpueffReady; an event lets other scripts wait too.
    gpueff.ready = function () {
        if (window.gpueffReady) return;
        window.gpueffReady = true;
        document.documentElement.setAttribute('data-ready', 'true');
        document.dispatchEvent(new Event('gpueff-ready'));
    };

    // An error box at the top of the page (never a blank page), then ready(): the page is done, failed.
    gpueff.fail = function (message) {
        const box = el('div', {class: 'error', role: 'alert'}, el('strong', {}, 'Error: '), String(message));
        const main = document.getElementById('main') || document.body;
        const loading = main.querySelector('.loading');
        if (loading) loading.remove();
        main.insertBefore(box, main.firstChild);
        gpueff.ready();
        return box;
    };

    // The bar of links at the top of every page: [{href, text, current, disabled, title}].
    gpueff.navBar = function (links, extra) {
        const nav = el('nav', {class: 'nav', 'aria-label': 'Dashboard'});
        nav.appendChild(el('span', {class: 'brand'}, 'gpueff'));
        for (const l of links) {
            if (l.disabled || !l.href) nav.appendChild(el('span', {class: 'nav-link disabled', title: l.title}, l.text));
            else nav.appendChild(el('a', {class: ['nav-link', l.current && 'current'], href: l.href, title: l.title, 'aria-current': l.current ? 'page' : null}, l.text));
        }
        if (extra) nav.appendChild(el('span', {class: 'nav-extra'}, extra));
        return nav;
    };

    // Printing opens the folded parts, so that a printed page holds everything.
    window.addEventListener('beforeprint', () => document.querySelectorAll('details:not([open])').forEach((d) => d.setAttribute('open', '')));
})();
