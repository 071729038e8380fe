#include "jobs/PartCodec.h"

#include "engine/common/Error.h"

#include <nlohmann/json.hpp>

// The structures' fields by name, in their own namespaces so that nlohmann finds them (argument-dependent
// lookup); defined here, beside the one encoding that uses them.
namespace gpueff::nsys {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NameFacts::Family, types, names)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NameFacts, families)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PartFacts::Report, index, skippedRows, repairedText)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PartFacts::TypeLabel, type, from, label)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PartFacts::ValueLabel, type, from, value, label)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PartFacts, recordsByKind, reports, typeLabels, valueLabels, usedTypes)
} // namespace gpueff::nsys

namespace gpueff::pipeline {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StreamTotals::Tag, lines, physicalSendDiffers)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StreamTotals, lastRecordTime, recordsAfterEnd, eventTypes, communications)
} // namespace gpueff::pipeline

namespace gpueff::metrics {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HostRange, task, begin, end, name, parentBegin, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Projection, begin, end)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DetectedIterations, anchor, begins, lastEnd, period)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Span, begin, end, value)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HtaTaskEvidence, lastStepBegin, stepNames, streamEvents)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LevelPartial, useful, usefulWithNccl, commNotUseful, memoryNotUseful,
                                   communication, overlap, inFlight, busy, usefulEnd)

void to_json(nlohmann::json& j, const WindowEvidence& e) {
    j = {{"activityBegin", e.activityBegin},
         {"activityEnd", e.activityEnd},
         {"regionFirst", e.regionFirst},
         {"regionLast", e.regionLast},
         {"markers", e.markers},
         {"phases", e.phases},
         {"detected", e.detected ? nlohmann::json(*e.detected) : nlohmann::json()},
         {"markerWork", e.markerWork},
         {"phaseWork", e.phaseWork},
         {"launchLines", e.launchLines},
         {"hta", e.hta}};
}

void from_json(const nlohmann::json& j, WindowEvidence& e) {
    j.at("activityBegin").get_to(e.activityBegin);
    j.at("activityEnd").get_to(e.activityEnd);
    j.at("regionFirst").get_to(e.regionFirst);
    j.at("regionLast").get_to(e.regionLast);
    j.at("markers").get_to(e.markers);
    j.at("phases").get_to(e.phases);
    if (const auto& d = j.at("detected"); !d.is_null()) e.detected = d.get<DetectedIterations>();
    j.at("markerWork").get_to(e.markerWork);
    j.at("phaseWork").get_to(e.phaseWork);
    j.at("launchLines").get_to(e.launchLines);
    j.at("hta").get_to(e.hta);
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceTimes, compute, nccl, memory, kernels, memoryOperations,
                                   memoryByKind, launchedKernels)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HtaBreakdown::Reading, kernelTime, idle, compute)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HtaBreakdown::AfterLastStep, stepBegin, dropped, droppedTime, reading)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HtaBreakdown::StreamHostEvents, events, time, reading)

// An optional as its value or null.
template <typename T>
nlohmann::json orNull(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
}
// Read into a value made here rather than through j.get<T>(): clang decides whether HtaBreakdown's nested
// structs are default-constructible while HtaBreakdown is still incomplete (its std::optional members), caches
// "no", and then finds no get<T>() for them (the fuzz build, scripts/fuzz, failed there).
template <typename T>
void fromOrNull(const nlohmann::json& j, std::optional<T>& v) {
    if (j.is_null()) return;
    T value;
    from_json(j, value);
    v = std::move(value);
}

void to_json(nlohmann::json& j, const HtaBreakdown& h) {
    j = {{"kernelTime", h.kernelTime},
         {"idle", h.idle},
         {"compute", h.compute},
         {"nonCompute", h.nonCompute},
         {"ncclTime", h.ncclTime},
         {"computeDuringNccl", h.computeDuringNccl},
         {"hostWait", h.hostWait},
         {"kernelWait", h.kernelWait},
         {"other", h.other},
         {"afterLastStep", orNull(h.afterLastStep)},
         {"wholeMicroseconds", orNull(h.wholeMicroseconds)},
         {"streamHostEvents", orNull(h.streamHostEvents)}};
}

