// The record pipeline (docs/architecture.md): one pass of an nsys translation feeds the .prv writer and the
// analysis' TraceBuilder; what the builder keeps must be what reading the written .prv gives, the object
// model the importer hands over must be what the .row says, and a report made without the trace must be the
// report made with it.
#include "TestSupport.h"
#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "engine/paraver/PrvReader.h"
#include "engine/paraver/RowModel.h"
#include "engine/pipeline/TraceBuilder.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/TypesRead.h"
#include "jobs/Pipeline.h"
#include "metrics/Analysis.h"
#include "metrics/DeviceActivity.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <set>

using namespace testsupport;
namespace fs = std::filesystem;

namespace {

void requireSameThreads(const gpueff::paraver::Trace& a, const gpueff::paraver::Trace& b) {
    REQUIRE(a.threads.size() == b.threads.size());
    for (std::size_t t = 0; t < a.threads.size(); ++t) {
        const auto &x = a.threads[t], &y = b.threads[t];
        CHECK(x.eventTime == y.eventTime);
        CHECK(x.eventType == y.eventType);
        CHECK(x.eventValue == y.eventValue);
        CHECK(x.eventCpu == y.eventCpu);
        CHECK(x.sends == y.sends);
        CHECK(x.receives == y.receives);
        CHECK(x.stream.time == y.stream.time);
        CHECK(x.stream.type == y.stream.type);
        CHECK(x.stream.index == y.stream.index);
    }
    REQUIRE(a.communications.size() == b.communications.size());
    for (std::size_t i = 0; i < a.communications.size(); ++i) {
        const auto &x = a.communications[i], &y = b.communications[i];
        CHECK(x.sendThread == y.sendThread);
        CHECK(x.recvThread == y.recvThread);
        CHECK(x.sendCpu == y.sendCpu);
        CHECK(x.recvCpu == y.recvCpu);
        CHECK(x.logicalSend == y.logicalSend);
        CHECK(x.physicalRecv == y.physicalRecv);
        CHECK(x.size == y.size);
        CHECK(x.tag == y.tag);
    }
    CHECK(a.endTime() == b.endTime());
}

// One thread window of thread function `function` keeping the event types `filter` lists under the type
// test `op`.
gpueff::semantic::Cfg threadWindow(const std::string& function, const std::string& op,
                                   const std::string& filter) {
    std::string text =
        "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n\n"
        "################################################################################\n"
        "< NEW DISPLAYING WINDOW w >\n"
        "################################################################################\n"
        "window_name w\nwindow_type single\nwindow_level thread\n"
        "window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, " +
        function +
        "}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, "
        "All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, " +
        op + "}, {evt_value, All} } }\n" + filter;
    return gpueff::semantic::parseCfgText(text, "t.cfg");
}

} // namespace

TEST_CASE("one pass: the trace the analysis keeps is the trace the .prv written in the same pass reads as") {
    for (const auto& input : realExports()) {
        CAPTURE(input);
        auto dir = tempDir("pipeline_" + input.stem().string());
        gpueff::paraver::ReadOptions read;
        read.eventTypes = gpueff::metrics::eventTypesRead(); // what analyze reads
        gpueff::pipeline::TraceBuilder builder(read);
        gpueff::jobs::PipelineRequest request;
        request.import.inputs = {input};
        request.chain.prefix = dir / "t";
        request.chain.sinks = {&builder};
        gpueff::output::OutputFiles files;
        gpueff::jobs::runPipeline(request, files, nullptr);
        files.commit();
        auto streamed = gpueff::semantic::LoadedTrace::fromStream(builder, dir / "t.prv");
        auto reread = gpueff::semantic::LoadedTrace::load(dir / "t.prv", read);
        requireSameThreads(streamed->trace(), reread->trace());
        CHECK(streamed->trace().header.totalThreads() == reread->trace().header.totalThreads());
        // The file labels kernels `short [full]` for Paraver's column headers (docs/events.md "Kernel
        // labels"); the analysis reads the same labels with the kernels' full names.
        auto fileValues = reread->context().labels.eventValues;
        for (std::uint32_t type : {63000006u, 63000007u, 63000008u})
            if (auto it = fileValues.find(type); it != fileValues.end())
                it->second.relabel([](std::string_view label) { return pcfKernelName(std::string(label)); });
        CHECK(streamed->context().labels.eventValues == fileValues);
        CHECK(streamed->context().labels.rows == reread->context().labels.rows);

        // Devices as data: the importer's layout is what the written .row says, row by row.
        const auto& mine = streamed->layout();
        const auto& fromRow = reread->layout();
        REQUIRE(mine.rows.size() == fromRow.rows.size());
        REQUIRE(mine.tasks.size() == fromRow.tasks.size());
        std::size_t streams = 0;
        for (std::size_t r = 0; r < mine.rows.size(); ++r) {
            CAPTURE(r);
            CHECK(mine.rows[r].kind == fromRow.rows[r].kind);
            CHECK(mine.rows[r].task == fromRow.rows[r].task);
            CHECK(mine.rows[r].device == fromRow.rows[r].device);
            CHECK(mine.rows[r].stream == fromRow.rows[r].stream);
            streams += mine.rows[r].kind == gpueff::paraver::RowKind::CudaStream;
        }
        CHECK(streams > 0);
        for (std::size_t t = 0; t < mine.tasks.size(); ++t) {
            CHECK(mine.tasks[t].label == fromRow.tasks[t].label);
            CHECK(mine.tasks[t].pid == fromRow.tasks[t].pid);
            CHECK(mine.tasks[t].host == fromRow.tasks[t].host);
        }
        // The pid the task label names is the export's own (PROCESSES / the global pid's bits 24..).
        auto pids =
            query(input, "SELECT DISTINCT (globalPid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL");
        bool found = false;
        for (const auto& row : pids)
            for (const auto& t : mine.tasks) found = found || std::to_string(t.pid) == row[0];
        CHECK(found);
    }
}

