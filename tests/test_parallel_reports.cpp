// Reports read by parallel workers (-j N): the outputs are the same bytes for every N, an error of a worker
// reaches the command as it would without workers, and a file descriptor limit too low for the number of
// reports is refused before any work with a message naming it.
#include "engine/common/Error.h"
#include "engine/nsys/RecordSource.h"
#include "engine/nsys/ReportStreams.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>

using namespace testsupport;
using gpueff::nsys::RecordSource;
using gpueff::nsys::TraceRecord;

namespace {

const char* const kOutputs[] = {".prv", ".pcf", ".row", ".json"};

// Translates `inputs` with -j 1 and -j 2 (same file names in two directories) and checks every output
// byte for byte: the sidecar names the outputs by their file names, so it must be equal as well.
void expectSameWithJobs(const std::vector<std::filesystem::path>& inputs, const std::string& name) {
    std::string args;
    for (const auto& in : inputs) args += " " + quoted(in);
    std::map<int, std::filesystem::path> prefix;
    for (int jobs : {1, 2}) {
        prefix[jobs] = tempDir("jobs-" + name + "-" + std::to_string(jobs)) / name;
        auto r = run(gpueffBinary().string() + " translate -q -j " + std::to_string(jobs) + args + " -o " +
                     quoted(prefix[jobs]));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    }
    for (const char* ext : kOutputs) {
        auto a = readText(prefix[1].string() + ext), b = readText(prefix[2].string() + ext);
        CAPTURE(name);
        CAPTURE(ext);
        CHECK(!a.empty());
        CHECK(a == b);
    }
}

// Records of one fake report: times with many ties (same time, order and row across sources), so that
// only the sources' places decide the order; `failAfter` records in, the source throws.
class FakeSource : public RecordSource {
public:
    FakeSource(std::uint32_t row, std::uint64_t count, std::int64_t step,
               std::uint64_t failAfter = UINT64_MAX)
        : row_(row), count_(count), step_(step), failAfter_(failAfter) {}
    std::string name() const override { return "fake"; }

protected:
    bool fill(TraceRecord& out) override {
        if (next_ == failAfter_) throw gpueff::Error("r.sqlite: row " + std::to_string(next_) + ": broken");
        if (next_ == count_) return false;
        out = TraceRecord{};
        out.time = static_cast<std::int64_t>(next_ / 3) * step_;
        out.row = row_;
        out.add(1000 + row_, static_cast<std::int64_t>(next_));
        if (next_ % 7 == 0) out.add(2000, -static_cast<std::int64_t>(next_));
        ++next_;
        return true;
    }

private:
    std::uint32_t row_;
    std::uint64_t count_;
    std::int64_t step_;
    std::uint64_t failAfter_, next_ = 0;
};

// Reports x 3 sources; report 2's second source fails after `failAfter` records.
std::vector<std::vector<std::unique_ptr<RecordSource>>> fakeReports(std::uint64_t failAfter) {
    std::vector<std::vector<std::unique_ptr<RecordSource>>> reports(5);
    for (std::size_t r = 0; r < reports.size(); ++r)
        for (std::size_t s = 0; s < 3; ++s) {
            auto row = static_cast<std::uint32_t>(r % 2); // rows shared by reports: ties across reports too
            reports[r].push_back(std::make_unique<FakeSource>(row, 4000 + 100 * r,
                                                              static_cast<std::int64_t>(s + 1),
                                                              r == 2 && s == 1 ? failAfter : UINT64_MAX));
            reports[r].back()->setOrigin(std::uint64_t{r} << 32 | s);
        }
    return reports;
}

struct Merged {
    std::vector<std::pair<std::int64_t, std::int64_t>> records; // time, first value
    std::string error;
};

// The k-way merge of mergeSources, over whatever sources it is given.
Merged merge(std::vector<std::unique_ptr<RecordSource>>& sources) {
    Merged out;
    try {
        std::vector<std::size_t> heap;
        for (std::size_t i = 0; i < sources.size(); ++i) {
            sources[i]->advance();
            if (sources[i]->peek()) heap.push_back(i);
        }
        auto later = [&](std::size_t a, std::size_t b) {
            return gpueff::nsys::headBefore(*sources[b], *sources[a]);
        };
        std::make_heap(heap.begin(), heap.end(), later);
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), later);
            auto& s = *sources[heap.back()];
            out.records.emplace_back(s.peek()->time, s.peek()->pairs[0].value);
            s.advance();
            if (s.peek())
                std::push_heap(heap.begin(), heap.end(), later);
            else
                heap.pop_back();
        }
    } catch (const gpueff::Error& e) {
        out.error = e.what();
    }
    return out;
}

Merged mergeAllAtOnce(std::uint64_t failAfter) {
    std::vector<std::unique_ptr<RecordSource>> all;
    for (auto& report : fakeReports(failAfter))
        for (auto& s : report) all.push_back(std::move(s));
    return merge(all);
}

// With `spill`, the workers read the reports in turn into a temporary file the streams read back.
Merged mergeWithWorkers(std::uint64_t failAfter, unsigned workers, bool spill = false) {
    std::unique_ptr<gpueff::SpillStore> store;
    if (spill) store = std::make_unique<gpueff::SpillStore>(tempDir("report-streams-spill"));
    gpueff::nsys::ReportStreams streams(fakeReports(failAfter), workers, false, nullptr, store.get());
    auto relays = streams.streams();
    auto merged = merge(relays);
    if (spill) CHECK(store->size() > 0);
    return merged;
}

} // namespace

