// `gpueff analyze` on every PyTorch profiler (Kineto) trace of data/kineto against KinetoOracle's
// recomputation from the raw JSON events (written from the contract, apart from gpueff's importer): the
// device model, kernels in flight and overlap (the checks shared with the SQL oracle, AnalyzeOracle.cpp), the
// Paraver records of the written .prv counted per event type against the JSON events of each kind, the launch
// lines, and report.json's `hta` figures. The oracle itself is first checked on a tiny trace worked out by
// hand.
#include "tests/AnalyzeOracle.h"
#include "tests/KinetoOracle.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace kinetooracle;
using analyzeoracle::findBy;
using analyzeoracle::timeByCount;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Sentinels for absent keys (the schema check reports the absence; the comparison then fails on a value).
constexpr std::int64_t kMissing = -1;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const json& member(const json& o, const std::string& key) {
    static const json none;
    return o.is_object() && o.contains(key) ? o[key] : none;
}
bool closeTo(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b)) + 1e-300;
}

// A map as text for failure messages (got vs expected), "{key: value, ...}".
template <class K>
std::string show(const std::map<K, std::int64_t>& m) {
    std::ostringstream o;
    o << "{";
    for (auto it = m.begin(); it != m.end(); ++it)
        o << (it == m.begin() ? "" : ", ") << it->first << ": " << it->second;
    o << "}";
    return o.str();
}

std::vector<fs::path> kinetoTraces() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(testsupport::dataDir() / "kineto"))
        if (e.path().string().ends_with(".json.gz")) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// ---------------------------------------------------------------------------------------------------------
// The .prv, read here with its own few lines (not the engine's reader, not TestSupport's): begin pairs per
// type and value, launch lines per tag, and the GPU begins per stream row named in the .row.
struct PrvCounts {
    std::map<std::uint32_t, std::map<std::int64_t, std::int64_t>> begins; // type -> non-zero value -> pairs
    std::int64_t bytes = 0;                                               // sum of the 63000002 values
    std::map<std::int64_t, std::int64_t> commsByTag;
    std::map<std::string, std::int64_t> gpuBeginsByRow; // "CUDA-D<d>.S<s>" (lanes folded) -> begins
    std::int64_t gpuBeginsOffStreamRows = 0, hostBeginsOnStreamRows = 0; // the contract's rows, kept apart
    std::map<int, HostThread> hostRows; // global thread index of a CPU row -> its host begins
    int tasks = 0;
};

std::vector<std::string> splitFields(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i)
        if (i == line.size() || line[i] == sep) out.push_back(line.substr(start, i - start)), start = i + 1;
    return out;
}

// "CUDA-D0.S7.2" (a lane of stream 7) -> "CUDA-D0.S7"; "" for a row that is no stream row.
std::string streamRow(const std::string& label) {
    std::string first = label.substr(0, label.find(' '));
    if (first.rfind("CUDA-D", 0) != 0) return "";
    auto s = first.find(".S");
    if (s == std::string::npos) return "";
    auto lane = first.find('.', s + 2);
    return lane == std::string::npos ? first : first.substr(0, lane);
}

// The NVTX range types of a domain: those whose .pcf label names it (contract: "label contains"), but for
// its payloads ("NVTX cpu_op JSON payload"), which ride on its ranges' begins (docs/events.md).
std::set<std::uint32_t> domainTypes(const std::map<std::uint32_t, std::string>& labels,
                                    const std::string& domain) {
    std::set<std::uint32_t> out;
    for (const auto& [type, label] : labels)
        if (label.find(domain) != std::string::npos && label.find("payload") == std::string::npos)
            out.insert(type);
    return out;
}

// The JSON payload types of the domains of Kineto's host events (not NCCL's, whose ranges carry its payload).
std::set<std::uint32_t> hostPayloadTypes(const std::map<std::uint32_t, std::string>& labels) {
    std::set<std::uint32_t> out;
    for (const auto& [type, label] : labels)
        if (label.find("JSON payload") != std::string::npos && label.find("NCCL") == std::string::npos)
            out.insert(type);
    return out;
}

PrvCounts countPrv(const fs::path& prv, const std::map<std::uint32_t, std::string>& pcfLabels) {
    PrvCounts c;
    const auto cpuOpTypes = domainTypes(pcfLabels, "cpu_op"),
               annotationTypes = domainTypes(pcfLabels, "user_annotation");
    std::ifstream in(prv);
    REQUIRE_MESSAGE(in.good(), "no trace " << prv.string());
    std::string header;
    std::getline(in, header);
    // The header ends with the one application's tasks: ...:<tasks>(<threads>:<node>,...).
    auto open = header.rfind('(');
    REQUIRE(open != std::string::npos);
    std::vector<int> firstThread{0}; // global index of each task's first thread
    for (const auto& item : splitFields(header.substr(open + 1, header.rfind(')') - open - 1), ','))
        firstThread.push_back(firstThread.back() + std::stoi(item.substr(0, item.find(':'))));
    c.tasks = static_cast<int>(firstThread.size()) - 1;
    auto rowPath = prv;
    rowPath.replace_extension(".row");
    const auto labels = testsupport::readRowLevel(rowPath, "THREAD");
    REQUIRE(static_cast<int>(labels.size()) == firstThread.back());

    const std::set<std::uint32_t> gpuTypes{63000006, 63000007, 63000001};
    const std::set<std::uint32_t> hostTypes{63000000, 63000009};
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto f = splitFields(line, ':');
        if (f[0] == "3") { // 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
            REQUIRE(f.size() >= 15);
            ++c.commsByTag[std::stoll(f[14])];
            continue;
        }
        if (f[0] != "2") continue; // states and communicators: nothing the contract writes
        // 2:cpu:appl:task:thread:time:type:value[:type:value...]
        REQUIRE(f.size() >= 8);
        const int task = std::stoi(f[3]), thread = std::stoi(f[4]);
        REQUIRE(task >= 1);
        REQUIRE(task <= c.tasks);
        const int global = firstThread[task - 1] + thread - 1;
        const std::string row = streamRow(labels.at(global));
        for (std::size_t i = 6; i + 1 < f.size(); i += 2) {
            const auto type = static_cast<std::uint32_t>(std::stoul(f[i]));
            const std::int64_t value = std::stoll(f[i + 1]);
            if (value == 0) continue; // an end
            ++c.begins[type][value];
            if (type == 63000002) c.bytes += value;
            if (gpuTypes.count(type)) (row.empty() ? c.gpuBeginsOffStreamRows : c.gpuBeginsByRow[row]) += 1;
            if (hostTypes.count(type) && !row.empty()) ++c.hostBeginsOnStreamRows;
            if (row.empty()) {
                auto& h = c.hostRows[global];
                h.apiCalls += type == 63000000, h.syncs += type == 63000009;
                h.cpuOps += cpuOpTypes.count(type) > 0, h.userAnnotations += annotationTypes.count(type) > 0;
            }
        }
    }
    return c;
}

