// The rest of the cfg language (data/paraver/language): CPU, node and system windows, 3D histograms and
// communication statistics against what paramedir 4.11 printed for each cfg and trace.
#include "ParamedirOutput.h"
#include "TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>

using namespace testsupport;

namespace {

std::filesystem::path language() {
    return dataDir() / "paraver" / "language";
}

std::filesystem::path traceOf(const std::string& name) {
    if (name.rfind("epoch_", 0) == 0) return dataDir() / "paraver" / "epoch" / (name + ".prv.gz");
    return dataDir() / "paraver" / "fidelity" / "traces" / (name + ".prv.gz");
}

} // namespace

TEST_CASE("Cfg language: every cfg on every trace gives paramedir's output, or is refused where it was") {
    int compared = 0, refused = 0;
    for (const auto& dir : std::filesystem::directory_iterator(language() / "expected")) {
        auto trace = dir.path().filename().string();
        CAPTURE(trace);
        auto out = tempDir("language_" + trace);
        for (const auto& cfg : std::filesystem::directory_iterator(language() / "cfgs")) {
            auto name = cfg.path().stem().string();
            auto log = dir.path() / (name + ".log");
            if (!std::filesystem::exists(log)) continue; // a pair paramedir did not finish
            CAPTURE(name);
            auto r = run(gpueffBinary().string() + " histogram -q --precision 10 -o " + out.string() + " " +
                         traceOf(trace).string() + " " + cfg.path().string());
            auto expected = dir.path() / (name + ".txt");
            if (std::filesystem::exists(expected)) {
                REQUIRE_MESSAGE(r.exitCode == 0, r.output);
                compareHistogram(out / (name + ".txt"), expected, 1e-6, false);
                ++compared;
                continue;
            }
            // paramedir wrote nothing: it aborted the cfg ("None of the events ...") or could not load it.
            auto said = readText(log);
            CHECK_MESSAGE(r.exitCode == 1, r.output);
            CHECK_FALSE(std::filesystem::exists(out / (name + ".txt")));
            if (said.find("None of the events") != std::string::npos)
                CHECK(r.output.find("None of the events specified in the filter appear in the trace") !=
                      std::string::npos);
            else
                CHECK(r.output.find("declares no CPUs") != std::string::npos);
            ++refused;
        }
    }
    CHECK(compared >= 140);
    CHECK(refused >= 20);
}