TEST_CASE("the analysis' cfgs evaluate alike on record streams holding only the event types they walk") {
    std::size_t fullRecords = 0, walkedRecords = 0;
    for (const auto& input : realExports()) {
        CAPTURE(input);
        auto dir = tempDir("walked_" + input.stem().string());
        gpueff::paraver::ReadOptions read;
        read.eventTypes = gpueff::metrics::eventTypesRead();
        auto translate = [&](gpueff::pipeline::TraceBuilder& builder, const std::string& name) {
            gpueff::jobs::PipelineRequest request;
            request.import.inputs = {input};
            request.chain.prefix = dir / name;
            request.chain.sinks = {&builder};
            gpueff::output::OutputFiles files;
            gpueff::jobs::runPipeline(request, files, nullptr);
        };
        gpueff::pipeline::TraceBuilder full(read);
        translate(full, "full");
        auto a = gpueff::semantic::LoadedTrace::fromStream(full, dir / "t.prv");
        // The cfgs name some types by label: the trace's labels say which types they walk.
        const auto walked = gpueff::metrics::eventTypesWalked(a->context().labels);
        REQUIRE(walked.has_value()); // else nothing is left out and nothing is tested here
        gpueff::pipeline::TraceBuilder few(read);
        few.walkOnly(*walked);
        translate(few, "few");
        auto b = gpueff::semantic::LoadedTrace::fromStream(few, dir / "t.prv");
        const auto threads = a->trace().threads.size();
        for (std::size_t t = 0; t < threads; ++t) {
            fullRecords += a->trace().threads[t].stream.size();
            walkedRecords += b->trace().threads[t].stream.size();
        }
        for (auto name : gpueff::metrics::analysisCfgs()) {
            CAPTURE(name);
            gpueff::metrics::CfgRows x(*a, std::string(name)), y(*b, std::string(name));
            for (std::size_t w = 0; w < x.windows(); ++w)
                for (std::size_t t = 0; t < threads; ++t) {
                    auto p = x.row(w, t, true), q = y.row(w, t, true);
                    REQUIRE(p.size() == q.size());
                    for (std::size_t i = 0; i < p.size(); ++i) {
                        CHECK(p[i].begin == q[i].begin);
                        CHECK(p[i].end == q[i].end);
                        CHECK(p[i].value == q[i].value);
                    }
                }
        }
    }
    // The NVTX ranges and API calls leave the streams (on these exports 46 % of the streams' records).
    CHECK(walkedRecords < fullRecords * 2 / 3);
}