std::int64_t beginsOf(const PrvCounts& c, std::uint32_t type) {
    std::int64_t n = 0;
    if (auto it = c.begins.find(type); it != c.begins.end())
        for (const auto& [value, count] : it->second) n += count;
    return n;
}

std::int64_t domainBegins(const PrvCounts& c, const std::map<std::uint32_t, std::string>& labels,
                          const std::string& domain) {
    std::int64_t n = 0;
    for (auto type : domainTypes(labels, domain)) n += beginsOf(c, type);
    return n;
}

Counts sum(const std::vector<const Trace*>& traces) {
    Counts s;
    for (const auto* t : traces) {
        const auto& c = t->counts;
        s.kernels += c.kernels, s.ncclKernels += c.ncclKernels, s.memoryBytes += c.memoryBytes;
        s.apiCalls += c.apiCalls, s.cpuOps += c.cpuOps, s.userAnnotations += c.userAnnotations;
        s.kernelLaunches += c.kernelLaunches, s.memoryLaunches += c.memoryLaunches;
        s.syncsWithoutCall += c.syncsWithoutCall;
        for (const auto& [v, n] : c.memory) s.memory[v] += n;
        for (const auto& [v, n] : c.syncs) s.syncs[v] += n;
        for (const auto& [r, n] : c.activitiesByRow) s.activitiesByRow[r] += n;
    }
    return s;
}

void checkRecords(const fs::path& prv, const std::vector<const Trace*>& traces) {
    const Counts want = sum(traces);
    auto pcf = prv;
    pcf.replace_extension(".pcf");
    const auto labels = testsupport::readPcfTypeLabels(pcf);
    const PrvCounts got = countPrv(prv, labels);

    CHECK(got.tasks == static_cast<int>(traces.size()));
    CHECK(beginsOf(got, 63000006) == want.kernels);
    CHECK(beginsOf(got, 63000007) == want.ncclKernels);
    std::map<std::int64_t, std::int64_t> memory;
    if (auto it = got.begins.find(63000001); it != got.begins.end()) memory = it->second;
    CHECK_MESSAGE(memory == want.memory, show(memory) << " vs " << show(want.memory));
    CHECK(got.bytes == want.memoryBytes);
    CHECK(beginsOf(got, 63000000) == want.apiCalls);
    std::map<std::int64_t, std::int64_t> syncs;
    if (auto it = got.begins.find(63000009); it != got.begins.end()) syncs = it->second;
    CHECK_MESSAGE(syncs == want.syncs, show(syncs) << " vs " << show(want.syncs));
    // Every cuda_sync of these traces has its call (so no reading of the contract is needed for the others).
    CHECK(want.syncsWithoutCall == 0);
    CHECK(domainBegins(got, labels, "cpu_op") == want.cpuOps);
    CHECK(domainBegins(got, labels, "user_annotation") == want.userAnnotations);
    // The stream argument of the host events HTA reads as GPU work: one payload each, and the cuda_sync ones
    // as ranges of the domain cuda_sync (contract: those whose call exists).
    std::int64_t payloads = 0, streamSyncs = 0;
    for (auto type : hostPayloadTypes(labels)) payloads += beginsOf(got, type);
    for (const auto* t : traces) {
        payloads -= static_cast<std::int64_t>(t->streamHostEvents.size());
        for (const auto& e : t->streamHostEvents) streamSyncs += e.fromSync;
    }
    CHECK(payloads == 0);
    CHECK(domainBegins(got, labels, "cuda_sync") == streamSyncs);
    CHECK(got.commsByTag.count(55001) ? got.commsByTag.at(55001) == want.kernelLaunches
                                      : want.kernelLaunches == 0);
    CHECK(got.commsByTag.count(55002) ? got.commsByTag.at(55002) == want.memoryLaunches
                                      : want.memoryLaunches == 0);
    CHECK_MESSAGE(got.gpuBeginsByRow == want.activitiesByRow, show(got.gpuBeginsByRow)
                                                                  << " vs " << show(want.activitiesByRow));
    CHECK(got.gpuBeginsOffStreamRows == 0);
    CHECK(got.hostBeginsOnStreamRows == 0);

    // One CPU row per tid: the rows' host records, as a multiset (the rows' order is not the contract's),
    // equal the threads' (syncs on their call's thread). Rows with none of these (only other records) aside.
    std::multiset<HostThread> rows, threads;
    for (const auto& [row, h] : got.hostRows)
        if (h != HostThread{}) rows.insert(h);
    for (const auto* t : traces)
        for (const auto& [tid, h] : t->hostThreads) threads.insert(h);
    CHECK_MESSAGE(rows == threads,
                  rows.size() << " CPU rows with host records, " << threads.size() << " threads in the JSON");
}

// ---------------------------------------------------------------------------------------------------------
// report.json `hta` against the oracle's figures of each device of the traces.
void checkReading(const json& got, const HtaReading& want) {
    CHECK(got.value("kernel_time_ns", kMissing) == want.kernelTime);
    CHECK(got.value("idle_ns", kMissing) == want.idle);
    CHECK(got.value("compute_ns", kMissing) == want.compute);
}

// The notes of the report about device `id` that begin with `start` after "HTA on <id> ".
std::vector<std::string> htaNotesOf(const json& report, const std::string& id, const std::string& start) {
    std::vector<std::string> out;
    const std::string prefix = "HTA on " + id + " " + start;
    for (const auto& n : member(report, "notes"))
        if (n.is_string() && n.get<std::string>().rfind(prefix, 0) == 0) out.push_back(n.get<std::string>());
    return out;
}

