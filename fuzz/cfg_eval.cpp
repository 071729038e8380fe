// Fuzz harness: cfg text -> semantic::parseCfgText -> every window of it evaluated on a small fixed trace
// (every row walked to the trace end), then its histogram in text and JSON, or the last window's timeline,
// as `gpueff histogram` would write them. gpueff::Error is a clean refusal; any other exception aborts.
#include "engine/common/Error.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/Histogram.h"
#include "engine/semantic/HistogramOutput.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/Window.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// Two tasks (2 threads and 1 thread) on 4 CPUs of one node, 1000 ns: states (running, waiting, tracing
// disabled 14), event pairs (PAPI counters, OpenMP, a user type with labelled values), two messages.
const char* const kPrv = "#Paraver (01/01/2020 at 00:00):1000_ns:1(4):1:2(2:1,1:1)\n"
                         "1:1:1:1:1:0:100:1\n"
                         "1:2:1:1:2:0:300:3\n"
                         "1:3:1:2:1:0:50:1\n"
                         "2:1:1:1:1:100:42000059:1000:42000050:500\n"
                         "1:1:1:1:1:100:400:14\n"
                         "3:1:1:1:1:150:160:3:1:2:1:200:210:1024:7\n"
                         "2:3:1:2:1:200:60000001:1:70000000:3\n"
                         "1:3:1:2:1:250:900:1\n"
                         "2:2:1:1:2:300:70000000:2\n"
                         "1:2:1:1:2:300:700:1\n"
                         "1:1:1:1:1:400:1000:1\n"
                         "2:1:1:1:1:500:42000059:3000:42000050:1500\n"
                         "3:3:1:2:1:600:605:1:1:1:2:650:640:64:9\n"
                         "2:3:1:2:1:700:60000001:0:70000000:0\n"
                         "2:2:1:1:2:750:70000000:0\n"
                         "2:1:1:1:1:1000:42000059:5000:42000050:2500\n";
const char* const kPcf = "STATES\n0    Idle\n1    Running\n3    Waiting a message\n14    Tracing disabled\n\n"
                         "EVENT_TYPE\n7  42000059    PAPI_TOT_CYC [Total cycles]\n"
                         "7  42000050    PAPI_TOT_INS [Instr completed]\n\n"
                         "EVENT_TYPE\n0    60000001    Parallel (OMP)\nVALUES\n0      close\n1      open\n\n"
                         "EVENT_TYPE\n0    70000000    User function\nVALUES\n0      End\n1      init\n"
                         "2      solve\n3      write\n";
const char* const kRow = "LEVEL CPU SIZE 4\nCPU 1\nCPU 2\nCPU 3\nCPU 4\n\nLEVEL NODE SIZE 1\nnode1\n\n"
                         "LEVEL THREAD SIZE 3\nTHREAD 1.1.1\nTHREAD 1.1.2\nTHREAD 1.2.1\n";

// Written once to a scratch directory, loaded, and the directory removed at once: nothing stays behind.
const gpueff::semantic::LoadedTrace& trace() {
    static std::unique_ptr<gpueff::semantic::LoadedTrace> loaded = [] {
        char pattern[] = "/tmp/gpueff-fuzz-cfg-XXXXXX";
        if (!::mkdtemp(pattern)) std::abort();
        std::filesystem::path dir = pattern;
        std::ofstream(dir / "t.prv") << kPrv;
        std::ofstream(dir / "t.pcf") << kPcf;
        std::ofstream(dir / "t.row") << kRow;
        std::unique_ptr<gpueff::semantic::LoadedTrace> t;
        try {
            t = gpueff::semantic::LoadedTrace::load(dir / "t.prv");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cfg_eval: the fixed trace does not load: %s\n", e.what());
        }
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        if (!t) std::abort();
        return t;
    }();
    return *loaded;
}

// Walks a row to the trace end; a cursor that stops advancing would hang `gpueff histogram`: abort.
void walk(gpueff::semantic::Interval& row, std::int64_t end) {
    row.init();
    for (std::size_t steps = 0; row.begin < end; ++steps) {
        if (steps > 100000) {
            std::fprintf(stderr, "cfg_eval: a row does not reach the trace end\n");
            std::abort();
        }
        row.next();
    }
}

void evaluate(const std::string& text) {
    auto cfg = gpueff::semantic::parseCfgText(text, "fuzz.cfg");
    const auto& t = trace();
    gpueff::semantic::WindowSet windows(cfg, t.context());
    for (std::size_t w = 0; w < windows.size(); ++w) {
        (void)windows.infoType(w);
        for (std::size_t r = 0; r < windows.rows(w); ++r) {
            (void)windows.rowLabel(w, r, true, true);
            walk(*windows.makeRow(w, r), t.context().endTime);
        }
    }
    std::ostringstream out;
    if (cfg.histogram) {
        auto table = gpueff::semantic::computeHistogramPlanes(cfg, windows);
        gpueff::semantic::writeHistogramText(out, table, 10);
        out << gpueff::semantic::histogramJson(table).dump(2, ' ', false,
                                                           nlohmann::json::error_handler_t::replace);
    } else {
        gpueff::semantic::writeTimelineCsv(out, windows, windows.size() - 1);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Real cfgs are a few KB; a bound keeps each input fast (a window per line costs a walk of every row).
    if (size > 64 * 1024) return 0;
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        evaluate(text);
    } catch (const gpueff::Error&) {
        // a clean refusal
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cfg_eval: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
