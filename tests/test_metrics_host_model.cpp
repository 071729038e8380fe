// metrics/HostModel on a small host-only trace built in memory: offload efficiency per task from CUDA
// synchronization and the POP MPI model from MPI calls. Expected values by hand from the intervals below.
#include "MetricsTrace.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/Analysis.h"

#include <doctest/doctest.h>

using namespace testsupport;
namespace types = gpueff::paraver::types;
namespace metrics = gpueff::metrics;

namespace {

// Two tasks with one thread each, window [0, 1000) given as --begin/--end (no GPU activity):
//   task 1: MPI_Send [100,300), CUDA synchronization [400,500)
//   task 2: MPI_Recv [100,600)
const char* kHeader = "#Paraver (01/01/2020 at 00:00):1000_ns:1(2):1:2(1:1,1:1)";
const char* kRow =
    "LEVEL TASK SIZE 2\nrank0 11@n\nrank1 12@n\n\nLEVEL THREAD SIZE 2\nTHREAD 1.1.1\nTHREAD 1.2.1\n";

std::vector<std::string> records(bool sync, bool mpi) {
    std::vector<std::string> r;
    auto add = [&](std::vector<std::string> more) { r.insert(r.end(), more.begin(), more.end()); };
    if (mpi) {
        add(interval(1, 1, 1, 100, 300, types::kMpiPointToPoint, 1));
        add(interval(2, 2, 1, 100, 600, types::kMpiPointToPoint, 2));
    }
    if (sync) add(interval(1, 1, 1, 400, 500, types::kSynchronization, 1));
    return r;
}

metrics::Analysis analyzeWindow(const gpueff::semantic::LoadedTrace& t, std::int64_t begin,
                                std::int64_t end) {
    metrics::AnalysisOptions o;
    o.begin = begin;
    o.end = end;
    return metrics::analyze(t, o);
}

bool hasNote(const metrics::Analysis& a, const std::string& part) {
    for (const auto& n : a.notes)
        if (n.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("metrics: host offload efficiency per task") {
    auto t = memoryTrace(kHeader, records(true, true), "", kRow);
    auto a = analyzeWindow(*t, 0, 1000);
    REQUIRE(a.offload.size() == 2);
    // Task 1 blocked 100 of 1000 ns; task 2 never.
    CHECK(a.offload[0].task == 0);
    CHECK(a.offload[0].blocking == 100);
    CHECK(a.offload[0].efficiency == 0.9);
    CHECK(a.offload[1].blocking == 0);
    CHECK(a.offload[1].efficiency == 1.0);
}

TEST_CASE("metrics: POP MPI model of the host") {
    auto t = memoryTrace(kHeader, records(true, true), "", kRow);
    auto a = analyzeWindow(*t, 0, 1000);
    const auto& m = a.mpi;
    REQUIRE(m.present);
    REQUIRE(m.tasks.size() == 2);
    CHECK(m.tasks[0].mpi == 200);
    CHECK(m.tasks[0].outside == 800);
    CHECK(m.tasks[1].mpi == 500);
    CHECK(m.tasks[1].outside == 500);
    // Useful = outside MPI: sum 1300, max 800, n 2, T 1000.
    CHECK(m.parallel == 0.65);      // 1300 / (2 x 1000)
    CHECK(m.loadBalance == 0.8125); // 1300 / (2 x 800)
    CHECK(m.communication == 0.8);  // 800 / 1000
    CHECK(m.loadBalance * m.communication == doctest::Approx(m.parallel));
    // No GPU here: the device model says why it has no numbers.
    CHECK(hasNote(a, "no GPU device"));
}

TEST_CASE("metrics: a window inside the MPI calls") {
    auto t = memoryTrace(kHeader, records(false, true), "", kRow);
    // [200, 300): both tasks are in MPI the whole time: no useful time, load balance 0 by definition.
    auto a = analyzeWindow(*t, 200, 300);
    REQUIRE(a.mpi.present);
    CHECK(a.mpi.tasks[0].outside == 0);
    CHECK(a.mpi.tasks[1].outside == 0);
    CHECK(a.mpi.parallel == 0);
    CHECK(a.mpi.loadBalance == 0);
    CHECK(a.mpi.communication == 0);
    // [300, 700): task 1 is out of MPI for 400, task 2 for 100 (600..700).
    a = analyzeWindow(*t, 300, 700);
    CHECK(a.mpi.parallel == 500.0 / 800.0);
    CHECK(a.mpi.loadBalance == 500.0 / 800.0);
    CHECK(a.mpi.communication == 1.0);
}

TEST_CASE("metrics: host model without synchronization or MPI records, and with an empty window") {
    auto t = memoryTrace(kHeader, records(false, false), "", kRow);
    auto a = analyzeWindow(*t, 0, 1000);
    CHECK(a.offload.empty());
    CHECK_FALSE(a.mpi.present);
    CHECK(hasNote(a, "the trace has no CUDA synchronization records (event type 63000009"));
    auto withMpi = memoryTrace(kHeader, records(true, true), "", kRow);
    auto empty = analyzeWindow(*withMpi, 500, 500);
    CHECK(empty.offload.empty());
    CHECK_FALSE(empty.mpi.present);
}
