// metrics/ on a small GPU trace built in memory: the device model's unions and factors in both NCCL
// conventions, kernels in flight, overlap, kernels queued, the kernel summary (median, standard deviation),
// and the idle gaps. Every expected number is worked out by hand from the intervals drawn below.
#include "MetricsTrace.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/Analysis.h"
#include "metrics/AnalysisParts.h"

#include <cmath>
#include <doctest/doctest.h>

using namespace testsupport;
namespace types = gpueff::paraver::types;
namespace metrics = gpueff::metrics;

namespace {

// One task, four threads on four CPUs: 1 the host thread, 2 CUDA-D0.S7, 3 CUDA-D0.S13, 4 CUDA-D1.S7.
//
//   D0.S7  kernels:  gemm [100,110) [120,140) [200,230) [300,360), relu [400,405)
//   D0.S13 memcpy [130,170), NCCL kernel ncclAllReduce [350,450)
//   D1.S7  kernel:   gemm [100,150)
//   launches (tag 55001, host -> D0.S7): logical send / physical send -> start of the kernel
//       90/95 -> 100, 105/108 -> 120, 180/185 -> 200, 225/240 -> 300
//
// Window (first to last GPU activity): [100, 450), T = 350.
const char* kHeader = "#Paraver (01/01/2020 at 00:00):2000_ns:1(4):1:1(4:1)";
const char* kPcf = "EVENT_TYPE\n0    63000006    Kernel name\nVALUES\n1    gemm\n2    relu\n\n"
                   "EVENT_TYPE\n0    63000007    NCCL kernel name\nVALUES\n1    ncclAllReduce\n\n"
                   "EVENT_TYPE\n0    63000001    Memory operation\nVALUES\n1    memcpy HtoD\n";
const char* kRow =
    "LEVEL CPU SIZE 4\nh.1\nh.2\nh.3\nh.4\n\nLEVEL NODE SIZE 1\nh\n\nLEVEL APPL SIZE 1\napp\n\n"
    "LEVEL TASK SIZE 1\npython 7@h\n\n"
    "LEVEL THREAD SIZE 4\nTHREAD 1.1.1\nCUDA-D0.S7\nCUDA-D0.S13\nCUDA-D1.S7\n";

std::vector<std::string> gpuRecords(bool launches) {
    std::vector<std::string> r;
    auto add = [&](std::vector<std::string> more) { r.insert(r.end(), more.begin(), more.end()); };
    for (auto [b, e] : {std::pair{100, 110}, {120, 140}, {200, 230}, {300, 360}})
        add(interval(2, 1, 2, b, e, types::kKernel, 1));
    add(interval(2, 1, 2, 400, 405, types::kKernel, 2));
    add(interval(3, 1, 3, 130, 170, types::kMemoryOperation, 1));
    add(interval(3, 1, 3, 350, 450, types::kNcclKernel, 1));
    add(interval(4, 1, 4, 100, 150, types::kKernel, 1));
    if (launches)
        for (auto [ls, ps, start] :
             {std::tuple{90, 95, 100}, {105, 108, 120}, {180, 185, 200}, {225, 240, 300}})
            r.push_back(message(1, 1, 1, 2, 1, 2, ls, ps, start, types::kTagKernelLaunch));
    return r;
}

const gpueff::semantic::LoadedTrace& gpuTrace(bool launches = true) {
    static auto with = memoryTrace(kHeader, gpuRecords(true), kPcf, kRow);
    static auto without = memoryTrace(kHeader, gpuRecords(false), kPcf, kRow);
    return launches ? *with : *without;
}

const metrics::Analysis& analysis() {
    static auto a = metrics::analyze(gpuTrace(), {});
    return a;
}

bool hasNote(const metrics::Analysis& a, const std::string& part) {
    for (const auto& n : a.notes)
        if (n.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("metrics: devices and window read from the stream rows") {
    const auto& a = analysis();
    REQUIRE(a.activity.devices.size() == 2);
    CHECK(a.activity.devices[0].id == "h:7:0");
    CHECK(a.activity.devices[1].id == "h:7:1");
    CHECK(a.activity.devices[0].rows == std::vector<std::size_t>{1, 2});
    CHECK(a.activity.tasks.at(0).cpuRows == std::vector<std::size_t>{0});
    CHECK(a.window.begin == 100);
    CHECK(a.window.end == 450);
    CHECK(a.window.source == "gpu-activity");
}

TEST_CASE("metrics: device unions per class, and the times they give") {
    const auto& a = analysis();
    using metrics::Span;
    auto bounds = [](const metrics::Spans& s) {
        std::vector<std::pair<std::int64_t, std::int64_t>> out;
        for (const auto& x : s) out.emplace_back(x.begin, x.end);
        return out;
    };
    using Bounds = std::vector<std::pair<std::int64_t, std::int64_t>>;
    auto activity = metrics::readDeviceActivity(gpuTrace());
    REQUIRE(activity.devices.size() == 2);
    const metrics::DeviceUnions unions[2] = {metrics::deviceUnions(activity.devices[0], a.window),
                                             metrics::deviceUnions(activity.devices[1], a.window)};
    CHECK(bounds(unions[0].compute) == Bounds{{100, 110}, {120, 140}, {200, 230}, {300, 360}, {400, 405}});
    CHECK(bounds(unions[0].nccl) == Bounds{{350, 450}});
    CHECK(bounds(unions[0].memory) == Bounds{{130, 170}});
    CHECK(bounds(unions[1].compute) == Bounds{{100, 150}});
    CHECK(unions[1].nccl.empty());
    // |compute| = 10 + 20 + 30 + 60 + 5; kernels = 5 compute + 1 NCCL instances.
    CHECK(a.times[0].compute == 125);
    CHECK(a.times[0].nccl == 100);
    CHECK(a.times[0].memory == 40);
    CHECK(a.times[0].kernels == 6);
    CHECK(a.times[0].memoryOperations == 1);
    CHECK(a.times[1].compute == 50);
    CHECK(a.times[1].kernels == 1);
    CHECK(a.times[1].memoryOperations == 0);
}

TEST_CASE("metrics: device model, NCCL as communication") {
    const auto& e = analysis().ncclAsCommunication;
    REQUIRE(e.computable);
    REQUIRE(e.devices.size() == 2);
    // D0: useful = |compute| = 125; communication = (memcpy [130,170) u NCCL [350,450)) \ compute
    //     = [140,170) + [360,400) + [405,450) = 30 + 40 + 45 = 115; idle = 350 - 125 - 115 = 110.
    CHECK(e.devices[0].useful == 125);
    CHECK(e.devices[0].communication == 115);
    CHECK(e.devices[0].idle == 110);
    // D1: useful 50, nothing else.
    CHECK(e.devices[1].useful == 50);
    CHECK(e.devices[1].communication == 0);
    CHECK(e.devices[1].idle == 300);
    CHECK(e.usefulSum == 175);
    CHECK(e.usefulMax == 125);
    CHECK(e.activeMax == 240);
    // LB = 175 / (2 x 125), CommE = 125 / 240, OrchE = 240 / 350, PE = 175 / (2 x 350): each one division
    // of exact integers, so equal to the correctly rounded fraction.
    CHECK(e.loadBalance == 0.7);
    CHECK(e.communication == 125.0 / 240.0);
    CHECK(e.orchestration == 240.0 / 350.0);
    CHECK(e.parallel == 0.25);
    CHECK(e.loadBalance * e.communication * e.orchestration == doctest::Approx(e.parallel));
}

TEST_CASE("metrics: device model, NCCL as useful") {
    const auto& e = analysis().ncclAsUseful;
    REQUIRE(e.computable);
    // D0: useful = compute u NCCL = [100,110) [120,140) [200,230) [300,450) = 10 + 20 + 30 + 150 = 210;
    //     communication = memcpy \ useful = [140,170) = 30.
    CHECK(e.devices[0].useful == 210);
    CHECK(e.devices[0].communication == 30);
    CHECK(e.devices[0].idle == 110);
    CHECK(e.usefulSum == 260);
    CHECK(e.usefulMax == 210);
    CHECK(e.activeMax == 240);
    CHECK(e.loadBalance == 260.0 / 420.0);
    CHECK(e.communication == 0.875);
    CHECK(e.orchestration == 240.0 / 350.0);
    CHECK(e.parallel == 260.0 / 700.0);
}

TEST_CASE("metrics: kernels in flight, with memory, and communication/computation overlap") {
    const auto& c = analysis().concurrency;
    REQUIRE(c.size() == 2);
    // D0 kernels (compute and NCCL) over [100,450): none in [110,120) [140,200) [230,300) = 140; two in
    // [350,360) [400,405) = 15; one the remaining 195.
    CHECK(c[0].inFlight == metrics::TimeByLevel{{0, 140}, {1, 195}, {2, 15}});
    // With the memcpy [130,170): idle [110,120) [170,200) [230,300) = 110; two in [130,140) [350,360)
    // [400,405) = 25; one 215.
    CHECK(c[0].inFlightWithMemory == metrics::TimeByLevel{{0, 110}, {1, 215}, {2, 25}});
    // While communication runs (memcpy or NCCL, 140 ns): alone in [140,170) [360,400) [405,450) = 115,
    // with a compute kernel in [130,140) [350,360) [400,405) = 25.
    CHECK(c[0].overlap == metrics::TimeByLevel{{1, 115}, {2, 25}});
    CHECK(c[0].communication == 140);
    CHECK(c[1].inFlight == metrics::TimeByLevel{{0, 300}, {1, 50}});
    CHECK(c[1].overlap.empty());
    CHECK(c[1].communication == 0);
    // The NCCL kernel [350,450) overlaps compute [350,360) and [400,405).
    const auto& o = analysis().ncclOverlap;
    REQUIRE(o.size() == 1);
    CHECK(o[0].device == 0);
    CHECK(o[0].kernel == "ncclAllReduce");
    CHECK(o[0].instances == 1);
    CHECK(o[0].time == 100);
    CHECK(o[0].overlapped == 15);
}

TEST_CASE("metrics: kernels queued from launch lines (physical send to start)") {
    const auto& a = analysis();
    REQUIRE(a.queuedAvailable);
    // Queued [95,100) is before the window; [108,120) [185,200) [240,300) = 12 + 15 + 60 inside it.
    CHECK(a.concurrency[0].queued == metrics::TimeByLevel{{0, 263}, {1, 87}});
    CHECK(a.concurrency[1].queued == metrics::TimeByLevel{{0, 350}});
}

TEST_CASE("metrics: kernel summary, median and sample standard deviation") {
    const auto& a = analysis();
    REQUIRE(a.kernelSummary.size() == 3);
    // gemm: 10, 20, 30, 60 on D0 and 50 on D1; ncclAllReduce 100; relu 5; sorted by total time.
    const auto& gemm = a.kernelSummary[0];
    CHECK(gemm.name == "gemm");
    CHECK(gemm.instances == 5);
    CHECK(gemm.total == 170);
    CHECK(gemm.min == 10);
    CHECK(gemm.max == 60);
    CHECK(gemm.average == 34.0);
    CHECK(gemm.median == 30.0);
    // Squared deviations from 34: 576 + 196 + 16 + 256 + 676 = 1720, over n - 1 = 4.
    CHECK(gemm.stddev == doctest::Approx(std::sqrt(430.0)));
    CHECK(gemm.timePercent == doctest::Approx(100.0 * 170 / 275));
    CHECK(a.kernelSummary[1].name == "ncclAllReduce");
    CHECK(a.kernelSummary[1].total == 100);
    const auto& relu = a.kernelSummary[2];
    CHECK(relu.name == "relu");
    CHECK(relu.median == 5.0);
    CHECK(relu.stddev == 0.0);
    CHECK(relu.timePercent == doctest::Approx(100.0 * 5 / 275));
    // Per device: D0's gemm has an even count, the median is the mean of the middle two.
    REQUIRE(a.kernelSummaryByDevice.size() == 2);
    const auto& d0 = a.kernelSummaryByDevice[0].at(0);
    CHECK(d0.name == "gemm");
    CHECK(d0.instances == 4);
    CHECK(d0.median == 25.0);
    CHECK(d0.average == 30.0);
    CHECK(d0.stddev == doctest::Approx(std::sqrt(1400.0 / 3.0)));
    CHECK(a.kernelSummaryByDevice[1].size() == 1);
}

TEST_CASE("metrics: duration distribution of a kernel") {
    const auto& a = analysis();
    REQUIRE(a.durations.size() == 3);
    const auto& gemm = a.durations[0];
    CHECK(gemm.name == "gemm");
    // Range 60 - 10 = 50: bin width 50 / 20 + 1 = 3, 50 / 3 + 1 = 17 bins from 10.
    REQUIRE(gemm.bins.size() == 17);
    CHECK(gemm.bins[0].lower == 10);
    CHECK(gemm.bins[0].upper == 13);
    // 10 -> bin 0, 20 -> 3, 30 -> 6, 50 -> 13, 60 -> 16.
    for (std::size_t b : {0, 3, 6, 13, 16}) CHECK(gemm.bins[b].count == 1);
    CHECK(gemm.bins[1].count == 0);
}

TEST_CASE("metrics: idle gaps of a device, host-wait or kernel-wait") {
    const auto& g = analysis().gaps;
    REQUIRE(g.size() == 2);
    // D0 busy: [100,110) [120,170) [200,230) [300,450): gaps of 10, 30, 70.
    CHECK(g[0].count == 3);
    CHECK(g[0].total == 110);
    // At 110 the launch sent at 105 is pending, at 230 the one sent at 225: the GPU waited for them to
    // start. At 170 nothing had been launched (next launch at 180): the host was late.
    CHECK(g[0].kernelWaitCount == 2);
    CHECK(g[0].kernelWait == 80);
    CHECK(g[0].hostWaitCount == 1);
    CHECK(g[0].hostWait == 30);
    CHECK(g[1].count == 0);
    CHECK(g[1].total == 0);
}

TEST_CASE("metrics: without launch lines the gaps are counted, not classified, and queued is unknown") {
    auto a = metrics::analyze(gpuTrace(false), {});
    CHECK(a.gaps[0].count == 3);
    CHECK(a.gaps[0].total == 110);
    CHECK(a.gaps[0].hostWaitCount + a.gaps[0].kernelWaitCount == 0);
    CHECK_FALSE(a.queuedAvailable);
    CHECK(hasNote(a, "GPU gaps are not classified"));
    CHECK(hasNote(a, "kernels queued: the trace has no launch communications (tag 55001)"));
    // Launch lines change no efficiency.
    CHECK(a.ncclAsCommunication.parallel == analysis().ncclAsCommunication.parallel);
}

TEST_CASE("metrics: --begin/--end clip the unions and the factors") {
    metrics::AnalysisOptions o;
    o.begin = 200;
    o.end = 400;
    auto a = metrics::analyze(gpuTrace(), o);
    CHECK(a.window.source == "arguments");
    // D0 in [200,400): compute [200,230) [300,360) = 90; NCCL [350,400) \ compute = [360,400) = 40.
    // D1: nothing, useful 0.
    const auto& e = a.ncclAsCommunication;
    REQUIRE(e.computable);
    CHECK(e.devices[0].useful == 90);
    CHECK(e.devices[0].communication == 40);
    CHECK(e.devices[1].useful == 0);
    CHECK(e.loadBalance == 0.5);       // 90 / (2 x 90)
    CHECK(e.parallel == 90.0 / 400.0); // 90 / (2 x 200)
    CHECK(e.orchestration == 130.0 / 200.0);
    // The kernel summary counts every instance of the trace, the window only clips the model.
    CHECK(a.kernelSummary.at(0).instances == 5);
}

TEST_CASE("metrics: one device balances perfectly") {
    std::vector<std::string> records;
    for (auto [b, e] : {std::pair{100, 150}, {200, 300}})
        for (auto r : interval(2, 1, 2, b, e, types::kKernel, 1)) records.push_back(r);
    const char* row = "LEVEL TASK SIZE 1\npython 7@h\n\nLEVEL THREAD SIZE 2\nTHREAD 1.1.1\nCUDA-D0.S7\n";
    auto t = memoryTrace("#Paraver (01/01/2020 at 00:00):1000_ns:1(2):1:1(2:1)", records, kPcf, row);
    auto a = metrics::analyze(*t, {});
    const auto& e = a.ncclAsCommunication;
    REQUIRE(e.computable);
    CHECK(e.loadBalance == 1.0);
    CHECK(e.communication == 1.0);
    CHECK(e.orchestration == 150.0 / 200.0);
    CHECK(e.parallel == 0.75);
}

TEST_CASE("metrics: a device with no useful time, an empty window, no device: not computable") {
    const char* row = "LEVEL TASK SIZE 1\npython 7@h\n\nLEVEL THREAD SIZE 2\nTHREAD 1.1.1\nCUDA-D0.S7\n";
    const char* header = "#Paraver (01/01/2020 at 00:00):1000_ns:1(2):1:1(2:1)";
    SUBCASE("only a memcpy: no useful time in either convention") {
        auto t = memoryTrace(header, interval(2, 1, 2, 100, 200, types::kMemoryOperation, 1), kPcf, row);
        auto a = metrics::analyze(*t, {});
        CHECK_FALSE(a.ncclAsCommunication.computable);
        CHECK_FALSE(a.ncclAsUseful.computable);
        CHECK(a.ncclAsCommunication.parallel == 0);
        CHECK(a.ncclAsCommunication.devices.at(0).communication == 100);
        CHECK(hasNote(a, "no compute kernel ran in the window"));
    }
    SUBCASE("only an NCCL kernel: computable when NCCL is useful") {
        auto t = memoryTrace(header, interval(2, 1, 2, 100, 200, types::kNcclKernel, 1), kPcf, row);
        auto a = metrics::analyze(*t, {});
        CHECK_FALSE(a.ncclAsCommunication.computable);
        REQUIRE(a.ncclAsUseful.computable);
        CHECK(a.ncclAsUseful.parallel == 1.0);
    }
    SUBCASE("begin = end") {
        metrics::AnalysisOptions o;
        o.begin = o.end = 120;
        auto t = memoryTrace(header, interval(2, 1, 2, 100, 200, types::kKernel, 1), kPcf, row);
        auto a = metrics::analyze(*t, o);
        CHECK(a.window.duration() == 0);
        CHECK_FALSE(a.ncclAsCommunication.computable);
        CHECK_FALSE(a.ncclAsUseful.computable);
        CHECK(hasNote(a, "the analysis window is empty (begin = end)"));
        CHECK(hasNote(a, "no efficiency can be computed"));
    }
    SUBCASE("no stream row: kernel records on rows not named CUDA-D<d>.S<s> are no device") {
        const char* hostRows =
            "LEVEL TASK SIZE 1\npython 7@h\n\nLEVEL THREAD SIZE 2\nTHREAD 1.1.1\nTHREAD 1.1.2\n";
        auto t = memoryTrace(header, interval(2, 1, 2, 100, 200, types::kKernel, 1), kPcf, hostRows);
        auto a = metrics::analyze(*t, {});
        CHECK(a.activity.devices.empty());
        CHECK_FALSE(a.ncclAsCommunication.computable);
        CHECK(hasNote(a, "no GPU device"));
    }
}
