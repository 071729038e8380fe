// `gpueff analyze` on SYNTHETIC fixtures (data/synthetic/*.sql, hand-made from the documented nsys schema):
// GPU metrics and the tensor-core profile, CUDA graph launches, a multi-node MPI run, and bad input. Expected
// numbers come from the fixture rows through SQL and a nanosecond-by-nanosecond sweep written here.
#include "tests/TestSupport.h"

#include <cctype>
#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace testsupport;
using nlohmann::json;

namespace {

struct Analyzed {
    CommandResult result;
    std::filesystem::path dir;
    json report;
};

Analyzed analyzeFixtures(const std::string& name, const std::vector<std::string>& fixtures,
                         const std::string& extra = "") {
    Analyzed a;
    a.dir = tempDir(name);
    std::string cmd = "'" + gpueffBinary().string() + "' analyze";
    for (const auto& f : fixtures)
        cmd += " '" +
               buildDatabase(sourceDir() / "data" / "synthetic" / (f + ".sql"), a.dir / (f + ".sqlite"))
                   .string() +
               "'";
    a.result = run(cmd + " -o '" + (a.dir / "out").string() + "' -q " + extra);
    std::ifstream in(a.dir / "out" / "report.json");
    if (in) a.report = json::parse(in);
    return a;
}

// Time (ns) at each number of intervals covering a point, by visiting every nanosecond of [begin, end).
std::map<long, std::int64_t> bruteForceCounts(const std::vector<std::pair<std::int64_t, std::int64_t>>& iv,
                                              std::int64_t begin, std::int64_t end) {
    std::map<long, std::int64_t> out;
    for (std::int64_t t = begin; t < end; ++t) {
        long n = 0;
        for (const auto& [b, e] : iv) n += b <= t && t < e;
        ++out[n];
    }
    return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> rows(const std::filesystem::path& db,
                                                        const std::string& sql) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const auto& r : query(db, sql)) out.emplace_back(std::stoll(r[0]), std::stoll(r[1]));
    return out;
}

bool containsNaN(const std::string& text) {
    return text.find("NaN") != std::string::npos || text.find("nan") != std::string::npos;
}

} // namespace