// hta.devices[].rules and the notes against the oracle's replay of HTA's own rules: a rule that changes
// nothing on a device is null there and has no note; one that does has its figures and one note saying so.
void checkHtaRules(const json& report, const json& device, const std::string& id, const HtaRules& want,
                   std::int64_t shift) {
    const json& rules = member(device, "rules");
    const json& last = member(rules, "last_profiler_step");
    auto lastNotes = htaNotesOf(report, id, "keeps only the GPU work launched before the last ProfilerStep");
    if (want.lastStep) {
        CHECK_MESSAGE(last.is_object(), "no last_profiler_step rule");
        CHECK(last.value("step_begin_ns", kMissing) == want.lastStep->stepBegin + shift);
        CHECK(last.value("operations_dropped", kMissing) == want.lastStep->dropped);
        CHECK(last.value("dropped_ns", kMissing) == want.lastStep->droppedTime);
        checkReading(last, want.lastStep->reading);
        REQUIRE(lastNotes.size() == 1);
        const std::string dropped = std::to_string(want.lastStep->dropped) + " operation";
        CHECK_MESSAGE(lastNotes[0].find("drops " + dropped) != std::string::npos, lastNotes[0]);
    } else {
        CHECK_MESSAGE(last.is_null(), last.dump());
        CHECK(lastNotes.empty());
    }
    const json& whole = member(rules, "whole_microseconds");
    auto wholeNotes = htaNotesOf(report, id, "rounds every start up and every end down");
    if (want.wholeMicroseconds) {
        CHECK_MESSAGE(whole.is_object(), "no whole_microseconds rule");
        checkReading(whole, *want.wholeMicroseconds);
        CHECK(wholeNotes.size() == 1);
    } else {
        CHECK_MESSAGE(whole.is_null(), whole.dump());
        CHECK(wholeNotes.empty());
    }
    const json& host = member(rules, "host_events_with_stream");
    auto hostNotes = htaNotesOf(report, id, "counts ");
    if (want.streamHost) {
        CHECK_MESSAGE(host.is_object(), "no host_events_with_stream rule");
        CHECK(host.value("events", kMissing) == want.streamHost->events);
        CHECK(host.value("time_ns", kMissing) == want.streamHost->time);
        checkReading(host, want.streamHost->reading);
        REQUIRE(hostNotes.size() == 1);
        CHECK_MESSAGE(hostNotes[0].find("counts " + std::to_string(want.streamHost->events) +
                                        " host event") != std::string::npos,
                      hostNotes[0]);
    } else {
        CHECK_MESSAGE(host.is_null(), host.dump());
        CHECK(hostNotes.empty());
    }
}

void checkHta(const json& report, const std::vector<const Trace*>& traces,
              const std::vector<std::int64_t>& shifts) {
    const json& h = member(report, "hta");
    REQUIRE_MESSAGE(h.is_object(), "report.json has no hta section");
    CHECK(h.value("consecutive_kernel_delay_ns", kMissing) == kConsecutiveKernelDelayNs);
    std::size_t expected = 0;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const Trace* t = traces[i];
        const auto rules = htaRules(*t);
        for (const auto& [device, ours] : hta(*t)) {
            ++expected;
            const auto id = deviceId(*t, device);
            CAPTURE(id);
            const json* e = findBy(member(h, "devices"), "device", id);
            if (!e) {
                FAIL_CHECK("no hta entry for the device");
                continue;
            }
            CHECK(e->value("kernel_time_ns", kMissing) == ours.kernelTime);
            CHECK(e->value("idle_ns", kMissing) == ours.idle);
            CHECK(e->value("compute_ns", kMissing) == ours.compute);
            CHECK(e->value("non_compute_ns", kMissing) == ours.nonCompute);
            const json& overlap = member(*e, "comm_comp_overlap");
            if (ours.commCompOverlap) {
                CHECK_MESSAGE(overlap.is_number(),
                              "comm_comp_overlap " << overlap.dump() << " vs " << *ours.commCompOverlap);
                if (overlap.is_number())
                    CHECK_MESSAGE(closeTo(overlap.get<double>(), *ours.commCompOverlap, 1e-9),
                                  overlap.get<double>() << " vs " << *ours.commCompOverlap << " = "
                                                        << ours.computeNcclOverlap << " / " << ours.ncclTime);
            } else {
                CHECK_MESSAGE(overlap.is_null(),
                              "comm_comp_overlap " << overlap.dump() << " without NCCL time");
            }
            const json& cause = member(*e, "idle_by_cause");
            CHECK(cause.value("host_wait_ns", kMissing) == ours.hostWait);
            CHECK(cause.value("kernel_wait_ns", kMissing) == ours.kernelWait);
            CHECK(cause.value("other_ns", kMissing) == ours.other);
            checkHtaRules(report, *e, id, rules.count(device) ? rules.at(device) : HtaRules{}, shifts[i]);
        }
    }
    CHECK(member(h, "devices").size() == expected);
}

// ---------------------------------------------------------------------------------------------------------
// The device checks of report.md that the SQL oracle does with nsys' tables, here from the JSON: memory time
// by copy kind (labels of ENUM_CUDA_MEMCPY_OPER for the contract's values 1/2/8/10, "Memset" for memsets) and
// the kernels whose launch call was found.
void checkKinetoDeviceExtras(const json& report, const Trace& t, std::int64_t lo, std::int64_t hi,
                             std::int64_t shift) {
    const std::map<std::int64_t, std::string> kindLabel{
        {1, "Host-to-Device"}, {2, "Device-to-Host"}, {8, "Device-to-Device"}, {10, "Peer-to-Peer"}};
    std::map<std::int64_t, std::map<std::string, Intervals>> byKind; // device -> kind -> intervals
    std::map<std::int64_t, std::int64_t> launched;                   // device -> kernels with a call
    std::set<std::int64_t> unknownKind, seen;
    for (const auto& a : t.activities) {
        seen.insert(a.device);
        if (a.cls != 'M') {
            launched[a.device] += a.correlation && t.callStart.count(*a.correlation);
            continue;
        }
        const auto value = a.memset ? 100 : memcpyKindValue(a.name);
        if (value == 99) unknownKind.insert(a.device); // no label to expect: the kind check is skipped
        byKind[a.device][a.memset                 ? "Memset"
                         : kindLabel.count(value) ? kindLabel.at(value)
                                                  : ""]
            .push_back({a.begin + shift, a.end + shift});
    }
    for (auto device : seen) {
        const auto id = deviceId(t, device);
        CAPTURE(id);
        const json* dev = findBy(member(report, "devices"), "id", id);
        if (!dev) continue; // reported by the shared checks
        CHECK(dev->value("kernels_with_launch", kMissing) == launched[device]);
        if (unknownKind.count(device)) continue;
        std::map<std::string, std::int64_t> expected, got;
        for (const auto& [kind, v] : byKind[device])
            if (auto ns = analyzeoracle::length(v, lo, hi)) expected[kind] = ns;
        if (const json& m = member(*dev, "memory_by_kind_ns"); m.is_object())
            for (const auto& [kind, ns] : m.items()) got[kind] = ns.get<std::int64_t>();
        CHECK_MESSAGE(got == expected, show(got) << " vs " << show(expected));
    }
}

