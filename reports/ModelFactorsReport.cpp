#include "reports/ModelFactorsReport.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>

namespace gpueff::reports {

namespace {

using Run = metrics::ModelFactors::Run;
using Getter = std::function<std::optional<double>(const Run&)>;

struct Row {
    const char* label;
    Getter value;
    const char* format; // printf format of one value
    bool percent;       // a factor: shown x100 in the csv
};

// The factor rows of basicanalysis' csv, in its order.
const std::vector<Row>& factorRows() {
    static const std::vector<Row> rows = {
        {"Parallel efficiency", [](const Run& r) { return r.parallelEfficiency; }, "%f", true},
        {"Load balance", [](const Run& r) { return r.loadBalance; }, "%f", true},
        {"Communication efficiency", [](const Run& r) { return r.communicationEfficiency; }, "%f", true},
        {"Serialization efficiency", [](const Run&) { return std::optional<double>(); }, "%f", true},
        {"Transfer efficiency", [](const Run&) { return std::optional<double>(); }, "%f", true},
        {"Computation scalability", [](const Run& r) { return r.computationScalability; }, "%f", true},
        {"Global efficiency", [](const Run& r) { return r.globalEfficiency; }, "%f", true},
        {"IPC scalability", [](const Run& r) { return r.ipcScalability; }, "%f", true},
        {"Instruction scalability", [](const Run& r) { return r.instructionScalability; }, "%f", true},
        {"Frequency scalability", [](const Run& r) { return r.frequencyScalability; }, "%f", true},
        {"Speedup", [](const Run& r) { return r.speedup; }, "%f", false},
        {"Average IPC", [](const Run& r) { return r.ipc; }, "%f", false},
        {"Average frequency (GHz)", [](const Run& r) { return r.frequencyGhz; }, "%f", false},
    };
    return rows;
}

const std::vector<Row>& figureRows() {
    static const std::vector<Row> rows = {
        {"Runtime (us)", [](const Run& r) { return r.measures.runtimeNs / 1000.0; }, "%.2f", false},
        {"Runtime (ideal)", [](const Run&) { return std::optional<double>(); }, "%.2f", false},
        {"Useful duration (average)", [](const Run& r) { return r.usefulAverageNs / 1000.0; }, "%.2f", false},
        {"Useful duration (maximum)", [](const Run& r) { return r.usefulMaximumNs / 1000.0; }, "%.2f", false},
        {"Useful duration (total)", [](const Run& r) { return r.usefulTotalNs / 1000.0; }, "%.2f", false},
        {"Useful duration (ideal, max)", [](const Run&) { return std::optional<double>(); }, "%.2f", false},
        {"Useful instructions (total)", [](const Run& r) { return r.measures.instructions; }, "%.2f", false},
        {"Useful cycles (total)", [](const Run& r) { return r.measures.cycles; }, "%.2f", false},
    };
    return rows;
}

std::string format(const char* fmt, double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, fmt, v);
    return buffer;
}

std::string cell(const Row& row, const Run& run) {
    auto v = row.value(run);
    if (!v || !std::isfinite(*v)) return "n/a";
    return format(row.format, row.percent ? *v * 100.0 : *v);
}

} // namespace

std::string modelFactorsCsv(const metrics::ModelFactors& f) {
    std::string out = "Number of processes";
    for (const auto& r : f.runs) out += ";" + std::to_string(r.measures.processes);
    out += "\n";
    for (const auto& row : factorRows()) {
        out += row.label;
        for (const auto& r : f.runs) out += ";" + cell(row, r);
        out += "\n";
    }
    out += "#\n";
    for (const auto& row : figureRows()) {
        out += std::string("#") + row.label;
        for (const auto& r : f.runs) out += ";" + cell(row, r);
        out += "\n";
    }
    return out;
}

nlohmann::json modelFactorsJson(const metrics::ModelFactors& f) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& r : f.runs) {
        nlohmann::json factors, figures;
        for (const auto& row : factorRows()) {
            auto v = row.value(r);
            factors[row.label] = v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
        }
        for (const auto& row : figureRows()) {
            auto v = row.value(r);
            figures[row.label] = v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
        }
        runs.push_back({{"trace", r.measures.trace},
                        {"processes", r.measures.processes},
                        {"factors", factors},
                        {"figures", figures},
                        {"useful_ns_per_thread", r.measures.usefulNs}});
    }
    return {{"reference", "the run with the fewest processes; strong scaling"},
            {"not_computed",
             {"Serialization efficiency", "Transfer efficiency", "Runtime (ideal)",
              "Useful duration (ideal, max)"}},
            {"not_computed_why", "they need an ideal-network replay (Dimemas), which gpueff does not run"},
            {"runs", runs}};
}

std::string modelFactorsMarkdown(const metrics::ModelFactors& f) {
    std::string out = "# POP model factors\n\n| Processes |";
    for (const auto& r : f.runs) out += " " + std::to_string(r.measures.processes) + " |";
    out += "\n|---|";
    for (std::size_t i = 0; i < f.runs.size(); ++i) out += "---:|";
    out += "\n";
    auto table = [&](const std::vector<Row>& rows, bool percent) {
        for (const auto& row : rows) {
            out += std::string("| ") + row.label + " |";
            for (const auto& r : f.runs) {
                auto v = row.value(r);
                if (!v || !std::isfinite(*v))
                    out += " n/a |";
                else if (row.percent && percent)
                    out += " " + format("%.2f", *v * 100.0) + " % |";
                else
                    out += " " + format(row.format, *v) + " |";
            }
            out += "\n";
        }
    };
    table(factorRows(), true);
    out += "\n| Figures |";
    for (const auto& r : f.runs) out += " " + std::to_string(r.measures.processes) + " |";
    out += "\n|---|";
    for (std::size_t i = 0; i < f.runs.size(); ++i) out += "---:|";
    out += "\n";
    table(figureRows(), false);
    out += "\nReference: the run with the fewest processes (strong scaling). Serialization and transfer "
           "efficiency and the ideal figures need an ideal-network replay (Dimemas) and are not computed.\n";
    return out;
}

} // namespace gpueff::reports
