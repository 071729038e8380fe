// nsys stats' summaries (metrics/NsysStats.h) from the trace's records. Each range or call is a begin event
// (a non-zero value) and an end event (0) of one type on one row; nsys' definitions, which these follow:
// - nvtx_sum: push/pop (eventType 59) and start/end (60) ranges grouped by "domain:text" and style; a range
//   without end counts up to the export's last NVTX timestamp.
// - cuda_api_sum: every row of CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver calls), by name.
// - cuda_gpu_mem_time_sum / _size_sum: memcpy rows as "[CUDA memcpy <copy kind label>]", memset rows as
//   "[CUDA memset]", durations and bytes.
// Statistics as KernelRow (NsysStats.h); the whole trace, not the analysis window. The partials carry NVTX
// ranges and API calls by value; the reduction names the rows it lists from the whole trace's labels.
#include "engine/common/IntervalPairing.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"
#include "metrics/SortedRuns.h"

#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace gpueff::metrics {

namespace {

namespace types = paraver::types;

// The domain base of an NVTX range type: NCCL's gpueff category types belong to 9500; every other base
// (9500, 9600, 9600 + 100 k, 81000) is a multiple of 100 (docs/events.md).
std::uint32_t domainBase(std::uint32_t type) {
    if (types::kNcclCategoryTypes.contains(type)) return types::kNcclDomainBase;
    return type - type % 100;
}

// nvtx_sum's groups: domain, value and style (categories of one domain are one group, as in nsys; the trace
// gives each category a type of its own).
template <class R>
auto groupKey(const R& r) {
    return std::tuple{domainBase(r.type), r.value, r.startEnd};
}

// Ranges (and groups) ordered by group, then by type (the group's first range names it).
template <class R>
bool groupOrder(const R& x, const R& y) {
    return std::tuple{groupKey(x), x.type} < std::tuple{groupKey(y), y.type};
}

// A task's ranges as its partial keeps them (NvtxGroup): sorted by group on the worker, then each group's
// durations and open begins in one array.
void packGroups(std::vector<NvtxInstance>& ranges, HostCallsPartial& out) {
    std::sort(ranges.begin(), ranges.end(), groupOrder<NvtxInstance>);
    out.nvtxTimes.reserve(out.nvtxTimes.size() + ranges.size());
    for (std::size_t i = 0; i < ranges.size();) {
        const auto& first = ranges[i];
        NvtxGroup g{first.type, first.startEnd, first.value, 0, 0};
        std::size_t end = i;
        while (end < ranges.size() && groupKey(ranges[end]) == groupKey(first)) ++end;
        for (bool open : {false, true})
            for (std::size_t k = i; k < end; ++k)
                if (ranges[k].open == open) {
                    out.nvtxTimes.push_back(ranges[k].time);
                    ++(open ? g.open : g.closed);
                }
        out.nvtx.push_back(g);
        i = end;
    }
}

// The groups of every task's partial, found by key in a hash table (one lookup per task and group), in key
// order: `first` is each group's NvtxGroup of the smallest type (the one that names it).
class GroupIndex {
public:
    explicit GroupIndex(const std::vector<const HostCallsPartial*>& tasks) {
        for (const auto* t : tasks)
            for (const auto& g : t->nvtx) {
                auto [it, fresh] = index_.try_emplace(keyOf(g), static_cast<std::uint32_t>(firsts_.size()));
                if (fresh)
                    firsts_.push_back(g);
                else if (g.type < firsts_[it->second].type)
                    firsts_[it->second] = g;
            }
        // Numbered in key order (nsys_sum breaks ties of total time by key).
        std::vector<std::uint32_t> order(firsts_.size());
        for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](auto x, auto y) { return groupKey(firsts_[x]) < groupKey(firsts_[y]); });
        std::vector<std::uint32_t> rank(order.size());
        for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
        for (auto& [key, i] : index_) i = rank[i];
        std::vector<NvtxGroup> sorted(firsts_.size());
        for (std::uint32_t i = 0; i < order.size(); ++i) sorted[i] = firsts_[order[i]];
        firsts_ = std::move(sorted);
    }
    std::size_t size() const { return firsts_.size(); }
    const NvtxGroup& first(std::size_t i) const { return firsts_[i]; }
    std::uint32_t of(const NvtxGroup& g) const { return index_.at(keyOf(g)); }