TEST_CASE(
    "report streams merged on the main thread give the stream of one merge of every source, spilled or not") {
    auto expected = mergeAllAtOnce(UINT64_MAX);
    REQUIRE(expected.error.empty());
    // 5 reports x 3 sources, 4000..4400 records each: many blocks per report.
    CHECK(expected.records.size() == 3 * (4000 + 4100 + 4200 + 4300 + 4400));
    for (bool spill : {false, true})
        for (unsigned workers : {1u, 2u, 3u, 8u}) {
            CAPTURE(spill);
            CAPTURE(workers);
            auto got = mergeWithWorkers(UINT64_MAX, workers, spill);
            CHECK(got.error.empty());
            CHECK(got.records == expected.records);
        }
}

TEST_CASE("an error on a worker reaches the merging thread where the stream had it") {
    auto expected = mergeAllAtOnce(2500);
    REQUIRE(expected.error == "r.sqlite: row 2500: broken");
    for (bool spill : {false, true})
        for (unsigned workers : {1u, 2u}) {
            CAPTURE(spill);
            CAPTURE(workers);
            auto got = mergeWithWorkers(2500, workers, spill);
            CHECK(got.error == expected.error);
            // The same records came before the error, not one block more or less.
            CHECK(got.records == expected.records);
        }
}

TEST_CASE("translate -j 1 and -j 2 write the same bytes for every real export and for several at once") {
    auto exports = realExports();
    REQUIRE(exports.size() >= 7);
    for (const auto& e : exports) expectSameWithJobs({e}, e.stem().string());
    // All of them as the reports of one run (distinct hosts and processes): one merged trace.
    expectSameWithJobs(exports, "all");
    auto dir = tempDir("jobs-mpi-inputs");
    expectSameWithJobs(
        {buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "rank0.sqlite"),
         buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql", dir / "rank1.sqlite")},
        "mpi");
}

TEST_CASE("an export failing on a worker (-j 2) fails as with -j 1: same message, exit 1, no output") {
    auto dir = tempDir("jobs-corrupt-in");
    auto good = dataDir() / "nsys" / "fuser_matmul_h100.sqlite";
    auto bad = dir / "corrupt.sqlite";
    std::filesystem::copy_file(dataDir() / "nsys" / "power_iteration_t4.sqlite", bad);
    std::filesystem::permissions(bad, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    {
        // Every page after the schema is garbage; the header still says SQLite, the size is whole.
        auto size = std::filesystem::file_size(bad);
        std::fstream io(bad, std::ios::in | std::ios::out | std::ios::binary);
        io.seekp(4096);
        std::string garbage(size - 4096, '\xA5');
        io.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    std::map<std::string, std::string> errors;
    // --memory-limit 1K: the reports read in turn into a temporary file when the error comes that far.
    for (std::string options : {"-j 1", "-j 2", "-j 2 --memory-limit 1K"}) {
        auto out = tempDir("jobs-corrupt-out-" + std::to_string(errors.size()));
        auto r = run(gpueffBinary().string() + " translate -q " + options + " " + quoted(good) + " " +
                     quoted(bad) + " " + quoted(good) + " -o " + quoted(out / "t"));
        CAPTURE(r.output);
        CHECK(r.exitCode == 1);
        CHECK(r.output.find("gpueff: error: " + bad.string() + ": ") != std::string::npos);
        CHECK(r.output.find("corrupt") != std::string::npos);
        CHECK(std::filesystem::is_empty(out));
        errors[options] = r.output;
    }
    CHECK(errors["-j 1"] == errors["-j 2"]);
    CHECK(errors["-j 1"] == errors["-j 2 --memory-limit 1K"]);
}

TEST_CASE("too low a file descriptor limit for the number of reports is refused before any work") {
    auto dir = tempDir("jobs-fd-in");
    std::string args;
    // The same small export 8 times: the limit is checked before the reports are even opened (the
    // duplicates would be refused later).
    for (int i = 0; i < 8; ++i) {
        auto copy = dir / ("r" + std::to_string(i) + ".sqlite");
        std::filesystem::copy_file(dataDir() / "nsys" / "concurrent_kernels_gtx1060.sqlite", copy);
        args += " " + quoted(copy);
    }
    auto out = tempDir("jobs-fd-out");
    // ulimit -n sets the soft and the hard limit: nothing can raise it. 8 reports x 6 + 16 = 64 needed.
    auto r = run("sh -c \"ulimit -n 40 && exec " + gpueffBinary().string() + " translate -q" + args + " -o " +
                 quoted(out / "t") + "\"");
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find(
              "gpueff: error: 8 reports need about 64 file descriptors; the limit is 40 (ulimit -n)") !=
          std::string::npos);
    CHECK(std::filesystem::is_empty(out));
}

TEST_CASE("a soft file descriptor limit below the need is raised to the hard limit") {
    auto dir = tempDir("jobs-fd-soft");
    auto r0 = buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "rank0.sqlite");
    auto r1 = buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql", dir / "rank1.sqlite");
    // 2 reports need 28; the soft limit is 20, the hard one stays as it is (at least 28 on any usual system).
    auto r = run("sh -c \"ulimit -Sn 20 && exec " + gpueffBinary().string() + " translate -q -j 2 " +
                 quoted(r0) + " " + quoted(r1) + " -o " + quoted(dir / "t") + "\"");
    CAPTURE(r.output);
    CHECK(r.exitCode == 0);
    CHECK(std::filesystem::file_size(dir / "t.prv") > 0);
}
