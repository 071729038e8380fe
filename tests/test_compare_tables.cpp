// gpueff compare below the factors (reports/CompareTables.cpp): the kernels that changed most against the
// first run, GPU gaps and host figures side by side, on hand-made reports whose numbers the test sums and
// subtracts itself.
#include "reports/Compare.h"
#include "tests/CompareFixtures.h"
#include "tests/ReportFixtures.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <map>

using testsupport::plainSpaces;
using namespace comparefixtures;

namespace {

Run first() {
    Run r;
    r.devices = 2;
    r.kernels = {{"ampere_sgemm_128x64_tn", 600000, 100, 6000.0},
                 {"relu_kernel", 100000, 200, 500.0},
                 {"old_kernel<float>", 50000, 10, 5000.0}};
    r.gaps = {{10, 5000, 6, 3000, 4, 2000}, {20, 7000, 5, 1000, 15, 6000}};
    r.offload = {{1, 0.9}, {2, 0.7}};
    r.mpi = std::array<double, 3>{0.8, 0.9, 0.88};
    return r;
}

Run second() {
    Run r;
    r.kernels = {{"ampere_sgemm_128x64_tn", 450000, 100, 4500.0},
                 {"relu_kernel", 120000, 240, 500.0},
                 {"new_kernel", 30000, 3, 10000.0}};
    r.gaps = {{3, 900, 3, 900, 0, 0}};
    r.offload = {{1, std::nullopt}, {2, 0.6}};
    return r;
}

Run third() {
    Run r;
    for (int i = 0; i < 12; ++i)
        r.kernels.push_back({"k" + std::to_string(i), 1000 * (i + 1), i + 1, 1000.0});
    r.kernels.push_back({"relu_kernel", 100000, 200, 500.0}); // unchanged: not among the largest changes
    return r;
}

// The expected deltas, worked out here from the fixtures' kernel lists.
struct Expected {
    std::string name;
    std::optional<Kernel> a, b;
    std::int64_t total;
};

std::vector<Expected> expectedDeltas(const Run& a, const Run& b) {
    std::map<std::string, Expected> byName;
    for (const auto& k : a.kernels) byName[k.name].a = k;
    for (const auto& k : b.kernels) byName[k.name].b = k;
    std::vector<Expected> out;
    for (auto& [name, e] : byName) {
        e.name = name;
        e.total = (e.b ? e.b->total : 0) - (e.a ? e.a->total : 0);
        out.push_back(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const Expected& x, const Expected& y) {
        return std::llabs(x.total) > std::llabs(y.total);
    });
    if (out.size() > 10) out.resize(10);
    return out;
}

} // namespace

TEST_CASE("compare: kernel deltas against the reference, per kernel name") {
    std::vector<Run> runs{first(), second(), third()};
    auto c = gpueff::reports::compareReports(
        testsupport::modelsOf({report(runs[0]), report(runs[1]), report(runs[2])}),
        {"base", "tuned", "other"}, {.weak = false, .reference = "base", .gates = {}});
    const auto& deltas = c.json["kernel_deltas"];
    REQUIRE(deltas.size() == 2);
    for (std::size_t i = 1; i < runs.size(); ++i) {
        CAPTURE(i);
        const auto& d = deltas[i - 1];
        CHECK(d["label"] == (i == 1 ? "tuned" : "other"));
        CHECK(d["against"] == "base");
        auto expected = expectedDeltas(runs[0], runs[i]);
        REQUIRE(d["kernels"].size() == expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            const auto& e = expected[k];
            const auto& got = d["kernels"][k];
            CAPTURE(e.name);
            CHECK(got["name"] == e.name);
            CHECK(got["difference"]["total_ns"] == e.total);
            CHECK(got["difference"]["instances"] == (e.b ? e.b->instances : 0) - (e.a ? e.a->instances : 0));
            if (e.a && e.b)
                CHECK(got["difference"]["avg_ns"].get<double>() == e.b->avg - e.a->avg);
            else
                CHECK(got["difference"]["avg_ns"].is_null());
            CHECK(got["first"].is_null() == !e.a);
            CHECK(got["run"].is_null() == !e.b);
            if (e.a) {
                CHECK(got["first"]["total_ns"] == e.a->total);
                CHECK(got["first"]["instances"] == e.a->instances);
                CHECK(got["first"]["avg_ns"].get<double>() == e.a->avg);
            }
            if (e.b) CHECK(got["run"]["total_ns"] == e.b->total);
        }
    }
    // The hand-worked order for "tuned": gemm -150 µs, old_kernel -50 µs (gone), new_kernel +30 µs, relu +20
    // µs.
    const auto& tuned = deltas[0]["kernels"];
    CHECK(tuned[0]["name"] == "ampere_sgemm_128x64_tn");
    CHECK(tuned[0]["difference"]["total_ns"] == -150000);
    CHECK(tuned[0]["difference"]["avg_ns"].get<double>() == -1500.0);
    CHECK(tuned[1]["name"] == "old_kernel<float>");
    CHECK(tuned[2]["name"] == "new_kernel");
    CHECK(tuned[3]["name"] == "relu_kernel");
    CHECK(tuned[3]["difference"]["instances"] == 40);
    CHECK(plainSpaces(c.markdown)
              .find("| ampere\\_sgemm\\_128x64\\_tn | 600.000 µs -> 450.000 µs | -150.000 µs | 100 -> 100 | "
                    "6.000 µs -> 4.500 µs | -1.500 µs |") != std::string::npos);
    CHECK(plainSpaces(c.markdown)
              .find("| new\\_kernel | - -> 30.000 µs | +30.000 µs | - -> 3 | - -> 10.000 µs | n/a |") !=
          std::string::npos);
    // "other": 15 names, the 10 with the largest change kept; relu unchanged is not among them.
    CHECK(deltas[1]["kernels"].size() == 10);
    for (const auto& k : deltas[1]["kernels"]) CHECK(k["name"] != "relu_kernel");
}

