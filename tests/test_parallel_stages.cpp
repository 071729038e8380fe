// Issue 27's parts that the end-to-end equality tests do not show alone: sorted runs merged as a sort would
// order them, the partials' packed arrays through the codec between processes, and the --stats line per
// stage that bench/stages.sh reads.
#include "engine/common/Parallel.h"
#include "engine/common/SortedRuns.h"
#include "engine/common/SpillStore.h"
#include "jobs/PartCodec.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <doctest/doctest.h>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

using namespace testsupport;
namespace fs = std::filesystem;

TEST_CASE("SortedRuns: sorted runs merged in place equal a sort") {
    std::mt19937_64 random(27);
    for (std::size_t count : {0, 1, 2, 3, 7, 64, 129}) {
        CAPTURE(count);
        gpueff::SortedRuns<std::int64_t> runs;
        std::vector<std::int64_t> expected;
        for (std::size_t r = 0; r < count; ++r) {
            std::vector<std::int64_t> run(random() % 50); // some runs empty
            for (auto& v : run) v = static_cast<std::int64_t>(random() % 1000) - 500;
            std::sort(run.begin(), run.end());
            runs.add(run);
            expected.insert(expected.end(), run.begin(), run.end());
        }
        std::sort(expected.begin(), expected.end());
        CHECK(std::move(runs).merged() == expected);
    }
}

TEST_CASE("sortByRuns: a list of sorted runs, or of anything, ends sorted with the same elements") {
    // Pairs compared by their first member only: equal keys may end in any order, so the elements are
    // compared as multisets and the keys as a sequence.
    using Item = std::pair<std::int64_t, int>;
    auto byKey = [](const Item& a, const Item& b) { return a.first < b.first; };
    std::mt19937_64 random(28);
    // 0 runs up to well past the merge's limit (64 runs), with ties across runs, and shuffled lists.
    for (std::size_t runCount : {0, 1, 2, 5, 63, 64, 65, 300}) {
        for (bool shuffled : {false, true}) {
            CAPTURE(runCount);
            CAPTURE(shuffled);
            std::vector<Item> items;
            for (std::size_t r = 0; r < runCount; ++r) {
                std::vector<Item> run(random() % 40);
                for (auto& v : run)
                    v = {static_cast<std::int64_t>(random() % 200), static_cast<int>(random())};
                std::sort(run.begin(), run.end(), byKey);
                items.insert(items.end(), run.begin(), run.end());
            }
            if (shuffled) std::shuffle(items.begin(), items.end(), random);
            auto sorted = items;
            gpueff::sortByRuns(sorted, byKey);
            CHECK(std::is_sorted(sorted.begin(), sorted.end(), byKey));
            auto a = items, b = sorted;
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            CHECK(a == b);
        }
    }
}

