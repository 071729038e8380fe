// gpueff compare's scaling fits (reports/CompareScaling.cpp) and plots (reports/SvgCompare.cpp) on
// hand-made runs at 1, 2, 4, 8 and 8 devices: each factor's line against log2(n) equals the closed form of
// simple linear regression computed here, its extrapolations are clamped as documented, and every plot is
// well-formed SVG holding the series it lists.
#include "reports/Compare.h"
#include "reports/SvgPlot.h"
#include "tests/CompareFixtures.h"
#include "tests/ReportFixtures.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>

using testsupport::plainSpaces;
using namespace comparefixtures;

namespace {

const int kDevices[] = {1, 2, 4, 8, 8};
// [run][convention][PE, LB, CommE, OrchE]
const double kFactors[5][2][4] = {{{0.95, 0.99, 0.97, 0.99}, {0.96, 0.99, 1.00, 0.90}},
                                  {{0.90, 0.97, 0.95, 0.976}, {0.93, 0.98, 0.70, 0.95}},
                                  {{0.82, 0.95, 0.90, 0.96}, {0.90, 0.96, 0.40, 1.00}},
                                  {{0.70, 0.90, 0.85, 0.915}, {0.85, 0.95, 0.10, 1.00}},
                                  {{0.72, 0.91, 0.86, 0.92}, {0.86, 0.94, 0.10, 1.00}}};
// Useful time summed over the devices, per convention: more in total as devices are added under
// communication; less with NCCL as useful (a superlinear computational scalability).
const std::int64_t kUseful[5][2] = {
    {800000, 850000}, {820000, 800000}, {860000, 760000}, {950000, 700000}, {940000, 710000}};

std::vector<Run> scalingRuns(std::size_t count = 5) {
    std::vector<Run> runs;
    for (std::size_t i = 0; i < count; ++i) {
        Run r;
        r.devices = kDevices[i];
        r.window = 2000000 / kDevices[i];
        for (std::size_t c = 0; c < 2; ++c) {
            for (std::size_t f = 0; f < 4; ++f) r.factors[c][f] = kFactors[i][c][f];
            r.usefulSum[c] = kUseful[i][c];
        }
        runs.push_back(r);
    }
    return runs;
}

struct Line {
    double a, b, rms;
};
Line closedForm(const std::vector<double>& x, const std::vector<double>& y) {
    double n = static_cast<double>(x.size()), mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
    double sxy = 0, sxx = 0, ssr = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
    double b = sxy / sxx, a = my - b * mx;
    for (std::size_t i = 0; i < x.size(); ++i) ssr += std::pow(y[i] - a - b * x[i], 2);
    return {a, b, std::sqrt(ssr / n)};
}

// The six factors of run i under convention c, as the test computes them: computational scalability against
// the 1-device run = useful(ref) / useful(run); global = parallel x scalability.
double factor(std::size_t i, std::size_t c, std::size_t f) {
    if (f < 4) return kFactors[i][c][f];
    double cs = static_cast<double>(kUseful[0][c]) / static_cast<double>(kUseful[i][c]);
    return f == 4 ? cs : kFactors[i][c][0] * cs;
}

const char* const kKeys[] = {"parallel_efficiency",       "load_balance",
                             "communication_efficiency",  "orchestration_efficiency",
                             "computational_scalability", "global_efficiency"};
const char* const kConventionKeys[] = {"nccl_as_communication", "nccl_as_useful"};

gpueff::reports::Comparison compare(const std::vector<Run>& runs) {
    std::vector<nlohmann::json> docs;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        docs.push_back(report(runs[i]));
        labels.push_back("run" + std::to_string(i) + " (" + std::to_string(runs[i].devices) + " GPUs)");
    }
    return gpueff::reports::compareReports(testsupport::modelsOf(docs), labels);
}

const std::string* file(const gpueff::reports::Comparison& c, const std::string& name) {
    for (const auto& [path, text] : c.files)
        if (path == name) return &text;
    return nullptr;
}

std::size_t occurrences(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

} // namespace