// Runs gpueff on the traces together and checks everything above; devices are compared in trace time
// (each trace shifted by its input's offset_ns).
void checkAnalyzed(const std::vector<fs::path>& files, const std::vector<const Trace*>& traces,
                   const std::string& tag) {
    const auto dir = testsupport::tempDir("kineto-oracle-" + tag);
    const json report = analyzeoracle::analyzeInto(files, dir);
    const json& inputs = member(report, "inputs");
    REQUIRE(inputs.size() == files.size());
    CHECK(member(member(report, "trace"), "tasks") == static_cast<std::int64_t>(files.size()));

    std::map<DeviceKey, Device> all;
    std::map<std::int64_t, const Trace*> byPid;
    std::vector<std::int64_t> shifts;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const json* in = nullptr;
        for (const auto& x : inputs)
            if (fs::path(x.value("path", std::string())).filename() == files[i].filename()) in = &x;
        REQUIRE_MESSAGE(in, "no input of report.json is " << files[i].filename().string());
        CHECK(in->value("host", std::string()) == traces[i]->host);
        const auto shift = in->value("offset_ns", kMissing);
        REQUIRE(shift != kMissing);
        shifts.push_back(shift);
        REQUIRE_MESSAGE(byPid.emplace(traces[i]->pid, traces[i]).second, "two traces of one pid");
        for (auto& [key, d] : devices(*traces[i], shift)) all.emplace(key, std::move(d));
    }
    auto idOf = [&](const DeviceKey& key) { return deviceId(*byPid.at(key.first), key.second); };
    auto [lo, hi] = analyzeoracle::checkDeviceModel(report, all, idOf, 0);
    for (std::size_t i = 0; i < files.size(); ++i)
        checkKinetoDeviceExtras(report, *traces[i], lo, hi, shifts[i]);
    checkHta(report, traces, shifts);

    fs::path prv = member(member(report, "trace"), "prv").is_string()
                       ? fs::path(member(member(report, "trace"), "prv").get<std::string>())
                       : fs::path();
    if (prv.empty() || !fs::exists(prv))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".prv") prv = e.path();
    REQUIRE_MESSAGE(fs::exists(prv), "no .prv written in " << dir.string());
    checkRecords(prv, traces);
}

// ---------------------------------------------------------------------------------------------------------
// A tiny trace worked out by hand. B = 1712195495519000 us (16 digits, as ns_resolution_trace's): every ts is
// B + a few us, written with decimals that a double cannot hold at ns resolution (the spacing of doubles near
// 1.7e15 is 0.25 us), so a conversion through a double would move K2 and the memset. Times below in ns from
// B x 1000.
//
// CPU process 100 (labelled "CPU" after a GPU process, so that the label decides); no host_name: localhost.
// Calls (cuda_runtime): corr 1 at 500, 2 at 1000, 3 at 10000, 4 at 2000 (memcpy), 5 at 3000, 6 at 20000.
// Device 0, stream 7:  K1 gemm_a [2000, 5000) corr 1; K2 gemm_b [5010, 6011) corr 2 (dur 1.0005 us = 1000.5
//                      ns, half away from zero: 1001); K3 gemm_a [11000, 13000) corr 3 (ts an integer).
// Device 0, stream 13: memcpy HtoD [4000, 6000) corr 4, 1024 bytes; NCCL AllReduce [5500, 8500) corr 5;
//                      memset [8600, 8700) corr 99 (no call), 16 bytes.
// Device 1, stream 7:  NCCL Broadcast [3000, 4000), no correlation.
// Also: a cpu_op, a user_annotation, a cuda_sync "Stream Sync" of call 6, and what is not translated
// (gpu_user_annotation, flows, an instant, the Trace span, metadata).
//
// Device 0: C = [2000,5000) [5010,6011) [11000,13000): 3000 + 1001 + 2000 = 6001; N = [5500,8500): 3000;
//   M = [4000,6000) [8600,8700): 2100. All: [2000,8500) [8600,8700) [11000,13000) = 6500 + 100 + 2000 = 8600.
//   HTA: span [2000, 13000) = 11000; idle = 11000 - 8600 = 2400; compute 6001; non_compute = 11000 - 6001 -
//   2400 = 2599; C intersect N = [5500, 6011) = 511: comm_comp_overlap = 511 / 3000.
//   Idle by cause (kernel wait: a gap under 30 us = 30000 ns): stream 7: K2 gap 5010 - 5000 = 10, call 1000
//   <= 5000, 10 < 30000: kernel_wait 10; K3 gap 11000 - 6011 = 4989, call 10000 > 6011: host_wait 4989.
//   Stream 13: NCCL gap 5500 - 6000 = -500, call 3000 <= 6000: kernel_wait -500; memset gap 8600 - 8500 =
//   100, no call, 100 < 30000: kernel_wait 100. Totals: host_wait 4989, kernel_wait -390, other 0.
//   HTA's rules: one ProfilerStep name, so no filter by the last one. Whole microseconds, in doubles of B + x
//   (a double near 1.7e15 holds quarter microseconds): K1 [2, 5); K2's ts 5.010 is the double 5.0, its end
//   5.0 + 1.0005 the double 6.0: [5, 6) (exact decimals would give [6, 6)); K3 [11, 13); memcpy [4, 6); NCCL
//   5.5 up, 8.5 down: [6, 8); memset 8.6 is the double 8.5, its end 8.5 + 0.1 the double 8.5: [9, 8),
//   inverted. HTA's groups in start order: [2,5) [4,6) [5,6) [6,8) (6 is not above 6: joined) = [2, 8);
//   [9, 8) alone = -1; [11, 13) = 2: busy 6 + (-1) + 2 = 7 us, span 13 - 2 = 11 us, idle 4 us; compute K1 K2
//   K3: [2, 6) + [11, 13) = 6 us. Reading (11000, 4000, 6000), not ours (11000, 2400, 6001): a rule to note.
//   Host events with a stream: the Stream Sync (stream 7, its call 6 present) [20500, 21500), on device 0
//   (the lowest): 1 event, 1000 ns; with C, N, M: busy 8600 + 1000 = 9600, span 21500 - 2000 = 19500, idle
//   9900, compute 6001 (a Sync is no compute kernel to HTA). Kernels in flight (C + N) over the window [2000,
//   13000): 0 for [5000,5010) + [8500,11000) = 2510; 2 for [5500,6011) = 511; 1 for the rest = 11000 - 2510 -
//   511 = 7979. Overlap (while N or M runs, |N u M| = [4000,8500) + [8600,8700) = 4600): [4000,5000)
//   K1+memcpy 2; [5000,5010) memcpy 1; [5010,5500) K2+memcpy 2; [5500,6000) K2+memcpy+NCCL 3; [6000,6011)
//   K2+NCCL 2; [6011,8500) NCCL 1; [8600,8700) memset 1: count 1 = 10 + 2489 + 100 = 2599, 2 = 1000 + 490 +
//   11 = 1501, 3 = 500.
// Device 1: HTA span 1000, idle 0, compute 0, non_compute 1000, overlap 0 / 1000 = 0, no gaps.
const char* const kTinyTrace = R"json({
  "schemaVersion": 1,
  "traceEvents": [
    {"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
    {"ph": "M", "name": "process_labels", "pid": 100, "tid": 0, "args": {"labels": "CPU"}},
    {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "python3"}},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 100, "tid": 100,
     "ts": 1712195495519000.0, "dur": 40.0, "args": {"External id": 1}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, "tid": 100,
     "ts": 1712195495519000.1, "dur": 30.0, "args": {"External id": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
     "ts": 1712195495519000.5, "dur": 1.0, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
     "ts": 1712195495519001.0, "dur": 1.0, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 100, "tid": 100,
     "ts": 1712195495519002.0, "dur": 1.0, "args": {"correlation": 4}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
     "ts": 1712195495519003.0, "dur": 1.0, "args": {"correlation": 5}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
     "ts": 1712195495519010.0, "dur": 1.0, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 100, "tid": 100,
     "ts": 1712195495519020.0, "dur": 2.0, "args": {"correlation": 6}},
    {"ph": "s", "id": 1, "pid": 100, "tid": 100, "ts": 1712195495519000.5, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 1712195495519002.0, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7,
     "ts": 1712195495519002.000, "dur": 3.000, "args": {"device": 0, "stream": 7, "correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 7,
     "ts": 1712195495519005.010, "dur": 1.0005, "args": {"device": 0, "stream": 7, "correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7,
     "ts": 1712195495519011, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": 3}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 13,
     "ts": 1712195495519004.0, "dur": 2.0,
     "args": {"device": 0, "stream": 13, "correlation": 4, "bytes": 1024, "memory bandwidth (GB/s)": 0.512}},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", "pid": 0,
     "tid": 13, "ts": 1712195495519005.5, "dur": 3.0, "args": {"device": 0, "stream": 13, "correlation": 5}},
    {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 13,
     "ts": 1712195495519008.6, "dur": 0.1, "args": {"device": 0, "stream": 13, "correlation": 99, "bytes": 16}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Broadcast_RING_LL(ncclDevComm*)", "pid": 1, "tid": 7,
     "ts": 1712195495519003, "dur": 1.0, "args": {"device": 1, "stream": 7}},
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 1712195495519020.5,
     "dur": 1.0, "args": {"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": 6, "device": 0}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "step", "pid": 0, "tid": 7, "ts": 1712195495519002.0,
     "dur": 5.0, "args": {"External id": 1}},
    {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler",
     "ts": 1712195495518990.0, "dur": 50.0, "args": {"Op count": 0}},
    {"ph": "i", "s": "g", "name": "Iteration Start: PyTorch Profiler", "pid": "Traces",
     "tid": "Trace PyTorch Profiler", "ts": 1712195495518990.0}
  ]
})json";
constexpr std::int64_t kB = 1712195495519000000; // B in ns

