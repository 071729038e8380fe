#include "engine/semantic/Histogram.h"

#include "engine/common/Error.h"
#include "engine/semantic/CommHistogram.h"
#include "engine/semantic/HistogramCells.h"
#include "engine/semantic/HistogramColumns.h"
#include "engine/semantic/HistogramStatistic.h"
#include "engine/semantic/RowGroup.h"
#include "engine/semantic/WholeNumber.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace gpueff::semantic {

namespace {

class Computation {
public:
    Computation(const Cfg& cfg, const WindowSet& windows)
        : path_(cfg.path), spec_(*cfg.histogram), windows_(&windows),
          control_(static_cast<std::size_t>(spec_.control)), data_(static_cast<std::size_t>(spec_.data)) {
        if (!spec_.statistic) throw Error("internal error: " + where() + " has no resolved statistic");
        communication_ = spec_.statistic->kind == StatisticKind::Communication;
        orderWindows();
        auto controlLevel = windows.level(control_), dataLevel = windows.level(data_);
        if (!finerOrEqual(dataLevel, controlLevel))
            throw Error(cfg.path + ":" + std::to_string(spec_.line) +
                        ": the data window's level must be the "
                        "control window's or below it");
        windows.requireSomeEvents();
        traceEnd_ = windows.context().endTime;
        if (spec_.limits == "Allwindow") {
            begin_ = windows.beginTime(control_);
            end_ = std::min(windows.endTime(control_), traceEnd_);
        } else {
            begin_ = 0;
            end_ = traceEnd_;
        }
        // Analyzer2D.Objects: the rows computed and printed (0-based; Paraver ignores those past the last).
        // window_zoom_objects of the control window bounds the rows (paraver-kernel's
        // WindowZoomObjects::parseLine).
        auto [zoomFirst, zoomLast] = windows.zoomedRows(control_);
        for (std::size_t r = zoomFirst; r <= zoomLast; ++r)
            if (!spec_.objects || std::binary_search(spec_.objects->begin(), spec_.objects->end(), r))
                selected_.push_back(r);
        if (communication_)
            communicationCells_ =
                std::make_unique<CommunicationCells>(spec_, windows, selected_, begin_, end_);
    }

    std::vector<HistogramTable> run() {
        RowGroup all;
        scanScales(all);
        finishScales();
        accumulate(all);
        return tables();
    }

    // The pieces of run() for HistogramByRows: the group's rows seen by the computed scales, the scales
    // fixed (and the cells allocated) once every row was seen, the group's cells, the tables.
    void rebind(const WindowSet& windows) { windows_ = &windows; }
    bool communication() const { return communication_; }
    bool computesScale() const {
        return spec_.computeYScale || (spec_.extra >= 0 && spec_.extraComputeScale);
    }
    bool scaleFixed() const { return scaleFixed_; }

    void scanScales(const RowGroup& group) {
        if (spec_.computeYScale) scan(control_, controlScan_, group);
        if (spec_.extra >= 0 && spec_.extraComputeScale)
            scan(static_cast<std::size_t>(spec_.extra), extraScan_, group);
    }

    void finishScales() {
        columns_ = controlScale();
        planes_ = spec_.extra >= 0 ? extraScale() : Columns{};
        scaleFixed_ = true;
        if (communication_) return;
        std::size_t rows = windows_->rows(control_);
        // Cells are allocated up front, planes x rows x columns: cap them before asking for the memory.
        if (rows != 0 && columns_.count * planes_.count > kMaxHistogramCells / rows)
            throw Error(where() + ": " +
                        (planes_.count > 1 ? std::to_string(planes_.count) + " planes x " : "") +
                        std::to_string(rows) + " rows x " + std::to_string(columns_.count) +
                        " columns is more than gpueff's limit of " + std::to_string(kMaxHistogramCells) +
                        " cells; give fewer columns (Delta, NumColumns, 3D_Delta)");
        cells_.assign(planes_.count,
                      std::vector<std::vector<BurstCell>>(rows, std::vector<BurstCell>(columns_.count)));
    }