TEST_CASE("compare scaling: each factor fitted as a + b log2(n), equal to the closed form") {
    auto c = compare(scalingRuns());
    const auto& fits = c.json["scaling"]["fits"];
    REQUIRE(fits.is_object());
    CHECK(fits["model"] == "a + b * log2(n)");
    CHECK(fits["devices"] == nlohmann::json::array({1, 2, 4, 8}));
    CHECK(fits["extrapolated_to"] == nlohmann::json::array({16, 32}));
    for (std::size_t cv = 0; cv < 2; ++cv)
        for (std::size_t f = 0; f < 6; ++f) {
            CAPTURE(std::string(kConventionKeys[cv]));
            CAPTURE(std::string(kKeys[f]));
            std::vector<double> x, y;
            for (std::size_t i = 0; i < 5; ++i)
                x.push_back(std::log2(kDevices[i])), y.push_back(factor(i, cv, f));
            auto expected = closedForm(x, y);
            const auto& fit = fits[kConventionKeys[cv]][kKeys[f]];
            REQUIRE(fit.is_object());
            CHECK(fit["points"] == 5);
            CHECK(fit["a"].get<double>() == doctest::Approx(expected.a).epsilon(1e-12));
            CHECK(fit["b"].get<double>() == doctest::Approx(expected.b).epsilon(1e-12));
            // The residual of an exact line is rounding noise in both computations: absolute tolerance.
            CHECK(std::abs(fit["rms_residual"].get<double>() - expected.rms) <= 1e-12 + 1e-9 * expected.rms);
            bool fraction = f < 4;
            CHECK(fit["bounds"] ==
                  (fraction ? nlohmann::json::array({0, 1}) : nlohmann::json::array({0, nullptr})));
            for (std::size_t e = 0; e < 2; ++e) {
                double at = expected.a + expected.b * std::log2(e == 0 ? 16.0 : 32.0);
                double clamped = fraction ? std::clamp(at, 0.0, 1.0) : std::max(at, 0.0);
                const auto& x16 = fit["extrapolation"][e];
                CHECK(x16["devices"] == (e == 0 ? 16 : 32));
                CHECK(std::abs(x16["fitted"].get<double>() - at) <= 1e-12);
                CHECK(std::abs(x16["value"].get<double>() - clamped) <= 1e-12);
                // (No borderline case in these numbers: every fitted value is 1e-3 or more from its bounds.)
                CHECK(x16["clamped"] == (std::abs(clamped - at) > 1e-9));
            }
        }
    // By hand: communication efficiency with NCCL as useful lies on 1 - 0.3 log2(n) exactly (the two runs at
    // 8 devices agree): no residual, -0.2 at 16 devices and -0.5 at 32, both clamped to 0.
    const auto& comm = fits["nccl_as_useful"]["communication_efficiency"];
    CHECK(comm["a"].get<double>() == doctest::Approx(1.0));
    CHECK(comm["b"].get<double>() == doctest::Approx(-0.3));
    CHECK(comm["rms_residual"].get<double>() < 1e-12);
    CHECK(comm["extrapolation"][0]["fitted"].get<double>() == doctest::Approx(-0.2));
    CHECK(comm["extrapolation"][1]["fitted"].get<double>() == doctest::Approx(-0.5));
    CHECK(comm["extrapolation"][1]["value"] == 0.0);
    CHECK(comm["extrapolation"][1]["clamped"] == true);
    // Orchestration with NCCL as useful rises past 100 %: clamped to 1; scalability may pass 1 and is kept.
    CHECK(fits["nccl_as_useful"]["orchestration_efficiency"]["extrapolation"][1]["value"] == 1.0);
    CHECK(fits["nccl_as_useful"]["orchestration_efficiency"]["extrapolation"][1]["clamped"] == true);
    const auto& cs = fits["nccl_as_useful"]["computational_scalability"]["extrapolation"][1];
    CHECK(cs["value"].get<double>() > 1.0);
    CHECK(cs["clamped"] == false);
    CHECK(plainSpaces(c.markdown).find("### Scaling fits") != std::string::npos);
    CHECK(plainSpaces(c.markdown)
              .find("| Communication efficiency | 🟩 100.00 % | 🟨 70.00 % | 🟥 40.00 % | 🟥 "
                    "10.00 % | 🟥 10.00 % "
                    "| 100.00 % | -30.00 pp | 0.00 pp | 🟥 0.00 % * | 🟥 0.00 % * |") !=
          std::string::npos);
}

TEST_CASE("compare scaling: fewer than three distinct device counts, no fit and no scaling plot") {
    auto runs = scalingRuns(2);
    runs.push_back(runs[1]); // 1, 2, 2 devices
    auto c = compare(runs);
    REQUIRE(c.json["scaling"].is_object());
    CHECK(c.json["scaling"]["fits"].is_null());
    CHECK(plainSpaces(c.markdown).find("No scaling fit") != std::string::npos);
    CHECK_FALSE(file(c, "plots/scaling_nccl_as_communication.svg"));
    // Equal device counts: no scaling at all.
    auto same = compare({runs[1], runs[2]});
    CHECK(same.json["scaling"].is_null());
}

