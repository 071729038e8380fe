// Fuzzes the .prv reader (header and body) on text in memory, then loads the trace as LoadedTrace does and
// measures it as `gpueff modelfactors` does (the semantic engine over the records the reader accepted).
// gpueff::Error is a clean refusal; anything else escaping, or a broken invariant of the trace, aborts.
#include "engine/common/Error.h"
#include "engine/paraver/PrvReader.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/Histogram.h"
#include "engine/semantic/HistogramOutput.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/Window.h"
#include "metrics/ModelFactors.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string_view>
#include <vector>

namespace {

namespace paraver = gpueff::paraver;

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "prv_reader: invariant broken: %s\n", what);
    std::abort();
}

// What the rest of gpueff relies on: every stream in time order inside [0, endTime], with the empty records
// at both ends, and every index valid for its column.
void checkTrace(const paraver::Trace& t) {
    auto end = t.endTime();
    require(end >= 0 && end <= paraver::kMaxTime, "end time in [0, kMaxTime]");
    require(t.threads.size() == t.header.totalThreads(), "one ThreadRecords per declared thread");
    for (const auto& th : t.threads) {
        const auto& s = th.stream;
        require(s.size() >= 2 && s.time.front() == 0 && s.time.back() == end, "empty records at 0 and end");
        require(std::is_sorted(s.time.begin(), s.time.end()), "stream in time order");
        for (std::size_t i = 0; i < th.stateBegin.size(); ++i)
            require(0 <= th.stateBegin[i] && th.stateBegin[i] <= th.stateEnd[i] && th.stateEnd[i] <= end,
                    "state inside [0, end]");
        for (auto time : th.eventTime) require(0 <= time && time <= end, "event inside [0, end]");
        for (auto c : th.sends) require(c < t.communications.size(), "send index");
        for (auto c : th.receives) require(c < t.communications.size(), "receive index");
    }
}

// Event values and types straight from the records, as histogram columns with their labels (a value near
// 2^63 once reached an out-of-range conversion there), written as text and JSON like `gpueff histogram`.
// (computeHistogram evaluates a cfg's last histogram, so one cfg per histogram.)
const std::vector<gpueff::semantic::Cfg>& cfgs() {
    auto window = [](const char* level, const char* function, const char* statistic) {
        return std::string("#ParaverCFG\nConfigFile.NumWindows: 1\nwindow_name w\nwindow_type single\n") +
               "window_level " + level + "\nwindow_selected_functions { 1, { {thread, " + function +
               "} } }\n< NEW ANALYZER2D >\nAnalyzer2D.ControlWindow: 1\nAnalyzer2D.Statistic: " + statistic +
               "\nAnalyzer2D.ComputeYScale: True\n";
    };
    static const std::vector<gpueff::semantic::Cfg> all = {
        gpueff::semantic::parseCfgText(window("thread", "Last Evt Val", "Average value"), "values.cfg"),
        gpueff::semantic::parseCfgText(window("task", "Last Evt Type", "# Bursts"), "types.cfg"),
        gpueff::semantic::parseCfgText(window("thread", "State As Is", "% Time"), "states.cfg")};
    return all;
}

void histograms(const gpueff::semantic::LoadedTrace& loaded) {
    for (const auto& cfg : cfgs()) {
        try {
            gpueff::semantic::WindowSet windows(cfg, loaded.context());
            auto table = gpueff::semantic::computeHistogramPlanes(cfg, windows);
            std::ostringstream text;
            gpueff::semantic::writeHistogramText(text, table, 2);
            (void)gpueff::semantic::histogramJson(table).dump();
        } catch (const gpueff::Error&) {
            // e.g. a task without threads for the task-level window
        }
    }
}

void load(std::string_view text, bool lenient) {
    paraver::ReadOptions options;
    options.lenient = lenient;
    options.maxObjects = 512; // the documented limit is 10^6; a fuzz input must stay fast
    auto trace = paraver::readPrvText(text, "fuzz.prv", options);
    checkTrace(trace);
    (void)trace.warnings();
    gpueff::semantic::LoadedTrace loaded(std::move(trace), paraver::TraceLabels{});
    loaded.path = "fuzz.prv";
    histograms(loaded);
    try {
        auto measures = gpueff::metrics::measureRun(loaded);
        (void)gpueff::metrics::computeModelFactors({measures});
    } catch (const gpueff::Error&) {
        // no records, no Running state, no time range: refused like the command would
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // Strict first; only a refused input is read again leniently (an accepted one would read the same).
    for (bool lenient : {false, true}) {
        try {
            load(text, lenient);
            break;
        } catch (const gpueff::Error&) {
            // a clean refusal
        } catch (const std::exception& e) {
            std::fprintf(stderr, "prv_reader: %s escaped: %s\n", lenient ? "lenient" : "strict", e.what());
            std::abort();
        }
    }
    return 0;
}
