// gpueff compare on real runs, checked against what this file recomputes on its own from the reports'
// iteration arrays (steady iterations, their device states) and from SQL on the exports: the pair of 2-GPU
// exports of one PyTorch job before and after a change, two Kineto traces of one model (trace_diff control
// and test), a run against itself; and the command line of the gates (exit status 4, --junit, refusals).
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

using namespace testsupport;
using nlohmann::json;

namespace {

// A run's figures per steady iteration, as docs/compare.md defines them, from its report.json alone.
struct Oracle {
    std::vector<double> durations;
    double devices = 0, meanNs = 0, useful = 0, lb = 0, comm = 0, orch = 0, parallel = 0;
};

Oracle oracleOf(const json& report) {
    Oracle o;
    o.devices = static_cast<double>(report["devices"].size());
    double usefulSum = 0, usefulMax = 0, activeMax = 0, total = 0;
    for (const auto& it : report["iterations"]) {
        if (it["status"] != "steady") continue;
        double d = it["duration_ns"].get<double>();
        const auto& e = it["efficiency"]["nccl_as_communication"];
        o.durations.push_back(d);
        total += d;
        usefulSum += e["useful_sum_ns"].get<double>();
        usefulMax += e["useful_max_ns"].get<double>();
        activeMax += e["active_max_ns"].get<double>();
    }
    const double k = static_cast<double>(o.durations.size()), n = o.devices;
    o.meanNs = total / k;
    o.useful = usefulSum / k;
    o.lb = (n * usefulMax - usefulSum) / k;
    o.comm = n * (activeMax - usefulMax) / k;
    o.orch = n * (total - activeMax) / k;
    o.parallel = usefulSum / (n * total);
    return o;
}

// The 95 % interval of the shift, from every difference sorted in full (the product takes order statistics
// with nth_element): [D(k+1), D(mn-k)], k = floor(mn/2 - 1.96 sqrt(mn(m+n+1)/12)).
std::pair<double, double> interval(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> d;
    for (double y : b)
        for (double x : a) d.push_back(y - x);
    std::sort(d.begin(), d.end());
    const double m = static_cast<double>(a.size()), n = static_cast<double>(b.size());
    const auto k =
        static_cast<std::size_t>(std::floor(m * n / 2 - 1.959964 * std::sqrt(m * n * (m + n + 1) / 12)));
    return {d[k], d[d.size() - 1 - k]};
}

json analyze(const std::filesystem::path& input, const std::filesystem::path& out) {
    auto r = run(quoted(gpueffBinary()) + " analyze -q " + quoted(input) + " -o " + quoted(out));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    return json::parse(readText(out / "report.json"));
}

// compare.json of reference vs run checked against the oracle: verdict, interval, factors, time split.
void checkAgainstOracle(const json& c, const json& refReport, const json& runReport) {
    auto A = oracleOf(refReport), B = oracleOf(runReport);
    REQUIRE(A.durations.size() >= 3);
    REQUIRE(B.durations.size() >= 3);
    const json& v = c["verdict"][0];
    CHECK(v["unit"] == "iteration");
    CHECK(v["reference_time_ns"].get<double>() == doctest::Approx(A.meanNs).epsilon(1e-12));
    CHECK(v["time_ns"].get<double>() == doctest::Approx(B.meanNs).epsilon(1e-12));
    auto [low, high] = interval(A.durations, B.durations);
    CHECK(v["interval_ns"][0].get<double>() == low);
    CHECK(v["interval_ns"][1].get<double>() == high);
    CHECK(v["significant"] == (low > 0 || high < 0));
    const json& f = c["comparative"]["runs"][1]["figures"];
    CHECK(f["speedup"]["value"].get<double>() == doctest::Approx(A.meanNs / B.meanNs).epsilon(1e-12));
    const double ce = A.useful / B.useful;
    CHECK(f["computational_efficiency"]["nccl_as_communication"]["value"].get<double>() ==
          doctest::Approx(ce).epsilon(1e-12));
    CHECK(f["global_efficiency"]["nccl_as_communication"]["value"].get<double>() ==
          doctest::Approx(B.parallel * ce).epsilon(1e-12));
    const json& parts = c["time_split"]["runs"][1]["nccl_as_communication"]["parts"];
    CHECK(parts["useful_ns"]["run"].get<double>() == doctest::Approx(B.useful).epsilon(1e-12));
    CHECK(parts["load_balance_ns"]["run"].get<double>() == doctest::Approx(B.lb).epsilon(1e-9));
    CHECK(parts["communication_ns"]["run"].get<double>() == doctest::Approx(B.comm).epsilon(1e-9));
    CHECK(parts["orchestration_ns"]["run"].get<double>() == doctest::Approx(B.orch).epsilon(1e-9));
    CHECK(parts["orchestration_ns"]["reference"].get<double>() == doctest::Approx(A.orch).epsilon(1e-9));
    // The parts' differences add up to the difference of n x T.
    double sum = 0;
    for (const auto& [key, p] : parts.items()) sum += p["difference"].get<double>();
    CHECK(sum == doctest::Approx(B.devices * B.meanNs - A.devices * A.meanNs).epsilon(1e-9));
}

} // namespace

