// The Paraver fidelity set (data/paraver/fidelity): one-feature cfgs on traces written by BSC's nsys2prv and
// by gpueff 0.1.0, against what paramedir 4.11 printed for each (expected/<trace>/<cfg>.txt or .txt.csv).
#include "ParamedirOutput.h"
#include "TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>

using namespace testsupport;

namespace {

std::filesystem::path fidelity() {
    return dataDir() / "paraver" / "fidelity";
}

const char* const kTraces[] = {"fuser_matmul_h100.nsys2prv", "power_iteration_t4.nsys2prv",
                               "cloverleaf_a100.nsys2prv", "mfu_2gpu_h100_nccl.gpueff"};

std::vector<std::filesystem::path> cfgs() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(fidelity() / "cfgs"))
        if (e.path().extension() == ".cfg") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("Fidelity set: every cfg on every trace equals paramedir's output") {
    auto list = cfgs();
    REQUIRE(list.size() == 12);
    for (const char* trace : kTraces) {
        CAPTURE(trace);
        auto out = tempDir(std::string("fidelity_") + trace);
        std::string cmd = gpueffBinary().string() + " histogram -q --precision 10 -o " + out.string() + " " +
                          (fidelity() / "traces" / (std::string(trace) + ".prv.gz")).string();
        for (const auto& c : list) cmd += " " + c.string();
        auto r = run(cmd);
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        int compared = 0;
        for (const auto& c : list) {
            auto name = c.stem().string();
            CAPTURE(name);
            auto expected = fidelity() / "expected" / trace;
            if (std::filesystem::exists(expected / (name + ".txt.csv"))) {
                // paramedir dropped the histogram (absolute_times: AnalysisLimits 'Window'): the timeline.
                CHECK_FALSE(std::filesystem::exists(out / (name + ".txt")));
                compareTimeline(out / (name + ".csv"), expected / (name + ".txt.csv"), 1e-6);
            } else {
                compareHistogram(out / (name + ".txt"), expected / (name + ".txt"), 1e-6, false);
            }
            ++compared;
        }
        CHECK(compared == 12);
    }
}

TEST_CASE("Fidelity set: the features paramedir's logs and the cfgs announce are heard") {
    auto trace = (fidelity() / "traces" / "fuser_matmul_h100.nsys2prv.prv.gz").string();
    auto out = tempDir("fidelity_warnings");
    auto r = run(gpueffBinary().string() + " histogram -q -o " + out.string() + " " + trace + " " +
                 (fidelity() / "cfgs" / "absolute_times.cfg").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    // The histogram is dropped loudly, and the ignored window_end_time is said.
    CHECK(r.output.find("AnalysisLimits 'Window'") != std::string::npos);
    CHECK(r.output.find("window_end_time is ignored") != std::string::npos);
}
