// The executive summary family of the report model (reports/model/SummaryFamily.h) on HAND-MADE summaries:
// written to report.json and read back through the schema, and its section at the top of report.md. The
// expected text is worked out below from the fixture's numbers and the documented formats (docs/report.md),
// not read off the renderer.
#include "reports/ReportMarkdown.h"
#include "reports/model/ReportIo.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

using nlohmann::json;
using namespace gpueff::reports;

namespace {

// A report holding nothing but what the schema requires, so the summary is the only section with content.
model::Report bareReport() {
    model::Report m;
    m.tool = {"gpueff", "0.4.0"};
    m.window = {0, 1000, 1000, "gpu-activity", {}};
    m.inputs.push_back({"x.sqlite", std::nullopt, std::nullopt, 0, {}, {}, {}, {}, {}});
    model::Device d;
    d.id = "a:1:0";
    d.task = 1;
    d.name = "GPU";
    d.rows = 1;
    m.devices.push_back(d);
    m.efficiency.ncclAsCommunication.devices = {{"a:1:0", 0, 0, 1000}};
    m.efficiency.ncclAsUseful.devices = {{"a:1:0", 0, 0, 1000}};
    m.tensorCore.reason = std::string("hand-made report"); // the lists required stay empty
    return m;
}

model::Summary::Loss loss(std::string factor, std::optional<double> efficiency, std::int64_t lostNs,
                          std::optional<double> share, std::string evidence, std::string recommendation) {
    return {std::move(factor), efficiency, lostNs, share, std::move(evidence), std::move(recommendation)};
}

// Written as report.json, read back (schema, then the strict decoder) and rendered, as a saved report is.
model::Report roundTrip(const model::Report& m) {
    return model::readReport(json::parse(model::writeReport(m).dump()), "summary.json");
}

std::string summaryOf(const std::string& markdown) {
    auto begin = markdown.find("## Summary");
    if (begin == std::string::npos) return "";
    return markdown.substr(begin, markdown.find("## Inputs") - begin);
}

} // namespace

TEST_CASE("summary: the losses above half a percent, largest first, with n/a where a value is null") {
    model::Report m = bareReport();
    model::Summary s;
    s.computable = true;
    s.parallel = std::optional<double>(0.65);
    s.deviceTimeNs = 2000; // 2 devices x 1000 ns
    s.lostNs = 700;        // 2000 - 1300 useful: 400 + 292 + 8
    s.losses = {loss("communication", 0.8, 400, 400.0 / 2000, "GPU*0 communicated", "overlap <them>"),
                loss("load balance", std::nullopt, 292, 292.0 / 2000, "e_2", "r2"),
                loss("orchestration", 0.996, 8, 8.0 / 2000, "idle", "launch earlier")};
    m.summary = s;
    auto read = roundTrip(m);
    REQUIRE(read.summary);
    CHECK(read.summary->losses.size() == 3);
    CHECK_FALSE(read.summary->losses[1].efficiency);

    // 0.65 is orange (0.6 <= PE < 0.7); 2000 ns is 2.000 µs; 400 / 2000 = 20.00 %, 292 / 2000 = 14.60 %;
    // orchestration's 8 / 2000 = 0.4 % is under half a percent and left out. Markdown specials escaped.
    CHECK(summaryOf(renderMarkdownReport(read).markdown) ==
          "## Summary\n\nParallel efficiency \xF0\x9F\x9F\xA7 65.00 %: of 2.000 \xC2\xB5s of device time "
          "(window x devices), 700 ns went to no useful work (NCCL counted as communication). Where it went, "
          "largest first:\n\n"
          "1. **Communication efficiency 80.00 %**: 400 ns (20.00 % of the device time). Evidence: GPU\\*0 "
          "communicated. Next: overlap &lt;them&gt;.\n"
          "2. **Load balance efficiency n/a**: 292 ns (14.60 % of the device time). Evidence: e\\_2. Next: "
          "r2.\n\n");
}

TEST_CASE("summary: a null parallel efficiency and shares prints n/a and the no-factor line") {
    model::Report m = bareReport();
    model::Summary s;
    s.computable = true;
    s.parallel = std::optional<double>(); // written as null
    s.deviceTimeNs = 0;
    s.lostNs = 0;
    s.losses = {loss("orchestration", std::nullopt, 0, std::nullopt, "e", "r")};
    m.summary = s;
    auto document = model::writeReport(m);
    CHECK(document["summary"]["parallel_efficiency"].is_null());
    CHECK(document["summary"]["losses"][0]["lost_share"].is_null());
    CHECK(summaryOf(renderMarkdownReport(roundTrip(m)).markdown) ==
          "## Summary\n\nParallel efficiency n/a: of 0 ns of device time (window x devices), 0 ns went to no "
          "useful work (NCCL counted as communication). Where it went, largest first:\n\n"
          "No factor loses more than half a percent of the device time.\n\n");
}

TEST_CASE("summary: not computable or absent, no section, and not computable writes no figures") {
    model::Report m = bareReport();
    m.summary = model::Summary{}; // not computable: no useful time
    auto document = model::writeReport(m);
    CHECK(document["summary"] == json({{"computable", false}, {"losses", json::array()}}));
    auto read = roundTrip(m);
    REQUIRE(read.summary);
    CHECK_FALSE(read.summary->computable);
    CHECK_FALSE(read.summary->deviceTimeNs);
    CHECK(renderMarkdownReport(read).markdown.find("## Summary") == std::string::npos);

    m.summary = model::Omitted<model::Summary>(); // a report without the key (the schema does not require it)
    CHECK_FALSE(model::writeReport(m).contains("summary"));
    auto bare = roundTrip(m);
    CHECK_FALSE(bare.summary);
    CHECK(renderMarkdownReport(bare).markdown.find("## Summary") == std::string::npos);
}