// Every copy kind of the contract (names -> 63000001: HtoD 1, DtoH 2, DtoD 8, PtoP 10, another 99), launches
// from cuda_driver calls, an event synchronization (CUPTI type 1 -> value 2). Device 0: four copies of 1000
// ns on streams 7 and 8 and a kernel launched by cuLaunchKernel; device 1: the copy of no known kind.
const char* const kKindsTrace = R"json({"traceEvents": [
  {"ph": "M", "name": "process_labels", "pid": 55, "tid": 0, "args": {"labels": "CPU"}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 55, "tid": 55, "ts": 0.1, "dur": 0.05,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 55, "tid": 55, "ts": 0.2, "dur": 0.05,
   "args": {"correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 55, "tid": 55, "ts": 0.3, "dur": 0.05,
   "args": {"correlation": 3}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyPeerAsync", "pid": 55, "tid": 55, "ts": 0.4,
   "dur": 0.05, "args": {"correlation": 4}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 55, "tid": 55, "ts": 0.5, "dur": 0.05,
   "args": {"correlation": 5}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 55, "tid": 56, "ts": 0.7, "dur": 0.05,
   "args": {"correlation": 6}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuEventSynchronize", "pid": 55, "tid": 56, "ts": 8, "dur": 1,
   "args": {"correlation": 7}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 1,
   "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 1, "bytes": 10}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 2,
   "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 2, "bytes": 20}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7, "ts": 3,
   "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 3, "bytes": 30}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy PtoP (Device -> Device)", "pid": 0, "tid": 8, "ts": 3.5,
   "dur": 1, "args": {"device": 0, "stream": 8, "correlation": 4, "bytes": 40}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoH (Pinned -> Pinned)", "pid": 1, "tid": 7, "ts": 1,
   "dur": 0.5, "args": {"device": 1, "stream": 7, "correlation": 5, "bytes": 50}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5, "dur": 1,
   "args": {"device": 0, "stream": 7, "correlation": 6}},
  {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": 7, "ts": 8.2, "dur": 0.5,
   "args": {"cuda_sync_kind": "Event Sync", "correlation": 7, "device": 0, "stream": -1}}
]})json";

