#pragma once
// What the processes of a distributed analysis send each other, as bytes (MessagePack through nlohmann's
// json): the facts of each part of the translation, the stream totals, the window's evidence and the partial
// results of the analysis. metrics/ and engine/ know nothing of the encoding.
#include "engine/nsys/Distribution.h"
#include "engine/pipeline/ShardSpill.h"
#include "metrics/Analysis.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gpueff::jobs {

std::string encodePartFacts(const nsys::PartFacts& facts);
nsys::PartFacts decodePartFacts(const std::string& bytes);

std::string encodeScanFacts(const nsys::ScanFacts& facts);
nsys::ScanFacts decodeScanFacts(const std::string& bytes);

std::string encodeNameFacts(const nsys::NameFacts& facts);
nsys::NameFacts decodeNameFacts(const std::string& bytes);

std::string encodeTotals(const pipeline::StreamTotals& totals);
pipeline::StreamTotals decodeTotals(const std::string& bytes);

std::string encodeWindowEvidence(const metrics::WindowEvidence& evidence);
metrics::WindowEvidence decodeWindowEvidence(const std::string& bytes);

// The partials of some devices and tasks, each with its index.
struct Partials {
    std::vector<std::pair<std::size_t, metrics::DevicePartial>> devices;
    std::vector<std::pair<std::size_t, metrics::TaskPartial>> tasks;
    std::vector<std::int64_t> store; // the sender's SpillStore, whole: their bulk
    static void fields(auto& s, auto&& f) {
        f("devices", s.devices);
        f("tasks", s.tasks);
        f("store", s.store);
    }
};
std::string encodePartials(const Partials& partials);
Partials decodePartials(const std::string& bytes);

} // namespace gpueff::jobs