private:
    struct Key {
        std::uint32_t base;
        bool startEnd;
        std::int64_t value;
        bool operator==(const Key&) const = default;
    };
    struct Hash {
        std::size_t operator()(const Key& k) const {
            auto h = static_cast<std::uint64_t>(k.value) * 0x9e3779b97f4a7c15ULL;
            return static_cast<std::size_t>(h ^ (std::uint64_t{k.base} << 1 | (k.startEnd ? 1 : 0)));
        }
    };
    static Key keyOf(const NvtxGroup& g) { return {domainBase(g.type), g.startEnd, g.value}; }
    std::unordered_map<Key, std::uint32_t, Hash> index_;
    std::vector<NvtxGroup> firsts_;
};

// Calls use(group index, its duration) for every range of the tasks' partials: closed ranges as they are,
// open ones up to `lastNvtx` (nsys ends an open range at the last NVTX timestamp of the export: here the
// last NVTX event of the trace, range or mark).
template <class Use>
void forEachRange(const std::vector<const HostCallsPartial*>& tasks, const GroupIndex& groups,
                  std::int64_t lastNvtx, Use&& use) {
    for (const auto* t : tasks) {
        const std::int64_t* times = t->nvtxTimes.data();
        for (const auto& g : t->nvtx) {
            auto i = groups.of(g);
            for (std::uint32_t k = 0; k < g.closed; ++k) use(i, times[k]);
            for (std::uint32_t k = 0; k < g.open; ++k) use(i, lastNvtx - times[g.closed + k]);
            times += std::size_t{g.closed} + g.open;
        }
    }
}

// The domain name in a type label of the domain: gpueff's "NVTX <domain> ranges" (or marks, JSON payload,
// numeric payload, category <c>), or, when `nsys2prv`, nsys2prv's "NVTX <domain> domain <category>".
std::optional<std::string> domainInLabel(std::string_view label, std::uint32_t offset, bool nsys2prv) {
    constexpr std::string_view prefix = "NVTX ";
    if (label.substr(0, prefix.size()) != prefix) return std::nullopt;
    auto rest = label.substr(prefix.size());
    if (nsys2prv) {
        auto at = rest.rfind(" domain ");
        if (at == std::string_view::npos) return std::nullopt;
        auto name = std::string(rest.substr(0, at));
        return name == "Default" ? std::string() : name;
    }
    const std::string category = " category " + std::to_string(offset);
    for (std::string_view suffix :
         {std::string_view(" ranges"), std::string_view(" marks"), std::string_view(" JSON payload"),
          std::string_view(" numeric payload"), std::string_view(category)})
        if (rest.size() > suffix.size() && rest.substr(rest.size() - suffix.size()) == suffix)
            return std::string(rest.substr(0, rest.size() - suffix.size()));
    return std::nullopt;
}

// The trace keeps a domain's name only in the .pcf labels of its types (the translator names them after
// the domain); the default, NCCL and neSmiK domains have fixed bases.
std::string domainName(const semantic::LoadedTrace& trace, std::uint32_t base) {
    if (base == types::kNvtxDefaultDomainBase) return "";
    if (base == types::kNcclDomainBase) return "NCCL";
    if (base == types::kNeSmiKDomainBase) return "neSmiK";
    const auto& labels = trace.context().labels.eventTypes;
    for (bool nsys2prv : {false, true})
        for (auto it = labels.lower_bound(base); it != labels.end() && it->first < base + 100; ++it)
            if (auto name = domainInLabel(it->second, it->first - base, nsys2prv)) return *name;
    return "NVTX domain type " + std::to_string(base);
}

// Any type of an NVTX domain (ranges, marks, payloads) or the start/end type.
bool isNvtxType(std::uint32_t type) {
    return types::kNvtxDomainTypes.contains(type) || types::kNcclCategoryTypes.contains(type) ||
           type == types::kNvtxStartEndRange;
}

