// gpueff compare per unit of work (issue 25): the location shift and its interval (metrics/LocationShift.h)
// on hand-worked samples; the verdict, the comparative factors, the time split and the gates on synthetic
// pairs with a known slowdown and a known cause; a run against itself; and the real pair of 2-GPU exports of
// one job (before and after a change) against figures this file recomputes from the reports' iteration
// arrays and from SQL on the exports.
#include "metrics/LocationShift.h"
#include "reports/Compare.h"
#include "reports/CompareGate.h"
#include "tests/CompareFixtures.h"
#include "tests/ReportFixtures.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>

using namespace testsupport;
using gpueff::reports::model::Report;
using nlohmann::json;

TEST_CASE("location shift: Hodges-Lehmann estimate and the Mann-Whitney interval, worked by hand") {
    // Differences run - reference of {1,2,3,4} and {3,4,5,6}: -1 once, 0 twice, 1 x3, 2 x4, 3 x3, 4 x2, 5
    // once. mn = 16, k = floor(8 - 1.959964 sqrt(16 x 9 / 12)) = floor(1.21) = 1: [D(2), D(15)] = [0, 4];
    // the median is (D(8) + D(9)) / 2 = 2.
    const double a[] = {1, 2, 3, 4}, b[] = {3, 4, 5, 6};
    auto s = gpueff::metrics::locationShift(a, b);
    REQUIRE(s);
    CHECK(s->estimate == 2);
    CHECK(s->low == 0);
    CHECK(s->high == 4);
    CHECK_FALSE(s->significant()); // the interval holds 0
    // Further apart: every difference positive, so the shift is significant.
    const double c[] = {13, 14, 15, 16};
    auto far = gpueff::metrics::locationShift(a, c);
    REQUIRE(far);
    CHECK(far->estimate == 12);
    CHECK(far->low == 10);
    CHECK(far->high == 14);
    CHECK(far->significant());
    // Two values each: mn / 2 = 2 < 1.96 sqrt(4 x 5 / 12): no interval at 95 %.
    const double two[] = {1, 2};
    CHECK_FALSE(gpueff::metrics::locationShift(two, two));
    const double bad[] = {1, 2, NAN, 4};
    CHECK_FALSE(gpueff::metrics::locationShift(a, bad));
}

namespace {

using gpueff::reports::model::Convention;
using gpueff::reports::model::Iteration;

// One device model over `duration` of `devices` alike: each useful for `useful` and active (useful or
// communicating) for `active`; the factors worked out from those (PopFactors.h's definitions).
Convention convention(int devices, std::int64_t duration, std::int64_t useful, std::int64_t active) {
    Convention c;
    c.usefulSumNs = devices * useful;
    c.usefulMaxNs = useful;
    c.activeMaxNs = active;
    c.parallel = static_cast<double>(useful) / static_cast<double>(duration);
    c.loadBalance = 1.0;
    c.communication = static_cast<double>(useful) / static_cast<double>(active);
    c.orchestration = static_cast<double>(active) / static_cast<double>(duration);
    for (int d = 0; d < devices; ++d)
        c.devices.push_back({"h:1:" + std::to_string(d), useful, active - useful, duration - active});
    return c;
}

// A report of 2 devices with `count` steady iterations alternating duration - 100 us and duration + 100 us,
// each device useful for `useful` and active for `active` per iteration, and a kernel summary and gaps for
// a window of 1 s.
Report iterated(std::int64_t duration, std::int64_t useful, std::int64_t active, std::int64_t hostWaitNs,
                int count = 10) {
    comparefixtures::Run run;
    run.devices = 2;
    run.window = 1000000000;
    run.kernels = {{"gemm", 600000000, 100, 6000000.0}, {"ncclDevKernel_AllReduce", 50000000, 100, 500000.0}};
    run.gaps = {{100, hostWaitNs + 1000000, 50, hostWaitNs, 50, 1000000}, {100, 1000000, 0, 0, 100, 1000000}};
    Report r = modelOf(comparefixtures::report(run));
    std::vector<Iteration> its;
    std::int64_t at = 0, total = 0;
    for (int i = 0; i < count; ++i) {
        Iteration it;
        it.index = i;
        it.name = "iteration " + std::to_string(i);
        it.durationNs = duration + (i % 2 ? 100000 : -100000);
        it.beginNs = at;
        it.endNs = at += it.durationNs;
        it.status = "steady";
        it.figures.efficiency = {convention(2, it.durationNs, useful, active),
                                 convention(2, it.durationNs, useful, active)};
        total += it.durationNs;
        its.push_back(it);
    }
    gpueff::reports::model::Focus focus;
    focus.first = 0, focus.last = count - 1, focus.beginNs = 0, focus.endNs = total, focus.durationNs = total;
    focus.figures = its.front().figures;
    r.iterations = its;
    r.focus = std::optional<gpueff::reports::model::Focus>(focus);
    return r;
}

std::vector<gpueff::reports::compare::Gate> gates(std::initializer_list<const char*> texts) {
    std::vector<gpueff::reports::compare::Gate> out;
    for (const char* t : texts) out.push_back(gpueff::reports::compare::parseGate(t));
    return out;
}

const json& figure(const json& c, std::size_t run, const char* key) {
    const json& f = c["comparative"]["runs"][run]["figures"][key];
    return f.contains("nccl_as_communication") ? f["nccl_as_communication"] : f;
}

} // namespace