TEST_CASE(
    "which event types a window walks: none for a function of states or lines, its filter's otherwise") {
    using Range = std::pair<std::uint32_t, std::uint32_t>;
    const gpueff::paraver::TraceLabels labels;
    const auto lines = threadWindow("Recv Messages in Transit", "All", "");
    const auto states = threadWindow("State As Is", "All", "");
    const auto events = threadWindow("Last Evt Val", "=", "window_filter_module evt_type 1 63000009\n");
    const auto anyEvent = threadWindow("Last Evt Val", "All", "");
    // Seen: what the filter keeps, whatever the function reads.
    CHECK_FALSE(gpueff::semantic::eventTypesSeen({lines}, labels).has_value());
    auto none = gpueff::semantic::eventTypesWalked({lines, states}, labels);
    REQUIRE(none.has_value());
    CHECK(none->empty());
    auto some = gpueff::semantic::eventTypesWalked({lines, events}, labels);
    REQUIRE(some.has_value());
    CHECK(*some == std::vector<Range>{{63000009, 63000009}});
    CHECK_FALSE(gpueff::semantic::eventTypesWalked({lines, anyEvent}, labels).has_value());
}

TEST_CASE("analyze --no-trace writes the report only, and the report is the one made with the trace") {
    auto input = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
    auto with = tempDir("pipeline_with"), without = tempDir("pipeline_without");
    auto a = run(gpueffBinary().string() + " analyze -q " + quoted(input) + " -o " + quoted(with / "out"));
    REQUIRE(a.exitCode == 0);
    auto b = run(gpueffBinary().string() + " analyze -q --no-trace " + quoted(input) + " -o " +
                 quoted(without / "out"));
    REQUIRE(b.exitCode == 0);
    CHECK(fs::exists(with / "out" / "mfu_2gpu_h100_nccl.prv"));
    for (const char* ext : {".prv", ".pcf", ".row", ".json"})
        CHECK_FALSE(fs::exists(without / "out" / (std::string("mfu_2gpu_h100_nccl") + ext)));
    auto x = nlohmann::json::parse(readText(with / "out" / "report.json"));
    auto y = nlohmann::json::parse(readText(without / "out" / "report.json"));
    CHECK(y["trace"]["prv"] == "");
    CHECK(x["trace"]["prv"] != "");
    x["trace"].erase("prv");
    y["trace"].erase("prv");
    CHECK(x == y);
    // The inputs, their versions and the skipped-row notes come from the translation, not a sidecar.
    REQUIRE(y["inputs"].size() == 1);
    CHECK(y["inputs"][0]["path"] == input.string());
    CHECK_FALSE(y["inputs"][0]["nsys_version"].get<std::string>().empty());
}

