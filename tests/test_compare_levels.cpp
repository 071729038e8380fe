// gpueff compare by iteration and phase (reports/CompareLevels.cpp): two hand-made report.json documents, one
// run overlapping communication and one not, compared phase by phase and kernel by kernel.
#include "reports/Compare.h"
#include "tests/CompareFixtures.h"
#include "tests/ReportFixtures.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using nlohmann::json;
using testsupport::plainSpaces;

namespace {

json level(double pe) {
    return {{"efficiency", {{"nccl_as_communication", {{"parallel_efficiency", pe}}}}}};
}

json group(int instances, double median) {
    return {{"instances", instances}, {"med_ns", median}};
}

// A report with the keys compare reads: 4 iterations (the first a warm-up), phases and one GEMM.
json report(double forwardMean, double backwardPe, std::optional<double> slowdown) {
    comparefixtures::Run run;
    run.window = 40000;
    run.usefulSum = {30000, 30000};
    json r = comparefixtures::report(run);
    r["iteration_detection"] = {{"source", "markers"}, {"steady", 3}};
    r["iterations"] = json::array();
    r["focus"] = level(0.75);
    for (int i = 0; i < 4; ++i) {
        auto it = level(0.7);
        it["status"] = i == 0 ? "warm-up" : "steady";
        it["duration_ns"] = i == 0 ? 30000 : 10000 + 1000 * i;
        r["iterations"].push_back(it);
    }
    auto forward = level(0.9), backward = level(backwardPe);
    forward["name"] = "forward", forward["mean_ns"] = forwardMean;
    backward["name"] = "backward", backward["mean_ns"] = 5000;
    r["phases"] = {forward, backward};
    json gemm = {{"name", "ampere_sgemm_128x64_tn"},
                 {"alone", group(30, 1500)},
                 {"overlapped", nullptr},
                 {"slowdown", nullptr}};
    if (slowdown) gemm["overlapped"] = group(6, 1500 * *slowdown), gemm["slowdown"] = *slowdown;
    r["kernel_overlap"] = {gemm};
    return r;
}

} // namespace

TEST_CASE("compare: iterations, phases side by side and the kernels' slowdown under communication") {
    auto c = gpueff::reports::compareReports(testsupport::modelsOf({report(2000, 0.6, 1.33), report(2500, 0.8, std::nullopt)}),
                                             {"overlap", "serial"});
    const auto& levels = c.json["levels"];
    REQUIRE(levels.is_object());
    REQUIRE(levels["runs"].size() == 2);
    CHECK(levels["runs"][0]["iterations"] == 4);
    CHECK(levels["runs"][0]["mean_steady_iteration_ns"].get<double>() == doctest::Approx(12000));
    CHECK(levels["runs"][1]["focus_parallel_efficiency"].get<double>() == doctest::Approx(0.75));
    REQUIRE(levels["phases"].size() == 2);
    CHECK(levels["phases"][0]["name"] == "forward");
    CHECK(levels["phases"][0]["runs"][1]["mean_ns"].get<double>() == doctest::Approx(2500));
    CHECK(levels["phases"][1]["runs"][0]["parallel_efficiency"].get<double>() == doctest::Approx(0.6));
    REQUIRE(levels["kernel_overlap"].size() == 1);
    CHECK(levels["kernel_overlap"][0]["runs"][0]["slowdown"].get<double>() == doctest::Approx(1.33));
    CHECK(levels["kernel_overlap"][0]["runs"][1]["slowdown"].is_null());
    CHECK(plainSpaces(c.markdown).find("### Phases side by side") != std::string::npos);
    CHECK(plainSpaces(c.markdown).find("| backward | 5.000 µs / 60.00 % | 5.000 µs / 80.00 % |") !=
          std::string::npos);
    CHECK(plainSpaces(c.markdown).find("(1.33x)") != std::string::npos);
    // Reports without levels (older gpueff): no section, no key.
    json old = report(1, 1, std::nullopt);
    for (const char* k : {"iteration_detection", "iterations", "focus", "phases", "kernel_overlap"})
        old.erase(k);
    auto without = gpueff::reports::compareReports(testsupport::modelsOf({old, old}), {});
    CHECK_FALSE(without.json.contains("levels"));
    CHECK(without.markdown.find("Iterations and phases") == std::string::npos);
}