// HTA's own rules, each with a figure to note on device 0, worked out by hand (us of the Kineto clock; trace
// time 0 is the first event, 1000.25, so HTA's whole microseconds are not the trace's).
// Host (pid 10): ProfilerStep#1 [1000.25, 1010), ProfilerStep#2 [1010, 1020); launch calls at 1001 (K1),
// 1002 (K2), 1003 (K5), 1004 (K6), 1011 (K3), 1012.5 (K4); aten::add [1020, 1023) (no stream) holding the
// Triton operator triton_poi_fused_add_0 [1020, 1021) (stream 7: begins with its parent, so the stream is
// its own); synchronize calls for a Stream Sync (stream 7) [1096, 1100), a Context Sync (stream 4294967295,
// Kineto's old "none", which is not -1 to HTA) [1101, 1101.5) and an Event Sync (stream -1) [1102.1, 1102.4).
// Device 0, stream 7: K1 [1003.2, 1005.6), K2 [1008, 1009.5), K3 [1045, 1046.25), K4 [1090, 1090.4); stream
// 8: K5 [1030.3, 1030.7). Device 1: K6 [1005, 1006), whole microseconds, launched in step 1. Device 0 (all
// compute): span 1090.4 - 1003.2 = 87200 ns; busy 2400 + 1500 + 400 + 1250 + 400 = 5950;
//   idle 81250; compute 5950. Idle by cause, stream 7: K2 gap 2400, call 1002 <= 1005.6, under 30 us:
//   kernel wait (at 30 ns it was "other"); K3 gap 35500, call 1011 > 1009.5: host wait; K4 gap 43750, call
//   1012.5 <= 1046.25, not under 30 us: other. Host 35500, kernel 2400, other 43750.
// (a) Two step names; the last begins at 1010 = 9750 ns of trace time. K1, K2, K5 launched before it stay;
//   K3, K4 drop: 2 operations, 1250 + 400 = 1650 ns. Kept: span 1030.7 - 1003.2 = 27500, busy 4300, idle
//   23200, compute 4300.
// (b) Rounded (start up, end down): K1 [1004, 1005), K2 [1008, 1009), K5 [1031, 1030) (inverted), K3
//   [1045, 1046), K4 [1090, 1090). Groups: each alone (every start is above the ends before it): 1 + 1 - 1 +
//   1 + 0 = 2 us busy, span 1090 - 1004 = 86 us, idle 84 us; compute the same 2 us: (86000, 84000, 2000).
// (c) Triton [1020, 1021) (compute by its name), Stream Sync, Context Sync: 3 events, 1000 + 4000 + 500 =
//   5500 ns. With the kernels: span 1101.5 - 1003.2 = 98300, busy 5950 + 5500 = 11450, idle 86850, compute
//   5950 + 1000 = 6950.
// Device 1: no rule changes anything (nothing dropped, nothing to round, host events go to device 0).
const char* const kHtaRulesTrace = R"json({"traceEvents": [
  {"ph": "M", "name": "process_labels", "pid": 10, "tid": 0, "args": {"labels": "CPU"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 10, "tid": 10, "ts": 1000.25,
   "dur": 9.75},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 10, "tid": 10, "ts": 1010.0,
   "dur": 10.0},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1001.0,
   "dur": 0.5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1002.0,
   "dur": 0.5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1003.0,
   "dur": 0.5, "args": {"correlation": 6}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1004.0,
   "dur": 0.5, "args": {"correlation": 8}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1011.0,
   "dur": 0.5, "args": {"correlation": 3}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1012.5,
   "dur": 0.5, "args": {"correlation": 4}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 10, "ts": 1020.0, "dur": 3.0,
   "args": {"External id": 20}},
  {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 10, "tid": 10, "ts": 1020.0,
   "dur": 1.0, "args": {"kernel_backend": "triton", "stream": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 10, "tid": 10, "ts": 1095.0,
   "dur": 5.5, "args": {"correlation": 5}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 10, "tid": 10, "ts": 1100.8,
   "dur": 0.8, "args": {"correlation": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventSynchronize", "pid": 10, "tid": 10, "ts": 1102.0,
   "dur": 0.5, "args": {"correlation": 9}},
  {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 1003.2, "dur": 2.4,
   "args": {"device": 0, "stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 7, "ts": 1008.0, "dur": 1.5,
   "args": {"device": 0, "stream": 7, "correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "gemm_small", "pid": 0, "tid": 8, "ts": 1030.3, "dur": 0.4,
   "args": {"device": 0, "stream": 8, "correlation": 6}},
  {"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 1045.0, "dur": 1.25,
   "args": {"device": 0, "stream": 7, "correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 7, "ts": 1090.0, "dur": 0.4,
   "args": {"device": 0, "stream": 7, "correlation": 4}},
  {"ph": "X", "cat": "kernel", "name": "gemm_c", "pid": 1, "tid": 7, "ts": 1005, "dur": 1,
   "args": {"device": 1, "stream": 7, "correlation": 8}},
  {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 1096.0, "dur": 4.0,
   "args": {"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": 5, "device": 0}},
  {"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": 7, "ts": 1101.0, "dur": 0.5,
   "args": {"cuda_sync_kind": "Context Sync", "stream": 4294967295, "correlation": 7, "device": 0}},
  {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": 7, "ts": 1102.1, "dur": 0.3,
   "args": {"cuda_sync_kind": "Event Sync", "stream": -1, "correlation": 9, "device": 0}}
]})json";

// A collective kernel is a name containing "nccl" or, for AMD's RCCL, "rccl" (any case; docs/events.md,
// 63000007). Two kernels on two streams: [1000, 3000) compute, [2000, 5000) rccl: C = [1000, 3000),
// N = [2000, 5000).
const char* const kRcclTrace = R"json({"traceEvents": [
  {"ph": "M", "name": "process_labels", "pid": 7, "tid": 0, "args": {"labels": "CPU"}},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 7, "tid": 7, "ts": 0.5, "dur": 0.2,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipExtLaunchKernel", "pid": 7, "tid": 7, "ts": 0.8, "dur": 0.2,
   "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "Cijk_Ailk_Bjlk_SB_MT64x16x16", "pid": 0, "tid": 0, "ts": 1, "dur": 2,
   "args": {"device": 0, "stream": 0, "correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "rcclGenericKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 0,
   "ts": 2, "dur": 3, "args": {"device": 0, "stream": 1, "correlation": 2}}
]})json";

} // namespace