    // The cells of the selected rows in `group` (a communication histogram needs no fixed scale).
    void accumulate(const RowGroup& group) {
        if (communication_) {
            communicationCells_->add(*windows_, group);
            return;
        }
        auto [first, end] = group.rows(windows_->context().objects, windows_->level(control_));
        for (auto r : selected_) {
            if (r < first || r >= end) continue;
            rows_.clear();
            Burst b;
            b.row = r;
            stage(0, r, begin_, end_, b);
        }
        rows_.clear(); // its cursors read the group's trace, which the next pass replaces
    }

    std::vector<HistogramTable> tables() {
        if (communication_) return {communicationCells_->table(*windows_)};
        std::vector<HistogramTable> out;
        // paramedir prints the planes with values, each under its label, with the columns of every plane
        // sorted by the totals of the first of them (its selected plane).
        std::optional<CellColumns> sortCells;
        for (std::size_t p = 0; p < planes_.count; ++p) {
            bool written = false;
            for (auto r : selected_)
                for (const auto& c : cells_[p][r]) written = written || c.written;
            if (spec_.extra < 0 || !written) continue;
            auto values = cellValues(p);
            if (!sortCells) sortCells = values;
            out.push_back(table(p, values, *sortCells));
        }
        // A 2D histogram prints its one table; a 3D one with no plane holding a value prints nothing.
        if (spec_.extra < 0) {
            auto values = cellValues(0);
            out.push_back(table(0, values, values));
        }
        return out;
    }

private:
    // Where a burst goes and what it reads, filled in as the stages nest.
    struct Burst {
        std::size_t row = 0, plane = 0, column = 0;
        const Interval* control = nullptr;
    };

    // KHistogram::orderWindows: the control window, then a 3D window, then the data window; the 3D window
    // first when it is finer, or when control and data are one window.
    void orderWindows() {
        auto fail = [&](const std::string& what) {
            throw Error(path_ + ":" + std::to_string(spec_.line) + ": histogram '" + spec_.name +
                        "': " + what);
        };
        if (spec_.extra < 0) {
            order_ = {control_};
        } else {
            auto extra = static_cast<std::size_t>(spec_.extra);
            auto cl = windows_->level(control_), el = windows_->level(extra);
            if (!sameTree(cl, el)) fail("the 3D window must be at a level of the control window's tree");
            bool extraFirst = control_ == data_ || static_cast<int>(cl) < static_cast<int>(el);
            // Paraver then reads the histogram's rows as the 3D window's: only meaningful at one level.
            if (extraFirst && cl != el)
                fail("a 3D window at another level than the control window is not implemented by gpueff");
            order_ = extraFirst ? std::vector<std::size_t>{extra, control_}
                                : std::vector<std::size_t>{control_, extra};
        }
        if (data_ != control_) order_.push_back(data_);
    }

    // KHistogram::recursiveExecution and calculate: the intervals of stage k's window on `row` within
    // [from, to); each sets its column or plane, the last one adds the burst.
    void stage(std::size_t k, std::size_t row, std::int64_t from, std::int64_t to, Burst b) {
        auto w = order_[k];
        auto key = std::make_pair(k, row);
        auto it = rows_.find(key);
        if (it == rows_.end()) {
            it = rows_.emplace(key, windows_->makeRow(w, row)).first;
            it->second->init();
        }
        auto& interval = *it->second;
        bool last = k + 1 == order_.size();
        walk(
            interval, from, to,
            [&](std::int64_t bFrom, std::int64_t bTo) {
                Burst here = b;
                if (w == control_) {
                    if (!columns_.column(interval.value, here.column)) return;
                    here.control = &interval;
                }
                if (spec_.extra >= 0 && w == static_cast<std::size_t>(spec_.extra) &&
                    !planes_.column(interval.value, here.plane))
                    return;
                if (last) {
                    burst(here, interval, bFrom, bTo);
                    return;
                }
                auto& ctx = windows_->context();
                auto [first, lastRow] =
                    ctx.objects.children(windows_->level(w), row, windows_->level(order_[k + 1]));
                for (auto r = first; r <= lastRow && first <= lastRow; ++r) stage(k + 1, r, bFrom, bTo, here);
            },
            k > 0);
    }