TEST_CASE("analyze of a trace gpueff wrote names its kernels in full, as the export does") {
    // fuser_matmul_h100: demangled names up to 1,397 characters, labelled `short [full]` in the .pcf.
    auto input = dataDir() / "nsys" / "fuser_matmul_h100.sqlite";
    auto dir = tempDir("pipeline_full_names");
    auto a = run(gpueffBinary().string() + " analyze -q " + quoted(input) + " -o " + quoted(dir / "export"));
    REQUIRE_MESSAGE(a.exitCode == 0, a.output);
    auto b = run(gpueffBinary().string() + " analyze -q " + quoted(dir / "export" / "fuser_matmul_h100.prv") +
                 " -o " + quoted(dir / "trace"));
    REQUIRE_MESSAGE(b.exitCode == 0, b.output);
    auto names = [](const fs::path& report) {
        std::set<std::string> out;
        auto json = nlohmann::json::parse(readText(report));
        for (const auto& row : json["kernel_summary"]["overall"]) out.insert(row["name"].get<std::string>());
        return out;
    };
    std::set<std::string> kernels;
    for (const auto& row : query(input, "SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                        "StringIds s ON s.id = k.demangledName"))
        kernels.insert(row[0]);
    CHECK(names(dir / "export" / "report.json") == kernels);
    CHECK(names(dir / "trace" / "report.json") == kernels);
    // Not vacuous: the .pcf does label some of them short.
    bool shortened = false;
    auto pcf = readPcfValues(dir / "export" / "fuser_matmul_h100.pcf");
    for (const auto& [value, label] : pcf[63000006]) shortened = shortened || pcfKernelName(label) != label;
    CHECK(shortened);
}

TEST_CASE("the event types cfgs can see: '=' lists and ranges, by number or .pcf label: anything else all") {
    auto cfgWith = [](const std::string& op, const std::string& filter) {
        return threadWindow("Last Evt Val", op, filter);
    };
    using Range = std::pair<std::uint32_t, std::uint32_t>;
    gpueff::paraver::TraceLabels labels;
    labels.eventTypes[9600] = "NVTX ranges";
    labels.eventTypes[9700] = "NVTX ranges of domain 1";
    {
        auto types = gpueff::semantic::eventTypesSeen(
            {cfgWith("=", "window_filter_module evt_type 2 63000006 63000007\n")}, labels);
        REQUIRE(types.has_value());
        CHECK(*types == std::vector<Range>{{63000006, 63000006}, {63000007, 63000007}});
    }
    {
        auto types = gpueff::semantic::eventTypesSeen(
            {cfgWith("[x,y]", "window_filter_module evt_type 2 9400 9499\n")}, labels);
        REQUIRE(types.has_value());
        CHECK(*types == std::vector<Range>{{9400, 9499}});
    }
    {
        // The label names two types of the .pcf; the number beside it is used only when none matches.
        auto types = gpueff::semantic::eventTypesSeen(
            {cfgWith("=",
                     "window_filter_module evt_type 1 1234\nwindow_filter_module evt_type_label 1 \"NVTX "
                     "ranges*\"\n")},
            labels);
        REQUIRE(types.has_value());
        CHECK(*types == std::vector<Range>{{9600, 9600}, {9700, 9700}});
    }
    // A window that sees every type (All, !=) makes the whole set of cfgs need every type.
    CHECK_FALSE(gpueff::semantic::eventTypesSeen({cfgWith("All", "")}, labels).has_value());
    CHECK_FALSE(gpueff::semantic::eventTypesSeen({cfgWith("=", "window_filter_module evt_type 1 9400\n"),
                                                  cfgWith("!=", "window_filter_module evt_type 1 9400\n")},
                                                 labels)
                    .has_value());
}

TEST_CASE(
    "forEachLabelLine: a label writer's lines as std::getline reads its text, an error from a line thrown") {
    std::string long1(100000, 'x'); // longer than the FILE's buffer: a line arrives in pieces
    auto writer = [&](std::FILE* f) {
        std::fputs("EVENT_TYPE\n\n0 1 a", f);
        std::fputs(" type\nVALUES\r\n", f);
        for (int i = 0; i < 3000; ++i) std::fprintf(f, "%d %s%d\n", i, i % 1000 == 1 ? long1.c_str() : "", i);
        std::fputs("last line without its newline", f);
    };
    std::vector<std::string> got, expected;
    gpueff::pipeline::forEachLabelLine(writer, [&](std::string_view line) { got.emplace_back(line); });
    std::istringstream text(gpueff::pipeline::labelText(writer));
    for (std::string line; std::getline(text, line);) expected.push_back(line);
    CHECK(got.size() == 3005);
    CHECK(got == expected);
    int seen = 0;
    CHECK_THROWS_WITH_AS(gpueff::pipeline::forEachLabelLine(writer,
                                                            [&](std::string_view) {
                                                                if (++seen == 7)
                                                                    throw gpueff::Error("line 7");
                                                            }),
                         "line 7", gpueff::Error);
    CHECK(seen == 7);
    // Thrown while one write larger than the FILE's buffer is split (as a .pcf is copied, 64 KiB at a time):
    // the rest of that write and the later ones are refused, not read again.
    std::string block;
    for (int i = 0; i < 20000; ++i) block += std::to_string(i) + " value\n";
    seen = 0;
    CHECK_THROWS_WITH_AS(gpueff::pipeline::forEachLabelLine(
                             [&](std::FILE* f) {
                                 std::fwrite(block.data(), 1, block.size(), f);
                                 std::fwrite(block.data(), 1, block.size(), f);
                             },
                             [&](std::string_view) {
                                 if (++seen == 3) throw gpueff::Error("line 3");
                             }),
                         "line 3", gpueff::Error);
    CHECK(seen == 3);
    gpueff::pipeline::forEachLabelLine({}, [](std::string_view) { FAIL("no writer, no line"); });
}

TEST_CASE("labelText: a label writer's text whole, and a writer that writes differently twice refused") {
    std::string line(1000, 'x');
    auto text = gpueff::pipeline::labelText([&](std::FILE* f) {
        for (int i = 0; i < 5000; ++i) std::fprintf(f, "%d %s\n", i, line.c_str());
    });
    std::string expected;
    for (int i = 0; i < 5000; ++i) expected += std::to_string(i) + " " + line + "\n";
    CHECK(text == expected);
    CHECK(text.capacity() < expected.size() + 64); // held at its size, not grown by doubling
    CHECK(gpueff::pipeline::labelText({}).empty());
    int calls = 0;
    CHECK_THROWS_AS(
        gpueff::pipeline::labelText([&](std::FILE* f) { std::fputs(++calls == 1 ? "a" : "bb", f); }),
        std::logic_error);
}
