// nsys2prv 0.6.0's whole cfg catalogue (data/paraver/nsys2prv_catalogue/cfgs, 68 cfgs) on the four frozen
// traces of the fidelity set, against what paramedir 4.11 did with each pair (expected/<trace>/<cfg path>):
//  .txt / .txt.csv  what it wrote (a histogram, or the last window's timeline): ours must equal it, numbers to
//                   1e-6 and labels exactly;
//  .refused         it refused the cfg ("None of the events specified in the filter appear in the trace"):
//                   so must we, with that reason;
//  .crashed         it crashed (a segmentation fault, or bad_alloc on a 2e9-column scale): we evaluate the cfg
//                   and warn, or refuse it with a reason; never silently.
// A pair with no expected file is a timeline over 40 kB, compared outside the suite (scripts/paramedir-compare).
#include "ParamedirOutput.h"
#include "TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>

using namespace testsupport;

namespace {

std::filesystem::path catalogue() {
    return dataDir() / "paraver" / "nsys2prv_catalogue";
}

const char* const kTraces[] = {"fuser_matmul_h100.nsys2prv", "power_iteration_t4.nsys2prv",
                               "cloverleaf_a100.nsys2prv", "mfu_2gpu_h100_nccl.gpueff"};

struct CatalogueCfg {
    std::filesystem::path path, relative; // relative: e.g. model/tasks_w_device (no extension)
};

std::vector<CatalogueCfg> cfgs() {
    std::vector<CatalogueCfg> out;
    auto root = catalogue() / "cfgs";
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.path().extension() == ".cfg")
            out.push_back({e.path(), std::filesystem::relative(e.path(), root).replace_extension()});
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.path < b.path; });
    return out;
}

std::filesystem::path traceFile(const std::string& trace) {
    return dataDir() / "paraver" / "fidelity" / "traces" / (trace + ".prv.gz");
}

std::filesystem::path expected(const std::string& trace, const CatalogueCfg& c, const std::string& suffix) {
    auto p = catalogue() / "expected" / trace / c.relative;
    return p.string() + suffix;
}

} // namespace

TEST_CASE("nsys2prv catalogue: every cfg paramedir evaluates on the frozen traces gives its output") {
    auto list = cfgs();
    REQUIRE(list.size() == 68);
    std::size_t compared = 0;
    for (const char* trace : kTraces) {
        CAPTURE(trace);
        std::vector<const CatalogueCfg*> evaluated;
        for (const auto& c : list)
            if (std::filesystem::exists(expected(trace, c, ".txt")) ||
                std::filesystem::exists(expected(trace, c, ".txt.csv")))
                evaluated.push_back(&c);
        auto out = tempDir(std::string("catalogue_") + trace);
        std::string cmd = gpueffBinary().string() + " histogram -q --precision 10 -o " + out.string() + " " +
                          traceFile(trace).string();
        for (const auto* c : evaluated) cmd += " " + c->path.string();
        auto r = run(cmd);
        REQUIRE_MESSAGE(r.exitCode == 0, r.output.substr(0, 2000));
        for (const auto* c : evaluated) {
            CAPTURE(c->relative.string());
            auto name = c->path.stem().string();
            if (std::filesystem::exists(expected(trace, *c, ".txt"))) {
                compareHistogram(out / (name + ".txt"), expected(trace, *c, ".txt"), 1e-6, false);
            } else {
                CHECK_FALSE(std::filesystem::exists(out / (name + ".txt")));
                compareTimeline(out / (name + ".csv"), expected(trace, *c, ".txt.csv"), 1e-6);
            }
            ++compared;
        }
    }
    // 4 traces: 48 histograms and 45 timelines under 40 kB (the rest are refusals, crashes, larger timelines).
    CHECK(compared == 93);
}

TEST_CASE("nsys2prv catalogue: what paramedir refuses or crashes on is refused or warned about, never silent") {
    std::size_t refused = 0, crashed = 0;
    for (const char* trace : kTraces) {
        CAPTURE(trace);
        for (const auto& c : cfgs()) {
            bool refuses = std::filesystem::exists(expected(trace, c, ".refused"));
            bool crashes = std::filesystem::exists(expected(trace, c, ".crashed"));
            if (!refuses && !crashes) continue;
            CAPTURE(c.relative.string());
            auto out = tempDir("catalogue_refused");
            auto r = run(gpueffBinary().string() + " histogram -q -o " + out.string() + " " +
                         traceFile(trace).string() + " " + c.path.string());
            if (refuses) {
                ++refused;
                CHECK(r.exitCode != 0);
                CHECK(r.output.find("None of the events specified in the filter appear in the trace") !=
                      std::string::npos);
                CHECK(std::filesystem::is_empty(out));
                continue;
            }
            ++crashed;
            // Evaluated with a warning saying what paramedir trips on, or refused with an error naming the cfg.
            if (r.exitCode == 0)
                CHECK_MESSAGE(r.output.find("(paramedir crashes here)") != std::string::npos, r.output);
            else
                CHECK_MESSAGE(r.output.find("gpueff: error: " + c.path.string()) != std::string::npos, r.output);
        }
    }
    CHECK(refused == 86);
    CHECK(crashed == 5);
}
