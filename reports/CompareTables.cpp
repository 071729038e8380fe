// What changed between runs below the efficiency factors: which kernels took more or less time (from each
// report's kernel_summary, the nsys stats table over the whole trace), how the GPUs' idle gaps split between
// waiting for the host and waiting for launched work, and the host's own efficiency (offload, MPI).
#include "reports/CompareTables.h"

#include "reports/CompareParts.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace gpueff::reports::compare {

using detail::MarkdownTable;
using nlohmann::json;

namespace {

// ---- kernel deltas ----

json figuresJson(const KernelFigures* k) {
    if (!k) return nullptr;
    return {{"total_ns", integerOrNull(k->total)},
            {"instances", integerOrNull(k->instances)},
            {"avg_ns", orNull(k->average)}};
}

void deltas(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
            const std::vector<RunUnit>& units, std::size_t ref, std::string& md, json& out) {
    out["kernel_deltas"] = json::array();
    if (reports.size() < 2) return;
    const auto& first = units[ref].work.kernels;
    const char* per = unitName(units[ref].perIteration);
    md += "## Kernels: largest changes " + std::string(per) + " against \"" + escapeMarkdown(labels[ref]) +
          "\"\n\nPer kernel name, from each report's kernel summary (the whole trace, as `nsys stats`)" +
          (units[ref].perIteration
               ? ", divided by the iterations its window holds (window / mean steady iteration)"
               : "") +
          ": the " + std::to_string(kTopKernelDeltas) + " kernels whose time " + per +
          " changed the most, reference -> this run (difference). A kernel absent from a run counts as 0 "
          "there.\n\n";
    for (std::size_t i = 0; i < reports.size(); ++i) {
        if (i == ref) continue;
        const auto& other = units[i].work.kernels;
        const double perA = units[ref].work.per, perB = units[i].work.per;
        std::set<std::string> names;
        for (const auto& [n, k] : first) names.insert(n);
        for (const auto& [n, k] : other) names.insert(n);
        struct Delta {
            std::string name;
            const KernelFigures *a, *b;
            double total; // per unit
        };
        std::vector<Delta> deltas;
        for (const auto& n : names) {
            auto ia = first.find(n), ib = other.find(n);
            const KernelFigures* a = ia == first.end() ? nullptr : &ia->second;
            const KernelFigures* b = ib == other.end() ? nullptr : &ib->second;
            deltas.push_back({n, a, b, (b ? b->total * perB : 0) - (a ? a->total * perA : 0)});
        }
        // Largest absolute change first; names break ties so that the order does not depend on the input's.
        std::stable_sort(deltas.begin(), deltas.end(), [](const Delta& x, const Delta& y) {
            return std::fabs(x.total) > std::fabs(y.total);
        });
        if (deltas.size() > kTopKernelDeltas) deltas.resize(kTopKernelDeltas);
        // The instances' difference is plain from "a -> b" (and in compare.json): a column fewer keeps the
        // table within a page 900 px wide (GitHub).
        MarkdownTable t({"Kernel", std::string("Time ") + per, "Difference", std::string("Instances ") + per,
                         "Average", "Difference"},
                        "lrrrrr");
        json jk = json::array();
        for (const auto& d : deltas) {
            double instances = (d.b ? d.b->instances * perB : 0) - (d.a ? d.a->instances * perA : 0);
            Value average;
            if (d.a && d.b && d.a->average && d.b->average) average = *d.b->average - *d.a->average;
            auto pair = [&](auto get, auto format) {
                return (d.a ? format(get(*d.a, perA)) : std::string("-")) + " -> " +
                       (d.b ? format(get(*d.b, perB)) : std::string("-"));
            };
            auto instancesText = [](Value v) {
                char b[32];
                std::snprintf(b, sizeof b, "%.2f", v.value_or(0));
                return std::string(b);
            };
            // Five columns of figures: a name's words (a cell wraps at spaces only) at most 24 characters.
            t.row({escapeMarkdown(shortenForTable(d.name, 60, 24)),
                   pair([](const KernelFigures& k, double p) { return Value(k.total * p); }, formatDuration),
                   signedDuration(d.total),
                   units[ref].perIteration
                       ? pair([](const KernelFigures& k, double p) { return Value(k.instances * p); },
                              instancesText)
                       : pair([](const KernelFigures& k, double) { return Value(k.instances); }, formatCount),
                   pair([](const KernelFigures& k, double) { return k.average; }, formatDuration),
                   average ? signedDuration(*average) : "n/a"});
            auto perUnit = [](const KernelFigures* k, double p) -> json {
                if (!k) return nullptr;
                return {{"total_ns", k->total * p}, {"instances", k->instances * p}};
            };
            jk.push_back(
                {{"name", d.name},
                 {"first", figuresJson(d.a)},
                 {"run", figuresJson(d.b)},
                 {"first_per_unit", perUnit(d.a, perA)},
                 {"run_per_unit", perUnit(d.b, perB)},
                 {"difference",
                  {{"total_ns", integerOrNull((d.b ? d.b->total : 0) - (d.a ? d.a->total : 0))},
                   {"instances", integerOrNull((d.b ? d.b->instances : 0) - (d.a ? d.a->instances : 0))},
                   {"avg_ns", orNull(average)}}},
                 {"difference_per_unit", {{"total_ns", d.total}, {"instances", instances}}}});
        }
        out["kernel_deltas"].push_back({{"label", labels[i]},
                                        {"against", labels[ref]},
                                        {"unit", units[ref].perIteration ? "iteration" : "window"},
                                        {"kernels", jk}});
        md += "### " + escapeMarkdown(labels[i]) + "\n\n" +
              (t.empty() ? std::string("No kernel summary in either run.\n\n") : t.str() + "\n");
    }
}

// ---- gaps ----

struct GapFigure {
    const char* key; // in compare.json
    std::int64_t model::DeviceGaps::*value;
};
constexpr GapFigure kGapFigures[] = {{"count", &model::DeviceGaps::count},
                                     {"total_ns", &model::DeviceGaps::totalNs},
                                     {"host_wait_count", &model::DeviceGaps::hostWaitCount},
                                     {"host_wait_ns", &model::DeviceGaps::hostWaitNs},
                                     {"kernel_wait_count", &model::DeviceGaps::kernelWaitCount},
                                     {"kernel_wait_ns", &model::DeviceGaps::kernelWaitNs}};

void gaps(const std::vector<model::Report>& reports, const std::vector<std::string>& labels, std::string& md,
          json& out) {
    out["gaps"] = json::array();
    MarkdownTable t(runHeader("Summed over devices", labels), "l" + std::string(labels.size(), 'r'));
    std::vector<std::vector<std::string>> rows(std::size(kGapFigures) + 2);
    const char* titles[] = {"Gaps",
                            "Idle in gaps",
                            "&emsp;Host-wait gaps",
                            "&emsp;Host-wait time",
                            "&emsp;Kernel-wait gaps",
                            "&emsp;Kernel-wait time"};
    rows[0] = {"Devices"};
    for (std::size_t k = 0; k < std::size(kGapFigures); ++k) rows[k + 1] = {titles[k]};
    rows.back() = {"Mean gap"};
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& list = reports[i].gaps;
        json jg = {{"label", labels[i]}, {"devices", list.size()}};
        Value sums[std::size(kGapFigures)];
        for (std::size_t k = 0; k < std::size(kGapFigures); ++k) {
            // A sum over the devices, unknown when there is none.
            Value sum = list.empty() ? std::nullopt : Value(0.0);
            for (const auto& g : list) *sum += static_cast<double>(g.*kGapFigures[k].value);
            sums[k] = sum;
            jg[kGapFigures[k].key] = integerOrNull(sum);
        }
        Value mean = sums[0] && sums[1] && *sums[0] > 0 ? Value(*sums[1] / *sums[0]) : std::nullopt;
        jg["mean_gap_ns"] = orNull(mean);
        out["gaps"].push_back(std::move(jg));
        rows[0].push_back(formatCount(static_cast<double>(list.size())));
        for (std::size_t k = 0; k < std::size(kGapFigures); ++k)
            rows[k + 1].push_back(k % 2 ? formatDuration(sums[k]) : formatCount(sums[k]));
        rows.back().push_back(formatDuration(mean));
    }
    for (auto& r : rows) t.row(r);
    md += "## GPU idle gaps\n\nIdle intervals between two activities of a device inside the window, summed "
          "over "
          "the devices. Host-wait: the next activity's launch call began after the gap did (the host was "
          "late); kernel-wait: it was launched in time and the GPU still waited.\n\n" +
          t.str() + "\n";
}