// Whether the record of the range begin at `i` also carries the start/end type: the translator writes a
// start/end range's domain type first and 9004 after it in the same record, and every record holding 9004
// begins with a range type, so the first 9004 before the next range type at the same time is this one's.
bool isStartEnd(const paraver::ThreadRecords& th, std::size_t i) {
    for (std::size_t j = i + 1; j < th.eventTime.size() && th.eventTime[j] == th.eventTime[i]; ++j) {
        if (th.eventType[j] == types::kNvtxStartEndRange) return th.eventValue[j] != 0;
        if (types::isNvtxRangeType(th.eventType[j])) return false;
    }
    return false;
}

// The bytes in the record of the memory operation begun at `i` (the translator and nsys2prv write 63000002
// after 63000001 in one record).
std::optional<std::int64_t> bytesOf(const paraver::ThreadRecords& th, std::size_t i) {
    for (std::size_t j = i + 1; j < th.eventTime.size() && th.eventTime[j] == th.eventTime[i]; ++j) {
        if (th.eventType[j] == types::kMemoryBytes) return th.eventValue[j];
        if (th.eventType[j] == types::kMemoryOperation) break;
    }
    return std::nullopt;
}

// nsys' operation names from the labels of 63000001: gpueff labels copy kinds as ENUM_CUDA_MEMCPY_OPER
// does ("Host-to-Device"), memsets "Memset"; nsys2prv labels them "CUDA memcpy Host-to-Device".
std::string operationName(const std::string& label) {
    if (label == "Memset" || label == "CUDA memset") return "[CUDA memset]";
    if (label == "Unknown copy kind") return "[CUDA memcpy Unknown]"; // nsys' label of copy kind 0
    if (label.rfind("[CUDA ", 0) == 0) return label;
    if (label.rfind("CUDA ", 0) == 0) return "[" + label + "]";
    return "[CUDA memcpy " + label + "]";
}

// Which groups a summary lists, by index into `totals` (one total per group, groups in key order): by
// total time, largest first (nsys' ORDER BY; ties in key order), at most kMaxSummaryRows; the others are
// counted in `leftOut` (`counts`: the instances of each group).
std::vector<std::size_t> listed(const std::vector<std::int64_t>& totals,
                                const std::vector<std::uint64_t>& counts, RowsLeftOut& leftOut) {
    std::vector<std::size_t> order(totals.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto before = [&](std::size_t x, std::size_t y) {
        return totals[x] != totals[y] ? totals[x] > totals[y] : x < y;
    };
    if (order.size() > kMaxSummaryRows) {
        auto cut = order.begin() + static_cast<std::ptrdiff_t>(kMaxSummaryRows);
        std::nth_element(order.begin(), cut, order.end(), before);
        for (auto it = cut; it != order.end(); ++it) {
            ++leftOut.rows;
            leftOut.instances += counts[*it];
            leftOut.total += totals[*it];
        }
        order.erase(cut, order.end());
    }
    std::sort(order.begin(), order.end(), before);
    return order;
}

double shareOf(std::int64_t total, double grand) {
    return grand > 0 ? 100.0 * static_cast<double>(total) / grand : 0.0;
}

std::string leftOutNote(const char* table, const RowsLeftOut& l, std::size_t listed) {
    return "nsys_stats." + std::string(table) + " lists the " + std::to_string(listed) +
           " rows with the most time; " + std::to_string(l.rows) + " more (" + std::to_string(l.instances) +
           " instances, " + std::to_string(l.total) + " ns) are left out (nsys_stats.left_out)";
}

} // namespace

