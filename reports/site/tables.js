'use strict';
// Tables of the gpueff dashboard: sortable, filterable tables whose cells carry their report.json paths
// (common.js: gpueff.num), the box that scrolls them, and the small visuals and controls that go with them
// (inline bars, POP colour classes, badges, switches). Extends window.gpueff; common.js comes first.
(function () {
    const gpueff = window.gpueff;
    const {el, isNum} = gpueff;

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
            gpueff.append(td, col.render(row, i, raw));
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
})();
