// gpueff histogram / modelfactors against paramedir's own outputs on the EPOCH traces
// (data/paraver/epoch/expected, made with paramedir -npr and BSC's modelfactors).
#include "ParamedirOutput.h"
#include "TestSupport.h"
#include "engine/paraver/PrvReader.h"
#include "engine/paraver/TraceWriter.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace testsupport;

namespace {

std::filesystem::path epoch() {
    return dataDir() / "paraver" / "epoch";
}

std::string cfgList() {
    std::string list;
    for (const auto& e : std::filesystem::directory_iterator(dataDir() / "paraver" / "cfgs"))
        if (e.path().extension() == ".cfg") list += " " + e.path().string();
    return list;
}

void checkAgainstParamedir(const std::filesystem::path& trace, const std::string& expectedDir,
                           const std::filesystem::path& out) {
    auto r = run(gpueffBinary().string() + " histogram " + trace.string() + cfgList() + " -o " +
                 out.string() + " --precision 10 -q");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    int compared = 0;
    for (const auto& e : std::filesystem::directory_iterator(epoch() / "expected" / expectedDir)) {
        auto name = e.path().filename().string();
        if (name.size() > 8 && name.compare(name.size() - 8, 8, ".txt.csv") == 0) {
            // A cfg whose histogram paramedir dropped: its last window's timeline, compared exactly.
            auto ours = out / (name.substr(0, name.size() - 8) + ".csv");
            compareTimeline(ours, e.path());
        } else {
            compareHistogram(out / name, e.path());
        }
        ++compared;
    }
    CHECK(compared == 7);
}

} // namespace

TEST_CASE("gpueff histogram equals paramedir -npr on every pypop cfg and EPOCH trace") {
    for (const char* n : {"1", "2", "4"}) {
        CAPTURE(n);
        checkAgainstParamedir(epoch() / (std::string("epoch_") + n + "proc.prv.gz"),
                              std::string("epoch_") + n + "proc", tempDir(std::string("paramedir_") + n));
    }
}

TEST_CASE("A trace read, written and read again gives the same histograms") {
    auto dir = tempDir("roundtrip");
    auto trace = gpueff::paraver::readPrv(epoch() / "epoch_2proc.prv.gz");
    gpueff::paraver::writeTrace(trace, dir / "epoch_2proc.prv");
    std::filesystem::copy_file(epoch() / "epoch_2proc.pcf", dir / "epoch_2proc.pcf");
    std::filesystem::copy_file(epoch() / "epoch_2proc.row", dir / "epoch_2proc.row");
    auto again = gpueff::paraver::readPrv(dir / "epoch_2proc.prv");
    CHECK(again.threads.size() == trace.threads.size());
    for (std::size_t t = 0; t < trace.threads.size(); ++t) {
        CHECK(again.threads[t].stream.time == trace.threads[t].stream.time);
        CHECK(again.threads[t].stream.type == trace.threads[t].stream.type);
    }
    checkAgainstParamedir(dir / "epoch_2proc.prv", "epoch_2proc", dir / "out");
}

TEST_CASE("gpueff modelfactors equals BSC's modelfactors csv: replay-only rows say n/a") {
    auto dir = tempDir("modelfactors");
    auto csv = dir / "mf.csv";
    auto r = run(gpueffBinary().string() + " modelfactors -q " + (epoch() / "epoch_1proc.prv.gz").string() +
                 " " + (epoch() / "epoch_4proc.prv.gz").string() + " " +
                 (epoch() / "epoch_2proc.prv.gz").string() + " --csv " + csv.string() + " --json " +
                 (dir / "mf.json").string() + " --md " + (dir / "mf.md").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto ours = fileLines(csv), expected = fileLines(epoch() / "expected" / "modelfactors_1_2_4.csv");
    REQUIRE(ours.size() == expected.size());
    int na = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
        auto label = ours[i].substr(0, ours[i].find(';'));
        CHECK(label == expected[i].substr(0, expected[i].find(';')));
        if (ours[i].find("n/a") != std::string::npos) {
            ++na;
            CHECK((label.find("Serialization") != std::string::npos ||
                   label.find("Transfer") != std::string::npos || label.find("ideal") != std::string::npos));
            continue;
        }
        CHECK_MESSAGE(ours[i] == expected[i], label);
    }
    CHECK(na == 4);
    CHECK(std::filesystem::file_size(dir / "mf.json") > 0);
    CHECK(std::filesystem::file_size(dir / "mf.md") > 0);
}