void from_json(const nlohmann::json& j, HtaBreakdown& h) {
    for (auto [key, field] : {std::pair{"kernelTime", &h.kernelTime},
                              {"idle", &h.idle},
                              {"compute", &h.compute},
                              {"nonCompute", &h.nonCompute},
                              {"ncclTime", &h.ncclTime},
                              {"computeDuringNccl", &h.computeDuringNccl},
                              {"hostWait", &h.hostWait},
                              {"kernelWait", &h.kernelWait},
                              {"other", &h.other}})
        j.at(key).get_to(*field);
    fromOrNull(j.at("afterLastStep"), h.afterLastStep);
    fromOrNull(j.at("wholeMicroseconds"), h.wholeMicroseconds);
    fromOrNull(j.at("streamHostEvents"), h.streamHostEvents);
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Efficiency::PerDevice, useful, communication, idle)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceConcurrency, inFlight, inFlightWithMemory, queued, overlap,
                                   communication)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Timeline::Device, inFlight, useful, communication)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NcclKernelOverlap, device, kernel, instances, time, overlapped)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TensorCoreProfile::Row, task, device, percent)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KernelRow, name, total, min, max, instances, timePercent, average, median,
                                   stddev)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GapSummary, count, hostWaitCount, kernelWaitCount, total, hostWait,
                                   kernelWait, binCount, binTime)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(NvtxInstance, type, startEnd, open, value, time)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HostCallsPartial, nvtx, lastNvtxEvent, startEndNested, api)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MemoryOperations, durations, bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TaskPartial, blocking, mpi, launchBlocked, blockingWithLaunches, calls)

void to_json(nlohmann::json& j, const DevicePartial& p) {
    j = {{"times", p.times},
         {"asCommunication", p.asCommunication},
         {"asUseful", p.asUseful},
         {"concurrency", p.concurrency},
         {"timeline", p.timeline},
         {"ncclOverlap", p.ncclOverlap},
         {"tensorCore", p.tensorCore ? nlohmann::json(*p.tensorCore) : nlohmann::json()},
         {"gemms", p.gemms},
         {"kernelSummary", p.kernelSummary},
         {"durations", p.durations},
         {"gaps", p.gaps},
         {"overlappingRecords", p.overlappingRecords},
         {"levels", p.levels},
         {"ncclArrivals", p.ncclArrivals},
         {"overlappedDurations", p.overlappedDurations},
         {"aloneDurations", p.aloneDurations},
         {"tensorByOverlap", p.tensorByOverlap},
         {"memoryOperations", p.memoryOperations},
         {"hta", p.hta}};
}

void from_json(const nlohmann::json& j, DevicePartial& p) {
    j.at("times").get_to(p.times);
    j.at("asCommunication").get_to(p.asCommunication);
    j.at("asUseful").get_to(p.asUseful);
    j.at("concurrency").get_to(p.concurrency);
    j.at("timeline").get_to(p.timeline);
    j.at("ncclOverlap").get_to(p.ncclOverlap);
    if (const auto& t = j.at("tensorCore"); !t.is_null()) p.tensorCore = t.get<TensorCoreProfile::Row>();
    j.at("gemms").get_to(p.gemms);
    j.at("kernelSummary").get_to(p.kernelSummary);
    j.at("durations").get_to(p.durations);
    j.at("gaps").get_to(p.gaps);
    j.at("overlappingRecords").get_to(p.overlappingRecords);
    j.at("levels").get_to(p.levels);
    j.at("ncclArrivals").get_to(p.ncclArrivals);
    j.at("overlappedDurations").get_to(p.overlappedDurations);
    j.at("aloneDurations").get_to(p.aloneDurations);
    j.at("tensorByOverlap").get_to(p.tensorByOverlap);
    j.at("memoryOperations").get_to(p.memoryOperations);
    j.at("hta").get_to(p.hta);
}
} // namespace gpueff::metrics

namespace gpueff::jobs {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Partials, devices, tasks)

namespace {

// MessagePack keeps every integer and double exactly (a double as float64 unless float32 holds it exactly).
template <typename T>
std::string encode(const T& value) {
    auto bytes = nlohmann::json::to_msgpack(nlohmann::json(value));
    return std::string(bytes.begin(), bytes.end());
}

// The bytes come from another process of the same run, never from a user: a failure is a bug.
template <typename T>
T decode(const std::string& bytes, const char* what) {
    try {
        return nlohmann::json::from_msgpack(bytes).get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("internal error: a peer process sent unreadable ") + what + ": " + e.what());
    }
}

} // namespace

std::string encodePartFacts(const nsys::PartFacts& facts) {
    return encode(facts);
}
nsys::PartFacts decodePartFacts(const std::string& bytes) {
    return decode<nsys::PartFacts>(bytes, "translation facts");
}

std::string encodeNameFacts(const nsys::NameFacts& facts) {
    return encode(facts);
}
nsys::NameFacts decodeNameFacts(const std::string& bytes) {
    return decode<nsys::NameFacts>(bytes, "names");
}

std::string encodeTotals(const pipeline::StreamTotals& totals) {
    return encode(totals);
}
pipeline::StreamTotals decodeTotals(const std::string& bytes) {
    return decode<pipeline::StreamTotals>(bytes, "stream totals");
}

std::string encodeWindowEvidence(const metrics::WindowEvidence& evidence) {
    return encode(evidence);
}
metrics::WindowEvidence decodeWindowEvidence(const std::string& bytes) {
    return decode<metrics::WindowEvidence>(bytes, "window evidence");
}

std::string encodePartials(const Partials& partials) {
    return encode(partials);
}
Partials decodePartials(const std::string& bytes) {
    return decode<Partials>(bytes, "partial results");
}

} // namespace gpueff::jobs