    // Paraver's recursiveExecution for one row: skip intervals that end before `from`, visit the non-empty
    // ones that end before `to`, then the one reaching past `to` (even when empty).
    template <typename Visit>
    void walk(Interval& row, std::int64_t from, std::int64_t to, Visit visit, bool nested = false) {
        while (row.end <= from && row.begin < traceEnd_) row.next();
        while (row.end < to && row.begin < traceEnd_) {
            if (row.begin != row.end) visit(std::max(from, row.begin), std::min(to, row.end));
            row.next();
        }
        if (row.begin < to) visit(std::max(from, row.begin), std::min(to, row.end));
        if (nested)
            while (row.begin == row.end && row.end <= to && row.end < end_ && row.begin < traceEnd_)
                row.next();
    }

    void burst(const Burst& where, const Interval& data, std::int64_t b, std::int64_t e) {
        const auto& control = *where.control;
        auto& c = cells_[where.plane][where.row][where.column];
        auto& ctx = windows_->context();
        double dt = static_cast<double>(e - b);
        double v = data.value;
        c.written = true;
        c.time += dt;
        if (control.value != 0.0) c.timeNotZero += dt;
        c.bursts += 1;
        if (v != 0.0) {
            c.burstsNotZero += 1;
            c.timeValueNotZero += dt;
        }
        c.sumValue += v;
        c.integral += toWindowUnits(dt, ctx.trace.header.unit, windows_->unit(data_)) * std::fabs(v);
        c.valueTime += v * dt;
        if (v > c.maximum) c.maximum = v;
        if (c.minimum == 0.0)
            c.minimum = v;
        else if (v != 0.0 && v < c.minimum)
            c.minimum = v;
        double d = toWindowUnits(dt, ctx.trace.header.unit, windows_->unit(control_));
        c.sumDuration += d;
        c.sumDurationSquared += d * d;
    }

    std::string where() const {
        return path_ + ":" + std::to_string(spec_.line) + ": histogram '" + spec_.name + "'";
    }

    // ComputeYScale's values of window `w`: the smallest non-zero and largest of each row over the analysed
    // range, folded over the rows in row order.
    struct Scan {
        double minY = 0, maxY = 0;
    };
    void scan(std::size_t w, Scan& s, const RowGroup& group) {
        auto [first, end] = group.rows(windows_->context().objects, windows_->level(w));
        for (std::size_t r = first; r < end; ++r) {
            auto row = windows_->makeRow(w, r);
            row->init();
            double rowMin = 0, rowMax = 0;
            auto see = [&](double v) {
                if (rowMax < v) rowMax = v;
                if (rowMin == 0 || (rowMin > v && v != 0)) rowMin = v;
            };
            see(row->value);
            while (row->begin < end_ && row->begin < traceEnd_) {
                row->next();
                see(row->value);
            }
            s.maxY = std::max(s.maxY, rowMax);
            if (s.minY == 0.0)
                s.minY = rowMin;
            else if (rowMin != 0.0)
                s.minY = std::min(s.minY, rowMin);
        }
    }

    // The columns of the control window (Paraver's HistogramProxy::compute2DScale and
    // KHistogram::initTranslators): a computed scale runs from the smallest non-zero value to the largest plus
    // 5 %; a fixed delta (UseFixedDelta, or forced by the loader, Cfg's finish) gives columns Delta wide,
    // otherwise NumColumns columns. With a computed scale NumColumns is never used: without a fixed delta the
    // width is 1 for a zero range or a code-coloured window spanning at most 10000, else the range / 200.
    Columns controlScale() {
        if (!spec_.computeYScale) {
            if (spec_.useFixedDelta || !spec_.numColumns)
                return fixedDelta(spec_.minimum, spec_.maximum, spec_.delta, where());
            return byCount(spec_.minimum, spec_.maximum, *spec_.numColumns);
        }
        double minY = controlScan_.minY, maxY = controlScan_.maxY;
        double max = maxY + (maxY - minY) * 0.05;
        checkScale(control_, "control", minY, maxY, max);
        if (spec_.useFixedDelta) return fixedDelta(minY, max, spec_.delta, where());
        if (maxY - minY == 0) return fixedDelta(minY, max, 1.0, where());
        if (windows_->codeColor(control_) && maxY - minY <= 10000)
            return fixedDelta(minY, std::floor(max), 1.0, where());
        return byCount(minY, max, kDefaultColumns);
    }

