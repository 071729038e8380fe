// gpueff histogram on a trace larger than its memory limit: passes over the .prv, each keeping a group of
// rows, with the numbers paramedir printed for the whole trace (data/paraver: epoch, fidelity, language).
#include "ParamedirOutput.h"
#include "TestSupport.h"
#include "engine/common/MemorySize.h"
#include "engine/paraver/PrvReader.h"
#include "jobs/HistogramPlan.h"

#include <doctest/doctest.h>

using namespace testsupport;

namespace {

std::filesystem::path paraverData() {
    return dataDir() / "paraver";
}

// A limit below any thread's records: every group is one object of the plan's level.
const char* const kTinyLimit = " --memory-limit 1K";

// Runs gpueff histogram in passes and at once; the outputs of the two must be the same bytes.
CommandResult histogramInPasses(const std::filesystem::path& trace, const std::string& cfgs,
                                const std::filesystem::path& out) {
    auto passes = run(gpueffBinary().string() + " histogram --precision 10 -o " + (out / "passes").string() +
                      kTinyLimit + " " + trace.string() + cfgs);
    REQUIRE_MESSAGE(passes.exitCode == 0, passes.output);
    auto once = run(gpueffBinary().string() + " histogram -q --precision 10 -o " + (out / "once").string() +
                    " " + trace.string() + cfgs);
    REQUIRE_MESSAGE(once.exitCode == 0, once.output);
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(out / "once")) {
        CAPTURE(e.path());
        CHECK(readText(out / "passes" / e.path().filename()) == readText(e.path()));
        ++files;
    }
    CHECK(files > 0);
    return passes;
}

bool says(const CommandResult& r, const std::string& text) {
    return r.output.find(text) != std::string::npos;
}

} // namespace

TEST_CASE("histogram in passes: the pypop cfgs on every EPOCH trace give paramedir -npr's outputs") {
    std::string cfgs;
    for (const auto& e : std::filesystem::directory_iterator(paraverData() / "cfgs"))
        if (e.path().extension() == ".cfg") cfgs += " " + e.path().string();
    // epoch_Nproc: N tasks of one thread each, every window at thread level: N groups of one thread; the
    // pypop cfgs compute their column scales, so the cells take a second round (N - 1 passes: the last
    // group is still loaded), after the pass counting the records.
    for (int n : {2, 4}) {
        CAPTURE(n);
        auto name = "epoch_" + std::to_string(n) + "proc";
        auto out = tempDir("passes_" + name);
        auto r = histogramInPasses(paraverData() / "epoch" / (name + ".prv.gz"), cfgs, out);
        CHECK_MESSAGE(says(r, "read in " + std::to_string(1 + n + n - 1) + " passes"), r.output);
        CHECK_MESSAGE(says(r, std::to_string(n) + " groups of THREAD rows"), r.output);
        int compared = 0;
        for (const auto& e :
             std::filesystem::directory_iterator(paraverData() / "epoch" / "expected" / name)) {
            auto file = e.path().filename().string();
            CAPTURE(file);
            if (file.size() > 8 && file.compare(file.size() - 8, 8, ".txt.csv") == 0)
                compareTimeline(out / "passes" / (file.substr(0, file.size() - 8) + ".csv"), e.path());
            else
                compareHistogram(out / "passes" / file, e.path());
            ++compared;
        }
        CHECK(compared == 7);
    }
}

