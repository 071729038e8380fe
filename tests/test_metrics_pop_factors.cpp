// The POP factors of metrics/PopFactors.h, the CPU model factors built on them (computeModelFactors) and the
// scaling table of compare, on hand-made numbers; and the named event-type ranges of EventTypes.h.
#include "engine/common/Error.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/Analysis.h"
#include "metrics/ModelFactors.h"
#include "metrics/PopFactors.h"
#include "reports/Compare.h"
#include "tests/CompareFixtures.h"
#include "tests/ReportFixtures.h"

#include <doctest/doctest.h>

namespace pop = gpueff::metrics::pop;
namespace types = gpueff::paraver::types;
using gpueff::metrics::RunMeasures;

TEST_CASE("POP factors: the multiplicative hierarchy on hand-computed numbers") {
    // Three workers with useful 60, 90, 120 ns in a 150 ns run; the busiest is active (useful or
    // communicating) 135 ns.
    const pop::SumOver average{270, 3};
    CHECK(pop::loadBalance(average, 120) == 0.75);        // 90 / 120
    CHECK(pop::communicationEfficiency(120, 150) == 0.8); // 120 / 150
    CHECK(pop::parallelEfficiency(average, 150) == 0.6);  // 90 / 150
    CHECK(pop::loadBalance(average, 120) * pop::communicationEfficiency(120, 150) == doctest::Approx(0.6));
    // With an orchestration level: communication against the longest active time.
    CHECK(pop::communicationEfficiency(120, 135) == 120.0 / 135.0);
    CHECK(pop::orchestrationEfficiency(135, 150) == 0.9);
    CHECK(pop::loadBalance(average, 120) * pop::communicationEfficiency(120, 135) *
              pop::orchestrationEfficiency(135, 150) ==
          doctest::Approx(0.6));
    // Scaling: the reference did the same work in 240 ns of useful time over fewer workers.
    CHECK(pop::computationScalability(240, 270) == 240.0 / 270.0);
    CHECK(pop::weakComputationScalability(0.5, 4, 2) == 1.0);
    CHECK(pop::globalEfficiency(0.6, 0.5) == 0.3);
    CHECK(pop::speedup(300, 150) == 2.0);
    CHECK(pop::ipcScalability(1.5, 2.0) == 0.75);
    CHECK(pop::instructionScalability(1000, 1250) == 0.8);
    CHECK(pop::frequencyScalability(2.0, 2.5) == 0.8);
}

TEST_CASE("POP factors: edge cases") {
    // One worker: perfectly balanced, parallel efficiency = communication efficiency.
    CHECK(pop::loadBalance(pop::SumOver{70, 1}, 70) == 1.0);
    CHECK(pop::parallelEfficiency(pop::SumOver{70, 1}, 100) == pop::communicationEfficiency(70, 100));
    // No useful time at all: nothing to balance, load balance 0 (not a division by zero); parallel and
    // communication efficiency 0.
    CHECK(pop::loadBalance(pop::SumOver{0, 4}, 0) == 0.0);
    CHECK(pop::loadBalance(0.0, 0.0) == 0.0);
    CHECK(pop::parallelEfficiency(pop::SumOver{0, 4}, 100) == 0.0);
    CHECK(pop::communicationEfficiency(0, 100) == 0.0);
}

TEST_CASE("POP factors: the order of the division is the caller's, bit for bit") {
    // 1 / (3 x 11) and (1 / 3) / 11 round differently in double; the device and MPI models divide once, the
    // CPU model averages first. Both are kept so that no report changes.
    CHECK(pop::loadBalance(pop::SumOver{1, 3}, 11) == 1.0 / 33.0);
    CHECK(pop::loadBalance(1.0 / 3.0, 11) == (1.0 / 3.0) / 11.0);
    CHECK(pop::loadBalance(pop::SumOver{1, 3}, 11) != pop::loadBalance(1.0 / 3.0, 11));
    CHECK(pop::parallelEfficiency(pop::SumOver{1, 3}, 11) == 1.0 / 33.0);
}

TEST_CASE("CPU model factors over runs, with counters") {
    RunMeasures one{"one.prv", 1, 1000, {800}, 1000.0, 500.0};
    RunMeasures two{"two.prv", 2, 600, {500, 300}, 1200.0, 800.0};
    // Given out of order: the run with fewer processes is the reference.
    auto f = gpueff::metrics::computeModelFactors({two, one});
    REQUIRE(f.runs.size() == 2);
    const auto& ref = f.runs[0];
    CHECK(ref.measures.trace == "one.prv");
    CHECK(ref.parallelEfficiency == 0.8);
    CHECK(ref.loadBalance == 1.0);
    CHECK(ref.communicationEfficiency == 0.8);
    CHECK(ref.computationScalability == 1.0);
    CHECK(ref.speedup == 1.0);
    CHECK(*ref.ipc == 2.0);
    CHECK(*ref.frequencyGhz == 0.625); // 500 cycles in 0.8 us
    const auto& r = f.runs[1];
    CHECK(r.usefulTotalNs == 800);
    CHECK(r.usefulAverageNs == 400);
    CHECK(r.usefulMaximumNs == 500);
    CHECK(r.loadBalance == 0.8);                       // 400 / 500
    CHECK(r.communicationEfficiency == 500.0 / 600.0); // 500 / 600
    CHECK(r.parallelEfficiency == 400.0 / 600.0);
    CHECK(r.computationScalability == 1.0); // 800 / 800
    CHECK(r.globalEfficiency == r.parallelEfficiency);
    CHECK(r.speedup == 1000.0 / 600.0);
    CHECK(*r.ipc == 1.5);
    CHECK(*r.ipcScalability == 0.75);
    CHECK(*r.instructionScalability == 1000.0 / 1200.0);
    CHECK(*r.frequencyGhz == 1.0); // 800 cycles in 0.8 us
    CHECK(*r.frequencyScalability == 1.6);
    // The counters' factors multiply to the computation scalability.
    CHECK(*r.ipcScalability * *r.instructionScalability * *r.frequencyScalability ==
          doctest::Approx(r.computationScalability));
}