    // The planes of a 3D histogram (compute3DScale: no margin; width 1 for a zero range or a code-coloured
    // window, else the range / 200), or the cfg's fixed 3D scale.
    Columns extraScale() {
        auto w = static_cast<std::size_t>(spec_.extra);
        if (!spec_.extraComputeScale)
            return fixedDelta(spec_.extraMinimum, spec_.extraMaximum, spec_.extraDelta, where());
        double minY = extraScan_.minY, maxY = extraScan_.maxY;
        checkScale(w, "3D", minY, maxY, maxY);
        if (maxY - minY == 0 || windows_->codeColor(w)) return fixedDelta(minY, maxY, 1.0, where());
        double delta = (maxY - minY) / static_cast<double>(kDefaultColumns);
        return Columns{minY, maxY, delta, fixedDelta(minY, maxY, delta, where()).count};
    }

    // Values a compose function pushed past double's range leave no scale to compute.
    void checkScale(std::size_t w, const char* which, double minY, double maxY, double max) const {
        if (!std::isfinite(minY) || !std::isfinite(max))
            throw Error(where() + ": ComputeYScale: the " + which + " window '" + windows_->name(w) + "' reaches " +
                        std::to_string(std::isfinite(minY) ? maxY : minY) + ", no column scale covers it");
    }

    // The statistic of every cell of plane `plane`, [printed row][column]; empty where no burst fell. The
    // cfg's statistic was resolved to its catalogue row when the cfg was read: a cell's value is that row's
    // function of the cell.
    CellColumns cellValues(std::size_t plane) const {
        std::size_t rows = selected_.size();
        CellColumns all(rows, std::vector<std::optional<double>>(columns_.count));
        auto value = spec_.statistic->cell;
        CellContext x;
        x.rangeTime = static_cast<double>(end_ - begin_);
        x.traceUnit = windows_->context().trace.header.unit;
        x.controlUnit = windows_->unit(control_);
        for (std::size_t i = 0; i < rows; ++i) {
            const auto& cells = cells_[plane][selected_[i]];
            x.rowTime = x.rowTimeNotZero = x.rowBursts = 0;
            for (const auto& c : cells) {
                x.rowTime += c.time;
                x.rowTimeNotZero += c.timeNotZero;
                x.rowBursts += c.bursts;
            }
            for (std::size_t k = 0; k < columns_.count; ++k)
                if (cells[k].written) all[i][k] = value(cells[k], x);
        }
        return all;
    }

    HistogramTable table(std::size_t plane, const CellColumns& values, const CellColumns& sortCells) {
        HistogramTable t;
        t.name = spec_.name;
        if (spec_.extra >= 0) {
            t.planeCount = planes_.count;
            t.planeLabel = columnLabel(*windows_, static_cast<std::size_t>(spec_.extra), planes_, plane,
                                       spec_.shortLabels);
        }
        t.statistic = spec_.statistic->name;
        t.horizontal = spec_.horizontal;
        t.beginTime = begin_;
        t.endTime = end_;
        for (auto r : selected_) t.rowLabels.push_back(windows_->rowLabel(control_, r, true, true));
        fillColumns(t, values, printedColumns(spec_, values, sortCells, columns_.count), [&](std::size_t k) {
            return columnLabel(*windows_, control_, columns_, k, spec_.shortLabels);
        });
        return t;
    }

    std::string path_;
    const HistogramSpec& spec_;
    const WindowSet* windows_; // the current pass's (HistogramByRows rebinds it)
    std::size_t control_, data_;
    std::int64_t begin_ = 0, end_ = 0, traceEnd_ = 0;
    Columns columns_;
    bool communication_ = false;     // a communication statistic: columns are partner objects
    Columns planes_;                 // of the 3D window (one plane without)
    std::vector<std::size_t> order_; // windows in nesting order
    std::map<std::pair<std::size_t, std::size_t>, IntervalPtr> rows_; // (stage, row) cursors of a top row
    std::vector<std::vector<std::vector<BurstCell>>> cells_;          // [plane][row][column]
    std::vector<std::size_t> selected_;                               // rows computed and printed, ascending
    Scan controlScan_, extraScan_;
    bool scaleFixed_ = false;
    std::unique_ptr<CommunicationCells> communicationCells_;
};

} // namespace