// ---- host ----

void host(const std::vector<model::Report>& reports, const std::vector<std::string>& labels, std::string& md,
          json& out) {
    out["host"] = json::array();
    std::set<long long> tasks;
    std::vector<std::map<long long, Value>> offloadByTask(reports.size());
    std::vector<std::string> meanRow{"Offload efficiency, mean over tasks"},
        minRow{"Offload efficiency, lowest task"},
        mpiRows[3] = {
            {"MPI parallel efficiency"}, {"&emsp;MPI load balance"}, {"&emsp;MPI communication efficiency"}};
    const char* mpiKeys[] = {"parallel_efficiency", "load_balance", "communication_efficiency"};
    for (std::size_t i = 0; i < reports.size(); ++i) {
        static const model::Host none;
        const model::Host& h = reports[i].host ? *reports[i].host : none;
        json offload = json::array();
        double sum = 0, n = 0;
        Value lowest;
        for (const auto& o : h.offload) {
            Value e = o.offloadEfficiency;
            offload.push_back({{"task", o.task}, {"name", o.name}, {"offload_efficiency", orNull(e)}});
            tasks.insert(o.task), offloadByTask[i][o.task] = e;
            if (e) sum += *e, ++n, lowest = lowest ? std::min(*lowest, *e) : *e;
        }
        Value mean = n > 0 ? Value(sum / n) : std::nullopt;
        json jh = {{"label", labels[i]},
                   {"offload", std::move(offload)},
                   {"offload_mean", orNull(mean)},
                   {"offload_min", orNull(lowest)},
                   {"mpi", nullptr}};
        meanRow.push_back(formatEfficiency(mean));
        minRow.push_back(formatEfficiency(lowest));
        const auto& mpi = h.mpi;
        if (mpi) jh["mpi"] = json::object();
        for (std::size_t k = 0; k < 3; ++k) {
            Value v = mpi ? (k == 0   ? mpi->parallel
                             : k == 1 ? mpi->loadBalance
                                      : mpi->communication)
                          : std::nullopt;
            if (jh["mpi"].is_object()) jh["mpi"][mpiKeys[k]] = orNull(v);
            mpiRows[k].push_back(mpi ? formatEfficiency(v) : "not traced");
        }
        out["host"].push_back(std::move(jh));
    }
    MarkdownTable t(runHeader("", labels), "l" + std::string(labels.size(), 'r'));
    t.row(meanRow);
    t.row(minRow);
    if (tasks.size() <= kHostTaskRows)
        for (long long task : tasks) {
            std::vector<std::string> row{"&emsp;Task " + std::to_string(task)};
            for (const auto& byTask : offloadByTask) {
                auto it = byTask.find(task);
                row.push_back(it == byTask.end() ? "-" : formatEfficiency(it->second));
            }
            t.row(row);
        }
    for (auto& r : mpiRows) t.row(r);
    md += "## Host\n\nOffload efficiency = (window - time in blocking CUDA calls) / window, per task; MPI "
          "efficiency of the host processes when MPI is traced.\n\n" +
          t.str() + "\n";
}

} // namespace

