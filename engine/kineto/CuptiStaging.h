#pragma once
// Kineto records are CUPTI activity records serialized by PyTorch (kernels, memcpy, memset, runtime calls,
// synchronization, all with CUPTI's correlation ids) plus host ranges (operators, annotations). Nsight
// Systems exports the same CUPTI records into SQLite tables, which gpueff's translator already turns into
// the Paraver trace and the analysis. So a Kineto trace is staged, event by event as it is parsed, into
// those tables (the subset the translator reads, same columns and enums) in a temporary SQLite file: the
// encoding, the launch lines, the NCCL payloads and every command then behave the same for both inputs.
#include "engine/kineto/ChromeTrace.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

struct sqlite3;

namespace gpueff::kineto {

class Insert;

class CuptiStaging {
public:
    // Creates the tables in a new SQLite file at `database` (which must not exist).
    explicit CuptiStaging(const std::filesystem::path& database);
    ~CuptiStaging();
    CuptiStaging(const CuptiStaging&) = delete;
    CuptiStaging& operator=(const CuptiStaging&) = delete;

    void add(const ChromeEvent& event);
    // Writes what needs the whole trace (process and thread names, session start, host, rank, NCCL ranges
    // around their launch calls) and closes the file. `input` names the trace in messages.
    void finish(const TraceMetadata& metadata, const std::filesystem::path& input);

    // Events left out, by reason ("kernel event without args.device", "category 'foo' is not translated").
    const std::map<std::string, std::uint64_t>& skipped() const { return skipped_; }
    std::uint64_t gpuEvents() const { return gpuEvents_; }

private:
    void exec(const std::string& sql);
    std::int64_t stringId(const std::string& text);
    std::int64_t globalTid(std::int64_t pid, std::int64_t tid);
    std::int64_t packedId(std::int64_t id, std::map<std::int64_t, std::int64_t>& remapped);
    void hostRange(const ChromeEvent& e, std::int64_t domain);
    void runtimeCall(const ChromeEvent& e);
    void gpuActivity(const ChromeEvent& e);
    void synchronization(const ChromeEvent& e);
    void metadataEvent(const ChromeEvent& e);
    void skip(const std::string& why) { ++skipped_[why]; }

    sqlite3* db_ = nullptr;
    std::unique_ptr<Insert> strings_, runtime_, kernel_, memcpy_, memset_, sync_, nvtx_, nccl_, streamSync_;
    std::unordered_map<std::string, std::int64_t> stringIds_;
    std::map<std::int64_t, std::int64_t> pids_, tids_; // ids beyond nsys' 24 bits -> ids stored
    std::int64_t cpuPid_ = -1;                         // the process of the host events (Kineto: one)
    std::map<std::int64_t, std::string> processNames_;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames_;
    std::map<std::int64_t, std::string> domains_; // NVTX domain id -> name, of the domains used
    std::map<std::string, std::uint64_t> skipped_;
    std::uint64_t gpuEvents_ = 0;
};

} // namespace gpueff::kineto
