// The presentation layer (reports/ReportMarkdown, SvgPlot, Compare and `gpueff compare`) on HAND-MADE
// report.json documents written below: not measured data. Expected numbers are worked out in the test from
// the documents' inputs, not read off the renderer's output.
#include "engine/common/Error.h"
#include "metrics/KernelCategories.h"
#include "reports/Compare.h"
#include "reports/CountBins.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"
#include "reports/SvgFrame.h"
#include "reports/SvgPlot.h"
#include "reports/model/ReportIo.h"
#include "tests/ReportFixtures.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

using nlohmann::json;
using namespace gpueff::reports;

namespace {

struct DeviceSpec {
    std::string id;
    double useful, communication; // ns, nccl_as_communication
};

// A hand-made report: efficiencies follow MODEL.md's formulas from the given per-device times.
json efficiencyOf(const std::vector<DeviceSpec>& devices, double window) {
    double sum = 0, maxU = 0, maxA = 0;
    json list = json::array();
    for (const auto& d : devices) {
        sum += d.useful;
        maxU = std::max(maxU, d.useful);
        maxA = std::max(maxA, d.useful + d.communication);
        list.push_back({{"id", d.id},
                        {"useful_ns", d.useful},
                        {"communication_ns", d.communication},
                        {"idle_ns", window - d.useful - d.communication}});
    }
    double n = static_cast<double>(devices.size());
    return {{"parallel_efficiency", sum / (n * window)},
            {"load_balance", sum / (n * maxU)},
            {"communication_efficiency", maxU / maxA},
            {"orchestration_efficiency", maxA / window},
            {"useful_sum_ns", sum},
            {"useful_max_ns", maxU},
            {"active_max_ns", maxA},
            {"devices", list}};
}

json makeReport(const std::vector<DeviceSpec>& devices, double window, std::vector<std::string> kernels) {
    json r = {
        {"schema", "gpueff-report/1"},
        {"tool", {{"name", "gpueff"}, {"version", "0.4.0"}}},
        {"window",
         {{"begin_ns", 100}, {"end_ns", 100 + window}, {"duration_ns", window}, {"source", "gpu-activity"}}}};
    r["devices"] = json::array();
    for (const auto& d : devices)
        r["devices"].push_back({{"id", d.id},
                                {"label", d.id}, // names with markup characters, to check the escaping
                                {"task", 1},
                                {"gpu", 0},
                                {"useful_ns", d.useful},
                                {"communication_ns", d.communication},
                                {"idle_ns", window - d.useful - d.communication}});
    r["efficiency"]["nccl_as_communication"] = efficiencyOf(devices, window);
    // NCCL as useful: the communication time counted as useful (these hand-made runs have no memory ops).
    std::vector<DeviceSpec> asUseful;
    for (const auto& d : devices) asUseful.push_back({d.id, d.useful + d.communication, 0});
    r["efficiency"]["nccl_as_useful"] = efficiencyOf(asUseful, window);
    r["kernel_summary"]["overall"] = json::array();
    double total = 1000;
    for (const auto& k : kernels) {
        r["kernel_summary"]["overall"].push_back(
            {{"name", k},
             {"time_percent", 100.0 / static_cast<double>(kernels.size())},
             {"total_ns", total},
             {"instances", 3},
             {"avg_ns", total / 3},
             {"med_ns", 300},
             {"min_ns", 200},
             {"max_ns", 500},
             {"stddev_ns", 12.5}});
        total -= 100;
    }
    return r;
}

// Table cells of figures keep a number with its unit and a colour square with its number (MarkdownTable).
const std::string NB = "\xC2\xA0";

// A percentage as a table cell shows it.
std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", fraction * 100);
    return buffer + NB + "%";
}

// The table line of the Markdown whose first cell is `label`.
std::string lineOf(const std::string& md, const std::string& label, const std::string& section = "") {
    auto at = md.find("| " + label + " |", section.empty() ? 0 : md.find(section));
    if (at == std::string::npos) return "";
    return md.substr(at, md.find('\n', at) - at);
}

// XML-ish well-formedness: balanced tags, only known entities, no raw '<' '>' in text.
bool wellFormed(const std::string& xml, std::string& why) {
    std::vector<std::string> stack;
    for (std::size_t i = 0; i < xml.size(); ++i) {
        char c = xml[i];
        if (c == '&') {
            bool ok = false;
            for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
                ok = ok || xml.compare(i, std::string(e).size(), e) == 0;
            if (!ok) return why = "bad entity at " + std::to_string(i), false;
        } else if (c == '>') {
            return why = "raw > at " + std::to_string(i), false;
        } else if (c == '<') {
            auto end = xml.find('>', i);
            if (end == std::string::npos) return why = "unterminated tag", false;
            std::string tag = xml.substr(i + 1, end - i - 1);
            if (tag.find('<') != std::string::npos) return why = "< inside tag " + tag, false;
            i = end;
            if (tag.empty()) return why = "empty tag", false;
            if (tag.back() == '/') continue;
            std::string name = tag.substr(tag[0] == '/' ? 1 : 0);
            name = name.substr(0, name.find(' '));
            if (tag[0] != '/') {
                stack.push_back(name);
            } else {
                if (stack.empty() || stack.back() != name) return why = "unbalanced </" + name + ">", false;
                stack.pop_back();
            }
        }
    }
    if (!stack.empty()) return why = "unclosed <" + stack.back() + ">", false;
    return true;
}

using testsupport::completeForSchema;
using testsupport::modelOf;
using testsupport::modelsOf;

RenderedReport render(const json& document) {
    return renderMarkdownReport(modelOf(document));
}

