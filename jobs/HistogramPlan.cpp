#include "jobs/HistogramPlan.h"

#include "engine/common/Error.h"
#include "engine/common/MemorySize.h"
#include "engine/paraver/PrvParser.h"
#include "engine/semantic/ObjectModel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <unordered_set>

namespace gpueff::jobs {

std::string memoryText(std::uint64_t bytes) {
    char text[64];
    double b = static_cast<double>(bytes);
    if (b >= 1073741824.0)
        std::snprintf(text, sizeof text, "%.1f GB", b / 1073741824.0);
    else if (b >= 1048576.0)
        std::snprintf(text, sizeof text, "%.0f MB", std::ceil(b / 1048576.0));
    else
        std::snprintf(text, sizeof text, "%.0f KB", std::ceil(b / 1024.0));
    return text;
}

namespace {

using semantic::Level;

bool resourceLevel(Level l) {
    return l == Level::System || l == Level::Node || l == Level::Cpu;
}

// The coarsest process level of any window of any cfg: groups are cut at its objects so that every row a
// window evaluates (and the children and coarser rows it reads) lies in one group. A window at the workload
// or a resource level reads every thread for each of its rows: `why` says which, and the trace is loaded
// whole.
Level groupLevel(const std::vector<semantic::Cfg>& cfgs, std::string& why) {
    Level level = Level::Thread;
    for (const auto& cfg : cfgs)
        for (const auto& w : cfg.windows) {
            if (resourceLevel(w.level) || w.level == Level::Workload) {
                if (why.empty())
                    why = cfg.path + ":" + std::to_string(w.line) + ": window '" + w.name + "' at " +
                          semantic::levelName(w.level) + " level";
                continue;
            }
            if (static_cast<int>(w.level) < static_cast<int>(level)) level = w.level;
        }
    return level;
}

// The first pass: bytes in memory per thread of the records `options` keeps, and the event types kept.
class RecordCounter : public paraver::PrvBodyParser::Output {
public:
    RecordCounter(const paraver::ReadOptions& options, std::size_t threads)
        : bytes(threads, 0), options_(options) {}
    void record(const paraver::TraceRecord& r) override {
        if (r.isCommunication) {
            add(r.comm.sendRow, kBytesPerCommunicationEnd);
            add(r.comm.recvRow, kBytesPerCommunicationEnd);
            return;
        }
        if (r.isState) {
            add(r.row, kBytesPerState);
            return;
        }
        for (std::uint8_t i = 0; i < r.pairCount; ++i) {
            auto type = r.pairs[i].type;
            if (type != lastType_ || !lastKept_) {
                lastType_ = type;
                lastKept_ = options_.keeps(type);
                if (lastKept_) types.insert(type);
            }
            if (lastKept_) add(r.row, kBytesPerEventPair);
        }
    }
    void communicator(std::string_view) override {}
    void comment(std::string_view) override {}

    std::vector<std::uint64_t> bytes;
    std::unordered_set<std::uint32_t> types;

private:
    void add(std::uint32_t thread, std::uint64_t n) {
        if (thread < bytes.size()) bytes[thread] += n; // the parser gives header threads only
    }
    const paraver::ReadOptions& options_;
    std::uint32_t lastType_ = 0;
    bool lastKept_ = false;
};

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b) {
    std::uint64_t out = 0;
    return __builtin_mul_overflow(a, b, &out) ? std::numeric_limits<std::uint64_t>::max() : out;
}

} // namespace

PassPlan planPasses(const std::string& trace, const paraver::ReadOptions& options,
                    const std::vector<semantic::Cfg>& cfgs, std::uint64_t limit) {
    PassPlan plan;
    plan.limit = limit;
    plan.groups.push_back(semantic::RowGroup{});
    if (limit == 0) return plan;
    std::error_code ec;
    auto size = std::filesystem::file_size(trace, ec);
    if (ec) throw Error(trace + ": cannot read its size: " + ec.message());
    bool gzip = trace.size() > 3 && trace.compare(trace.size() - 3, 3, ".gz") == 0;
    auto bound = saturatingProduct(saturatingProduct(size, gzip ? kMaxGzipRatio : 1), kMemoryPerPrvByte);
    if (bound <= limit) return plan;
    std::string wholeTraceWindow;
    plan.level = groupLevel(cfgs, wholeTraceWindow);

    // Count the records per thread: the same parser as the load, without keeping anything.
    paraver::FileBytes file(trace);
    paraver::LineReader in(file, trace);
    auto header = paraver::readHeaderLine(in, options.maxObjects);
    paraver::PrvBodyParser parser(header, in, options.lenient);
    semantic::ObjectModel objects(header);
    std::size_t threads = objects.threadTask.size();
    RecordCounter counter(options, threads);
    std::string_view line;
    while (in.next(line)) parser.parse(line, counter);
    plan.counted = true;
    plan.eventTypes.assign(counter.types.begin(), counter.types.end());
    std::sort(plan.eventTypes.begin(), plan.eventTypes.end());

    std::uint64_t fixed = saturatingProduct(threads, kBytesPerThread), records = 0;
    for (auto b : counter.bytes) records += b; // each at most 260 bytes per line of the file: no overflow
    plan.estimate = fixed + records;
    plan.largestGroup = plan.estimate;
    if (plan.estimate <= limit || threads < 2) return plan;
    if (!wholeTraceWindow.empty()) {
        plan.wholeTraceWindow = std::move(wholeTraceWindow);
        return plan;
    }

    // Groups of whole objects of the plan's level, in header order, each within the limit less what every
    // pass allocates; an object larger than that is a group of its own.
    std::uint64_t budget = limit > fixed ? limit - fixed : 0;
    plan.groups.clear();
    plan.largestGroup = 0;
    std::uint32_t groupStart = 0;
    std::uint64_t groupBytes = 0;
    std::size_t t = 0;
    while (t < threads) {
        auto owner = objects.ownerOfThread(plan.level, static_cast<std::uint32_t>(t));
        std::size_t end = t;
        std::uint64_t unitBytes = 0;
        while (end < threads && objects.ownerOfThread(plan.level, static_cast<std::uint32_t>(end)) == owner)
            unitBytes += counter.bytes[end++];
        if (t > groupStart && groupBytes + unitBytes > budget) {
            plan.groups.push_back({groupStart, static_cast<std::uint32_t>(t)});
            plan.largestGroup = std::max(plan.largestGroup, fixed + groupBytes);
            groupStart = static_cast<std::uint32_t>(t);
            groupBytes = 0;
        }
        groupBytes += unitBytes;
        t = end;
    }
    plan.groups.push_back({groupStart, std::numeric_limits<std::uint32_t>::max()});
    plan.largestGroup = std::max(plan.largestGroup, fixed + groupBytes);
    return plan;
}

} // namespace gpueff::jobs