TEST_CASE(
    "the partials between processes: their references and the sender's spilled bulk come back as they left") {
    using namespace gpueff;
    jobs::Partials sent;
    metrics::DevicePartial device;
    device.durations["gemm"] = {{64, 32}, 4, 9};
    device.durations["empty"] = {};
    device.overlappedDurations["nccl"] = {{8, 8}, 1, 1};
    device.memoryOperations["[CUDA memcpy Host-to-Device]"].durations = {{96, 16}, 2, 30};
    device.memoryOperations["[CUDA memcpy Host-to-Device]"].bytes = {{112, 8}, 1, 4096};
    metrics::TaskPartial task;
    task.calls.runs.resize(2);
    task.calls.runs[0].bulk = {4096, 24};
    task.calls.runs[0].nvtxGroups = 1;
    task.calls.runs[0].nvtxRanges = 2;
    task.calls.runs[0].api = {{63000001, 3}, {63000002, 0}};
    task.calls.runs[1].bulk = {8192, 8};
    task.calls.runs[1].api = {{63000001, 1}};
    task.calls.lastNvtxEvent = 999;
    sent.devices.emplace_back(3, device);
    sent.tasks.emplace_back(1, task);
    sent.store = {100, 200, INT64_MIN, 12, INT64_MAX};
    auto got = jobs::decodePartials(jobs::encodePartials(sent));
    REQUIRE(got.devices.size() == 1);
    REQUIRE(got.tasks.size() == 1);
    CHECK(got.devices[0].first == 3);
    auto same = [](const metrics::SpilledRun& x, const metrics::SpilledRun& y) {
        return x.ref.offset == y.ref.offset && x.ref.bytes == y.ref.bytes && x.count == y.count &&
               x.total == y.total;
    };
    const auto& d = got.devices[0].second;
    REQUIRE(d.durations.size() == 2);
    CHECK(same(d.durations.at("gemm"), device.durations.at("gemm")));
    CHECK(same(d.durations.at("empty"), device.durations.at("empty")));
    CHECK(same(d.overlappedDurations.at("nccl"), device.overlappedDurations.at("nccl")));
    const auto& ops = d.memoryOperations.at("[CUDA memcpy Host-to-Device]");
    CHECK(same(ops.durations, device.memoryOperations.at("[CUDA memcpy Host-to-Device]").durations));
    CHECK(same(ops.bytes, device.memoryOperations.at("[CUDA memcpy Host-to-Device]").bytes));
    const auto& t = got.tasks[0].second;
    REQUIRE(t.calls.runs.size() == 2);
    CHECK(t.calls.runs[0].bulk.offset == 4096);
    CHECK(t.calls.runs[0].bulk.bytes == 24);
    CHECK(t.calls.runs[0].nvtxGroups == 1);
    CHECK(t.calls.runs[0].nvtxRanges == 2);
    CHECK(t.calls.runs[0].api == task.calls.runs[0].api);
    CHECK(t.calls.runs[1].bulk.offset == 8192);
    CHECK(t.calls.runs[1].api == task.calls.runs[1].api);
    CHECK(got.store == sent.store);
    CHECK(t.calls.lastNvtxEvent == 999);
}

TEST_CASE("analyze and translate --stats: a line per stage, the pass's and the analysis' on the workers") {
    // Two reports: one alone has nothing to share between the pass's workers.
    auto dir = tempDir("parallel-stages");
    auto input =
        quoted(buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "r0.sqlite")) + " " +
        quoted(buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank1.sql", dir / "r1.sqlite"));
    auto analyze = run(gpueffBinary().string() + " analyze -q --stats --no-trace -j 2 " + input + " -o " +
                       quoted(dir / "a"));
    REQUIRE_MESSAGE(analyze.exitCode == 0, analyze.output);
    auto translate =
        run(gpueffBinary().string() + " translate -q --stats -j 2 " + input + " -o " + quoted(dir / "t"));
    REQUIRE_MESSAGE(translate.exitCode == 0, translate.output);
    const std::regex line(R"(stage=([a-z]+)\.([A-Za-z_.-]+) wall_s=([0-9.]+) cpu_s=([0-9.]+) )"
                          R"(on_workers=([01]) peak_rss_mb=([0-9.]+))");
    auto stages = [&](const std::string& output) {
        std::map<std::string, int> onWorkers;
        std::istringstream in(output);
        for (std::string text; std::getline(in, text);) {
            std::smatch m;
            if (!std::regex_match(text, m, line)) continue;
            onWorkers[m[1].str() + "." + m[2].str()] = std::stoi(m[5].str());
            CHECK(std::stod(m[6].str()) > 0); // the process's peak so far
        }
        return onWorkers;
    };
    auto a = stages(analyze.output);
    for (const char* s :
         {"pass.pre-pass", "pass.names", "pass.records", "analysis.window", "analysis.partials"}) {
        CAPTURE(s);
        REQUIRE(a.count(s));
        CHECK(a[s] == 1);
    }
    for (const char* s : {"analysis.reduce.nsys_stats", "analysis.reduce.kernel_statistics", "report.json"}) {
        CAPTURE(s);
        REQUIRE(a.count(s));
        CHECK(a[s] == 0);
    }
    auto t = stages(translate.output);
    CHECK(t.count("pass.records") == 1);
    CHECK(t.count("analysis.window") == 0);
}