TEST_CASE("analyze synthetic GPU metrics: tensor-core profile = time-weighted Tensor Active over each GEMM") {
    auto a = analyzeFixtures("analyze-gpu-metrics", {"gpu_metrics"});
    REQUIRE_MESSAGE(a.result.exitCode == 0, a.result.output);
    auto db = a.dir / "gpu_metrics.sqlite";
    const auto& tc = a.report["tensor_core"];
    REQUIRE(tc["available"] == true);
    // Samples of the Tensor Active metric hold until the next sample (negative timestamps are dropped).
    auto samples =
        rows(db, "SELECT g.timestamp, g.value FROM GPU_METRICS g JOIN TARGET_INFO_GPU_METRICS m ON "
                 "m.typeId = g.typeId AND m.metricId = g.metricId WHERE m.metricName = "
                 "'Tensor Active [Throughput %]' AND g.timestamp >= 0 ORDER BY g.timestamp");
    auto kernels =
        query(db, "SELECT k.start, k.end, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                  "s.id = k.demangledName");
    int gemms = 0;
    for (const auto& k : kernels) {
        auto name = k[2];
        bool gemm = name.find("gemm") != std::string::npos || name.find("cutlass") != std::string::npos;
        auto& value = tc["tasks"][0]["tensor_active_percent"];
        if (!gemm) {
            CHECK_FALSE(value.contains(name));
            continue;
        }
        ++gemms;
        double integral = 0, covered = 0;
        for (std::int64_t t = std::stoll(k[0]); t < std::stoll(k[1]); ++t) {
            const std::pair<std::int64_t, std::int64_t>* current = nullptr;
            for (const auto& s : samples)
                if (s.first <= t) current = &s;
            if (!current) continue;
            integral += static_cast<double>(current->second);
            covered += 1;
        }
        REQUIRE(value.contains(name));
        CHECK(value[name].get<double>() == doctest::Approx(integral / covered).epsilon(1e-12));
    }
    CHECK(gemms == 2);
    CHECK(tc["kernels"].size() == 2);
    // kernel_overlap: nothing communicates, so every instance is "alone", with the same brute-force sampling
    // for every kernel, GEMM or not.
    std::map<std::string, std::pair<double, double>> byName; // integral, covered
    for (const auto& k : kernels)
        for (std::int64_t t = std::stoll(k[0]); t < std::stoll(k[1]); ++t) {
            const std::pair<std::int64_t, std::int64_t>* current = nullptr;
            for (const auto& s : samples)
                if (s.first <= t) current = &s;
            if (!current) continue;
            byName[k[2]].first += static_cast<double>(current->second);
            byName[k[2]].second += 1;
        }
    const auto& split = a.report["kernel_overlap"];
    CHECK(split.size() == kernels.size());
    for (const auto& row : split) {
        auto name = row["name"].get<std::string>();
        CAPTURE(name);
        CHECK(row["overlapped"].is_null());
        REQUIRE(row["alone"].is_object());
        auto it = byName.find(name);
        REQUIRE(it != byName.end());
        CHECK(row["alone"]["tensor_active_percent"].get<double>() ==
              doctest::Approx(it->second.first / it->second.second).epsilon(1e-12));
    }
}

// --gemm-pattern is ECMAScript, case-insensitive, found anywhere in a kernel's name (metrics/NamePattern.h):
// a negative lookahead and \b, which POSIX extended expressions lack, keep the GEMMs whose demangled name
// does not begin with the word "void".
TEST_CASE("analyze --gemm-pattern: an ECMAScript pattern selects the GEMMs it matches, in any case") {
    auto a =
        analyzeFixtures("analyze-gemm-ecmascript", {"gpu_metrics"}, "--gemm-pattern '^(?!void\\b).*GEMM'");
    REQUIRE_MESSAGE(a.result.exitCode == 0, a.result.output);
    // The fixture's kernel names that hold "gemm" in any case and do not begin with "void ".
    std::set<std::string> expected;
    for (const auto& r :
         query(a.dir / "gpu_metrics.sqlite",
               "SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
               "s.id = k.demangledName")) {
        std::string lower = r[0];
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find("gemm") != std::string::npos && lower.rfind("void ", 0) != 0) expected.insert(r[0]);
    }
    CHECK(expected.size() == 1); // ampere_sgemm_128x64_nn; the cutlass GEMM is a `void` function
    const auto& tc = a.report["tensor_core"];
    REQUIRE(tc["available"] == true);
    CHECK(tc["kernels"].get<std::set<std::string>>() == expected);
}

