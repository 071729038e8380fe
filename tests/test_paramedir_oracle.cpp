// gpueff histogram / modelfactors against paramedir's own outputs on the EPOCH traces
// (data/paraver/epoch/expected, made with paramedir -npr and BSC's modelfactors).
#include "TestSupport.h"
#include "engine/paraver/PrvReader.h"
#include "engine/paraver/TraceWriter.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace testsupport;

namespace {

std::vector<std::string> lines(const std::filesystem::path& p) {
    std::ifstream in(p);
    REQUIRE_MESSAGE(in.good(), p.string());
    std::vector<std::string> out;
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    std::string f;
    while (std::getline(s, f, '\t')) out.push_back(f);
    return out;
}

// Every line must be identical except StDev: paramedir computes it as sqrt(E[x^2] - E[x]^2), which prints
// rounding noise (27455160.4999 for an exact 27455160.5); ours is the exact population deviation. StDev is
// judged relative to the Average of the same column, and ours is checked against the rows themselves.
void compareHistogram(const std::filesystem::path& ours, const std::filesystem::path& expected) {
    auto a = lines(ours), b = lines(expected);
    REQUIRE(a.size() == b.size());
    std::vector<std::vector<double>> columns; // row values per column, for the independent StDev
    std::vector<double> averages;
    for (std::size_t i = 0; i < a.size(); ++i) {
        auto fa = fields(a[i]);
        if (fa.empty() || fa[0] != "StDev") {
            CHECK_MESSAGE(a[i] == b[i], ours.filename().string() << " line " << i + 1);
            if (i > 0 && !fa.empty() && fa[0].rfind("THREAD", 0) == 0)
                for (std::size_t c = 1; c < fa.size(); ++c) {
                    if (columns.size() < c) columns.resize(c);
                    columns[c - 1].push_back(std::stod(fa[c]));
                }
            if (!fa.empty() && fa[0] == "Average")
                for (std::size_t c = 1; c < fa.size(); ++c) averages.push_back(std::stod(fa[c]));
            continue;
        }
        auto fb = fields(b[i]);
        REQUIRE(fa.size() == fb.size());
        for (std::size_t c = 1; c < fa.size(); ++c) {
            double ours_ = std::stod(fa[c]), theirs = std::stod(fb[c]);
            double scale = std::fabs(averages.at(c - 1));
            CHECK_MESSAGE(std::fabs(ours_ - theirs) <= 1e-9 * scale + 1e-6, ours.filename().string());
            const auto& v = columns.at(c - 1);
            double mean = 0, dev = 0;
            for (auto x : v) mean += x / static_cast<double>(v.size());
            for (auto x : v) dev += (x - mean) * (x - mean) / static_cast<double>(v.size());
            CHECK(ours_ == doctest::Approx(std::sqrt(dev)).epsilon(1e-12).scale(scale));
        }
    }
}

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
            CHECK_MESSAGE(lines(ours) == lines(e.path()), name);
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

TEST_CASE("gpueff modelfactors equals BSC's modelfactors csv; replay-only rows say n/a") {
    auto dir = tempDir("modelfactors");
    auto csv = dir / "mf.csv";
    auto r = run(gpueffBinary().string() + " modelfactors -q " + (epoch() / "epoch_1proc.prv.gz").string() +
                 " " + (epoch() / "epoch_4proc.prv.gz").string() + " " +
                 (epoch() / "epoch_2proc.prv.gz").string() + " --csv " + csv.string() + " --json " +
                 (dir / "mf.json").string() + " --md " + (dir / "mf.md").string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto ours = lines(csv), expected = lines(epoch() / "expected" / "modelfactors_1_2_4.csv");
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
