// Paraver rules as data (data/paraver/fidelity_cases): each folder is a tiny trace, cfgs cut down to one rule
// and what paramedir 4.11 wrote for each (expected/<cfg>.txt for a histogram, expected/<cfg>.txt.csv for a
// timeline). Every cfg of every folder must give paramedir's output: numbers to 1e-6, labels exactly. A new
// case is a new folder; nothing here names one.
#include "ParamedirOutput.h"
#include "TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>

using namespace testsupport;

namespace {

std::vector<std::filesystem::path> entries(const std::filesystem::path& dir, const std::string& extension) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (extension.empty() ? e.is_directory() : e.path().extension() == extension) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("Fidelity cases: every cfg of every case gives paramedir's output, labels included") {
    auto root = dataDir() / "paraver" / "fidelity_cases";
    auto cases = entries(root, "");
    REQUIRE(cases.size() >= 5);
    std::size_t compared = 0;
    for (const auto& dir : cases) {
        CAPTURE(dir.filename().string());
        auto cfgs = entries(dir, ".cfg");
        REQUIRE_FALSE(cfgs.empty());
        auto out = tempDir("fidelity_case_" + dir.filename().string());
        std::string cmd = gpueffBinary().string() + " histogram -q --precision 10 -o " + out.string() + " " +
                          (dir / "trace.prv").string();
        for (const auto& c : cfgs) cmd += " " + c.string();
        auto r = run(cmd);
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        for (const auto& c : cfgs) {
            auto name = c.stem().string();
            CAPTURE(name);
            auto timeline = dir / "expected" / (name + ".txt.csv");
            if (std::filesystem::exists(timeline)) {
                CHECK_FALSE(std::filesystem::exists(out / (name + ".txt")));
                compareTimeline(out / (name + ".csv"), timeline, 1e-6);
            } else {
                compareHistogram(out / (name + ".txt"), dir / "expected" / (name + ".txt"), 1e-6, false);
            }
            ++compared;
        }
    }
    CHECK(compared >= 13);
}
