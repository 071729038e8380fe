#include "reports/MetricsExport.h"

#include "reports/CompareParts.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace gpueff::reports::dashboard {

namespace {

// A cell: no value, a number (its text) or a text.
struct Cell {
    enum Kind { Null, Number, Text } kind = Null;
    std::string text;
};

Cell text(std::string_view s) {
    return {Cell::Text, std::string(s)};
}
Cell integer(std::int64_t v) {
    return {Cell::Number, std::to_string(v)};
}
Cell number(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return {};
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", *v);
    return {Cell::Number, buffer};
}
template <typename T>
Cell optionalText(const std::optional<T>& v) {
    return v ? text(*v) : Cell{};
}

const std::vector<std::string_view> kColumns = {"run_id",
                                                "run_label",
                                                "source",
                                                "commit",
                                                "date",
                                                "branch",
                                                "gpus",
                                                "tags",
                                                "start_utc_ns",
                                                "level",
                                                "level_name",
                                                "iteration_status",
                                                "begin_ns",
                                                "end_ns",
                                                "duration_ns",
                                                "convention",
                                                "device",
                                                "device_label",
                                                "useful_ns",
                                                "communication_ns",
                                                "idle_ns",
                                                "parallel_efficiency",
                                                "load_balance",
                                                "communication_efficiency",
                                                "orchestration_efficiency"};

// The cells a run's rows share: run_id to start_utc_ns.
std::vector<Cell> runCells(const DashboardRun& run) {
    const auto& a = run.attributes;
    std::string tags;
    for (const auto& [name, value] : a.tags) tags += (tags.empty() ? "" : ";") + name + "=" + value;
    auto start = run.startUtcNs();
    return {text(run.id),
            text(run.label),
            text(run.source),
            optionalText(a.commit),
            optionalText(a.date),
            optionalText(a.branch),
            a.gpus ? integer(*a.gpus) : Cell{},
            text(tags),
            start ? integer(*start) : Cell{}};
}

// What a level contributes: level to duration_ns.
struct Level {
    const char* kind;
    Cell name, status, begin, end, duration;
    const model::Efficiency* efficiency;
};

// Rows are written from fragments: the cells of the run, of the level and of the device, each rendered once
// (a run's cells are shared by thousands of rows) and joined per row.
class Writer {
public:
    Writer(MetricsFormat format, const std::function<void(std::string_view)>& write)
        : format_(format), write_(write) {
        for (auto c : kColumns) keys_.push_back(nlohmann::json(c).dump() + ":");
    }

    void header() {
        if (format_ != MetricsFormat::Csv) return;
        for (std::size_t i = 0; i < kColumns.size(); ++i) (i ? buffer_ += ',' : buffer_) += kColumns[i];
        buffer_ += '\n';
    }
    // The cells of columns first, first + 1, ...: "a,b" (CSV) or "\"key\":a,\"key\":b" (JSON Lines).
    std::string fragment(const std::vector<Cell>& cells, std::size_t first) const {
        std::string out;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i) out += ',';
            if (format_ == MetricsFormat::Csv) {
                csvCell(out, cells[i]);
            } else {
                out += keys_[first + i];
                jsonCell(out, cells[i]);
            }
        }
        return out;
    }
    void row(std::initializer_list<std::string_view> fragments) {
        bool json = format_ == MetricsFormat::JsonLines;
        if (json) buffer_ += '{';
        bool firstFragment = true;
        for (auto f : fragments) {
            if (!firstFragment) buffer_ += ',';
            buffer_ += f;
            firstFragment = false;
        }
        if (json) buffer_ += '}';
        buffer_ += '\n';
    }
    void flush() {
        write_(buffer_);
        buffer_.clear();
    }

private:
    MetricsFormat format_;
    const std::function<void(std::string_view)>& write_;
    std::vector<std::string> keys_; // each column's JSON key and colon
    std::string buffer_;

    static void csvCell(std::string& out, const Cell& c) {
        if (c.kind != Cell::Text || c.text.find_first_of(",\"\r\n") == std::string::npos) {
            out += c.text;
            return;
        }
        out += '"';
        for (char ch : c.text) (ch == '"' ? out += "\"\"" : out += ch);
        out += '"';
    }
    static void jsonCell(std::string& out, const Cell& c) {
        if (c.kind == Cell::Null)
            out += "null";
        else if (c.kind == Cell::Number)
            out += c.text;
        else
            out += nlohmann::json(c.text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
};

// Columns: the run's (run_id .. start_utc_ns), the level's (level .. convention), the device's (device ..).
constexpr std::size_t kLevelColumn = 9, kDeviceColumn = 16;

// The rows of one level: per convention, "all" with the factors and the sums, then each device.
void levelRows(Writer& w, const DashboardRun& run, const std::string& runFragment, const Level& level) {
    for (std::size_t c = 0; c < compare::kConventionCount; ++c) {
        const auto& e = level.efficiency->convention(c);
        auto levelFragment = w.fragment({text(level.kind), level.name, level.status, level.begin, level.end,
                                         level.duration, text(compare::kConventions[c].key)},
                                        kLevelColumn);
        std::int64_t useful = 0, communication = 0, idle = 0;
        for (const auto& d : e.devices)
            useful += d.usefulNs, communication += d.communicationNs, idle += d.idleNs;
        w.row({runFragment, levelFragment,
               w.fragment({text("all"), text("all devices"), integer(useful), integer(communication),
                           integer(idle), number(e.parallel), number(e.loadBalance), number(e.communication),
                           number(e.orchestration)},
                          kDeviceColumn)});
        for (const auto& d : e.devices)
            w.row({runFragment, levelFragment,
                   w.fragment({text(d.id), text(run.report.deviceLabel(d.id)), integer(d.usefulNs),
                               integer(d.communicationNs), integer(d.idleNs), Cell{}, Cell{}, Cell{}, Cell{}},
                              kDeviceColumn)});
    }
}

void runRows(Writer& w, const DashboardRun& run) {
    const auto& r = run.report;
    auto shared = w.fragment(runCells(run), 0);
    levelRows(w, run, shared,
              {"run", text("window"), text(""), integer(r.window.beginNs), integer(r.window.endNs),
               integer(r.window.durationNs), &r.efficiency});
    if (r.iterations)
        for (const auto& it : *r.iterations)
            levelRows(w, run, shared,
                      {"iteration", text(std::to_string(it.index)), text(it.status), integer(it.beginNs),
                       integer(it.endNs), integer(it.durationNs), &it.figures.efficiency});
    if (r.phases)
        for (const auto& p : *r.phases)
            levelRows(
                w, run, shared,
                {"phase", text(p.name), text(""), Cell{}, Cell{}, integer(p.timeNs), &p.figures.efficiency});
}

} // namespace

const std::vector<std::string_view>& metricsColumns() {
    return kColumns;
}

void writeMetrics(const std::vector<DashboardRun>& runs, MetricsFormat format,
                  const std::function<void(std::string_view)>& write) {
    Writer w(format, write);
    w.header();
    for (const auto& run : runs) {
        runRows(w, run);
        w.flush();
    }
    w.flush();
}

} // namespace gpueff::reports::dashboard