TEST_CASE("CPU model factors: no counters, no useful time, bad runs") {
    RunMeasures idle{"idle.prv", 2, 100, {0, 0}, {}, {}};
    auto f = gpueff::metrics::computeModelFactors({idle});
    CHECK(f.runs[0].loadBalance == 0.0);
    CHECK(f.runs[0].parallelEfficiency == 0.0);
    CHECK_FALSE(f.runs[0].ipc.has_value());
    CHECK_FALSE(f.runs[0].frequencyGhz.has_value());
    CHECK_FALSE(f.runs[0].ipcScalability.has_value());
    CHECK_THROWS_AS(gpueff::metrics::computeModelFactors({}), gpueff::Error);
    RunMeasures empty{"empty.prv", 1, 0, {10}, {}, {}};
    CHECK_THROWS_WITH_AS(gpueff::metrics::computeModelFactors({empty}),
                         doctest::Contains("empty.prv: no threads or an empty time range"), gpueff::Error);
}

namespace {

gpueff::reports::model::Report report(int devices, std::int64_t window, double parallel,
                                      std::int64_t usefulSum) {
    comparefixtures::Run run;
    run.devices = devices;
    run.window = window;
    run.factors[0][0] = run.factors[1][0] = parallel;
    run.usefulSum = {usefulSum, usefulSum};
    return testsupport::modelOf(comparefixtures::report(run));
}

} // namespace

TEST_CASE("compare: scaling from the POP factors") {
    // 1 device: 1000 ns window, 800 ns useful; 2 devices: 600 ns window, 1000 ns useful in all, PE 0.8.
    std::vector<gpueff::reports::model::Report> runs = {report(1, 1000, 0.8, 800), report(2, 600, 0.8, 1000)};
    auto strong = gpueff::reports::compareReports(runs, {"a", "b"});
    const auto& s = strong.json["scaling"]["runs"][1];
    CHECK(s["speedup"].get<double>() == 1000.0 / 600.0);
    CHECK(s["computational_scalability"]["nccl_as_communication"].get<double>() == 0.8); // 800 / 1000
    CHECK(s["global_efficiency"]["nccl_as_communication"].get<double>() == 0.8 * 0.8);
    auto weak =
        gpueff::reports::compareReports(runs, {"a", "b"}, {.weak = true, .reference = {}, .gates = {}});
    // Weak: 0.8 x 2 / 1.
    CHECK(weak.json["scaling"]["runs"][1]["computational_scalability"]["nccl_as_useful"].get<double>() ==
          1.6);
    // A run without useful time has no computational scalability against it (no division by zero).
    runs[1] = report(2, 600, 0.0, 0);
    auto zero = gpueff::reports::compareReports(runs, {"a", "b"});
    CHECK(zero.json["scaling"]["runs"][1]["computational_scalability"]["nccl_as_communication"].is_null());
    CHECK(zero.json["scaling"]["runs"][1]["global_efficiency"]["nccl_as_communication"].is_null());
}

TEST_CASE("event types: named ranges") {
    CHECK(types::kGpuMetricIdTypes.first == 9400);
    CHECK(types::kGpuMetricIdTypes.last == 9499);
    CHECK(types::kGpuMetricByNameTypes.first == 63000300);
    CHECK(types::kGpuMetricByNameTypes.last == 63000399);
    CHECK(types::kMpiCallTypes.contains(50000005));
    CHECK_FALSE(types::kMpiCallTypes.contains(50100001)); // message sizes are not calls
    // NVTX ranges: domain base + category below 97, never payloads, marks or the start/end type.
    for (std::uint32_t t : {9500u, 9600u, 9603u, 9696u, 9700u, 79696u, 81000u, 81042u, 63000401u, 63000496u})
        CHECK_MESSAGE(types::isNvtxRangeType(t), t);
    for (std::uint32_t t : {9004u, 9499u, 9501u, 9507u, 9597u, 9599u, 9697u, 9699u, 81097u, 81099u, 81100u,
                            63000497u, 63000499u, 63000500u, 63000006u})
        CHECK_MESSAGE(!types::isNvtxRangeType(t), t);
}

TEST_CASE("analysis: the event types it reads") {
    using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
    CHECK(gpueff::metrics::eventTypesRead() == Ranges{{63000000, 63000002},
                                                      {63000006, 63000009},
                                                      {9400, 9499},
                                                      {63000300, 63000399},
                                                      {50000001, 50000005},
                                                      {9004, 9004},
                                                      {9500, 81099},
                                                      {63000400, 63000499}});
}