void memoryOperationsOf(const ShardReader& shard, const Device& d, DevicePartial& out) {
    std::map<std::int64_t, MemoryOperations> byValue; // one name lookup per kind, not per operation
    struct Operation {
        std::int64_t value, begin;
        bool hasBytes; // plain fields: GCC 12 warns falsely of uninitialised optionals here
        std::int64_t bytes;
    };
    // Paraver's reading of one type on one row: a new value ends the previous one (gpueff puts overlapping
    // operations on rows of their own, so only other writers' traces meet this).
    IntervalPairing<Operation> open(Nesting::Replace);
    for (auto row : d.rows) {
        const auto& th = shard.trace.trace().threads[row];
        auto close = [&](const Operation& o, std::int64_t end) {
            auto& ops = byValue[o.value];
            ops.durations.push_back(end - o.begin);
            if (o.hasBytes) ops.bytes.push_back(o.bytes);
        };
        open.clear();
        for (std::size_t i = 0; i < th.eventTime.size(); ++i) {
            if (th.eventType[i] != types::kMemoryOperation) continue;
            open.event(
                types::kMemoryOperation, th.eventValue[i],
                [&](const Operation*) {
                    auto b = bytesOf(th, i);
                    return Operation{th.eventValue[i], th.eventTime[i], b.has_value(), b.value_or(0)};
                },
                [&](const Operation& o, const Operation*) { close(o, th.eventTime[i]); });
        }
        // Paraver holds a value to the end of the trace.
        open.forEachOpen([&](std::uint32_t, const Operation& o) { close(o, shard.trace.trace().endTime()); });
    }
    for (auto& [value, ops] : byValue) {
        auto& mine =
            out.memoryOperations[operationName(valueName(shard.trace, types::kMemoryOperation, value))];
        mine.durations.insert(mine.durations.end(), ops.durations.begin(), ops.durations.end());
        mine.bytes.insert(mine.bytes.end(), ops.bytes.begin(), ops.bytes.end());
    }
    // Sorted here, on the workers, for the reduction to merge (names sharing a kind were appended above).
    for (auto& [name, ops] : out.memoryOperations) {
        std::sort(ops.durations.begin(), ops.durations.end());
        std::sort(ops.bytes.begin(), ops.bytes.end());
    }
}

void hostCallsOf(const ShardReader& shard, const TaskInfo& task, TaskPartial& out) {
    auto& calls = out.calls;
    std::vector<NvtxInstance> nvtx; // packed into groups at the end
    // Reserved: growing by doubling would hold up to three times the ranges while copying.
    std::size_t begins = 0;
    for (auto row : task.cpuRows) {
        const auto& th = shard.trace.trace().threads[row];
        for (std::size_t i = 0; i < th.eventTime.size(); ++i)
            begins += th.eventValue[i] != 0 && types::isNvtxRangeType(th.eventType[i]);
    }
    nvtx.reserve(begins);
    // Ranges of one type nest on a thread (a value opens one, 0 closes the innermost), as calls do. Open
    // ranges carry their begin in `time`.
    IntervalPairing<NvtxInstance> ranges(Nesting::Stack);
    IntervalPairing<std::pair<std::int64_t, std::int64_t>> apis(Nesting::Stack); // (value, begin)
    for (auto row : task.cpuRows) {
        const auto& th = shard.trace.trace().threads[row];
        ranges.clear();
        apis.clear();
        std::map<std::uint32_t, std::size_t> openStartEnd;
        for (std::size_t i = 0; i < th.eventTime.size(); ++i) {
            const auto type = th.eventType[i];
            const auto value = th.eventValue[i];
            const auto t = th.eventTime[i];
            if (type == types::kCudaApi) {
                // A call never ended is not counted.
                apis.event(
                    type, value,
                    [&](const auto*) {
                        return std::pair{value, t};
                    },
                    [&](const auto& call, const auto*) { calls.api[call.first].push_back(t - call.second); });
                continue;
            }
            // nsys' last NVTX timestamp is any NVTX row's (marks included), not only a range's.
            if (isNvtxType(type)) calls.lastNvtxEvent = std::max(calls.lastNvtxEvent, t);
            if (!types::isNvtxRangeType(type)) continue;
            ranges.event(
                type, value,
                [&](const NvtxInstance* enclosing) {
                    bool startEnd = isStartEnd(th, i);
                    // Start/end ranges need not nest: inside another range of their type, an end may close
                    // the other one (the trace cannot tell which end is whose; nsys pairs them by range id).
                    if (enclosing && (startEnd || openStartEnd[type] > 0)) ++calls.startEndNested;
                    if (startEnd) ++openStartEnd[type];
                    return NvtxInstance{type, startEnd, false, value, t};
                },
                [&](NvtxInstance& r, const NvtxInstance*) {
                    if (r.startEnd) --openStartEnd[type];
                    r.time = t - r.time;
                    nvtx.push_back(r);
                });
        }
        ranges.forEachOpen([&](std::uint32_t, NvtxInstance& r) {
            r.open = true;
            nvtx.push_back(r);
        });
    }
    // Grouped and sorted here, on the workers: the reduction walks the tasks' groups in order.
    packGroups(nvtx, calls);
    for (auto& [value, durations] : calls.api) std::sort(durations.begin(), durations.end());
}