TEST_CASE("analyze synthetic CUDA graphs: graph launches are useful work: in-flight counts them") {
    auto a = analyzeFixtures("analyze-graphs", {"cuda_graph_graph_mode"});
    REQUIRE_MESSAGE(a.result.exitCode == 0, a.result.output);
    auto db = a.dir / "cuda_graph_graph_mode.sqlite";
    auto work = rows(db, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "
                         "CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (const auto& [b, e] : work) first = std::min(first, b), last = std::max(last, e);
    auto counts = bruteForceCounts(work, first, last);
    REQUIRE(a.report["devices"].size() == 1);
    CHECK(a.report["window"]["duration_ns"] == last - first);
    CHECK(a.report["devices"][0]["useful_ns"] == (last - first) - counts[0]);
    CHECK(a.report["devices"][0]["communication_ns"] == 0);
    const auto& byCount = a.report["kernels_in_flight"][0]["time_ns_by_count"];
    std::int64_t sum = 0;
    for (const auto& [k, ns] : counts) {
        CHECK(byCount[std::to_string(k)] == ns);
        sum += byCount[std::to_string(k)].get<std::int64_t>();
    }
    CHECK(sum == last - first);
    const auto& e = a.report["efficiency"]["nccl_as_communication"];
    CHECK(
        e["parallel_efficiency"].get<double>() ==
        doctest::Approx(static_cast<double>((last - first) - counts[0]) / static_cast<double>(last - first)));
}

TEST_CASE("analyze synthetic multi-node MPI run: one device per rank, MPI efficiency from the MPI calls") {
    auto a = analyzeFixtures("analyze-mpi", {"mpi_rank0", "mpi_rank1"});
    REQUIRE_MESSAGE(a.result.exitCode == 0, a.result.output);
    REQUIRE(a.report["devices"].size() == 2);
    CHECK(a.report["devices"][0]["id"].get<std::string>().rfind("synth-host-beta:7000:", 0) == 0);
    CHECK(a.report["devices"][1]["id"].get<std::string>().rfind("synth-host-alpha:7000:", 0) == 0);
    // Each device's useful time is its own kernels' time, whatever the clock alignment.
    for (int r = 0; r < 2; ++r) {
        auto db = a.dir / ("mpi_rank" + std::to_string(r) + ".sqlite");
        CHECK(a.report["devices"][static_cast<std::size_t>(r)]["useful_ns"] ==
              queryInt(db, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    }
    const auto& mpi = a.report["host"]["mpi"];
    REQUIRE(mpi.is_object());
    REQUIRE(mpi["tasks"].size() == 2);
    const double T = a.report["window"]["duration_ns"].get<double>();
    double sum = 0, maximum = 0;
    for (const auto& t : mpi["tasks"]) {
        CHECK(t["mpi_ns"].get<double>() + t["outside_mpi_ns"].get<double>() == T);
        sum += t["outside_mpi_ns"].get<double>();
        maximum = std::max(maximum, t["outside_mpi_ns"].get<double>());
    }
    CHECK(mpi["load_balance"].get<double>() == doctest::Approx(sum / 2 / maximum));
    CHECK(mpi["communication_efficiency"].get<double>() == doctest::Approx(maximum / T));
}

TEST_CASE("analyze bad input: an empty window is reported, not divided by") {
    auto a = analyzeFixtures("analyze-empty-window", {"gpu_metrics"}, "--begin 5000 --end 5000");
    REQUIRE_MESSAGE(a.result.exitCode == 0, a.result.output);
    CHECK(a.report["window"]["duration_ns"] == 0);
    CHECK(a.report["efficiency"]["nccl_as_communication"]["parallel_efficiency"].is_null());
    bool said = false;
    for (const auto& n : a.report["notes"]) said |= n.get<std::string>().find("empty") != std::string::npos;
    CHECK(said);
    std::ifstream in(a.dir / "out" / "report.json");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK_FALSE(containsNaN(text));
}

TEST_CASE("analyze bad input: reversed window and unknown region are errors naming the problem, no report") {
    auto reversed = analyzeFixtures("analyze-reversed", {"gpu_metrics"}, "--begin 9000 --end 100");
    CHECK(reversed.result.exitCode == 1);
    CHECK(reversed.result.output.find("before it begins") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(reversed.dir / "out" / "report.json"));
    CHECK_FALSE(std::filesystem::exists(reversed.dir / "out" / "gpu_metrics.prv"));
    auto region = analyzeFixtures("analyze-region", {"gpu_metrics"}, "--region no_such_range");
    CHECK(region.result.exitCode == 1);
    CHECK(region.result.output.find("no_such_range") != std::string::npos);
}

TEST_CASE("analyze --iterations: a pattern that is no regular expression is an error naming it") {
    auto bad = analyzeFixtures("analyze-iterations-bad", {"levels_rank0"}, "--iterations 'Profiler(Step'");
    CHECK(bad.result.exitCode == 2); // a usage error, found before any work (test_bad_input.cpp)
    CHECK(bad.result.output.find("--iterations 'Profiler(Step'") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(bad.dir / "out"));
    auto source = analyzeFixtures("analyze-iterations-from", {"levels_rank0"}, "--iterations-from sideways");
    CHECK(source.result.exitCode == 2);
    CHECK(source.result.output.find("sideways") != std::string::npos);
    // What --iterations-from off and a pattern of the user's own give: tests/cases/analyze-iterations-*.
}

TEST_CASE("analyze a Paraver trace without GPU rows (EPOCH, MPI only): the report says why, no NaN") {
    auto dir = tempDir("analyze-epoch");
    auto r = run("'" + gpueffBinary().string() + "' analyze '" +
                 (dataDir() / "paraver" / "epoch" / "epoch_2proc.prv.gz").string() + "' -o '" +
                 (dir / "out").string() + "' -q");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::ifstream in(dir / "out" / "report.json");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    auto report = json::parse(text);
    CHECK(report["devices"].empty());
    CHECK(report["efficiency"]["nccl_as_communication"]["parallel_efficiency"].is_null());
    bool said = false;
    for (const auto& n : report["notes"])
        said |= n.get<std::string>().find("no GPU device") != std::string::npos;
    CHECK(said);
    CHECK_FALSE(containsNaN(text));
    CHECK(std::filesystem::exists(dir / "out" / "report.md"));
    // compare reads such a report (it once refused it: the schema required a device) and says what it lacks.
    auto c = run("'" + gpueffBinary().string() + "' compare '" + (dir / "out").string() + "' '" +
                 (dir / "out").string() + "' -o '" + (dir / "cmp").string() + "' -q");
    REQUIRE_MESSAGE(c.exitCode == 0, c.output);
    std::ifstream cin(dir / "cmp" / "compare.json");
    auto comparison = json::parse(cin);
    REQUIRE(comparison["warnings"].size() == 2);
    CHECK(comparison["warnings"][0].get<std::string>().find("has no GPU device") != std::string::npos);
}

TEST_CASE("analyze a trace gpueff wrote gives the same report as analyzing its export") {
    auto a = analyzeFixtures("analyze-roundtrip", {"cuda_graph_graph_mode"});
    REQUIRE_MESSAGE(a.result.exitCode == 0, a.result.output);
    auto r = run("'" + gpueffBinary().string() + "' analyze '" +
                 (a.dir / "out" / "cuda_graph_graph_mode.prv").string() + "' -o '" +
                 (a.dir / "again").string() + "' -q");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::ifstream in(a.dir / "again" / "report.json");
    auto again = json::parse(in);
    for (const char* key :
         {"window", "devices", "efficiency", "kernels_in_flight", "overlap", "kernel_summary"})
        CHECK_MESSAGE(again[key] == a.report[key], key);
    CHECK(again["inputs"] == a.report["inputs"]); // from the sidecar beside the trace
}

TEST_CASE(
    "cfgs/analysis/kernels_in_flight.cfg opened on the trace agrees with report.json (one GPU per task)") {
    auto dir = tempDir("analyze-inflight-cfg");
    auto bin = "'" + gpueffBinary().string() + "'";
    auto r = run(bin + " analyze '" + (sourceDir() / "data" / "nsys" / "mfu_2gpu_h100_nccl.sqlite").string() +
                 "' -o '" + (dir / "out").string() + "' -q");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    r = run(bin + " histogram '" + (dir / "out" / "mfu_2gpu_h100_nccl.prv").string() + "' '" +
            (sourceDir() / "cfgs" / "analysis" / "kernels_in_flight.cfg").string() + "' --json -q -o '" +
            (dir / "h").string() + "'");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::ifstream rin(dir / "out" / "report.json"), hin(dir / "h" / "kernels_in_flight.json");
    auto report = json::parse(rin), histogram = json::parse(hin);
    REQUIRE(histogram["rows"].size() == report["kernels_in_flight"].size());
    for (std::size_t t = 0; t < histogram["rows"].size(); ++t) {
        const auto& values = histogram["rows"][t]["values"];
        const auto& byCount = report["kernels_in_flight"][t]["time_ns_by_count"];
        // Outside the analysis window nothing runs: every count above 0 must agree exactly.
        for (std::size_t c = 1; c < histogram["columns"].size(); ++c) {
            auto key = histogram["columns"][c].get<std::string>();
            double fromCfg = values[c].is_null() ? 0.0 : values[c].get<double>();
            double fromReport = byCount.contains(key) ? byCount[key].get<double>() : 0.0;
            CHECK_MESSAGE(fromCfg == fromReport, "task " << t + 1 << " count " << key);
        }
    }
}

TEST_CASE("compare two real exports directly: scaling table for 2 GPUs against 1, unrelated runs warned") {
    auto dir = tempDir("compare-exports");
    auto nsys = dataDir() / "nsys";
    auto out = dir / "cmp" / "compare.md", outJson = dir / "cmp" / "compare.json";
    // compare's scratch analyses go to a private TMPDIR, checked empty afterwards (never the global /tmp).
    auto scratch = tempDir("compare-exports-tmp");
    auto r = run("TMPDIR='" + scratch.string() + "' '" + gpueffBinary().string() + "' compare '" +
                 (nsys / "concurrent_kernels_gtx1060.sqlite").string() + "' '" +
                 (nsys / "mfu_2gpu_h100_nccl.sqlite").string() + "' -o '" + (dir / "cmp").string() + "'");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::ifstream in(outJson);
    auto cmp = json::parse(in);
    CHECK_FALSE(cmp["warnings"].empty()); // no kernel in common: not one application
    // The same two exports analyzed one by one give the numbers the scaling table is made of.
    auto one =
        run("'" + gpueffBinary().string() + "' analyze '" +
            (nsys / "concurrent_kernels_gtx1060.sqlite").string() + "' -q -o '" + (dir / "a").string() + "'");
    auto two = run("'" + gpueffBinary().string() + "' analyze '" +
                   (nsys / "mfu_2gpu_h100_nccl.sqlite").string() + "' -q -o '" + (dir / "b").string() + "'");
    REQUIRE(one.exitCode == 0);
    REQUIRE(two.exitCode == 0);
    std::ifstream ia(dir / "a" / "report.json"), ib(dir / "b" / "report.json");
    auto a = json::parse(ia), b = json::parse(ib);
    double speedup = a["window"]["duration_ns"].get<double>() / b["window"]["duration_ns"].get<double>();
    std::ifstream md(out);
    std::string text((std::istreambuf_iterator<char>(md)), {});
    char expected[32];
    std::snprintf(expected, sizeof expected, "%.2fx", speedup);
    CHECK_MESSAGE(text.find(expected) != std::string::npos, expected);
    // Nothing of the scratch analyses is left in the temporary directory.
    CHECK(std::filesystem::is_empty(scratch));
}

TEST_CASE("analyze bad input: a device that ran no kernel has zero useful time and lowers the load balance") {
    // Variant of the GPU-metrics fixture: GPU 1 of the same process only ran a memset.
    const std::string memset =
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
        "INTEGER "
        "NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, "
        "correlationId "
        "INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, "
        "memKind "
        "INTEGER); INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (4000, 4500, 1, 2, NULL, 9, 999, "
        "281546145660928, 0, 4096, NULL, 1);";
    auto dir = tempDir("analyze-memset-device");
    auto db =
        buildDatabase(sourceDir() / "data" / "synthetic" / "gpu_metrics.sql", dir / "memset.sqlite", memset);
    auto r = run("'" + gpueffBinary().string() + "' analyze '" + db.string() + "' -q -o '" +
                 (dir / "out").string() + "'");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::ifstream in(dir / "out" / "report.json");
    auto report = json::parse(in);
    REQUIRE(report["devices"].size() == 2);
    const auto& idle = report["devices"][1];
    CHECK(idle["gpu"] == 1);
    CHECK(idle["kernels"] == 0);
    CHECK(idle["useful_ns"] == 0);
    CHECK(idle["communication_ns"] == 500);
    auto usefulMax = queryInt(db, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const auto& e = report["efficiency"]["nccl_as_communication"];
    CHECK(e["load_balance"].get<double>() == doctest::Approx(0.5)); // (U + 0) / (2 U)
    CHECK(e["useful_max_ns"] == usefulMax);
}