TEST_CASE("compare verdict: a run slower from host waits (orchestration) against a known reference") {
    // Reference: 10 ms iterations, 8 ms useful and 9 ms active per device. Run: 11 ms iterations, the same
    // work; so n T grows by 2 x 1 ms, all of it orchestration (n (T - Amax): 2 ms -> 4 ms), and the idle gaps
    // waiting for the host grow (100 ms -> 300 ms of the 1 s window).
    auto ref = iterated(10000000, 8000000, 9000000, 100000000),
         run = iterated(11000000, 8000000, 9000000, 300000000);
    gpueff::reports::CompareOptions options;
    options.gates = gates({"iteration_time<=+3%", "iteration_time<=+20%", "orchestration_efficiency>=-5pp",
                           "computational_efficiency>=0.97", "load_balance>=-1pp"});
    auto c = gpueff::reports::compareReports({ref, run}, {"before", "after"}, options);
    const json& v = c.json["verdict"][0];
    CHECK(v["unit"] == "iteration");
    CHECK(v["difference_ns"].get<double>() == doctest::Approx(1000000));
    CHECK(v["difference_percent"].get<double>() == doctest::Approx(10));
    // Every run duration (10.9 or 11.1 ms) exceeds every reference one (9.9 or 10.1 ms): the interval is
    // positive, and the median difference is 1 ms.
    CHECK(v["significant"] == true);
    CHECK(v["interval_ns"][0].get<double>() > 0);
    CHECK(v["verdict"] == "slower");
    // The parts, largest first in the Markdown: orchestration +2 ms of device time, the others 0.
    for (const auto& p : v["parts"]) {
        CAPTURE(p["part"]);
        CHECK(p["delta_ns"].get<double>() == doctest::Approx(p["part"] == "orchestration" ? 2000000 : 0));
    }
    const auto& md = c.markdown;
    CHECK(md.find("\"after\" is slower than \"before\" by 1.000 ms per iteration (+10.0 %") !=
          std::string::npos);
    CHECK(md.find("1. **orchestration** +2.000 ms") != std::string::npos);
    CHECK(md.find("waiting for the host 1.000 ms \xE2\x86\x92 3.300 ms") !=
          std::string::npos); // 100 -> 300 ms / (1 s / 10 or 11 ms)
    // Comparative factors: speedup 10/11, computational efficiency 1, global = parallel = 8/11.
    CHECK(figure(c.json, 1, "speedup")["value"].get<double>() == doctest::Approx(10.0 / 11.0));
    CHECK(figure(c.json, 1, "computational_efficiency")["value"].get<double>() == doctest::Approx(1.0));
    CHECK(figure(c.json, 1, "global_efficiency")["value"].get<double>() == doctest::Approx(8.0 / 11.0));
    CHECK(figure(c.json, 1, "parallel_efficiency")["value"].get<double>() == doctest::Approx(8.0 / 11.0));
    // The time split of each run adds up to n x T.
    const json& split = c.json["time_split"]["runs"][1]["nccl_as_communication"];
    CHECK(split["device_time_ns"].get<double>() == doctest::Approx(22000000));
    CHECK(split["difference_ns"].get<double>() == doctest::Approx(2000000));
    CHECK(split["parts"]["orchestration_ns"]["run"].get<double>() == doctest::Approx(4000000));
    // Gates: +10 % breaks <= +3 % beyond the noise; <= +20 % holds; orchestration 9/11 vs 0.9 is -8.2 pp;
    // the others hold (load balance is 1 in both; its shift is 0 and not significant).
    REQUIRE(c.gates.size() == 5);
    CHECK(c.gates[0].failed);
    CHECK(c.gates[0].measured.value() == doctest::Approx(10));
    CHECK_FALSE(c.gates[1].failed);
    CHECK(c.gates[2].failed);
    CHECK(c.gates[2].measured.value() == doctest::Approx((9.0 / 11.0 - 0.9) * 100));
    CHECK_FALSE(c.gates[3].failed);
    CHECK_FALSE(c.gates[4].failed);
    CHECK(c.gateFailed());
    auto junit = gpueff::reports::compare::gatesJunit(c.gates);
    CHECK(junit.find("tests=\"5\" failures=\"2\"") != std::string::npos);
    CHECK(junit.find("name=\"iteration_time&lt;=+3%\"") != std::string::npos);
}