TEST_CASE("compare plots: well-formed SVG, listed in the JSON, holding the series they list") {
    auto runs = scalingRuns();
    std::vector<nlohmann::json> docs;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto r = report(runs[i]);
        r["iterations"] = {{{"status", "steady"}, {"duration_ns", 1000}}};
        r["iteration_detection"] = {{"source", "markers"}, {"steady", 1}};
        r["phases"] = {{{"name", "forward"}, {"mean_ns", 4000.0 * static_cast<double>(i + 1)}},
                       {{"name", "backward <fp16> & more"}, {"mean_ns", 9000.0}}};
        if (i == 2) r["phases"].erase(1); // one run without "backward": no bar there
        docs.push_back(r);
        labels.push_back("run " + std::to_string(i));
    }
    auto c = gpueff::reports::compareReports(testsupport::modelsOf(docs), labels);
    const auto& plots = c.json["plots"];
    std::vector<std::string> expected{"plots/efficiency_nccl_as_communication.svg",
                                      "plots/efficiency_nccl_as_useful.svg",
                                      "plots/scaling_nccl_as_communication.svg",
                                      "plots/scaling_nccl_as_useful.svg",
                                      "plots/phases.svg",
                                      "plots/time_split.svg"};
    REQUIRE(plots.size() == expected.size());
    REQUIRE(c.files.size() == expected.size());
    for (std::size_t p = 0; p < plots.size(); ++p) {
        auto name = plots[p]["file"].get<std::string>();
        CAPTURE(name);
        CHECK(std::find(expected.begin(), expected.end(), name) != expected.end());
        const std::string* svg = file(c, name);
        REQUIRE(svg);
        CHECK(xmlProblem(*svg) == "");
        CHECK(svg->find("<title>" + gpueff::reports::svg::escapeXml(plots[p]["title"].get<std::string>()) +
                        "</title>") != std::string::npos);
        for (const auto& s : plots[p]["series"])
            CHECK_MESSAGE(svg->find(">" + gpueff::reports::svg::escapeXml(s.get<std::string>()) +
                                    "</text>") != std::string::npos,
                          s);
        CHECK(plainSpaces(c.markdown).find("](" + name + ")") != std::string::npos);
    }
    // Efficiency bars: per run one bar of each factor's colour, plus its legend key (PE is black).
    const std::string& eff = *file(c, "plots/efficiency_nccl_as_communication.svg");
    CHECK(occurrences(eff, "fill=\"#000000\"") == runs.size() + 1);
    CHECK(occurrences(eff, "fill=\"#009E73\"") == runs.size() + 1);
    // Phases: one bar per run and phase where the run has it, and a legend key per run.
    const std::string& phases = *file(c, "plots/phases.svg");
    CHECK(occurrences(phases, "<rect") ==
          1 /* background */ + 1 /* frame */ + 2 * runs.size() - 1 + runs.size());
    CHECK(phases.find("backward &lt;fp16&gt; &amp; more") != std::string::npos);
    CHECK(phases.find("Mean time per iteration (µs)") != std::string::npos);
    // Scaling: per factor the fitted line (solid and dashed) and a marker per run and per extrapolation.
    const std::string& scaling = *file(c, "plots/scaling_nccl_as_communication.svg");
    CHECK(occurrences(scaling, "<polyline") == 2 * 6);
    CHECK(occurrences(scaling, "<circle") == runs.size() + 2 + 1); // parallel efficiency, and its legend key
    CHECK(occurrences(scaling, "fill=\"#ffffff\" stroke=") == 2 * 6); // hollow: the extrapolations
    CHECK(scaling.find(">32</text>") != std::string::npos);
}

TEST_CASE("compare plots: absurd numbers in a report model still give well-formed plots") {
    auto runs = scalingRuns(3);
    std::vector<nlohmann::json> docs;
    for (const auto& r : runs) docs.push_back(report(r));
    auto models = testsupport::modelsOf(docs);
    // Models no report.json would give (the reader refuses them): huge and negative factors, an overflowing
    // product.
    models[1].efficiency.ncclAsCommunication.parallel = 1e308;
    models[2].efficiency.ncclAsCommunication.loadBalance = -1e300;
    models[2].efficiency.ncclAsUseful.usefulSumNs = 1;
    models[0].efficiency.ncclAsUseful.usefulSumNs = 9'000'000'000'000'000'000;
    auto c = gpueff::reports::compareReports(models, {"a", "b", "c"});
    CHECK_FALSE(c.files.empty());
    for (const auto& [name, svg] : c.files) {
        CAPTURE(name);
        CHECK(xmlProblem(svg) == "");
        CHECK(svg.find("nan") == std::string::npos);
        CHECK(svg.find("inf") == std::string::npos);
    }
}