json fullReport() {
    // Device 0: U=800 D=100; device 1: U=500 D=100; window 1000 -> PE 0.65, LB 0.8125, CommE 0.8889, OrchE
    // 0.9.
    json r = makeReport({{"host<1>&:7:0", 800, 100}, {"host<1>&:7:1", 500, 100}}, 1000,
                        {"void gemm_kernel<float, cutlass::Tile<128, 64>>(Params<float>, int*)",
                         "my|kernel<T&>", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"});
    r["host"] = {
        {"offload",
         {{{"task", 1}, {"name", "python3 7@host"}, {"blocking_ns", 500}, {"offload_efficiency", 0.5}}}},
        {"mpi", nullptr}};
    r["kernels_in_flight"] = {
        {{"device", "host<1>&:7:0"},
         {"time_ns_by_count", {{"0", 250}, {"1", 500}, {"2", 250}}},
         {"maximum", 2},
         {"mean", 1.0}},
        {{"device", "host<1>&:7:1"}, {"time_ns_by_count", {{"0", 1000}}}, {"maximum", 0}, {"mean", 0.0}}};
    r["overlap"] = {{{"device", "host<1>&:7:0"},
                     {"communication_ns", 100},
                     {"time_ns_by_concurrency", {{"1", 25}, {"2", 75}}},
                     {"fraction_of_communication", {{"1", 0.25}, {"2", 0.75}}},
                     {"fraction_of_window", {{"1", 0.025}, {"2", 0.075}}}}};
    r["overlap_table"] = {{"concurrency", {1, 2}},
                          {"fraction_of_communication",
                           {{"Total", {0.25, 0.75}},
                            {"Average", {0.25, 0.75}},
                            {"Maximum", {0.25, 0.75}},
                            {"Minimum", {0.25, 0.75}},
                            {"StDev", {0.0, 0.0}},
                            {"Avg/Max", {0.78, 1.0}}}}};
    r["overlap_table"]["fraction_of_window"] = r["overlap_table"]["fraction_of_communication"];
    r["tensor_core"] = {{"available", false},
                        {"reason", "no GPU metrics in the trace (nsys --gpu-metrics-devices)"}};
    r["notes"] = {"queued kernels: no launch messages"};
    return r;
}

} // namespace

TEST_CASE("render: efficiency table numbers and POP colour thresholds") {
    CHECK(efficiencyColour(0.80) == "\xF0\x9F\x9F\xA9");
    CHECK(efficiencyColour(0.7999) == "\xF0\x9F\x9F\xA8");
    CHECK(efficiencyColour(0.70) == "\xF0\x9F\x9F\xA8");
    CHECK(efficiencyColour(0.65) == "\xF0\x9F\x9F\xA7");
    CHECK(efficiencyColour(0.5999) == "\xF0\x9F\x9F\xA5");
    CHECK(efficiencyColour(std::nullopt).empty());

    auto md = render(fullReport()).markdown;
    // nccl_as_communication: PE = 1300 / 2000; nccl_as_useful: U = 900, 600 -> PE = 1500 / 2000, LB = 1500 /
    // 1800.
    auto pe = lineOf(md, "Parallel efficiency");
    CAPTURE(pe);
    CHECK(pe.find("\xF0\x9F\x9F\xA7" + NB + percent(1300.0 / 2000)) != std::string::npos); // orange
    CHECK(pe.find("\xF0\x9F\x9F\xA8" + NB + percent(1500.0 / 2000)) != std::string::npos); // yellow
    auto lb = lineOf(md, "&emsp;Load balance");
    CHECK(lb.find("\xF0\x9F\x9F\xA9" + NB + percent(1300.0 / 1600)) != std::string::npos);
    CHECK(lb.find("\xF0\x9F\x9F\xA9" + NB + percent(1500.0 / 1800)) != std::string::npos);
    CHECK(lineOf(md, "&emsp;Communication efficiency").find(percent(800.0 / 900)) != std::string::npos);
    CHECK(lineOf(md, "&emsp;Orchestration efficiency").find(percent(900.0 / 1000)) != std::string::npos);
    // Offload efficiency 0.5 is red; the window is stated with its source.
    CHECK(md.find("\xF0\x9F\x9F\xA5" + NB + percent(0.5)) != std::string::npos);
    CHECK(md.find("[100 ns, 1100 ns]") != std::string::npos);
    CHECK(md.find("first start to last end of the GPU activity") != std::string::npos);
    CHECK(md.find("MPI is not traced") != std::string::npos);
    CHECK(md.find("Not available: no GPU metrics in the trace") != std::string::npos);
}

TEST_CASE("render: kernel names are shortened and escaped for Markdown tables") {
    auto md = render(fullReport()).markdown;
    CHECK(md.find("my\\|kernel&lt;T&amp;&gt;") != std::string::npos);
    CHECK(md.find("my|kernel") == std::string::npos);
    // In the table: no return type, no parameter list; below it, folded, the full names.
    auto first = lineOf(md, "1", "## Top kernels");
    CAPTURE(first);
    CHECK(first.find("| gemm\\_kernel&lt;float, cutlass::Tile&lt;128, 64&gt;&gt; |") != std::string::npos);
    CHECK(first.find("Params") == std::string::npos);
    CHECK(md.find("<details><summary>Full kernel names</summary>\n\n1. void gemm\\_kernel&lt;float, "
                  "cutlass::Tile&lt;128, 64&gt;&gt;(Params&lt;float&gt;, int\\*)\n") != std::string::npos);
    // A word longer than 36 characters is cut: a table cell wraps at spaces only.
    CHECK(md.find("| ncclDevKernel\\_AllReduce\\_Sum\\_f32\\_RING\xE2\x80\xA6 |") != std::string::npos);
    CHECK(md.find("3. ncclDevKernel\\_AllReduce\\_Sum\\_f32\\_RING\\_LL(ncclDevComm\\*)\n") !=
          std::string::npos);
    CHECK(shortenKernelName("void a::(anonymous namespace)::k<int>(float)") ==
          "a::(anonymous namespace)::k<int>");
    auto longName =
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
    CHECK(shortenKernelName(longName, 80) ==
          "at::native::vectorized_elementwise_kernel<4, FillFunctor<\xE2\x80\xA6>, Array<\xE2\x80\xA6> >");
    auto s = shortenKernelName(longName, 40);
    CAPTURE(s);
    CHECK(s == "at::native::vectorized_elementwise_kern\xE2\x80\xA6");
    CHECK(shortenKernelName("void k<a::B>(int)", 80) == "k<a::B>"); // short names keep their qualifiers
    // For a table cell: the name's own namespaces go first when a word is too long ("<unnamed>" is one).
    CHECK(shortenForTable("void at::native::vectorized_layer_norm_kernel<float, float>(int)", 60, 36) ==
          "vectorized_layer_norm_kernel<float, float>");
    CHECK(shortenForTable("void at::native::<unnamed>::k<float>(int)", 60, 10) == "k<float>");
    CHECK(shortenForTable("at::native::k<float>", 60, 36) == "at::native::k<float>"); // short: kept
    CHECK(shortenForTable("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", 60, 36) ==
          "ncclDevKernel_AllReduce_Sum_f32_RING\xE2\x80\xA6");
    CHECK(shortenForTable("a bcdefgh ij", 60, 4) == "a bcde\xE2\x80\xA6"); // the first long word is cut
}

TEST_CASE("render: table cells of figures keep a number with its unit") {
    using gpueff::reports::detail::MarkdownTable;
    CHECK(MarkdownTable::glued("12.5 ms") == "12.5" + NB + "ms");
    CHECK(MarkdownTable::glued("1 \xC2\xB5s - 4 \xC2\xB5s") == "1" + NB + "\xC2\xB5s - 4" + NB + "\xC2\xB5s");
    CHECK(MarkdownTable::glued("100 -> 100") == "100 -> 100");
    CHECK(MarkdownTable::glued("1 ms, 2 ms") ==
          "1" + NB + "ms, 2" + NB + "ms"); // a list breaks after a comma
    CHECK(MarkdownTable::glued("Time %") == "Time" + NB + "%");
    CHECK(MarkdownTable::glued("1993 (99.40 %)") == "1993 (99.40" + NB + "%)"); // two figures, may break
    CHECK(MarkdownTable::glued("\xF0\x9F\x9F\xA9 85.00 %") == "\xF0\x9F\x9F\xA9" + NB + "85.00" + NB + "%");
    CHECK(MarkdownTable::glued("85.00 % (+3.33 pp)") == "85.00" + NB + "% (+3.33" + NB + "pp)");
    CHECK(MarkdownTable::glued("n/a") == "n/a");
    MarkdownTable t({"Name", "Time"}, "lr");
    t.row({"a b 1 x", "2 ms"});
    CHECK(t.str() == "| Name | Time |\n|---|---:|\n| a b 1 x | 2" + NB + "ms |\n"); // left cells as given
    MarkdownTable h({"Share %", "Time %"}, "lr");
    CHECK(h.str().rfind("| Share % | Time" + NB + "% |\n", 0) == 0); // and the headers of figures
}

TEST_CASE("render: histograms over counts are grouped alike in tables and charts") {
    using gpueff::reports::detail::countBins;
    auto labels = [](const std::set<long long>& counts) {
        std::string out;
        for (const auto& b : countBins(counts)) out += b.label() + ",";
        return out;
    };
    CHECK(labels({0, 1, 2, 5, 40}) == "0,1,2,5,40,"); // few counts: one column each
    CHECK(labels({0, 1, 2, 3, 4, 5, 6}) == "0,1,2,3-4,5-8,");
    CHECK(labels({0, 1, 7, 8, 9, 100, 1000}) == "0,1,5-8,9-16,65-128,513-1024,"); // empty bins left out
    CHECK(labels({0, 2, 3, 5, 9, 17, 33, 65}) == "0,2,3-4,5-8,9-16,\xE2\x89\xA5 17,");
    CHECK(countBins({-1, 0, 1}).size() == 2); // a negative count has no column
    CHECK(countBins({0, 1, 2, 3, 4, 5, 6, LLONG_MAX}).back().contains(LLONG_MAX));
}

TEST_CASE("render: overlap, kernels in flight and per-device tables") {
    auto md = render(fullReport()).markdown;
    // Device 0 in flight: 250/1000 at 0, 500/1000 at 1.
    auto dev0 = lineOf(md, "host&lt;1&gt;&amp;:7:0", "## Kernels in flight");
    CAPTURE(dev0);
    CHECK(dev0.find("| " + percent(0.25) + " | " + percent(0.5) + " | " + percent(0.25) + " | 1.00 | 2 |") !=
          std::string::npos);
    CHECK(lineOf(md, "**Avg/Max**").find("| 0.78 | 1.00 |") != std::string::npos);
    CHECK(lineOf(md, "**Total**").find("| " + percent(0.25) + " | " + percent(0.75) + " |") !=
          std::string::npos);
    // A deep launch queue: 20 depths of 10 ns each, grouped 0, 1, 2, 3-4, 5-8 and 9 or more (11 depths).
    json deep = fullReport();
    json depths = json::object();
    for (int k = 0; k < 20; ++k) depths[std::to_string(k)] = 10;
    deep["kernels_queued"] = {{{"device", "q:1:0"}, {"time_ns_by_depth", depths}}};
    auto queued = render(deep).markdown;
    CHECK(queued.find("| Device | 0 | 1 | 2 | 3-4 | 5-8 | \xE2\x89\xA5" + NB + "9 | Mean | Max |") !=
          std::string::npos);
    double mean = (19.0 * 20 / 2) / 20; // depths 0..19, equally long
    char meanText[16];
    std::snprintf(meanText, sizeof meanText, "%.2f", mean);
    CHECK(lineOf(queued, "q:1:0")
              .find("| " + percent(1 / 20.0) + " | " + percent(1 / 20.0) + " | " + percent(1 / 20.0) + " | " +
                    percent(2 / 20.0) + " | " + percent(4 / 20.0) + " | " + percent(11 / 20.0) + " | " +
                    meanText + " | 19 |") != std::string::npos);
    // Share of the window as given per device (25 / 1000, 75 / 1000).
    CHECK(md.find("| " + percent(0.025) + " | " + percent(0.075) + " |") != std::string::npos);
}

TEST_CASE("render: devices are named rank r / GPU g, with a table of where each one is") {
    json r = makeReport({{"nodeA:4242:0", 800, 100}, {"nodeB:777:1", 500, 100}}, 1000, {"k"});
    r["devices"][0].erase("label");
    r["devices"][1].erase("label");
    r["devices"][1]["task"] = 2;
    r["devices"][1]["gpu"] = 1;
    r["devices"][1]["host"] = "nodeB";
    r["devices"][1]["pid"] = 777;
    r["devices"][1]["memory_by_kind_ns"] = {{"Host-to-Device", 40}};
    r["gaps"] = {{{"device", "nodeB:777:1"}, {"count", 3}, {"total_ns", 30}}};
    auto md = render(r).markdown;
    CHECK(lineOf(md, "rank 1 / GPU 1", "## GPU idle gaps").find("| 3 |") != std::string::npos);
    auto where = lineOf(md, "rank 1 / GPU 1", "### Where each device is");
    CAPTURE(where);
    CHECK(where.find("| nodeB | 777 | 1 | nodeB:777:1 |") != std::string::npos);
    CHECK(lineOf(md, "rank 1 / GPU 1", "### Communication by kind").find("| 40" + NB + "ns |") !=
          std::string::npos);
    // Ids stay ids outside that table.
    CHECK(md.find("nodeB:777:1") == md.rfind("nodeB:777:1"));
    // With every id host:pid:gpu, the table leaves the (long) ids out and says how they are made.
    r["devices"][0]["host"] = "nodeA";
    r["devices"][0]["pid"] = 4242;
    md = render(r).markdown;
    CHECK(lineOf(md, "rank 1 / GPU 1", "### Where each device is") == "| rank 1 / GPU 1 | nodeB | 777 | 1 |");
    CHECK(md.find("its id in report.json is host:PID:g") != std::string::npos);
    CHECK(md.find("nodeB:777:1") == std::string::npos);
}

TEST_CASE("report model: a document the schema refuses is refused naming the key, before any rendering") {
    using gpueff::reports::model::readReport;
    auto refusal = [](const json& doc) {
        try {
            readReport(doc.is_object() && doc.contains("devices") ? completeForSchema(doc) : doc, "r.json");
        } catch (const gpueff::Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refusal(json::array()).find("r.json: not a gpueff report") == 0);
    CHECK(refusal(json::object()).find("r.json: ") == 0);
    json r = fullReport();
    r["devices"][1]["idle_ns"] = "100";
    CAPTURE(refusal(r));
    CHECK(refusal(r).find("devices[1].idle_ns") != std::string::npos);
    r = fullReport();
    r["devices"][0].erase("label");
    CHECK(refusal(r) == "accepted"); // not required by the schema: printed from task and gpu
}

TEST_CASE("render: null factors and parts the report leaves out print n/a and never nan") {
    json r = fullReport();
    r["efficiency"]["nccl_as_communication"]["parallel_efficiency"] = nullptr;
    r.erase("host");
    auto md = render(r).markdown;
    CAPTURE(md);
    CHECK(lineOf(md, "Parallel efficiency").find("n/a") != std::string::npos);
    CHECK(md.find("nan") == std::string::npos);
    CHECK(md.find("inf") == std::string::npos);
    CHECK(md.find("## Analysis window") != std::string::npos);
}

TEST_CASE(
    "render: HTA's definitions name devices by label, and the notes of HTA's rules are listed there only") {
    json r = makeReport({{"n:1:0", 800, 100}}, 1000, {"k"});
    r["devices"][0]["label"] = "rank 1 / GPU 0";
    json rules = {{"last_profiler_step", nullptr},
                  {"whole_microseconds", {{"kernel_time_ns", 2000}, {"idle_ns", 800}, {"compute_ns", 600}}},
                  {"host_events_with_stream", nullptr}};
    r["hta"] = {{"consecutive_kernel_delay_ns", 30000},
                {"devices",
                 {{{"device", "n:1:0"},
                   {"kernel_time_ns", 1000},
                   {"idle_ns", 250},
                   {"compute_ns", 600},
                   {"non_compute_ns", 150},
                   {"comm_comp_overlap", nullptr},
                   {"idle_by_cause", {{"host_wait_ns", 100}, {"kernel_wait_ns", 50}, {"other_ns", 25}}},
                   {"rules", rules}}}}};
    // The rule's note as report.json holds it (the device by its id): a span of 2 us instead of 1 us, idle
    // 800 / 2000 = 40 % of its span instead of 250 / 1000 = 25 %; compute alike, so left out.
    const std::string rule =
        " rounds every start up and every end down to a whole microsecond: it would show "
        "a span of 2.000 \xC2\xB5s instead of 1.000 \xC2\xB5s, idle 800 ns (40.00 % of the "
        "span) instead of 250 ns (25.00 % of the span)";
    r["notes"] = {"HTA on n:1:0" + rule, "another note"};
    auto md = render(r).markdown;
    CAPTURE(md);
    // Span 1 us; idle 250 / 1000 = 25 %, compute 600 / 1000 = 60 %, non-compute 150 / 1000 = 15 %; no NCCL
    // time, so no overlap: n/a.
    auto breakdown = lineOf(md, "rank 1 / GPU 0", "## HTA's definitions");
    CAPTURE(breakdown);
    for (const std::string& cell : {"| 1.000" + NB + "\xC2\xB5s |", "(25.00" + NB + "%)",
                                    "(60.00" + NB + "%)", "(15.00" + NB + "%)", std::string("| n/a |")})
        CHECK(breakdown.find(cell) != std::string::npos);
    CHECK(md.find("kernel wait = a gap under 30.000 \xC2\xB5s") != std::string::npos);
    auto causes = lineOf(md, "rank 1 / GPU 0", "| Device | Host wait |");
    CHECK(causes == "| rank 1 / GPU 0 | 100" + NB + "ns | 50" + NB + "ns | 25" + NB + "ns |");
    auto section = md.substr(md.find("## HTA's definitions"));
    section = section.substr(0, section.find("\n## "));
    CHECK(section.find("- HTA on rank 1 / GPU 0" + rule + "\n") != std::string::npos);
    // The Notes list the other note only, and the id-named form of the rule's note shows nowhere.
    auto notes = md.substr(md.find("## Notes"));
    CHECK(notes.find("- another note\n") != std::string::npos);
    CHECK(notes.find("HTA on") == std::string::npos);
    CHECK(md.find("HTA on n:1:0") == std::string::npos);
    // With no other note: said so.
    r["notes"] = {"HTA on n:1:0" + rule};
    CHECK(render(r).markdown.find("None besides HTA's rules") != std::string::npos);
}

TEST_CASE("render: nsys stats summaries, with start/end ranges, rows left out and no bandwidth") {
    json r = fullReport();
    CHECK(render(r).markdown.find("## nsys stats summaries") == std::string::npos); // none in the report
    r["nsys_stats"] = {{"nvtx_sum",
                        {{{"name", "step"},
                          {"domain", "PyTorch"},
                          {"style", "StartEnd"},
                          {"time_percent", 75},
                          {"total_ns", 3000},
                          {"instances", 2},
                          {"avg_ns", 1500},
                          {"med_ns", 1500},
                          {"min_ns", 1000},
                          {"max_ns", 2000},
                          {"stddev_ns", 707.1}}}},
                       {"cuda_api_sum", json::array()},
                       {"gpu_mem_time_sum", json::array()},
                       {"gpu_mem_size_sum",
                        {{{"name", "[CUDA memcpy Host-to-Device]"},
                          {"instances", 2},
                          {"total_bytes", 3000000},
                          {"avg_bytes", 1500000},
                          {"med_bytes", 1500000},
                          {"min_bytes", 1000000},
                          {"max_bytes", 2000000},
                          {"stddev_bytes", 707106.8},
                          {"bandwidth_gbps", nullptr}}}},
                       {"left_out", {{"nvtx_sum", {{"rows", 4}, {"instances", 9}, {"total_ns", 100}}}}}};
    auto md = render(r).markdown;
    CAPTURE(md);
    // "domain:name", marked start/end; 75 % as a percentage; 3000 ns over 2 instances, 1500 ns each.
    CHECK(lineOf(md, "PyTorch:step *(start/end)*") == "| PyTorch:step *(start/end)* | 75.00" + NB +
                                                          "% | 3.000" + NB + "\xC2\xB5s | 2 | 1.500" + NB +
                                                          "\xC2\xB5s | 1.500" + NB + "\xC2\xB5s |");
    CHECK(md.find("\n4 rows with less time are left out of report.json too (see Notes).\n") !=
          std::string::npos);
    CHECK(md.find("CUDA API calls (`cuda_api_sum`): none in the trace.") != std::string::npos);
    // 3 * 10^6 bytes = 3 MB as nsys counts them, 1.5 MB each; operations that took no time: no bandwidth.
    CHECK(lineOf(md, "\\[CUDA memcpy Host-to-Device\\]") == "| \\[CUDA memcpy Host-to-Device\\] | 3.000" +
                                                                NB + "MB | 2 | 1.500" + NB + "MB | 1.500" +
                                                                NB + "MB | n/a |");
}

TEST_CASE("render: SVG plots are well-formed with escaped text") {
    auto rendered = render(fullReport());
    REQUIRE(rendered.files.size() == 4); // device states and factors, kernels in flight, overlap
    for (const auto& [path, svgText] : rendered.files) {
        CAPTURE(path);
        CHECK(rendered.markdown.find("](" + path + ")") != std::string::npos);
        CHECK(svgText.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=", 0) == 0);
        CHECK(svgText.find("viewBox=\"0 0 ") != std::string::npos);
        CHECK(svgText.find("<script") == std::string::npos);
        CHECK(svgText.find("host&lt;1&gt;&amp;:7:") != std::string::npos);
        std::string why;
        CHECK_MESSAGE(wellFormed(svgText, why), why);
    }
    CHECK(svg::escapeXml("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&apos;");
    CHECK(svg::overlapChart(model::Report{}).empty());
    // Beyond 8 devices the bars show the mean, minimum and maximum across devices.
    model::Report many;
    for (std::int64_t d = 0; d < 10; ++d)
        many.kernelsInFlight.push_back(
            {"h:" + std::to_string(d) + ":0", {{0, 10 * d}, {1, 100 - 10 * d}}, {}, 1, {}});
    auto chart = svg::kernelsInFlightChart(many);
    CHECK(chart.find("Average (10 devices)") != std::string::npos);
    CHECK(chart.find("h:3:0") == std::string::npos);
}

namespace {

// The <rect> elements of an SVG, each as its attributes.
std::vector<std::map<std::string, std::string>> rects(const std::string& svgText) {
    std::vector<std::map<std::string, std::string>> out;
    static const std::regex element("<rect ([^>]*)/>"), attribute("([a-z-]+)=\"([^\"]*)\"");
    for (std::sregex_iterator e(svgText.begin(), svgText.end(), element), end; e != end; ++e) {
        std::map<std::string, std::string> a;
        std::string body = (*e)[1];
        for (std::sregex_iterator m(body.begin(), body.end(), attribute); m != end; ++m) a[(*m)[1]] = (*m)[2];
        out.push_back(a);
    }
    return out;
}

double attr(const std::map<std::string, std::string>& a, const char* key) {
    auto it = a.find(key);
    return it == a.end() ? NAN : std::stod(it->second);
}

} // namespace

TEST_CASE("render: overlap per NCCL kernel and the plots over time") {
    json r = fullReport();
    r["devices"][0]["label"] = "rank 0 / GPU 7"; // the tables name a device by its label
    // Kernel 1 overlapped 500 of its 2000 ns (25 %); kernel 2 took no time: no fraction (null).
    r["nccl_overlap"] = {{{"device", "host<1>&:7:0"},
                          {"kernel", "ncclAllReduce_1"},
                          {"instances", 4},
                          {"time_ns", 2000},
                          {"overlapped_ns", 500},
                          {"overlapped_fraction", 0.25}},
                         {{"device", "host<1>&:7:1"},
                          {"kernel", "ncclAllReduce_2"},
                          {"instances", 1},
                          {"time_ns", 0},
                          {"overlapped_ns", 0},
                          {"overlapped_fraction", nullptr}}};
    // Two bins of 500 ns: device 0 useful half of the first bin and all of the second, communicating a
    // quarter of the first.
    r["timeline"] = {{"bins", 2},
                     {"bin_ns", 500.0},
                     {"devices",
                      {{{"device", "host<1>&:7:0"},
                        {"kernels_in_flight", {0.5, 1.0}},
                        {"useful", {0.5, 1.0}},
                        {"communication", {0.25, 0.0}}}}}};
    auto rendered = render(r);
    const auto& md = rendered.markdown;
    REQUIRE(md.find("### Overlap per NCCL kernel") != std::string::npos);
    auto first = lineOf(md, "rank 0 / GPU 7", "### Overlap per NCCL kernel");
    CAPTURE(first);
    CHECK(first.find("| ncclAllReduce\\_1 | 4 | 2.000" + NB + "\xC2\xB5s |") != std::string::npos);
    CHECK(first.find("(" + percent(0.25) + ")") != std::string::npos);
    auto second = lineOf(md, "host&lt;1&gt;&amp;:7:1", "### Overlap per NCCL kernel");
    CAPTURE(second);
    CHECK(second.find("(n/a)") != std::string::npos);
    // Past 50 rows, the rest is left to report.json.
    json many = r;
    for (int i = 0; i < 51; ++i) many["nccl_overlap"].push_back(r["nccl_overlap"][0]);
    CHECK(render(many).markdown.find("\n3 more rows in report.json.\n") != std::string::npos);

    std::string states;
    for (const auto& [path, text] : rendered.files)
        if (path == "plots/device_state_timeline.svg") states = text;
    REQUIRE_FALSE(states.empty());
    CHECK(md.find("](plots/kernels_in_flight_timeline.svg)") != std::string::npos);
    CHECK(states.find("rank 0 / GPU 7") != std::string::npos);
    // A strip of 22 - 4 = 18 px per device: useful 9 and 18 px high, communication 0.25 x 18 above the first.
    std::vector<double> useful, communication;
    for (const auto& a : rects(states)) {
        if (a.count("fill") && a.at("fill") == svg::kRunColours[0]) useful.push_back(attr(a, "height"));
        if (a.count("fill") && a.at("fill") == svg::kRunColours[1])
            communication.push_back(attr(a, "height"));
    }
    // (The legend's swatches share the colours, in another size.)
    auto has = [](const std::vector<double>& heights, double h) {
        return std::any_of(heights.begin(), heights.end(), [h](double x) { return std::fabs(x - h) < 1e-6; });
    };
    CHECK(has(useful, 18));
    CHECK(has(useful, 9));
    CHECK(has(communication, 4.5));
}

TEST_CASE("render: the efficiency factors per device, one group of bars per device") {
    // Device 0: U = 800, D = 100; device 1: U = 500, D = 100; T = 1000 (fullReport). Per device: U/T, U/max
    // U, U/A and A/T with A = U + D.
    const double expected[2][4] = {{800.0 / 1000, 800.0 / 800, 800.0 / 900, 900.0 / 1000},
                                   {500.0 / 1000, 500.0 / 800, 500.0 / 600, 600.0 / 1000}};
    auto rendered = render(fullReport());
    std::string chart;
    for (const auto& [path, text] : rendered.files)
        if (path == "plots/device_efficiency.svg") chart = text;
    REQUIRE_FALSE(chart.empty());
    std::string why;
    CHECK_MESSAGE(wellFormed(chart, why), why);
    // Shown in the Devices section, before the next one.
    auto devices = rendered.markdown.find("## Devices"),
         link = rendered.markdown.find("](plots/device_efficiency.svg)");
    CHECK(devices < link);
    CHECK(link < rendered.markdown.find("## Host"));
    // The plot area is the frame drawn without fill; bars stand on its bottom, in the factors' colours.
    auto all = rects(chart);
    const std::map<std::string, std::string>* frame = nullptr;
    for (const auto& r : all)
        if (r.count("fill") && r.at("fill") == "none") frame = &r;
    REQUIRE(frame);
    const double bottom = attr(*frame, "y") + attr(*frame, "height"), height = attr(*frame, "height");
    const std::set<std::string> colours(std::begin(svg::kFactorColours), std::end(svg::kFactorColours));
    std::vector<std::pair<double, const std::map<std::string, std::string>*>> bars; // by x
    for (const auto& r : all)
        if (colours.count(r.at("fill")) && std::abs(attr(r, "y") + attr(r, "height") - bottom) < 0.11)
            bars.emplace_back(attr(r, "x"), &r);
    std::sort(bars.begin(), bars.end());
    REQUIRE(bars.size() == 2 * 4); // two groups of four
    for (std::size_t d = 0; d < 2; ++d)
        for (std::size_t f = 0; f < 4; ++f) {
            CAPTURE(d);
            CAPTURE(f);
            const auto& bar = *bars[d * 4 + f].second;
            CHECK(bar.at("fill") == svg::kFactorColours[f]);
            // Coordinates are written to 0.1 px: the height of a bar to within 0.1 px of its share.
            CHECK(std::abs(attr(bar, "height") - expected[d][f] * height) <= 0.11);
        }
    // Each group is labelled with its device, under the axis.
    CHECK(chart.find(">host&lt;1&gt;&amp;:7:0</text>") != std::string::npos);
    CHECK(chart.find(">host&lt;1&gt;&amp;:7:1</text>") != std::string::npos);
    for (const char* legend : {"Useful fraction (U/T)", "Load balance (U/max U)", "Communication-free (U/A)",
                               "Active fraction (A/T)"})
        CHECK(chart.find(std::string(">") + legend + "</text>") != std::string::npos);

    // Beyond 8 devices: the minimum, mean and maximum of each factor over them, one group each.
    std::vector<DeviceSpec> specs;
    for (int d = 0; d < 10; ++d) specs.push_back({"h:" + std::to_string(d) + ":0", 100.0 + 50 * d, 100});
    json many = makeReport(specs, 1000, {"k"});
    chart = svg::deviceEfficiencyChart(modelOf(many));
    CHECK(chart.find("over 10 devices") != std::string::npos);
    for (const char* group : {">Minimum<", ">Average (10 devices)<", ">Maximum<"})
        CHECK(chart.find(group) != std::string::npos);
    CHECK(chart.find("h:3:0") == std::string::npos);
    // No time to divide by (an empty window, nothing measured): no chart.
    CHECK(svg::deviceEfficiencyChart(modelOf(makeReport({{"z:1:0", 0, 0}}, 0, {"k"}))).empty());
}

TEST_CASE("compare: strong scaling of a 1-device and a 2-device run") {
    // ref: U = 800 in a window of 1000; run: U = 500 + 500 in a window of 600.
    json one = makeReport({{"a:1:0", 800, 100}}, 1000, {"gemm", "nccl"});
    json two = makeReport({{"b:1:0", 500, 50}, {"b:2:0", 500, 60}}, 600, {"gemm"});
    auto c = compareReports(modelsOf({one, two}), {"1 GPU", "2 GPUs"});
    double pe2 = 1000.0 / (2 * 600), scalability = 800.0 / 1000.0, speedup = 1000.0 / 600.0;
    const json& runs = c.json["scaling"]["runs"];
    REQUIRE(runs.size() == 2);
    CHECK(c.json["reference"]["label"] == "1 GPU");
    CHECK(runs[1]["speedup"].get<double>() == doctest::Approx(speedup));
    CHECK(runs[1]["computational_scalability"]["nccl_as_communication"].get<double>() ==
          doctest::Approx(scalability));
    CHECK(runs[1]["global_efficiency"]["nccl_as_communication"].get<double>() ==
          doctest::Approx(pe2 * scalability));
    CHECK(runs[0]["global_efficiency"]["nccl_as_communication"].get<double>() == doctest::Approx(0.8));
    // nccl_as_useful: U(ref) = 900, U(run) = 550 + 560.
    CHECK(runs[1]["computational_scalability"]["nccl_as_useful"].get<double>() ==
          doctest::Approx(900.0 / 1110.0));
    CHECK(c.json["runs"][1]["difference_pp"]["nccl_as_communication"]["parallel_efficiency"].get<double>() ==
          doctest::Approx((pe2 - 0.8) * 100));
    CHECK(c.markdown.find(percent(pe2) + " (+3.33" + NB + "pp)") != std::string::npos);
    CHECK(c.markdown.find("1.67x") != std::string::npos);
    CHECK(c.markdown.find(percent(pe2 * scalability)) != std::string::npos);
    CHECK(c.json["warnings"].empty());

    // Given in the other order, the reference is still the run with the fewest devices; weak scaling x
    // n/n_ref.
    auto w = compareReports(modelsOf({two, one}), {"2 GPUs", "1 GPU"},
                            {.weak = true, .reference = {}, .gates = {}});
    CHECK(w.json["reference"]["label"] == "1 GPU");
    CHECK(w.markdown.find("the run with the fewest devices") != std::string::npos);
    CHECK(w.json["scaling"]["runs"][0]["computational_scalability"]["nccl_as_communication"].get<double>() ==
          doctest::Approx(scalability * 2));
}

TEST_CASE("compare: wrong schema is an error naming the run, unrelated runs a warning") {
    json one = makeReport({{"a:1:0", 800, 100}}, 1000, {"gemm"});
    json bad = one;
    bad["schema"] = "gpueff-report/0";
    CHECK_THROWS_WITH_AS(checkReportSchema(bad, "old-run/report.json"),
                         doctest::Contains("old-run/report.json: not a gpueff report"), gpueff::Error);
    CHECK_THROWS_WITH_AS(modelOf(bad), doctest::Contains("schema"), gpueff::Error);
    json other = makeReport({{"b:1:0", 700, 100}}, 1000, {"conv2d"});
    auto c = compareReports(modelsOf({one, other}), {});
    REQUIRE(c.json["warnings"].size() == 1);
    CHECK(c.json["warnings"][0].get<std::string>().find("no kernel name in common") != std::string::npos);
    CHECK(c.markdown.find("**Warning:** runs \"run 1\" and \"run 2\" have no kernel name in common") !=
          std::string::npos);
    CHECK(c.json["scaling"].is_null()); // same device count
}

namespace {
// report.json's times are integers (nlohmann writes gpueff's int64 ns as digits), and compare refuses 100.0
// for one: the hand-made reports compute theirs as doubles, written here as the integers they are.
} // namespace

TEST_CASE("compare subcommand: writes the comparison, fails cleanly on a missing file") {
    auto dir = testsupport::tempDir("compare-cli");
    std::filesystem::create_directories(dir / "base");
    std::ofstream(dir / "base" / "report.json")
        << completeForSchema(makeReport({{"a:1:0", 800, 100}}, 1000, {"gemm"})).dump();
    std::ofstream(dir / "scaled.json")
        << completeForSchema(makeReport({{"b:1:0", 500, 50}, {"b:2:0", 500, 60}}, 600, {"gemm"})).dump();
    auto bin = "'" + testsupport::gpueffBinary().string() + "' compare ";
    auto out = dir / "cmp" / "compare.md", outJson = dir / "cmp" / "compare.json";
    auto r = testsupport::run(bin + "'" + (dir / "base").string() + "' '" + (dir / "scaled.json").string() +
                              "' -o '" + (dir / "cmp").string() + "'");
    CAPTURE(r.output);
    CHECK(r.exitCode == 0);
    REQUIRE(std::filesystem::exists(out));
    std::ifstream in(out);
    std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(md.find("| base |") != std::string::npos); // label from the directory name
    CHECK(md.find("| scaled |") != std::string::npos);
    CHECK(json::parse(std::ifstream(outJson))["reference"]["label"] == "base");

    auto missing = dir / "nope" / "report.json";
    auto out2 = dir / "cmp2";
    r = testsupport::run(bin + "'" + (dir / "base").string() + "' '" + missing.string() + "' -o '" +
                         out2.string() + "'");
    CHECK(r.exitCode != 0);
    CHECK(r.output.find(missing.string()) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out2));

    r = testsupport::run(bin + "'" + (dir / "base").string() + "' x.sqlite -o '" + out2.string() + "'");
    CHECK(r.exitCode != 0);
    CHECK(r.output.find("x.sqlite") != std::string::npos); // a trace input is analyzed: it must exist
    CHECK_FALSE(std::filesystem::exists(out2));
    for (const auto& e : std::filesystem::directory_iterator(dir))
        CHECK(e.path().string().find(".tmp") == std::string::npos); // no temporary left behind
}

TEST_CASE("kernel categories: the first matching row of the documented table names a kernel's kind") {
    using gpueff::metrics::categoryOf;
    CHECK(categoryOf("ncclDevKernel_AllReduce_Sum_f32_RING_LL") == "NCCL"); // "Reduce", yet NCCL
    CHECK(categoryOf("void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, cutlass::bfloat16_t>>") ==
          "attention"); // cutlass inside, yet attention
    CHECK(categoryOf("nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN") == "GEMM");
    CHECK(categoryOf("ampere_sgemm_128x64_tn") == "GEMM");
    CHECK(categoryOf("void at::native::vectorized_layer_norm_kernel<float, float>") == "reduction");
    CHECK(categoryOf("void at::native::vectorized_elementwise_kernel<4, CUDAFunctor_add<float>>") ==
          "elementwise");
    CHECK(categoryOf("my_custom_stencil") == "other kernels");
}

TEST_CASE("render: kernels without a launch call are said where the figures count them out") {
    json r = makeReport({{"a:1:0", 800, 100}}, 1000, {"k"});
    r["devices"][0]["kernels"] = 100;
    r["devices"][0]["kernels_with_launch"] = 48;
    r["gaps"] = {{{"device", "a:1:0"}, {"count", 1}, {"total_ns", 10}}};
    auto md = render(r).markdown;
    auto gaps = md.substr(md.find("## GPU idle gaps"));
    CHECK(gaps.find("Launch calls found for only part of the kernels (a:1:0 48.00 %)") != std::string::npos);
    r["devices"][0]["kernels_with_launch"] = 95;
    CHECK(render(r).markdown.find("Launch calls found for only part") == std::string::npos);
}

TEST_CASE("render: tensor cores, duration modes, kinds of work and idle gaps from the report model") {
    // Two devices of task 1 (labels from task and gpu: rank 0 / GPU 0 and 1); hand-worked figures below.
    json r = makeReport({{"a:1:0", 800, 100}, {"a:1:1", 500, 100}}, 1000, {"gemmA"});
    for (int d = 0; d < 2; ++d) {
        r["devices"][d].erase("label");
        r["devices"][d]["gpu"] = d;
    }
    // gemmA ran on both tasks at 40 % and 60 %: average 50, maximum 60, minimum 40, standard deviation
    // sqrt(((40-50)^2 + (60-50)^2) / 2) = 10, average / maximum = 0.8333. gemmB ran on neither: no
    // statistics.
    r["tensor_core"] = {{"available", true},
                        {"metric", "Tensor Active [Throughput %]"},
                        {"kernels", {"gemmA", "gemmB"}},
                        {"tasks",
                         {{{"task", 1},
                           {"device", "a:1:0"},
                           {"tensor_active_percent", {{"gemmA", 40.0}, {"gemmB", nullptr}}}},
                          {{"task", 1},
                           {"device", "a:1:1"},
                           {"tensor_active_percent", {{"gemmA", 60.0}, {"gemmB", nullptr}}}}}},
                        {"rows",
                         {{"Average", {{"gemmA", 50.0}}},
                          {"Maximum", {{"gemmA", 60.0}}},
                          {"Minimum", {{"gemmA", 40.0}}},
                          {"StDev", {{"gemmA", 10.0}}},
                          {"Avg/Max", {{"gemmA", 50.0 / 60.0}}}}}};
    r["kernel_durations"] = {{{"name", "gemmA"},
                              {"instances", 4},
                              {"bins",
                               {{{"lower_ns", 40}, {"upper_ns", 100}, {"count", 1}},
                                {{"lower_ns", 100}, {"upper_ns", 200}, {"count", 3}}}},
                              {"modes_ns", {150, 50, 120, 180}}}};
    // 300 of 400 ns GEMM, 100 memory: 75 % and 25 %.
    r["kernel_categories"] = {{{"category", "GEMM"}, {"time_ns", 300}, {"instances", 3}},
                              {{"category", "memory"}, {"time_ns", 100}, {"instances", 2}}};
    // Device 0: 3 gaps under 1 us (400 ns), 1 of 1 us or more (600 ns); device 1 never idle (no bars).
    r["gaps"] = {{{"device", "a:1:0"},
                  {"count", 4},
                  {"total_ns", 1000},
                  {"host_wait_count", 1},
                  {"host_wait_ns", 600},
                  {"kernel_wait_count", 3},
                  {"kernel_wait_ns", 400},
                  {"by_duration",
                   {{{"lower_ns", 0}, {"upper_ns", 1000}, {"count", 3}, {"time_ns", 400}},
                    {{"lower_ns", 1000}, {"upper_ns", nullptr}, {"count", 1}, {"time_ns", 600}}}}},
                 {{"device", "a:1:1"}, {"count", 0}, {"total_ns", 0}}};
    auto rendered = render(r);
    const auto& md = rendered.markdown;
    auto pc = [](const char* v) { return std::string(v) + NB + "%"; };
    CHECK(lineOf(md, "gemmA", "## Tensor-core use") == "| gemmA | " + pc("50.00") + " | " + pc("60.00") +
                                                           " | " + pc("40.00") + " | " + pc("10.00") +
                                                           " | 0.83 |");
    CHECK(lineOf(md, "gemmB", "## Tensor-core use") == "| gemmB | n/a | n/a | n/a | n/a | n/a |");
    CHECK(md.find("| Task 1 (rank 0 / GPU 1) | gemmA | " + pc("60.00") + " |") != std::string::npos);
    CHECK(md.find("| Task 1 (rank 0 / GPU 0) | gemmB | n/a |") != std::string::npos);
    CHECK(md.find("Time-weighted mean of \"Tensor Active \\[Throughput %\\]\"") != std::string::npos);
    // The first three modes, then an ellipsis; the range from the first bin's lower to the last one's upper.
    CHECK(lineOf(md, "gemmA", "### Duration distribution") == "| gemmA | 4 | 150" + NB + "ns, 50" + NB +
                                                                  "ns, 120" + NB + "ns, \xE2\x80\xA6 | 40" +
                                                                  NB + "ns - 200" + NB + "ns |");
    CHECK(lineOf(md, "GEMM", "## Where the GPU time went") ==
          "| GEMM | 300" + NB + "ns | " + pc("75.00") + " | 3 |");
    CHECK(lineOf(md, "memory", "## Where the GPU time went") ==
          "| memory | 100" + NB + "ns | " + pc("25.00") + " | 2 |");
    CHECK(lineOf(md, "rank 0 / GPU 0", "## GPU idle gaps") ==
          "| rank 0 / GPU 0 | 4 | 1.000" + NB + "\xC2\xB5s | 600" + NB + "ns (1) | 400" + NB + "ns (3) |");
    CHECK(lineOf(md, "rank 0 / GPU 1", "## GPU idle gaps") ==
          "| rank 0 / GPU 1 | 0 | 0" + NB + "ns | 0" + NB + "ns (0) | 0" + NB + "ns (0) |");

    // The charts: bars standing on the plot frame's bottom, in the first run colour, as high as their shares.
    auto barsOf = [&](const std::string& path) {
        std::string chart;
        for (const auto& [p, text] : rendered.files)
            if (p == path) chart = text;
        std::vector<double> shares;
        auto all = rects(chart);
        const std::map<std::string, std::string>* frame = nullptr;
        for (const auto& e : all)
            if (e.count("fill") && e.at("fill") == "none") frame = &e;
        if (!frame) return std::make_pair(chart, shares);
        double bottom = attr(*frame, "y") + attr(*frame, "height"), height = attr(*frame, "height");
        std::vector<std::pair<double, double>> byX;
        for (const auto& e : all)
            if (e.count("fill") && e.at("fill") == svg::kRunColours[0] &&
                std::abs(attr(e, "y") + attr(e, "height") - bottom) < 0.11 && attr(e, "height") > 0)
                byX.emplace_back(attr(e, "x"), attr(e, "height") / height);
        std::sort(byX.begin(), byX.end());
        for (auto [x, share] : byX) shares.push_back(share);
        return std::make_pair(chart, shares);
    };
    auto [categories, categoryBars] = barsOf("plots/kernel_categories.svg");
    REQUIRE(categoryBars.size() == 2);
    CHECK(std::abs(categoryBars[0] * 1000 - 750) <= 1.1); // to 0.1 px of a plot over 100 px high
    CHECK(std::abs(categoryBars[1] * 1000 - 250) <= 1.1);
    auto [gapChart, gapBars] = barsOf("plots/gap_durations.svg");
    CAPTURE(gapChart);
    REQUIRE(gapBars.size() == 2);
    CHECK(std::abs(gapBars[0] * 1000 - 400) <= 1.1);
    CHECK(std::abs(gapBars[1] * 1000 - 600) <= 1.1);
    CHECK(gapChart.find(">&lt; 1 \xC2\xB5s<") != std::string::npos);
    CHECK(gapChart.find(">\xE2\x89\xA5 1 \xC2\xB5s<") != std::string::npos);
    CHECK(gapChart.find("rank 0 / GPU 0") != std::string::npos);
    CHECK(gapChart.find("rank 0 / GPU 1") == std::string::npos);
    CHECK(gapChart.find("a:1:0") == std::string::npos);
}

TEST_CASE("render: iterations and phases name devices by label and print n/a where a figure is null") {
    // Two devices: "a:1:0" is rank 0 / GPU 0, "a:2:0" rank 1 / GPU 0 (no labels: built from task and gpu).
    json r = makeReport({{"a:1:0", 800, 100}, {"a:2:0", 500, 100}}, 1000, {"k"});
    r["devices"][0].erase("label");
    r["devices"][1].erase("label");
    r["devices"][1]["task"] = 2;
    r["iteration_detection"] = {
        {"source", "markers"}, {"pattern", "step_#"}, {"placement", "host"}, {"steady", 3}};
    // Iteration 0 warm-up; 1 to 3 steady, rank 1 last in 1 (lag 100) and 2 (lag 300): 2 of 3, 200 ns on
    // average. Iteration 1 has no overlap share (null), 2 one of 50 %.
    json straggler = {{"device", "a:2:0"}, {"useful_end_ns", 0}, {"lag_ns", 100}};
    r["iterations"] = {{{"status", "warm-up"}, {"duration_ns", 500}},
                       {{"status", "steady"}, {"duration_ns", 200}, {"straggler", straggler}},
                       {{"status", "steady"}, {"duration_ns", 200}, {"overlap_share", 0.5}},
                       {{"status", "steady"}, {"duration_ns", 200}}};
    r["iterations"][2]["straggler"] = straggler;
    r["iterations"][2]["straggler"]["lag_ns"] = 300;
    r["iterations"][3]["efficiency"]["nccl_as_communication"]["parallel_efficiency"] = nullptr;
    r["focus"] = {{"first", 1}, {"last", 3}, {"duration_ns", 600}};
    r["focus"]["efficiency"]["nccl_as_communication"]["parallel_efficiency"] = nullptr;
    r["phases"] = {{{"name", "forward"}, {"iterations", 3}, {"mean_ns", 120.0}}};
    // 4 collectives; rank 1 last at 3 of them (75 %).
    r["collectives"] = {
        {"matched", 4},
        {"instances",
         {{{"kernel", "ncclAllReduce"},
           {"sequence", 2},
           {"first_arrival_ns", 0},
           {"skew_ns", 400},
           {"last_device", "a:2:0"}}}},
        {"devices",
         {{{"device", "a:2:0"}, {"last_count", 3}, {"last_percent", 75.0}, {"wait_caused_ns", 900}},
          {{"device", "a:1:0"}, {"last_count", 0}, {"last_percent", 0.0}, {"wait_caused_ns", 0}}}},
        {"notes", json::array()}};
    // gemm: median 150 ns overlapped, 100 ns alone (1.5x); "lonely" never overlapped: no slowdown, no row.
    r["kernel_overlap"] = {
        {{"name", "gemm"},
         {"overlapped", {{"instances", 2}, {"med_ns", 150.0}}},
         {"alone", {{"instances", 3}, {"med_ns", 100.0}}},
         {"slowdown", 1.5}},
        {{"name", "lonely"}, {"overlapped", nullptr}, {"alone", {{"instances", 1}}}, {"slowdown", nullptr}}};
    auto rendered = render(r);
    const auto& md = rendered.markdown;
    CAPTURE(md);
    auto levels = md.substr(md.find("## Iterations and phases"));
    levels = levels.substr(0, levels.find("\n## "));
    CHECK(levels.find("a:2:0") == std::string::npos); // ids are printed as labels
    CHECK(md.find("Not steady: 0 (warm-up, 500 ns).") != std::string::npos);
    auto first = lineOf(md, "1", "### Steady iterations");
    CHECK(first.find("| n/a | rank 1 / GPU 0 +100") != std::string::npos);
    CHECK(lineOf(md, "2", "### Steady iterations").find("| " + percent(0.5) + " | rank 1 / GPU 0 +300") !=
          std::string::npos);
    CHECK(lineOf(md, "3", "### Steady iterations").ends_with("| n/a | n/a |")); // no overlap, no straggler
    CHECK(md.find(
              "- rank 1 / GPU 0 ended its useful work last in 2 of the 3 steady iterations, 200 ns after") !=
          std::string::npos);
    CHECK(md.find("### Focus of analysis: iterations 1 to 3") != std::string::npos);
    CHECK(lineOf(md, "Parallel efficiency", "### Focus of analysis").find("| n/a |") != std::string::npos);
    CHECK(lineOf(md, "forward", "### Phases").find("| 3 | 120" + NB + "ns |") != std::string::npos);
    CHECK(md.find("- rank 1 / GPU 0 arrived last in 75") != std::string::npos);
    CHECK(md.find("- rank 0 / GPU 0 arrived last") == std::string::npos); // last at none
    CHECK(lineOf(md, "ncclAllReduce", "Largest arrival skews").find("| rank 1 / GPU 0 |") !=
          std::string::npos);
    CHECK(lineOf(md, "gemm", "### Are all kernels born equal").find("| 1.50x |") != std::string::npos);
    CHECK(lineOf(md, "lonely", "### Are all kernels born equal").empty());
    // The chart: the warm-up shaded, a quarter of the plot wide from its left edge; parallel efficiency (the
    // heavier line) at the run's 65 % through the iterations that have it: 0 to 2 (3 has none).
    std::string chart;
    for (const auto& [path, svg] : rendered.files)
        if (path == "plots/iteration_efficiency.svg") chart = svg;
    REQUIRE_FALSE(chart.empty());
    const std::map<std::string, std::string>* frame = nullptr;
    std::vector<std::map<std::string, std::string>> shaded;
    auto all = rects(chart);
    for (const auto& e : all) {
        if (e.count("fill") && e.at("fill") == "none") frame = &e;
        if (e.count("fill") && e.at("fill") == "#dddddd") shaded.push_back(e);
    }
    REQUIRE(frame);
    REQUIRE(shaded.size() == 1);
    CHECK(std::abs(attr(shaded[0], "x") - attr(*frame, "x")) < 0.1);
    CHECK(std::abs(attr(shaded[0], "width") - attr(*frame, "width") / 4) < 0.1);
    static const std::regex heavy("stroke-width=\"2.5\" points=\"([^\"]*)\""), point("[-0-9.]+,([-0-9.]+)");
    std::smatch line;
    REQUIRE(std::regex_search(chart, line, heavy));
    std::string points = line[1];
    std::vector<double> ys;
    for (std::sregex_iterator p(points.begin(), points.end(), point), end; p != end; ++p)
        ys.push_back(std::stod((*p)[1]));
    CHECK(ys.size() == 3);
    const double y65 = attr(*frame, "y") + attr(*frame, "height") * (1 - 0.65);
    for (double y : ys) CHECK(std::abs(y - y65) < 0.1);
}

TEST_CASE("render: kernels in flight with memory, no launch queue and overlap without statistics, by label") {
    // Two devices of task 1 (labels from task and gpu: rank 0 / GPU 0 and 1), a window of 1000 ns.
    json r = makeReport({{"a:1:0", 800, 100}, {"a:1:1", 500, 100}}, 1000, {"k"});
    for (int d = 0; d < 2; ++d) {
        r["devices"][d].erase("label");
        r["devices"][d]["gpu"] = d;
    }
    // Device 1's mean is null: the table's own mean of its histogram, 0. With memory, device 0 spends 100,
    // 300 and 600 of 1000 ns at 0, 1 and 2: mean (300 + 1200) / 1000 = 1.50, maximum 2 (both left to the
    // renderer, the report giving neither for that histogram).
    r["kernels_in_flight"] = {{{"device", "a:1:0"},
                               {"time_ns_by_count", {{"0", 400}, {"1", 600}}},
                               {"with_memory_time_ns_by_count", {{"0", 100}, {"1", 300}, {"2", 600}}},
                               {"maximum", 1},
                               {"mean", 0.6}},
                              {{"device", "a:1:1"},
                               {"time_ns_by_count", {{"0", 1000}}},
                               {"with_memory_time_ns_by_count", {{"0", 1000}}},
                               {"maximum", 0},
                               {"mean", nullptr}}};
    // Device 0 communicates 200 ns: 50 alone, 150 beside one other activity. Device 1 never communicates:
    // no share of its communication (n/a), 0 % of the window. No overlap_table: no statistics rows.
    r["overlap"] = {{{"device", "a:1:0"},
                     {"communication_ns", 200},
                     {"time_ns_by_concurrency", {{"1", 50}, {"2", 150}}},
                     {"fraction_of_communication", {{"1", 0.25}, {"2", 0.75}}},
                     {"fraction_of_window", {{"1", 0.05}, {"2", 0.15}}}},
                    {{"device", "a:1:1"},
                     {"communication_ns", 0},
                     {"time_ns_by_concurrency", json::object()},
                     {"fraction_of_communication", json::object()},
                     {"fraction_of_window", json::object()}}};
    // Four bins of 0.25 ms; device 0 runs up to 3.5 kernels at once: strips of 0 to 4.
    r["timeline"] = {{"bins", 4},
                     {"bin_ns", 250000.0},
                     {"devices",
                      {{{"device", "a:1:0"},
                        {"kernels_in_flight", {0.0, 1.0, 2.0, 3.5}},
                        {"useful", {0.5, 1.0, 0.0, 0.25}},
                        {"communication", {0.25, 0.0, 0.0, 0.5}}},
                       {{"device", "a:1:1"},
                        {"kernels_in_flight", {0.0, 0.0, 0.0, 0.0}},
                        {"useful", {0.0, 0.0, 0.0, 0.0}},
                        {"communication", {0.0, 0.0, 0.0, 0.0}}}}}};
    auto rendered = render(r);
    const auto& md = rendered.markdown;
    const std::string inFlight = "kernels (compute + NCCL + graph launches) executing",
                      withMemory = "kernels and memory operations executing";
    CHECK(lineOf(md, "rank 0 / GPU 0", inFlight) ==
          "| rank 0 / GPU 0 | " + percent(0.4) + " | " + percent(0.6) + " | 0.60 | 1 |");
    CHECK(lineOf(md, "rank 0 / GPU 1", inFlight) ==
          "| rank 0 / GPU 1 | " + percent(1) + " | " + percent(0) + " | 0.00 | 0 |");
    CHECK(lineOf(md, "rank 0 / GPU 0", withMemory) == "| rank 0 / GPU 0 | " + percent(0.1) + " | " +
                                                          percent(0.3) + " | " + percent(0.6) +
                                                          " | 1.50 | 2 |");
    CHECK(md.find("## Kernels queued\n\nn/a: not computed for this trace") != std::string::npos);
    CHECK(lineOf(md, "rank 0 / GPU 0", "### Share of communication time") ==
          "| rank 0 / GPU 0 | " + percent(0.25) + " | " + percent(0.75) + " |");
    CHECK(lineOf(md, "rank 0 / GPU 1", "### Share of communication time") ==
          "| rank 0 / GPU 1 | n/a | n/a |");
    CHECK(lineOf(md, "rank 0 / GPU 1", "### Share of window time") ==
          "| rank 0 / GPU 1 | " + percent(0) + " | " + percent(0) + " |");
    CHECK(md.find("**Total**") == std::string::npos);
    // Devices by label: their ids only in the table of where each device is, before these sections.
    CHECK(md.find("a:1:0", md.find("## Kernels in flight")) == std::string::npos);
    std::string lines;
    for (const auto& [path, text] : rendered.files)
        if (path == "plots/kernels_in_flight_timeline.svg") lines = text;
    CAPTURE(lines);
    CHECK(lines.find("0 to 4 per strip") != std::string::npos);
    CHECK(lines.find("rank 0 / GPU 1") != std::string::npos);
}
