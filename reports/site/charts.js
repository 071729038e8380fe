'use strict';
// Charts of the gpueff dashboard, drawn with dygraphs (assets/dygraph.min.js): lineChart and what it draws
// with (bars, shaded bands, marker lines), and groups of charts that zoom together. Extends window.gpueff;
// common.js comes first.
(function () {
    const gpueff = window.gpueff;
    const {el, isNum} = gpueff;

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
})();