TEST_CASE("histogram in passes: a task-level window groups whole tasks (fidelity set)") {
    auto fidelity = paraverData() / "fidelity";
    std::string cfgs;
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(fidelity / "cfgs"))
        if (e.path().extension() == ".cfg") {
            cfgs += " " + e.path().string();
            names.push_back(e.path().stem().string());
        }
    REQUIRE(names.size() == 12);
    // Two tasks (one per GPU); kernel_value_columns.cfg has its windows at task level.
    const std::string trace = "mfu_2gpu_h100_nccl.gpueff";
    auto out = tempDir("passes_fidelity");
    auto r = histogramInPasses(fidelity / "traces" / (trace + ".prv.gz"), cfgs, out);
    CHECK_MESSAGE(says(r, "2 groups of TASK rows"), r.output);
    for (const auto& name : names) {
        CAPTURE(name);
        auto expected = fidelity / "expected" / trace;
        if (std::filesystem::exists(expected / (name + ".txt.csv")))
            compareTimeline(out / "passes" / (name + ".csv"), expected / (name + ".txt.csv"), 1e-6);
        else
            compareHistogram(out / "passes" / (name + ".txt"), expected / (name + ".txt"), 1e-6, false);
    }
}

TEST_CASE("histogram in passes: communications between rows of different groups, 3D histograms") {
    auto language = paraverData() / "language";
    int compared = 0;
    for (std::string trace : {"epoch_2proc", "epoch_4proc"}) {
        CAPTURE(trace);
        std::string cfgs;
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(language / "cfgs")) {
            auto name = e.path().stem().string();
            // Communication statistics at thread and task level (each message has its ends in two groups),
            // thread functions on messages, 3D histograms: each row reads its own records.
            bool inPasses = name.rfind("comm_", 0) == 0 || name.rfind("threed_", 0) == 0 ||
                            name.rfind("event_", 0) == 0 || name.rfind("recv_", 0) == 0 ||
                            name.rfind("send_", 0) == 0;
            bool resource = name.find("_cpu") != std::string::npos ||
                            name.find("_node") != std::string::npos ||
                            name.find("_system") != std::string::npos;
            if (!inPasses || resource ||
                !std::filesystem::exists(language / "expected" / trace / (name + ".txt")))
                continue;
            cfgs += " " + e.path().string();
            names.push_back(name);
        }
        auto out = tempDir("passes_language_" + trace);
        auto r = histogramInPasses(paraverData() / "epoch" / (trace + ".prv.gz"), cfgs, out);
        // One thread per task: a task-level window (comm_bytes_sent_task) gives the same groups.
        CHECK_MESSAGE(says(r, trace.substr(6, 1) + " groups of TASK rows"), r.output);
        for (const auto& name : names) {
            CAPTURE(name);
            compareHistogram(out / "passes" / (name + ".txt"),
                             language / "expected" / trace / (name + ".txt"), 1e-6, false);
            ++compared;
        }
    }
    CHECK(compared >= 30);
}

TEST_CASE("histogram in passes: a window at CPU level needs every row: one load, said") {
    auto cfg = paraverData() / "language" / "cfgs" / "comm_sends_cpu.cfg";
    auto out = tempDir("passes_cpu");
    auto r = run(gpueffBinary().string() + " histogram --precision 10 -o " + out.string() + kTinyLimit + " " +
                 (paraverData() / "epoch" / "epoch_2proc.prv.gz").string() + " " + cfg.string());
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK_MESSAGE(
        says(r, "gpueff: warning: " + (paraverData() / "epoch" / "epoch_2proc.prv.gz").string() + ": about "),
        r.output);
    CHECK_MESSAGE(says(r, " in memory, more than the memory limit of 1 KB, but " + cfg.string() + ":"),
                  r.output);
    CHECK_MESSAGE(says(r, "at CPU level needs every row at once: the trace is loaded whole"), r.output);
    CHECK_FALSE(says(r, "read in"));
    compareHistogram(out / "comm_sends_cpu.txt",
                     paraverData() / "language" / "expected" / "epoch_2proc" / "comm_sends_cpu.txt", 1e-6,
                     false);
}

TEST_CASE("histogram: a bad --memory-limit is a usage error") {
    auto trace = (paraverData() / "epoch" / "epoch_1proc.prv.gz").string();
    auto cfg = (paraverData() / "cfgs" / "total_runtime.cfg").string();
    for (const char* bad : {"abc", "0", "-5", "12Q", "1e3", "", "1.", "99999999999T"}) {
        CAPTURE(bad);
        auto out = tempDir("bad_memory_limit");
        auto r = run(gpueffBinary().string() + " histogram -o " + (out / "o").string() + " --memory-limit '" +
                     bad + "' " + trace + " " + cfg);
        CHECK_MESSAGE(r.exitCode == 2, r.output);
        CHECK_MESSAGE(says(r, "--memory-limit"), r.output);
        CHECK_FALSE(std::filesystem::exists(out / "o"));
    }
}