void reduceNsysStats(Analysis& a, std::vector<DevicePartial>& devices, std::vector<TaskPartial>& tasks,
                     const semantic::LoadedTrace& labels) {
    auto& s = a.nsysStats;
    std::int64_t lastNvtx = -1;
    std::uint64_t open = 0, nested = 0;
    for (const auto& t : tasks) lastNvtx = std::max(lastNvtx, t.calls.lastNvtxEvent);

    // NVTX: every task's groups (hostCallsOf), by key.
    std::vector<const HostCallsPartial*> hostCalls;
    for (auto& t : tasks) {
        nested += t.calls.startEndNested;
        hostCalls.push_back(&t.calls);
        for (const auto& g : t.calls.nvtx) open += g.open;
    }
    GroupIndex groups(hostCalls);
    std::vector<std::int64_t> totals(groups.size(), 0);
    std::vector<std::uint64_t> counts(groups.size(), 0);
    double grand = 0; // exact: integer ns below 2^53
    forEachRange(hostCalls, groups, lastNvtx, [&](std::uint32_t g, std::int64_t d) {
        totals[g] += d;
        ++counts[g];
        grand += static_cast<double>(d);
    });
    auto rows = listed(totals, counts, s.nvtxLeftOut);
    std::vector<std::uint32_t> rowOf(totals.size(), UINT32_MAX);
    for (std::size_t i = 0; i < rows.size(); ++i) rowOf[rows[i]] = static_cast<std::uint32_t>(i);
    std::vector<std::vector<std::int64_t>> rowDurations(rows.size());
    forEachRange(hostCalls, groups, lastNvtx, [&](std::uint32_t g, std::int64_t d) {
        if (rowOf[g] != UINT32_MAX) rowDurations[rowOf[g]].push_back(d);
    });
    std::map<std::uint32_t, std::string> domains;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& first = groups.first(rows[i]);
        NvtxRow r;
        static_cast<KernelRow&>(r) = summaryRow(valueName(labels, first.type, first.value), rowDurations[i]);
        r.timePercent = shareOf(totals[rows[i]], grand);
        auto base = domainBase(first.type);
        auto d = domains.find(base);
        if (d == domains.end()) d = domains.emplace(base, domainName(labels, base)).first;
        r.domain = d->second;
        r.startEnd = first.startEnd;
        s.nvtx.push_back(std::move(r));
    }
    for (auto& t : tasks) {
        std::vector<NvtxGroup>().swap(t.calls.nvtx);
        std::vector<std::int64_t>().swap(t.calls.nvtxTimes);
    }

    // API calls, by value: each task's durations come sorted (hostCallsOf).
    std::map<std::int64_t, std::vector<std::int64_t>> api;
    {
        std::map<std::int64_t, SortedRuns<std::int64_t>> runs;
        for (auto& t : tasks) {
            for (auto& [value, durations] : t.calls.api) runs[value].add(durations);
            t.calls.api.clear();
        }
        for (auto& [value, r] : runs) api[value] = std::move(r).merged();
    }
    totals.clear();
    counts.clear();
    grand = 0;
    std::vector<std::vector<std::int64_t>*> calls;
    std::vector<std::int64_t> values;
    for (auto& [value, durations] : api) {
        std::int64_t total = 0;
        for (auto x : durations) total += x;
        values.push_back(value);
        calls.push_back(&durations);
        totals.push_back(total);
        counts.push_back(durations.size());
        grand += static_cast<double>(total);
    }
    for (auto g : listed(totals, counts, s.cudaApiLeftOut)) {
        s.cudaApi.push_back(summaryRow(valueName(labels, types::kCudaApi, values[g]), *calls[g]));
        s.cudaApi.back().timePercent = shareOf(totals[g], grand);
    }

    // Memory operations by kind: each device's durations and bytes come sorted (memoryOperationsOf).
    std::map<std::string, MemoryOperations> memory;
    {
        std::map<std::string, std::pair<SortedRuns<std::int64_t>, SortedRuns<std::int64_t>>> runs;
        for (auto& d : devices)
            for (auto& [name, ops] : d.memoryOperations) {
                runs[name].first.add(ops.durations);
                runs[name].second.add(ops.bytes);
            }
        for (auto& [name, r] : runs)
            memory[name] = {std::move(r.first).merged(), std::move(r.second).merged()};
    }
    std::map<std::string, std::vector<std::int64_t>> memoryTime;
    std::uint64_t withoutBytes = 0;
    for (auto& [name, ops] : memory) {
        withoutBytes += ops.durations.size() - ops.bytes.size();
        if (!ops.bytes.empty()) {
            auto b = summaryRow(name, ops.bytes);
            MemorySizeRow r{name,      b.instances, b.total,  b.min,       b.max,
                            b.average, b.median,    b.stddev, std::nullopt};
            std::int64_t time = 0;
            for (auto x : ops.durations) time += x;
            // Bytes and time of the same operations only: every operation carries its bytes in gpueff's
            // traces.
            if (time > 0 && ops.bytes.size() == ops.durations.size())
                r.bandwidth = static_cast<double>(r.total) / static_cast<double>(time);
            s.memorySize.push_back(std::move(r));
        }
        if (!ops.durations.empty()) memoryTime[name] = std::move(ops.durations);
    }
    // A handful of kinds: every one listed.
    grand = 0;
    for (auto& [name, durations] : memoryTime) {
        s.memoryTime.push_back(summaryRow(name, durations));
        grand += static_cast<double>(s.memoryTime.back().total);
    }
    for (auto& r : s.memoryTime) r.timePercent = shareOf(r.total, grand);
    std::stable_sort(s.memoryTime.begin(), s.memoryTime.end(),
                     [](const KernelRow& x, const KernelRow& y) { return x.total > y.total; });
    std::stable_sort(s.memorySize.begin(), s.memorySize.end(),
                     [](const MemorySizeRow& x, const MemorySizeRow& y) { return x.total > y.total; });

    if (s.nvtxLeftOut.rows) a.notes.push_back(leftOutNote("nvtx_sum", s.nvtxLeftOut, s.nvtx.size()));
    if (s.cudaApiLeftOut.rows)
        a.notes.push_back(leftOutNote("cuda_api_sum", s.cudaApiLeftOut, s.cudaApi.size()));
    if (open)
        a.notes.push_back("nsys_stats: " + std::to_string(open) + " NVTX range" + (open == 1 ? "" : "s") +
                          " never end in the trace: counted up to its last NVTX event (" +
                          std::to_string(lastNvtx) +
                          " ns), as nsys stats counts them up to the last NVTX timestamp of the export");
    if (nested)
        a.notes.push_back("nsys_stats: " + std::to_string(nested) + " NVTX range" + (nested == 1 ? "" : "s") +
                          " began while a start/end range of the same domain and category was open on the "
                          "same thread (or were one): start/end ranges that do not nest cannot be told apart "
                          "in a Paraver trace (its ends carry no range id), so their durations are those of "
                          "nested ranges");
    if (withoutBytes)
        a.notes.push_back("nsys_stats: " + std::to_string(withoutBytes) + " memory operation" +
                          (withoutBytes == 1 ? " has" : "s have") +
                          " no byte count (event type 63000002) in the trace: left out of gpu_mem_size_sum");
    if (a.writer == TraceWriter::Gpueff && !s.cudaApi.empty())
        a.notes.push_back(
            "nsys_stats: CUDA API names are the trace's, without nsys' version suffixes of 4 or "
            "more digits; nsys stats removes those of 4 digits only (cudaMalloc_v3020 is "
            "cudaMalloc in both, cudaStreamIsCapturing_v10000 keeps its suffix there)");
    if (a.writer == TraceWriter::Nsys2prv && !s.nvtx.empty())
        a.notes.push_back("nsys_stats: nsys2prv does not mark NVTX start/end ranges (event type 9004): every "
                          "range of nvtx_sum is listed as PushPop");
    if (a.mpi.present)
        a.notes.push_back("nsys_stats: exports that record MPI as the NVTX domain \"MPI\" (nsys before 2023) "
                          "have those ranges as MPI calls in the trace (event types 50000001-50000005): "
                          "nvtx_sum leaves them out, nsys stats lists them as \"MPI:<call>\"");
}

} // namespace gpueff::metrics