void kernelDeltas(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                  const std::vector<RunUnit>& units, std::size_t reference, std::string& md, json& out) {
    deltas(reports, labels, units, reference, md, out);
}

void compareTables(const std::vector<model::Report>& reports, const std::vector<std::string>& labels,
                   std::string& md, json& out) {
    gaps(reports, labels, md, out);
    host(reports, labels, md, out);
}

std::vector<std::string> runHeader(const char* first, const std::vector<std::string>& labels) {
    std::vector<std::string> h{first};
    for (const auto& l : labels) h.push_back(runLabelCell(l));
    return h;
}

std::string signedDuration(double ns) {
    return (ns > 0 ? "+" : "") + formatDuration(ns);
}

std::string runLabelCell(const std::string& label) {
    constexpr const char* kBreak = "\xE2\x80\x8B"; // U+200B ZERO WIDTH SPACE
    std::string out;
    std::size_t word = 0;
    for (char ch : label) {
        bool lead = (static_cast<unsigned char>(ch) & 0xC0) != 0x80; // the first byte of a character
        if (ch == ' ') {
            word = 0;
        } else if (lead && word == 12) {
            out += kBreak;
            word = 0;
        }
        out += escapeMarkdown(std::string(1, ch));
        if (ch != ' ' && lead) ++word;
        if (ch == '_' || ch == '-' || ch == '.' || ch == '/' || ch == ':') {
            out += kBreak;
            word = 0;
        }
    }
    return out;
}

} // namespace gpueff::reports::compare
