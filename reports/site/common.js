'use strict';
// Shared browser helpers of the gpueff dashboard (run.html, index.html, scaling.html): building elements,
// formatting figures, numbers that name their place in report.json and the page's ready/fail protocol. It
// creates window.gpueff; tables.js (sortable tables) and charts.js (dygraphs charts) extend it, so every page
// loads common.js first. The site is static and opened from file://, so data files are scripts that call a
// global function (JSONP style): browsers refuse fetch() and XHR on file:// URLs.
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