TEST_CASE("kineto oracle: microseconds text to ns is exact decimal arithmetic, rounded half away from zero") {
    CHECK(microsecondsTextToNs("4458676522690.655") == 4458676522690655);
    CHECK(microsecondsTextToNs("1712195495519689.0") == 1712195495519689000);
    CHECK(microsecondsTextToNs("1712195495519689.001") == 1712195495519689001); // no double holds it
    CHECK(microsecondsTextToNs("68.0") == 68000);
    CHECK(microsecondsTextToNs("12") == 12000);
    CHECK(microsecondsTextToNs("1.0005") == 1001);
    CHECK(microsecondsTextToNs("1.00049999") == 1000);
    CHECK(microsecondsTextToNs("-1.0005") == -1001);
    CHECK(microsecondsTextToNs("0.0004") == 0);
    CHECK(microsecondsTextToNs("1.5e3") == 1500000);
    CHECK(microsecondsTextToNs("25E-4") == 3);
    CHECK(microsecondsTextToNs("0e99999") == 0);
    CHECK_THROWS_AS(microsecondsTextToNs("1."), std::invalid_argument);
    CHECK_THROWS_AS(microsecondsTextToNs(".5"), std::invalid_argument);
    CHECK_THROWS_AS(microsecondsTextToNs("1x"), std::invalid_argument);
    CHECK_THROWS_AS(microsecondsTextToNs("9223372036854775.808"), std::out_of_range);
    CHECK(microsecondsTextToNs("9223372036854775.807") == std::numeric_limits<std::int64_t>::max());

    // The DOM keeps the text of non-integer numbers, integers as integers.
    auto j =
        parseKeepingNumberText(R"({"a": 1712195495519005.010, "b": 2, "c": [1e2, "x", -3.50], "d": {}})");
    CHECK(j["a"] == "1712195495519005.010");
    CHECK(j["b"] == 2);
    CHECK(j["c"] == json::array({"1e2", "x", "-3.50"}));
    CHECK(j["d"] == json::object());
    CHECK(microsecondsToNs(j["a"]) == 1712195495519005010);
    CHECK(microsecondsToNs(j["b"]) == 2000);
    CHECK_THROWS(parseKeepingNumberText("{\"a\": }"));
}

TEST_CASE("kineto oracle: the hand-worked tiny trace") {
    const Trace t = fromJson(parseKeepingNumberText(kTinyTrace));
    CHECK(t.pid == 100);
    CHECK(t.host == "localhost");
    CHECK(deviceId(t, 1) == "localhost:100:1");

    const auto& c = t.counts;
    CHECK(c.kernels == 3);
    CHECK(c.ncclKernels == 2);
    CHECK(c.memory == std::map<std::int64_t, std::int64_t>{{1, 1}, {100, 1}});
    CHECK(c.memoryBytes == 1040);
    CHECK(c.apiCalls == 6);
    CHECK(c.cpuOps == 1);
    CHECK(c.userAnnotations == 1);
    CHECK(c.syncs == std::map<std::int64_t, std::int64_t>{{4, 1}});
    CHECK(c.syncsWithoutCall == 0);
    CHECK(c.kernelLaunches == 4); // K1, K2, K3, AllReduce; not the Broadcast (no correlation)
    CHECK(c.memoryLaunches == 1); // the memcpy; not the memset (call 99 absent)
    // Every host record on thread 100, the sync included (its call, 6, is there; the sync event is on tid 7).
    CHECK(t.hostThreads == std::map<std::string, HostThread>{{"100", HostThread{6, 1, 1, 1}}});
    CHECK(c.activitiesByRow ==
          std::map<std::string, std::int64_t>{{"CUDA-D0.S13", 3}, {"CUDA-D0.S7", 3}, {"CUDA-D1.S7", 1}});

    auto d = devices(t, -kB);
    REQUIRE(d.size() == 2);
    const Device& d0 = d.at({100, 0});
    CHECK(d0.compute == Intervals{{2000, 5000}, {5010, 6011}, {11000, 13000}});
    CHECK(d0.nccl == Intervals{{5500, 8500}});
    CHECK(d0.memory == Intervals{{4000, 6000}, {8600, 8700}});
    CHECK(d0.kernels == 4);
    CHECK(d0.memoryOperations == 2);
    CHECK(d0.durations.at("gemm_a") == std::vector<std::int64_t>{3000, 2000});
    CHECK(d0.ncclRuns.size() == 1);
    const Device& d1 = d.at({100, 1});
    CHECK(d1.nccl == Intervals{{3000, 4000}});
    CHECK(d1.compute.empty());

    // The shared checks' sweeps on device 0 over the window [2000, 13000).
    const auto kernels = analyzeoracle::concat({&d0.compute, &d0.nccl});
    const auto everything = analyzeoracle::concat({&d0.compute, &d0.nccl, &d0.memory});
    const auto communication = analyzeoracle::concat({&d0.nccl, &d0.memory});
    CHECK(timeByCount(kernels, 2000, 13000) ==
          std::map<std::int64_t, std::int64_t>{{0, 2510}, {1, 7979}, {2, 511}});
    CHECK(timeByCount(everything, 2000, 13000, &communication) ==
          std::map<std::int64_t, std::int64_t>{{1, 2599}, {2, 1501}, {3, 500}});
    CHECK(analyzeoracle::length(everything, 2000, 13000) == 8600);

    auto h = hta(t);
    REQUIRE(h.size() == 2);
    const Hta& h0 = h.at(0);
    CHECK(h0.kernelTime == 11000);
    CHECK(h0.idle == 2400);
    CHECK(h0.compute == 6001);
    CHECK(h0.nonCompute == 2599);
    CHECK(h0.ncclTime == 3000);
    CHECK(h0.computeNcclOverlap == 511);
    REQUIRE(h0.commCompOverlap);
    CHECK(*h0.commCompOverlap == doctest::Approx(511.0 / 3000.0).epsilon(1e-15));
    CHECK(h0.hostWait == 4989);
    CHECK(h0.kernelWait == -390);
    CHECK(h0.other == 0);
    const Hta& h1 = h.at(1);
    CHECK(h1.kernelTime == 1000);
    CHECK(h1.idle == 0);
    CHECK(h1.compute == 0);
    CHECK(h1.nonCompute == 1000);
    REQUIRE(h1.commCompOverlap);
    CHECK(*h1.commCompOverlap == 0.0);
    CHECK(h1.hostWait + h1.kernelWait + h1.other == 0);

    auto rules = htaRules(t);
    const HtaRules& r0 = rules[0];
    CHECK_FALSE(r0.lastStep);
    REQUIRE(r0.wholeMicroseconds);
    CHECK(*r0.wholeMicroseconds == HtaReading{11000, 4000, 6000});
    REQUIRE(r0.streamHost);
    CHECK(r0.streamHost->events == 1);
    CHECK(r0.streamHost->time == 1000);
    CHECK(r0.streamHost->reading == HtaReading{19500, 9900, 6001});
    const HtaRules& r1 = rules[1]; // the Broadcast's whole microseconds change nothing
    CHECK_FALSE(r1.lastStep);
    CHECK_FALSE(r1.wholeMicroseconds);
    CHECK_FALSE(r1.streamHost);

    // The "CPU" label decides the pid over a host event of another pid; without the label, the first
    // cpu_op / cuda_runtime event does (here the cpu_op). A host_name names the host.
    auto doc = parseKeepingNumberText(kTinyTrace);
    doc["host_name"] = "node7";
    for (auto& e : doc["traceEvents"])
        if (e.value("cat", "") == "cpu_op") e["pid"] = 4242;
    const Trace labelled = fromJson(doc);
    CHECK(labelled.pid == 100);
    CHECK(labelled.host == "node7");
    CHECK(deviceId(labelled, 0) == "node7:100:0");
    doc["traceEvents"].erase(doc["traceEvents"].begin() + 1);
    CHECK(fromJson(doc).pid == 4242);
}