TEST_CASE("SpillStore: values back as appended, from several threads, on a file and in memory") {
    using gpueff::SpillStore;
    auto dir = tempDir("spill-store");
    for (bool onDisk : {true, false}) {
        CAPTURE(onDisk);
        auto store = onDisk ? std::make_unique<SpillStore>(dir) : std::make_unique<SpillStore>();
        CHECK(store->onDisk() == onDisk);
        if (onDisk) CHECK(fs::is_empty(dir)); // unlinked at once
        // Four writers append runs of known values at once.
        constexpr int kWriters = 4, kRuns = 50;
        std::vector<std::vector<std::pair<SpillStore::Ref, std::vector<std::int64_t>>>> written(kWriters);
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w)
            writers.emplace_back([&, w] {
                std::mt19937_64 random(static_cast<std::uint64_t>(w));
                for (int r = 0; r < kRuns; ++r) {
                    std::vector<std::int64_t> run(random() % 3000);
                    for (auto& v : run) v = static_cast<std::int64_t>(random());
                    written[w].emplace_back(store->appendValues(run), run);
                }
            });
        for (auto& t : writers) t.join();
        std::uint64_t bytes = 0;
        for (const auto& runs : written)
            for (const auto& [ref, run] : runs) {
                bytes += ref.bytes;
                CHECK(store->loadValues(ref) == run);
                // A cursor with a buffer smaller than the run (8 values): every value, across the blocks.
                if (run.size() < 10) continue;
                SpillStore::Cursor cursor(*store, ref, 0, ref.bytes, 64);
                std::vector<std::int64_t> read;
                while (!cursor.done()) read.push_back(cursor.next());
                CHECK(read.size() == run.size());
                CHECK(read[9] == run[9]);
                CHECK(read.back() == run.back());
                CHECK(read == run);
                CHECK_THROWS(cursor.next());
            }
        CHECK(store->size() == bytes);
        // An empty run (a kind of memory operation without bytes) reads back empty.
        auto empty = store->appendValues({});
        CHECK(empty.bytes == 0);
        CHECK(store->loadValues(empty).empty());
        CHECK(store->size() == bytes);
    }
}

TEST_CASE("MemoryBudget: the items held at once fit the budget, or one larger item is held alone") {
    constexpr std::uint64_t kBudget = 100;
    std::vector<std::uint64_t> sizes;
    std::mt19937_64 random(7);
    for (int i = 0; i < 400; ++i)
        sizes.push_back(random() % 3 == 0 ? 150 : 1 + random() % 60); // some too large
    gpueff::MemoryBudget budget(kBudget);
    std::mutex mutex;
    std::uint64_t held = 0, items = 0;
    bool overBudget = false;
    gpueff::forEachIndex(sizes.size(), 4, [&](std::size_t i) {
        gpueff::MemoryBudget::Hold hold(&budget, sizes[i]);
        {
            std::lock_guard lock(mutex);
            held += sizes[i];
            ++items;
            if (held > kBudget && items > 1) overBudget = true;
        }
        std::this_thread::yield();
        std::lock_guard lock(mutex);
        held -= sizes[i];
        --items;
    });
    CHECK(!overBudget);
    CHECK(held == 0);

    // Items that fit together are held together. Whether the random items above met is up to the scheduler
    // (a loaded 2-core machine may run them one after another), so two items that fit the budget together
    // each wait, while held, for the other to be held too: a budget that let only one in at a time would
    // keep the first waiting until its deadline.
    gpueff::MemoryBudget pair(kBudget);
    std::condition_variable bothHeld;
    int holding = 0;
    std::vector<bool> metTheOther(2, false);
    gpueff::forEachIndex(2, 2, [&](std::size_t i) {
        gpueff::MemoryBudget::Hold hold(&pair, kBudget / 2);
        std::unique_lock lock(mutex);
        ++holding;
        bothHeld.notify_all();
        metTheOther[i] = bothHeld.wait_for(lock, std::chrono::seconds(30), [&] { return holding == 2; });
    });
    CHECK(metTheOther[0]);
    CHECK(metTheOther[1]);
}