TEST_CASE("compare of a real job before and after a change, against the reports' iterations and SQL") {
    auto dir = tempDir("compare_real_pair");
    auto before = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite",
         after = dataDir() / "nsys" / "mfu_2gpu_h100_nccl_after.sqlite";
    auto a = analyze(before, dir / "before"), b = analyze(after, dir / "after");
    auto r = run(quoted(gpueffBinary()) + " compare -q " + quoted(dir / "before") + " " +
                 quoted(dir / "after") + " -o " + quoted(dir / "cmp") +
                 " --gate 'iteration_time<=+3%' --gate 'speedup>=0.5' --junit " + quoted(dir / "gates.xml"));
    // The second run is ~13 % slower per steady iteration, beyond the noise: the first gate fails.
    CHECK_MESSAGE(r.exitCode == 4, r.output);
    CHECK(r.output.find("gpueff: gate failed: iteration_time<=+3% for \"after\"") != std::string::npos);
    auto c = json::parse(readText(dir / "cmp" / "compare.json"));
    CHECK(reportSchemaViolation(a) == "");
    checkAgainstOracle(c, a, b);
    CHECK(c["verdict"][0]["verdict"] == "slower");
    CHECK(c["gates"][0]["result"] == "fail");
    CHECK(c["gates"][1]["result"] == "pass");
    auto xml = readText(dir / "gates.xml");
    CHECK(xml.find("<testsuites name=\"gpueff compare\" tests=\"2\" failures=\"1\"") != std::string::npos);
    CHECK(xml.find("<failure message=\"+13.") != std::string::npos);
    // Kernel time per iteration: all kernels of the export (SQL) x mean steady iteration / window.
    for (auto [report, db, index] : {std::tuple{&a, before, 0}, std::tuple{&b, after, 1}}) {
        double kernels =
            static_cast<double>(queryInt(db, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        double perUnit =
            kernels * oracleOf(*report).meanNs / (*report)["window"]["duration_ns"].get<double>();
        CHECK(c["per_unit"]["runs"][index]["kernel_ns"].get<double>() ==
              doctest::Approx(perUnit).epsilon(1e-9));
    }
    // The explanation names the idle waiting for the host first: the device time grew mostly there.
    auto md = readText(dir / "cmp" / "compare.md");
    CHECK(md.find("1. **orchestration**") != std::string::npos);
    CHECK(md.find("## Verdict") < md.find("## Gates"));
}

TEST_CASE("compare of two Kineto traces of one model (trace_diff control and test), per steady iteration") {
    auto dir = tempDir("compare_real_kineto");
    auto a = analyze(dataDir() / "kineto" / "trace_diff_control_control.json.gz", dir / "control");
    auto b = analyze(dataDir() / "kineto" / "trace_diff_test_test.json.gz", dir / "test");
    auto r = run(quoted(gpueffBinary()) + " compare -q " + quoted(dir / "control") + " " +
                 quoted(dir / "test") + " -o " + quoted(dir / "cmp"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    checkAgainstOracle(json::parse(readText(dir / "cmp" / "compare.json")), a, b);
}

TEST_CASE("compare of a run against itself: speedup 1, every part 0, no gate fails") {
    auto dir = tempDir("compare_self");
    auto a = analyze(dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite", dir / "a");
    // Conditions a run does break against itself by a hair (0 % is not <= -1 %), never beyond the noise.
    auto r = run(quoted(gpueffBinary()) + " compare -q " + quoted(dir / "a") + " " + quoted(dir / "a") +
                 " --labels one,two -o " + quoted(dir / "cmp") +
                 " --gate 'iteration_time<=-1%' --gate 'parallel_efficiency>=+1pp' --gate 'speedup>1'");
    CHECK_MESSAGE(r.exitCode == 0, r.output);
    auto c = json::parse(readText(dir / "cmp" / "compare.json"));
    const json& v = c["verdict"][0];
    CHECK(v["difference_ns"] == 0.0);
    CHECK(v["significant"] == false);
    CHECK(v["verdict"] == "within noise");
    for (const auto& p : v["parts"]) CHECK(p["delta_ns"] == 0.0);
    CHECK(c["comparative"]["runs"][1]["figures"]["speedup"]["value"] == 1.0);
    for (const auto& g : c["gates"]) CHECK(g["result"] == "pass");
    checkAgainstOracle(c, a, a);
}

TEST_CASE("compare's command line: a bad --gate or --ref is refused before any work (exit 2)") {
    auto dir = tempDir("compare_gate_cli");
    auto db = quoted(dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite");
    struct Case {
        std::string arguments, message;
    };
    const Case cases[] = {
        {"--gate 'iteration_time<=3'", "--gate \"iteration_time<=3\": iteration_time needs a unit"},
        {"--gate 'throughput>=1'", "unknown figure \"throughput\""},
        {"--ref nobody", "--ref \"nobody\": no run has that label (the labels are \"mfu_2gpu_h100_nccl\", "
                         "\"mfu_2gpu_h100_nccl #2\")"},
        {"--junit " + quoted(dir / "j.xml"), "--junit needs at least one --gate"},
    };
    for (const auto& k : cases) {
        CAPTURE(k.arguments);
        auto r = run(quoted(gpueffBinary()) + " compare " + db + " " + db + " -o " + quoted(dir / "out") +
                     " " + k.arguments);
        CHECK(r.exitCode == 2);
        CHECK_MESSAGE(r.output.find(k.message) != std::string::npos, r.output);
        CHECK(r.output.find("analyzing") == std::string::npos); // refused before any analysis
        CHECK_FALSE(std::filesystem::exists(dir / "out"));
    }
}

namespace {

// The narrowest a Markdown table can be drawn on GitHub: per column its longest unbreakable word (a cell
// wraps at spaces, <br> and zero-width spaces), at about 7.5 px a character of the 14 px font, plus 27 px of
// padding and border.
std::map<std::string, double> narrowestTables(const std::string& markdown) {
    std::map<std::string, std::vector<std::size_t>> widest; // section -> per column
    std::string section;
    std::istringstream in(markdown);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("#")) section = line;
        if (!line.starts_with("|") || line.find_first_not_of("|-: ") == std::string::npos) continue;
        std::size_t column = 0, at = 1;
        while (at < line.size()) {
            auto end = line.find('|', at);
            if (end == std::string::npos) break;
            std::string cell = line.substr(at, end - at);
            // Entities as the characters they show, line breaks and zero-width spaces as places to wrap.
            const std::pair<std::string, std::string> shown[] = {
                {"&emsp;", "xx"}, {"&lt;", "x"}, {"&gt;", "x"},        {"&amp;", "x"},
                {"\\", ""},       {"<br>", " "}, {"\xE2\x80\x8B", " "}};
            for (const auto& [from, to] : shown)
                for (auto p = cell.find(from); p != std::string::npos; p = cell.find(from, p + to.size()))
                    cell.replace(p, from.size(), to);
            std::size_t longest = 0, word = 0;
            for (std::size_t i = 0; i < cell.size(); ++i) {
                bool continuation = (static_cast<unsigned char>(cell[i]) & 0xC0) == 0x80; // count characters
                if (cell[i] == ' ')
                    word = 0;
                else if (!continuation)
                    longest = std::max(longest, ++word);
            }
            auto& w = widest[section];
            if (w.size() <= column) w.resize(column + 1);
            w[column] = std::max(w[column], longest);
            ++column, at = end + 1;
        }
    }
    std::map<std::string, double> px;
    for (const auto& [s, w] : widest)
        for (auto chars : w) px[s] += 7.5 * static_cast<double>(chars) + 27;
    return px;
}

} // namespace

TEST_CASE("compare.md of 6 runs stays within a page 900 px wide") {
    auto dir = tempDir("compare_six");
    const char* inputs[] = {"nsys/mfu_2gpu_h100_nccl.sqlite",
                            "nsys/mfu_2gpu_h100_nccl_after.sqlite",
                            "kineto/trace_diff_control_control.json.gz",
                            "kineto/trace_diff_test_test.json.gz",
                            "nsys/power_iteration_t4.sqlite",
                            "kineto/nccl_parser_config_nccl_data.json.gz"};
    std::string command = quoted(gpueffBinary()) + " compare -q";
    for (const char* input : inputs) command += " " + quoted(dataDir() / input);
    auto r = run(command + " -o " + quoted(dir / "cmp"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto tables = narrowestTables(readText(dir / "cmp" / "compare.md"));
    CHECK(tables.size() >= 10);
    for (const auto& [section, px] : tables) {
        CAPTURE(section);
        CHECK(px <= 900);
    }
}