TEST_CASE("kineto oracle: gpueff analyze of the hand-worked tiny trace") {
    const auto dir = testsupport::tempDir("kineto-oracle-tiny-input");
    const auto file = dir / "tiny_kineto.json";
    std::ofstream(file) << kTinyTrace;
    const Trace t = load(file);
    checkAnalyzed({file}, {&t}, "tiny");
}

TEST_CASE("kineto oracle: gpueff analyze of every Kineto trace equals the recomputation from its JSON") {
    const auto files = kinetoTraces();
    REQUIRE(files.size() >= 8);
    for (const auto& file : files) {
        // One subcase per trace: a failure in one (REQUIRE included) does not hide the others.
        SUBCASE(file.filename().string().c_str()) {
            const Trace t = load(file);
            REQUIRE(!t.activities.empty());
            checkAnalyzed({file}, {&t}, file.stem().stem().string());
        }
    }
}

TEST_CASE("kineto oracle: HTA's own rules on a hand-worked trace: each noted with its figures") {
    const auto dir = testsupport::tempDir("kineto-oracle-hta-rules-input");
    const auto file = dir / "hta_rules_kineto.json";
    std::ofstream(file) << kHtaRulesTrace;
    const Trace t = load(file);

    // The oracle against the hand-worked figures above.
    REQUIRE(t.streamHostEvents.size() == 3);
    auto h = hta(t);
    CHECK(h.at(0).kernelTime == 87200);
    CHECK(h.at(0).idle == 81250);
    CHECK(h.at(0).hostWait == 35500);
    CHECK(h.at(0).kernelWait == 2400);
    CHECK(h.at(0).other == 43750);
    auto rules = htaRules(t);
    const HtaRules& r0 = rules[0];
    REQUIRE(r0.lastStep);
    CHECK(r0.lastStep->stepBegin == 1010000);
    CHECK(r0.lastStep->dropped == 2);
    CHECK(r0.lastStep->droppedTime == 1650);
    CHECK(r0.lastStep->reading == HtaReading{27500, 23200, 4300});
    REQUIRE(r0.wholeMicroseconds);
    CHECK(*r0.wholeMicroseconds == HtaReading{86000, 84000, 2000});
    REQUIRE(r0.streamHost);
    CHECK(r0.streamHost->events == 3);
    CHECK(r0.streamHost->time == 5500);
    CHECK(r0.streamHost->reading == HtaReading{98300, 86850, 6950});
    const HtaRules& r1 = rules[1];
    CHECK_FALSE(r1.lastStep);
    CHECK_FALSE(r1.wholeMicroseconds);
    CHECK_FALSE(r1.streamHost);

    // gpueff against the oracle (every figure, rule and note of both devices), then a few by hand.
    checkAnalyzed({file}, {&t}, "hta-rules");
    const auto out = testsupport::tempDir("kineto-oracle-hta-rules");
    const json report = analyzeoracle::analyzeInto({file}, out);
    const json* d0 = findBy(report["hta"]["devices"], "device", deviceId(t, 0));
    REQUIRE(d0);
    CHECK((*d0)["rules"]["last_profiler_step"]["step_begin_ns"] == 9750);
    CHECK((*d0)["rules"]["whole_microseconds"]["idle_ns"] == 84000);
    CHECK((*d0)["rules"]["host_events_with_stream"]["idle_ns"] == 86850);
    auto notes = htaNotesOf(report, deviceId(t, 0), "keeps only");
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] ==
          "HTA on localhost:10:0 keeps only the GPU work launched before the last ProfilerStep "
          "began (9.750 \xC2\xB5s into the trace) and drops 2 operations launched later or without "
          "a launch call (1.650 \xC2\xB5s of GPU time): it would show a span of 27.500 \xC2\xB5s "
          "instead of 87.200 \xC2\xB5s, idle 23.200 \xC2\xB5s (84.36 % of the span) instead of "
          "81.250 \xC2\xB5s (93.18 % of the span), compute 4.300 \xC2\xB5s instead of 5.950 "
          "\xC2\xB5s");
    const json* d1 = findBy(report["hta"]["devices"], "device", deviceId(t, 1));
    REQUIRE(d1);
    CHECK((*d1)["rules"] == json({{"last_profiler_step", nullptr},
                                  {"whole_microseconds", nullptr},
                                  {"host_events_with_stream", nullptr}}));
    CHECK(htaNotesOf(report, deviceId(t, 1), "").empty());
    // report.md shows the notes under "HTA's definitions", and not again among the other notes.
    std::ifstream md(out / "report.md");
    std::stringstream text;
    text << md.rdbuf();
    const std::string page = text.str();
    const auto section = page.find("## HTA's definitions"), notesSection = page.find("## Notes");
    REQUIRE(section != std::string::npos);
    REQUIRE(notesSection != std::string::npos);
    const auto shown = page.find("keeps only the GPU work", section);
    CHECK(shown < notesSection);
    CHECK(page.find("keeps only the GPU work", notesSection) == std::string::npos);
}

TEST_CASE(
    "kineto oracle: a kernel whose name holds rccl (AMD's RCCL) is a collective, as NCCL's are") {
    const auto dir = testsupport::tempDir("kineto-oracle-rccl-input");
    const auto file = dir / "rccl_kineto.json";
    std::ofstream(file) << kRcclTrace;
    const Trace t = load(file);
    REQUIRE(t.counts.kernels == 1);
    REQUIRE(t.counts.ncclKernels == 1);
    checkAnalyzed({file}, {&t}, "rccl");
}

TEST_CASE("kineto oracle: two ranks given together are two tasks with the devices of both") {
    const auto dir = testsupport::dataDir() / "kineto";
    const std::vector<fs::path> files{dir / "trace_filter_sampled_rank-0.json.gz",
                                      dir / "trace_filter_sampled_rank-1.json.gz"};
    const Trace r0 = load(files[0]), r1 = load(files[1]);
    REQUIRE(r0.pid != r1.pid);
    checkAnalyzed(files, {&r0, &r1}, "two-ranks");
}