void addTotals(HistogramTable::Totals& t, const std::vector<std::optional<double>>& values) {
    double total = 0, n = 0, maximum = -std::numeric_limits<double>::max(),
           minimum = std::numeric_limits<double>::max();
    for (const auto& v : values)
        if (v) {
            total += *v;
            n += 1;
            maximum = std::max(maximum, *v);
            if (*v != 0.0 && *v < minimum) minimum = *v;
        }
    if (n == 0) {
        for (auto* x : {&t.total, &t.average, &t.maximum, &t.minimum, &t.stdev}) x->push_back(0);
        // 0/0: x86 gives the negative quiet NaN, which paramedir prints "-nan".
        t.avgDivMax.push_back(-std::numeric_limits<double>::quiet_NaN());
        return;
    }
    double average = total / n;
    // The exact population deviation: Paraver's sqrt(E[x^2] - E[x]^2) prints rounding noise for equal values.
    double deviation = 0;
    for (const auto& v : values)
        if (v) deviation += (*v - average) * (*v - average);
    t.total.push_back(total);
    t.average.push_back(average);
    t.maximum.push_back(maximum);
    t.minimum.push_back(minimum == std::numeric_limits<double>::max() ? 0.0 : minimum);
    t.stdev.push_back(std::sqrt(deviation / n));
    t.avgDivMax.push_back(average / maximum);
}

void fillColumns(HistogramTable& t, const std::vector<std::vector<std::optional<double>>>& values,
                 const std::vector<std::size_t>& printed, const std::function<std::string(std::size_t)>& label) {
    std::size_t rows = values.size();
    t.cells.assign(rows, {});
    for (auto k : printed) {
        t.columnLabels.push_back(label(k));
        std::vector<std::optional<double>> column;
        for (std::size_t i = 0; i < rows; ++i) {
            t.cells[i].push_back(values[i][k]);
            column.push_back(values[i][k]);
        }
        addTotals(t.columnTotals, column);
    }
    for (std::size_t i = 0; i < rows; ++i) addTotals(t.rowTotals, values[i]);
}

std::vector<HistogramTable> computeHistogramPlanes(const Cfg& cfg, const WindowSet& windows) {
    if (!cfg.histogram) throw Error(cfg.path + ": the cfg has no histogram");
    return Computation(cfg, windows).run();
}

struct HistogramByRows::Impl {
    Computation computation;
};

HistogramByRows::HistogramByRows(const Cfg& cfg, const WindowSet& windows) {
    if (!cfg.histogram) throw Error(cfg.path + ": the cfg has no histogram");
    impl_ = std::make_unique<Impl>(Impl{Computation(cfg, windows)});
}
HistogramByRows::~HistogramByRows() = default;

bool HistogramByRows::scaleFirst() const {
    const auto& c = impl_->computation;
    return c.computesScale() && !c.communication();
}

void HistogramByRows::scale(const WindowSet& windows, const RowGroup& group) {
    auto& c = impl_->computation;
    if (!c.computesScale()) return;
    if (c.scaleFixed()) throw Error("internal error: HistogramByRows::scale after add");
    c.rebind(windows);
    c.scanScales(group);
}

void HistogramByRows::add(const WindowSet& windows, const RowGroup& group) {
    auto& c = impl_->computation;
    c.rebind(windows);
    if (!c.communication() && !c.scaleFixed()) c.finishScales();
    c.accumulate(group);
}

std::vector<HistogramTable> HistogramByRows::tables(const WindowSet& windows) {
    auto& c = impl_->computation;
    c.rebind(windows);
    if (!c.scaleFixed()) c.finishScales();
    return c.tables();
}

HistogramTable computeHistogram(const Cfg& cfg, const WindowSet& windows) {
    auto planes = computeHistogramPlanes(cfg, windows);
    if (planes.size() != 1 || planes[0].planeCount != 0)
        throw Error(cfg.path + ": the histogram has planes (3D); use computeHistogramPlanes");
    return std::move(planes[0]);
}

} // namespace gpueff::semantic
