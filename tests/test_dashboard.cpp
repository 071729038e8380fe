// `gpueff dashboard` (docs/dashboard.md): the index's figures against each report's own (an oracle summing
// report.json's iterations, DashboardFixture.h) and against `gpueff compare` on the same pair, the run
// order against the exports' session starts (SQL), the flat export against a sweep over report.json, the
// runs file, bad inputs and the all-or-nothing site.
#include "DashboardFixture.h"
#include "TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <set>
#include <sstream>

using namespace testsupport;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json readJson(const fs::path& p) {
    return json::parse(readText(p));
}

CommandResult dashboard(const std::string& args) {
    return run(quoted(gpueffBinary()) + " dashboard " + args + " 2>&1");
}

std::string pairInputs() {
    return quoted(analyzedPair() / "before") + " " + quoted(analyzedPair() / "after");
}

void checkClose(double actual, double expected) {
    CHECK(actual == doctest::Approx(expected).epsilon(1e-9));
}

std::int64_t sessionStart(const char* sample) {
    return queryInt(dataDir() / "nsys" / (std::string(sample) + ".sqlite"),
                    "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

} // namespace

TEST_CASE("dashboard: the index of two real runs equals their reports' figures and gpueff compare") {
    auto dir = tempDir("dashboard_index");
    // Given in the reverse order: the default order is by session start.
    auto r = dashboard(quoted(analyzedPair() / "after") + " " + quoted(analyzedPair() / "before") + " -o " +
                       quoted(dir / "site"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto index = scriptData(dir / "site" / "data" / "index.js", "gpueffIndex");
    REQUIRE(index["runs"].size() == 2);
    CHECK(index["runs"][0]["label"] == "before");
    CHECK(index["runs"][1]["label"] == "after");
    // When each window began: the export's session start (SQL) plus the window's begin in export time.
    for (std::size_t i = 0; i < 2; ++i) {
        const char* sample = i == 0 ? "mfu_2gpu_h100_nccl" : "mfu_2gpu_h100_nccl_after";
        auto report = readJson(analyzedPair() / (i == 0 ? "before" : "after") / "report.json");
        CHECK(index["runs"][i]["start_utc_ns"] == sessionStart(sample) +
                                                      report["window"]["begin_ns"].get<std::int64_t>() -
                                                      report["inputs"][0]["offset_ns"].get<std::int64_t>());
    }
    CHECK(index["reference"] == "before");

    for (std::size_t i = 0; i < 2; ++i) {
        const auto& run = index["runs"][i];
        auto report = readJson(analyzedPair() / run["label"].get<std::string>() / "report.json");
        auto oracle = unitOracle(report);
        CAPTURE(run["label"]);
        CHECK(run["unit"] == "iteration");
        CHECK(run["steady_iterations"] == oracle.steady);
        checkClose(run["iteration_time_ns"], oracle.iterationNs);
        CHECK(run["devices"] == report["devices"].size());
        for (const auto& [convention, factors] : oracle.factors.items())
            for (const auto& [key, value] : factors.items())
                checkClose(run["efficiency"][convention][key], value.get<double>());
        // The data of the run's page is its report.json as it is.
        auto page = scriptData(dir / "site" / "runs" / (run["id"].get<std::string>() + ".js"), "gpueffRun");
        CHECK(page["report"] == report);
        CHECK(page["label"] == run["label"]);
    }

    // The comparative figures and the regression are compare's on the same pair.
    auto c = run(quoted(gpueffBinary()) + " compare " + pairInputs() + " --labels before,after -q -o " +
                 quoted(dir / "cmp") + " --gate 'iteration_time<=+1%'");
    CHECK(c.exitCode == 4); // "after" is slower beyond the noise
    auto cmp = readJson(dir / "cmp" / "compare.json");
    const auto& figures = cmp["comparative"]["runs"][1]["figures"];
    for (const char* conv : {"nccl_as_communication", "nccl_as_useful"}) {
        checkClose(index["runs"][1]["global_efficiency"][conv], figures["global_efficiency"][conv]["value"]);
        checkClose(index["runs"][1]["computational_efficiency"][conv],
                   figures["computational_efficiency"][conv]["value"]);
    }
    checkClose(index["runs"][1]["speedup"], figures["speedup"]["value"]);
    CHECK(index["runs"][0]["regression"] == false);
    CHECK(index["runs"][0]["gates"].empty());
    CHECK(index["runs"][1]["regression"] == true);
    CHECK(index["runs"][1]["gates"][0]["detail"] == cmp["gates"][0]["detail"]);

    // Badges of the latest run: its parallel efficiency, two decimals as report.md writes it.
    auto after = unitOracle(readJson(analyzedPair() / "after" / "report.json"));
    char pe[32];
    std::snprintf(pe, sizeof pe, "%.2f %%",
                  after.factors["nccl_as_communication"]["parallel_efficiency"].get<double>() * 100);
    auto badge = readText(dir / "site" / "badges" / "parallel_efficiency.svg");
    CHECK(badge.find(std::string(">") + pe + "</text>") != std::string::npos);

    // The pages, the charting library with its copyright, and links from a run's page that resolve.
    for (const char* f :
         {"index.html", "run.html", "scaling.html", "assets/dygraph.min.js", "assets/dygraphs.copyright.txt",
          "assets/common.js", "assets/tables.js", "assets/charts.js", "assets/run.js",
          "assets/run-efficiency.js", "assets/run-levels.js", "assets/run-kernels.js", "assets/run-host.js",
          "assets/gpueff.css"})
        CHECK_MESSAGE(fs::is_regular_file(dir / "site" / f), f);
    auto page = scriptData(dir / "site" / "runs" / "r0001.js", "gpueffRun");
    std::set<std::string> names;
    for (const auto& link : page["links"]) {
        names.insert(link["name"]);
        CHECK_MESSAGE(fs::is_regular_file(dir / "site" / link["href"].get<std::string>()), link["href"]);
    }
    for (const char* n : {"report.md", "report.json", "trace (.prv)", "names (.pcf)", "rows (.row)"})
        CHECK_MESSAGE(names.count(n), n);
}

TEST_CASE("dashboard: a Kineto trace on epoch microseconds starts when its events did, not in 1970") {
    auto dir = tempDir("dashboard_kineto");
    auto trace = dataDir() / "kineto" / "trace_filter_sampled_rank-0.json.gz";
    auto r =
        run(quoted(gpueffBinary()) + " analyze " + quoted(trace) + " -q --no-trace -o " + quoted(dir / "k"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    r = dashboard(quoted(dir / "k") + " " + pairInputs() + " -q -o " + quoted(dir / "site"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto index = scriptData(dir / "site" / "data" / "index.js", "gpueffIndex");
    // The trace's first event, in epoch microseconds as the file writes it (a sweep over its JSON).
    auto events = json::parse(run("zcat " + quoted(trace)).output)["traceEvents"];
    double firstUs = 1e300;
    for (const auto& e : events)
        if (e.contains("ts") && e["ts"].is_number()) firstUs = std::min(firstUs, e["ts"].get<double>());
    REQUIRE(index["runs"].size() == 3);
    CHECK(index["runs"][0]["label"] == "k"); // April 2023, before the pair's 2026
    auto start = index["runs"][0]["start_utc_ns"].get<double>();
    CHECK(start >= firstUs * 1000 - 1);
    CHECK(start < firstUs * 1000 + 60e9); // the window begins within the trace's first minute
}

TEST_CASE("dashboard: the flat metrics export is one row per run, level, device and convention") {
    auto dir = tempDir("dashboard_metrics");
    auto r = dashboard(pairInputs() + " --labels before,after -q -o " + quoted(dir / "site") + " --metrics " +
                       quoted(dir / "m.csv"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    r = dashboard(pairInputs() + " --labels before,after -q -o " + quoted(dir / "site2") + " --metrics " +
                  quoted(dir / "m.jsonl"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto csv = lines(readText(dir / "m.csv"));
    auto jsonl = lines(readText(dir / "m.jsonl"));
    REQUIRE(!csv.empty());
    // The expected rows, swept from report.json: (level, name) -> efficiency object.
    std::vector<json> expected;
    for (const char* label : {"before", "after"}) {
        auto report = readJson(analyzedPair() / label / "report.json");
        auto level = [&](const char* kind, const std::string& name, const json& efficiency) {
            for (const char* conv : {"nccl_as_communication", "nccl_as_useful"}) {
                const auto& e = efficiency[conv];
                expected.push_back({{"run_label", label},
                                    {"level", kind},
                                    {"level_name", name},
                                    {"convention", conv},
                                    {"device", "all"},
                                    {"parallel_efficiency", e["parallel_efficiency"]},
                                    {"orchestration_efficiency", e["orchestration_efficiency"]}});
                for (const auto& d : e["devices"])
                    expected.push_back({{"run_label", label},
                                        {"level", kind},
                                        {"level_name", name},
                                        {"convention", conv},
                                        {"device", d["id"]},
                                        {"useful_ns", d["useful_ns"]},
                                        {"idle_ns", d["idle_ns"]}});
            }
        };
        level("run", "window", report["efficiency"]);
        for (const auto& it : report["iterations"])
            level("iteration", std::to_string(it["index"].get<int>()), it["efficiency"]);
        for (const auto& p : report["phases"]) level("phase", p["name"], p["efficiency"]);
    }
    REQUIRE(jsonl.size() == expected.size());
    REQUIRE(csv.size() == expected.size() + 1);
    auto header = csv[0];
    CHECK(header.rfind("run_id,run_label,source,", 0) == 0);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        auto row = json::parse(jsonl[i]);
        for (const auto& [key, value] : expected[i].items()) {
            CAPTURE(i);
            CAPTURE(key);
            if (value.is_number_float())
                checkClose(row[key], value.get<double>());
            else
                CHECK(row[key] == value);
        }
        CHECK(row.size() == static_cast<std::size_t>(std::count(header.begin(), header.end(), ',') + 1));
    }
}

TEST_CASE("dashboard: damaged reports and reports of another schema are named and skipped") {
    auto dir = tempDir("dashboard_bad");
    auto text = readText(analyzedPair() / "before" / "report.json");
    fs::create_directories(dir / "damaged");
    std::ofstream(dir / "damaged" / "report.json") << text.substr(0, text.size() / 2);
    auto foreign = json::parse(text);
    foreign["schema"] = "gpueff-report/2";
    fs::create_directories(dir / "foreign");
    std::ofstream(dir / "foreign" / "report.json") << foreign.dump();
    auto r = dashboard(quoted(dir / "damaged") + " " + quoted(dir / "foreign") + " " +
                       quoted(analyzedPair() / "after") + " -o " + quoted(dir / "site"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(r.output.find((dir / "damaged" / "report.json").string()) != std::string::npos);
    CHECK(r.output.find((dir / "foreign" / "report.json").string()) != std::string::npos);
    CHECK(r.output.find("gpueff-report/2") != std::string::npos);
    auto index = scriptData(dir / "site" / "data" / "index.js", "gpueffIndex");
    CHECK(index["runs"].size() == 1);
    CHECK(index["warnings"].size() == 2);

    // Nothing readable: an error, and no site.
    r = dashboard(quoted(dir / "damaged") + " -o " + quoted(dir / "none"));
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("no report to show") != std::string::npos);
    CHECK(!fs::exists(dir / "none"));
    // Usage errors exit 2 before any work.
    CHECK(dashboard(pairInputs() + " -o " + quoted(dir / "x") + " --order-by size").exitCode == 2);
    CHECK(dashboard(pairInputs() + " -o " + quoted(dir / "x") + " --metrics m.txt").exitCode == 2);
    CHECK(dashboard(pairInputs() + " -o " + quoted(dir / "x") + " --gate 'speed>1'").exitCode == 2);
    CHECK(dashboard(pairInputs() + " -o " + quoted(dir / "x") + " --labels a").exitCode == 2);
    CHECK(dashboard(pairInputs() + " -o " + quoted(dir / "x") + " --ref nobody").exitCode == 2);
    CHECK(!fs::exists(dir / "x"));
}

TEST_CASE("dashboard: a runs file gives labels, commits, dates and tags, ordering and scaling studies") {
    auto dir = tempDir("dashboard_runs");
    auto before = (analyzedPair() / "before").string(), after = (analyzedPair() / "after").string();
    std::ofstream(dir / "runs.csv") << "run,label,commit,date,branch,gpus,study\n"
                                    << before << ",base,abc123,2026-11-02,main,2,\"s,1\"\n"
                                    << after << ",next,def456,2026-11-01,main,2,\"s,1\"\n";
    auto r = dashboard(pairInputs() + " --runs " + quoted(dir / "runs.csv") +
                       " --order-by date --scaling study -o " + quoted(dir / "site"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto index = scriptData(dir / "site" / "data" / "index.js", "gpueffIndex");
    REQUIRE(index["runs"].size() == 2);
    CHECK(index["runs"][0]["label"] == "next"); // the earlier date
    CHECK(index["runs"][0]["attributes"]["commit"] == "def456");
    CHECK(index["runs"][1]["attributes"]["tags"]["study"] == "s,1");
    CHECK(index["tags"] == json::array({"study"}));
    auto scaling = scriptData(dir / "site" / "data" / "scaling.js", "gpueffScaling");
    REQUIRE(scaling["studies"].size() == 1);
    CHECK(scaling["studies"][0]["name"] == "s,1");
    CHECK(scaling["studies"][0]["note"].get<std::string>().find("same device count") != std::string::npos);

    std::ofstream(dir / "runs.json") << json{{"runs",
                                              {{{"run", "before"}, {"commit", "c1"}, {"tags", {{"k", 1}}}},
                                               {{"run", "nobody"}, {"commit", "c2"}}}}}
                                            .dump();
    r = dashboard(pairInputs() + " --runs " + quoted(dir / "runs.json") + " -o " + quoted(dir / "site2"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(r.output.find("\"nobody\" matches no report") != std::string::npos);
    index = scriptData(dir / "site2" / "data" / "index.js", "gpueffIndex");
    CHECK(index["runs"][0]["attributes"]["commit"] == "c1");
    CHECK(index["runs"][0]["attributes"]["tags"]["k"] == "1");

    // Faults name the file and the line or entry.
    std::ofstream(dir / "bad.csv") << "label,commit\nx,y\n";
    r = dashboard(pairInputs() + " --runs " + quoted(dir / "bad.csv") + " -o " + quoted(dir / "s3"));
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("bad.csv: line 1: the header has no \"run\" column") != std::string::npos);
    std::ofstream(dir / "gpus.csv") << "run,gpus\n" << before << ",two\n";
    r = dashboard(pairInputs() + " --runs " + quoted(dir / "gpus.csv") + " -o " + quoted(dir / "s3"));
    CHECK(r.output.find("gpus.csv: line 2: gpus: gpus \"two\" is not a positive count") != std::string::npos);
    std::ofstream(dir / "bad.json") << R"({"runs": [{"label": "x"}]})";
    r = dashboard(pairInputs() + " --runs " + quoted(dir / "bad.json") + " -o " + quoted(dir / "s3"));
    CHECK(r.output.find("bad.json: runs[0]: an object with \"run\"") != std::string::npos);
    CHECK(!fs::exists(dir / "s3"));
}

TEST_CASE("dashboard: a site is replaced whole, and a failed write leaves the earlier one") {
    auto dir = tempDir("dashboard_replace");
    auto site = dir / "site";
    REQUIRE(dashboard(pairInputs() + " -q -o " + quoted(site)).exitCode == 0);
    REQUIRE(fs::exists(site / "runs" / "r0002.js"));
    std::ofstream(site / "notes.txt") << "mine";
    REQUIRE(dashboard(quoted(analyzedPair() / "before") + " -q -o " + quoted(site)).exitCode == 0);
    CHECK(!fs::exists(site / "runs" / "r0002.js")); // a run the new site does not have
    CHECK(readText(site / "notes.txt") == "mine");  // not a file the site writes
    auto index = readText(site / "data" / "index.js");
    // The metrics file cannot be written: nothing changes.
    auto r = dashboard(pairInputs() + " -q -o " + quoted(site) + " --metrics " +
                       quoted(dir / "no" / "such" / "m.csv"));
    CHECK(r.exitCode == 1);
    CHECK(readText(site / "data" / "index.js") == index);
    CHECK(!fs::exists(site / "runs" / "r0002.js"));
    for (const auto& e : fs::directory_iterator(site))
        CHECK_MESSAGE(e.path().filename().string().rfind(".gpueff", 0) != 0, e.path()); // no staging left
}