TEST_CASE("compare verdict: a run whose kernels slow down under overlap loses computational efficiency") {
    // The run's devices work 8.5 ms instead of 8 ms per iteration and are active 9.5 ms in 10.5 ms
    // iterations: n T grows by 1 ms, all of it useful time (computational efficiency 16/17).
    auto ref = iterated(10000000, 8000000, 9000000, 100000000),
         run = iterated(10500000, 8500000, 9500000, 100000000);
    gpueff::reports::model::KernelOverlap k;
    k.name = "gemm";
    k.slowdown = 1.25;
    k.overlapped = gpueff::reports::model::DurationGroup{};
    k.overlapped->instances = 10;
    k.overlapped->totalNs = 12500000;
    run.kernelOverlap = std::vector<gpueff::reports::model::KernelOverlap>{k};
    auto c = gpueff::reports::compareReports({ref, run}, {"no overlap", "overlap"});
    const json& v = c.json["verdict"][0];
    for (const auto& p : v["parts"]) {
        CAPTURE(p["part"]);
        CHECK(p["delta_ns"].get<double>() == doctest::Approx(p["part"] == "useful work" ? 1000000 : 0));
    }
    CHECK(figure(c.json, 1, "computational_efficiency")["value"].get<double>() ==
          doctest::Approx(16.0 / 17.0));
    CHECK(figure(c.json, 1, "speedup")["value"].get<double>() == doctest::Approx(10.0 / 10.5));
    CHECK(c.markdown.find(
              "1. **useful work** +1.000 ms (computational efficiency 100.0 % \xE2\x86\x92 94.1 %") !=
          std::string::npos);
    CHECK(c.markdown.find("\"gemm\" x1.25 in this run") != std::string::npos);
}

TEST_CASE("compare verdict: per window when a run has no steady iterations (said so), and --ref chooses") {
    auto ref = iterated(10000000, 8000000, 9000000, 100000000);
    comparefixtures::Run plain;
    plain.devices = 2;
    auto noIterations = modelOf(comparefixtures::report(plain));
    gpueff::reports::CompareOptions options;
    options.reference = "b";
    options.gates = gates({"iteration_time<=-50%"});
    auto c = gpueff::reports::compareReports({ref, noIterations}, {"a", "b"}, options);
    CHECK(c.json["reference"]["label"] == "b");
    CHECK(c.json["verdict"][0]["run"] == "a");
    CHECK(c.json["verdict"][0]["unit"] == "window");
    CHECK(c.json["verdict"][0]["interval_ns"].is_null());
    CHECK(c.markdown.find("Compared per window: not every run has steady iterations") != std::string::npos);
    // Without an interval a gate is judged on its condition alone, and says so.
    REQUIRE(c.gates.size() == 1);
    CHECK(c.gates[0].failed);
    CHECK(c.gates[0].detail.find("no interval") != std::string::npos);
    CHECK_THROWS_WITH(gpueff::reports::compareReports({ref, noIterations}, {"a", "b"},
                                                      {.weak = false, .reference = "c", .gates = {}}),
                      doctest::Contains("--ref \"c\": no run has that label"));
}

TEST_CASE("--gate expressions: what is accepted and why the others are refused") {
    using gpueff::reports::compare::parseGate;
    auto g = parseGate("parallel_efficiency@nccl_as_useful >= -2pp");
    CHECK(g.convention == 1);
    CHECK(g.threshold == -2);
    CHECK(parseGate("iteration_time<=+500us").threshold == 500000);
    CHECK(parseGate("speedup>0.9").op == ">");
    const std::pair<const char*, const char*> refused[] = {
        {"iteration_time", "expected FIGURE OP NUMBER[UNIT]"},
        {"runtime<=3%", "unknown figure \"runtime\""},
        {"iteration_time<=3", "iteration_time needs a unit"},
        {"speedup>=1pp", "speedup is not an efficiency"},
        {"parallel_efficiency>=1ms", "parallel_efficiency is not a time"},
        {"load_balance>=x", "no number after >="},
        {"load_balance>=1furlong", "unknown unit \"furlong\""},
        {"speedup@nccl_as_useful>=1", "speedup is the same under both NCCL conventions"},
        {"load_balance@nccl>=1", "unknown NCCL convention \"nccl\""}};
    for (auto [text, why] : refused) {
        CAPTURE(text);
        CHECK_THROWS_WITH(parseGate(text), doctest::Contains(why));
    }
}