TEST_CASE("histogram: a trace within the memory limit is loaded once") {
    // epoch_2proc.prv.gz is 256 KB: within 2G / 4128 = 520 KB (deflate's largest ratio x 4 bytes in memory
    // per byte of text), so it is loaded without even counting its records.
    auto trace = (paraverData() / "epoch" / "epoch_2proc.prv.gz").string();
    auto cfg = (paraverData() / "cfgs" / "total_runtime.cfg").string();
    auto out = tempDir("passes_fits");
    auto once = run(gpueffBinary().string() + " histogram --stats -o " + out.string() +
                    " --memory-limit 2G " + trace + " " + cfg);
    REQUIRE_MESSAGE(once.exitCode == 0, once.output);
    CHECK_FALSE(says(once, "counting records"));
    CHECK_FALSE(says(once, "read in"));
    CHECK(gpueff::defaultMemoryLimit() > 0); // Linux says MemAvailable
}

TEST_CASE("histogram: memory sizes") {
    using gpueff::parseMemorySize;
    CHECK(parseMemorySize("1048576") == 1048576u);
    CHECK(parseMemorySize("512M") == 512u * 1024 * 1024);
    CHECK(parseMemorySize("2k") == 2048u);
    CHECK(parseMemorySize("1.5G") == 3u * 512 * 1024 * 1024);
    CHECK(parseMemorySize("4GiB") == std::uint64_t{4} << 30);
    CHECK(parseMemorySize("1T") == std::uint64_t{1} << 40);
    for (const char* bad : {"", "0", "0.1", "G", "1.2.3", "-1", "1 G", "8388608T", "nan", "inf"}) {
        CAPTURE(bad);
        CHECK_FALSE(parseMemorySize(bad));
    }
}

TEST_CASE("Reading some threads keeps their records and every message with an end among them") {
    // Three threads (one task each); messages 1 -> 2, 1 -> 3 and 3 -> 1. Thread 2 alone keeps its state, its
    // event and the one message it receives; the trace's end is the whole file's.
    const std::string text = "#Paraver (01/01/2024 at 00:00):1000_ns:1(3):1:3(1:1,1:1,1:1)\n"
                             "1:1:1:1:1:0:100:1\n"
                             "1:2:1:2:1:0:200:3\n"
                             "2:2:1:2:1:50:7:9\n"
                             "2:3:1:3:1:60:7:8\n"
                             "3:1:1:1:1:10:11:2:1:2:1:20:21:64:5\n"
                             "3:1:1:1:1:12:13:3:1:3:1:22:23:32:6\n"
                             "3:3:1:3:1:30:31:1:1:1:1:1500:1600:16:7\n";
    gpueff::paraver::ReadOptions options;
    options.firstThread = 1;
    options.endThread = 2;
    auto trace = gpueff::paraver::readPrvText(text, "t.prv", options);
    REQUIRE(trace.threads.size() == 3);
    CHECK(trace.threads[0].stateBegin.empty());
    CHECK(trace.threads[2].eventTime.empty());
    CHECK(trace.threads[1].stateValue == std::vector<std::uint32_t>{3});
    CHECK(trace.threads[1].eventValue == std::vector<std::int64_t>{9});
    REQUIRE(trace.communications.size() == 1);
    CHECK(trace.communications[0].size == 64);
    CHECK(trace.threads[1].receives.size() == 1);
    CHECK(trace.threads[0].sends.empty()); // the sender's side is not kept: its rows are another group's
    CHECK(trace.endTime() == 1600);        // the message 3 -> 1 received at 1600, not kept, moves the end
}