TEST_CASE("compare: gaps summed over devices, side by side") {
    std::vector<Run> runs{first(), second(), third()};
    auto c = gpueff::reports::compareReports(
        testsupport::modelsOf({report(runs[0]), report(runs[1]), report(runs[2])}),
        {"base", "tuned", "other"});
    const auto& gaps = c.json["gaps"];
    REQUIRE(gaps.size() == 3);
    for (std::size_t i = 0; i < 2; ++i) {
        Gap sum{0, 0, 0, 0, 0, 0};
        for (const auto& g : runs[i].gaps) {
            sum.count += g.count, sum.total += g.total, sum.hostCount += g.hostCount;
            sum.hostNs += g.hostNs, sum.kernelCount += g.kernelCount, sum.kernelNs += g.kernelNs;
        }
        const auto& j = gaps[i];
        CHECK(j["devices"] == runs[i].gaps.size());
        CHECK(j["count"] == sum.count);
        CHECK(j["total_ns"] == sum.total);
        CHECK(j["host_wait_count"] == sum.hostCount);
        CHECK(j["host_wait_ns"] == sum.hostNs);
        CHECK(j["kernel_wait_count"] == sum.kernelCount);
        CHECK(j["kernel_wait_ns"] == sum.kernelNs);
        CHECK(j["mean_gap_ns"].get<double>() ==
              static_cast<double>(sum.total) / static_cast<double>(sum.count));
    }
    CHECK(gaps[0]["total_ns"] == 12000); // 5000 + 7000, by hand
    // A report without gaps: unknown, not zero.
    CHECK(gaps[2]["devices"] == 0);
    CHECK(gaps[2]["count"].is_null());
    CHECK(gaps[2]["mean_gap_ns"].is_null());
    CHECK(plainSpaces(c.markdown).find("| Idle in gaps | 12.000 µs | 900 ns | n/a |") != std::string::npos);
}

TEST_CASE("compare: host offload per task and MPI efficiency side by side") {
    std::vector<Run> runs{first(), second(), third()};
    auto c = gpueff::reports::compareReports(
        testsupport::modelsOf({report(runs[0]), report(runs[1]), report(runs[2])}),
        {"base", "tuned", "other"});
    const auto& host = c.json["host"];
    REQUIRE(host.size() == 3);
    CHECK(host[0]["offload_mean"].get<double>() == (0.9 + 0.7) / 2);
    CHECK(host[0]["offload_min"].get<double>() == 0.7);
    CHECK(host[0]["offload"].size() == 2);
    CHECK(host[0]["offload"][1]["task"] == 2);
    CHECK(host[0]["offload"][1]["offload_efficiency"].get<double>() == 0.7);
    CHECK(host[0]["mpi"]["parallel_efficiency"].get<double>() == 0.8);
    CHECK(host[0]["mpi"]["load_balance"].get<double>() == 0.9);
    CHECK(host[0]["mpi"]["communication_efficiency"].get<double>() == 0.88);
    // A task without a value does not count in the mean.
    CHECK(host[1]["offload_mean"].get<double>() == 0.6);
    CHECK(host[1]["offload"][0]["offload_efficiency"].is_null());
    CHECK(host[1]["mpi"].is_null());
    CHECK(host[2]["offload_mean"].is_null());
    CHECK(plainSpaces(c.markdown)
              .find("| &emsp;Task 2 | \xF0\x9F\x9F\xA8 70.00 % | \xF0\x9F\x9F\xA7 60.00 % | - |") !=
          std::string::npos);
    CHECK(plainSpaces(c.markdown)
              .find("| MPI parallel efficiency | \xF0\x9F\x9F\xA9 80.00 % | not traced | not traced |") !=
          std::string::npos);
}
