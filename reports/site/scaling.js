'use strict';
// The scaling page of a gpueff dashboard (scaling.html): each study (runs grouped by a tag, or all runs when
// their device counts differ) as `gpueff compare` shows it, the POP scaling table against the run with the
// fewest devices and, with three or more device counts, the fitted curves; then the compare.json files
// given as inputs. Its data, data/scaling.js, calls gpueffScaling(data) (docs/dashboard.md "Scaling data").
(function () {
    const el = gpueff.el;

    // Nested objects as columns "a.b" (both conventions side by side), for tables of compare.json rows.
    function flatten(object, prefix, out) {
        for (const [key, value] of Object.entries(object || {})) {
            const name = prefix ? `${prefix}.${key}` : key;
            if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value, name, out);
            else if (!Array.isArray(value)) out[name] = value;
        }
        return out;
    }

    const formatFor = (key, value) =>
        typeof value !== 'number' ? 'text' : /_ns$/.test(key) ? 'ns' : /(efficiency|scalability|balance)/.test(key) ? 'share' : 'number';

    // A table of compare.json rows (scaling.runs, runs), every figure with its path in the JSON shown.
    function rowsTable(rows, base) {
        const flat = rows.map((r) => flatten(r, '', {}));
        const keys = [...new Set(flat.flatMap((r) => Object.keys(r)))];
        const columns = keys.map((k) => {
            const sample = flat.map((r) => r[k]).find((v) => v !== null && v !== undefined);
            return {key: k, label: k.replace(/_/g, ' ').replace(/\./g, ' · '), format: formatFor(k, sample),
                path: (r, i) => gpueff.path(base, String(i), ...gpueff.splitPath(k))};
        });
        return gpueff.scrollBox(gpueff.sortableTable(columns, flat));
    }

    function study(s, index) {
        const runs = el('p', {}, 'Runs: ', ...s.runs.flatMap((id, i) => [i ? ', ' : '', el('a', {href: `run.html?run=${encodeURIComponent(id)}`}, s.labels[i])]));
        const section = el('section', {class: 'card', id: `study-${index + 1}`}, el('h2', {}, `Study: ${s.name}`), runs);
        if (s.note) section.appendChild(el('p', {class: 'note'}, s.note));
        if (s.scaling) {
            section.appendChild(el('p', {class: 'note'}, `${s.scaling.weak ? 'Weak' : 'Strong'} scaling against "${s.scaling.reference}" (the run with the fewest devices), over the windows, as gpueff compare computes it.`));
            section.appendChild(rowsTable(s.scaling.runs, `studies.${index}.scaling.runs`));
            if (s.scaling.fits) section.appendChild(el('p', {class: 'note'}, 'Each factor fitted as a + b log2(n), drawn below.'));
        }
        for (const plot of s.plots) section.appendChild(el('p', {}, el('img', {src: plot, alt: `scaling plot of ${s.name}`, class: 'plot'})));
        return section;
    }

    function comparison(c, index) {
        const doc = c.compare || {};
        const section = el('section', {class: 'card', id: `comparison-${index + 1}`}, el('h2', {}, `Comparison: ${c.source}`));
        if (Array.isArray(doc.runs)) section.appendChild(rowsTable(doc.runs, `comparisons.${index}.compare.runs`));
        if (doc.scaling && Array.isArray(doc.scaling.runs)) {
            section.appendChild(el('h3', {}, 'Scaling'));
            section.appendChild(rowsTable(doc.scaling.runs, `comparisons.${index}.compare.scaling.runs`));
        }
        return section;
    }

    window.gpueffScaling = function (data) {
        try {
            const main = document.getElementById('main');
            document.body.insertBefore(gpueff.navBar([{href: 'index.html', text: 'All runs'}, {href: 'scaling.html', text: 'Scaling', current: true}]),
                document.body.firstChild);
            main.replaceChildren(el('header', {}, el('h1', {}, 'Scaling'),
                    el('p', {class: 'note'}, data.tag ? `Runs grouped by the tag "${data.tag}".` : 'All runs as one study when their device counts differ; group runs with --scaling TAG.')));
            if (!data.studies.length && !data.comparisons.length)
                main.appendChild(el('p', {class: 'notice'}, 'No scaling study: every run has the same device count, or no run has the tag.'));
            data.studies.forEach((s, i) => main.appendChild(study(s, i)));
            data.comparisons.forEach((c, i) => main.appendChild(comparison(c, i)));
            gpueff.ready();
        } catch (e) {
            gpueff.fail(`the scaling page could not be drawn: ${e.message}`);
            throw e;
        }
    };

    document.addEventListener('DOMContentLoaded', () =>
        gpueff.loadScript('data/scaling.js', (src) => gpueff.fail(`${src} could not be loaded: the site is incomplete`)));
})();
