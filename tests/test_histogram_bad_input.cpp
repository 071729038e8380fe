// Bad input to gpueff histogram / modelfactors: a clear message naming the file (and line), exit code 1,
// and no output file left behind, not even for the cfgs that were fine.
#include "TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>

using namespace testsupport;

namespace {

std::filesystem::path epoch() {
    return dataDir() / "paraver" / "epoch";
}
std::filesystem::path cfg(const char* name) {
    return dataDir() / "paraver" / "cfgs" / name;
}

bool emptyDir(const std::filesystem::path& d) {
    return !std::filesystem::exists(d) || std::filesystem::is_empty(d);
}

void expectFailure(const std::string& args, const std::filesystem::path& out, const std::string& needle) {
    auto r = run(gpueffBinary().string() + " histogram " + args + " -o " + out.string());
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(r.output.find(needle) != std::string::npos, r.output);
    CHECK_MESSAGE(emptyDir(out), "outputs left in " << out);
}

std::filesystem::path copyTrace(const std::filesystem::path& dir, const std::string& body) {
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "t.prv") << body;
    return dir / "t.prv";
}

} // namespace

TEST_CASE("histogram: a cfg naming a window that does not exist") {
    auto dir = tempDir("bad_window");
    std::ofstream(dir / "bad.cfg")
        << "#ParaverCFG\nConfigFile.NumWindows: 1\nwindow_name w\nwindow_type single\n"
           "window_level thread\n< NEW ANALYZER2D >\nAnalyzer2D.ControlWindow: 5\n";
    expectFailure((epoch() / "epoch_1proc.prv.gz").string() + " " + cfg("total_runtime.cfg").string() + " " +
                      (dir / "bad.cfg").string(),
                  dir / "out",
                  "bad.cfg:7: Analyzer2D.ControlWindow: must be a window of the cfg (1 to 1), got 5");
}

TEST_CASE("histogram: a histogram on an event type the trace lacks") {
    auto dir = tempDir("bad_event");
    std::ofstream(dir / "gpu.cfg")
        << "#ParaverCFG\nwindow_name kernels\nwindow_type single\nwindow_level thread\n"
           "window_selected_functions { 2, { {thread, Last Evt Val}, {evt_type, =} } }\n"
           "window_filter_module evt_type 1 63000006\n"
           "< NEW ANALYZER2D >\nAnalyzer2D.ControlWindow: 1\nAnalyzer2D.Statistic: Time\n"
           "Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 10\nAnalyzer2D.Delta: 1\n";
    expectFailure((epoch() / "epoch_1proc.prv.gz").string() + " " + cfg("total_runtime.cfg").string() + " " +
                      (dir / "gpu.cfg").string(),
                  dir / "out", "no event of type 63000006");
}

TEST_CASE("histogram: malformed cfg lines and unknown functions name the line") {
    auto dir = tempDir("bad_cfg");
    std::ofstream(dir / "a.cfg")
        << "#ParaverCFG\nwindow_name w\nwindow_type single\nwindow_level thread\nwindow_units Fortnights\n";
    expectFailure((epoch() / "epoch_1proc.prv.gz").string() + " " + (dir / "a.cfg").string(), dir / "out",
                  "a.cfg:5: unknown window_units");
    std::ofstream(dir / "b.cfg") << "#ParaverCFG\nwindow_name w\nwindow_type single\nwindow_level thread\n"
                                    "window_selected_functions { 1, { {thread, Teleport} } }\n";
    expectFailure((epoch() / "epoch_1proc.prv.gz").string() + " " + (dir / "b.cfg").string(), dir / "out2",
                  "unknown thread function 'Teleport'");
    std::ofstream(dir / "c.cfg") << "this is not a cfg\n";
    expectFailure((epoch() / "epoch_1proc.prv.gz").string() + " " + (dir / "c.cfg").string(), dir / "out3",
                  "not a Paraver cfg");
}

TEST_CASE("histogram: truncated .prv.gz, undeclared threads, a .row of another trace") {
    auto dir = tempDir("bad_trace");
    {
        std::ifstream in(epoch() / "epoch_1proc.prv.gz", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(dir / "cut.prv.gz", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    expectFailure((dir / "cut.prv.gz").string() + " " + cfg("total_runtime.cfg").string(), dir / "out1",
                  "cut.prv.gz");
    auto t = copyTrace(
        dir / "undeclared",
        "#Paraver (01/01/2020 at 00:00):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:50:1\n1:1:1:2:1:0:50:1\n");
    expectFailure(t.string() + " " + cfg("total_runtime.cfg").string(), dir / "out2",
                  "t.prv:3: thread 1.2.1 is not declared in the header");
    auto r =
        copyTrace(dir / "row", "#Paraver (01/01/2020 at 00:00):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:50:1\n");
    std::ofstream(dir / "row" / "t.row") << "LEVEL THREAD SIZE 2\nTHREAD 1.1.1\nTHREAD 1.2.1\n";
    expectFailure(r.string() + " " + cfg("total_runtime.cfg").string(), dir / "out3",
                  "belongs to another trace");
}

TEST_CASE("modelfactors: a trace without useful state, and a missing file") {
    auto dir = tempDir("bad_modelfactors");
    auto t = copyTrace(dir / "empty", "#Paraver (01/01/2020 at 00:00):0_ns:1(1):1:1(1:1)\n");
    auto r = run(gpueffBinary().string() + " modelfactors -q " + t.string() + " --csv " +
                 (dir / "mf.csv").string());
    CHECK_MESSAGE(r.exitCode == 1, r.output);
    CHECK_MESSAGE(r.output.find("t.prv: the trace has no records, only a header") != std::string::npos,
                  r.output);
    CHECK(!std::filesystem::exists(dir / "mf.csv"));
    auto missing = run(gpueffBinary().string() + " modelfactors " + (dir / "nope.prv").string());
    CHECK(missing.exitCode != 0);
    CHECK(missing.output.find("nope.prv") != std::string::npos);
}

TEST_CASE("histogram: a task the header gives no thread is refused at the header") {
    auto dir = tempDir("bad_empty_task");
    auto t = copyTrace(dir / "trace",
                       "#Paraver (01/01/2020 at 00:00):100_ns:1(1):1:2(1:1,0:1)\n1:1:1:1:1:0:50:1\n");
    std::ofstream(dir / "task.cfg")
        << "#ParaverCFG\nwindow_name w\nwindow_type single\nwindow_level task\n"
           "window_selected_functions { 1, { {thread, Useful} } }\n< NEW ANALYZER2D >\n"
           "Analyzer2D.ControlWindow: 1\nAnalyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 1\n"
           "Analyzer2D.Delta: 1\n";
    expectFailure(t.string() + " " + (dir / "task.cfg").string(), dir / "out",
                  "t.prv:1: bad Paraver header (a task without threads");
}
