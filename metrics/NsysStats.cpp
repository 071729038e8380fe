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
#include "engine/common/SortedRuns.h"
#include "engine/paraver/EventTypes.h"
#include "metrics/AnalysisParts.h"

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

// A task's ranges gathered by nvtx_sum group as they end: 8 bytes a range (a list of every range sorted by
// group afterwards took 24, and a copy more while packing).
class NvtxGroups {
public:
    void add(const NvtxInstance& r) {
        const auto key = groupKey(r);
        if (groups_.empty() || key != lastKey_) {
            auto [at, fresh] = index_.try_emplace(key, groups_.size());
            if (fresh) groups_.push_back({key, r.type, {}, {}});
            last_ = at->second;
            lastKey_ = key;
        }
        auto& g = groups_[last_];
        g.type = std::min(g.type, r.type); // the group's smallest type names it
        (r.open ? g.open : g.closed).push_back(r.time);
        ++ranges_;
    }

    std::uint64_t ranges() const { return ranges_; }

    // A run as HostCallsPartial keeps it, into the store: the groups in key order (three values each), then
    // every group's durations and open begins, then the API calls' durations by value, sorted. The groups
    // and `api` are empty afterwards, for the next run.
    void pack(std::map<std::int64_t, std::vector<std::int64_t>>& api, SpillStore& store,
              HostCallsPartial& partial) {
        if (groups_.empty() && api.empty()) return;
        auto& out = partial.runs.emplace_back();
        std::sort(groups_.begin(), groups_.end(),
                  [](const Group& x, const Group& y) { return x.key < y.key; });
        std::size_t calls = 0;
        for (const auto& [value, durations] : api) calls += durations.size();
        std::string bulk;
        bulk.reserve((groups_.size() * 3 + ranges_ + calls) * sizeof(std::int64_t));
        for (const auto& g : groups_) {
            const auto& [base, value, startEnd] = g.key;
            appendValue(bulk, std::int64_t{g.type} | (startEnd ? std::int64_t{1} << 32 : 0));
            appendValue(bulk, value);
            appendValue(bulk, std::int64_t(g.closed.size()) | std::int64_t(g.open.size()) << 32);
            partial.nvtxOpen += g.open.size();
        }
        out.nvtxGroups = groups_.size();
        out.nvtxRanges = ranges_;
        for (auto& g : groups_) {
            for (const auto* times : {&g.closed, &g.open})
                bulk.append(reinterpret_cast<const char*>(times->data()),
                            times->size() * sizeof(std::int64_t));
            std::vector<std::int64_t>().swap(g.closed);
            std::vector<std::int64_t>().swap(g.open);
        }
        for (auto& [value, durations] : api) {
            std::sort(durations.begin(), durations.end());
            bulk.append(reinterpret_cast<const char*>(durations.data()),
                        durations.size() * sizeof(std::int64_t));
            out.api.emplace_back(value, durations.size());
        }
        out.bulk = store.append(bulk);
        groups_.clear();
        index_.clear();
        ranges_ = 0;
        api.clear();
    }

private:
    using Key = decltype(groupKey(NvtxInstance{}));
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            const auto& [base, value, startEnd] = k;
            return std::hash<std::int64_t>{}(value)*31 + base * 2 + (startEnd ? 1 : 0);
        }
    };
    struct Group {
        Key key;
        std::uint32_t type;
        std::vector<std::int64_t> closed, open; // durations; begins of the ranges never ended
    };
    std::vector<Group> groups_;
    std::unordered_map<Key, std::size_t, KeyHash> index_;
    Key lastKey_{};
    std::size_t last_ = 0;
    std::uint64_t ranges_ = 0;
};

constexpr std::uint64_t kGroupBytes = 3 * sizeof(std::int64_t);

// A buffer per cursor such that all the reduction's cursors together hold a few MiB.
std::size_t cursorBuffer(std::size_t cursors) {
    return std::clamp<std::size_t>((4u << 20) / std::max<std::size_t>(cursors, 1), 4u << 10, 256u << 10);
}

// One task's groups read back from the store in key order, with their ranges' durations (open ranges timed up
// to `lastNvtx`: nsys ends an open range at the last NVTX timestamp of the export, here the last NVTX event
// of the trace, range or mark).
class TaskGroups {
public:
    TaskGroups(const SpillStore& store, const HostCallsRun& p, std::size_t buffer)
        : groups_(store, p.bulk, 0, p.nvtxGroups * kGroupBytes, buffer),
          times_(store, p.bulk, p.nvtxGroups * kGroupBytes, p.nvtxRanges * sizeof(std::int64_t), buffer),
          left_(p.nvtxGroups) {
        advance();
    }
    bool done() const { return !current_; }
    const NvtxGroup& group() const { return *current_; }
    // The current group's durations appended to `out`; then the next group.
    void take(std::int64_t lastNvtx, std::vector<std::int64_t>& out) {
        for (std::uint32_t k = 0; k < current_->closed; ++k) out.push_back(times_.next());
        for (std::uint32_t k = 0; k < current_->open; ++k) out.push_back(lastNvtx - times_.next());
        advance();
    }

private:
    void advance() {
        if (left_ == 0) return current_.reset();
        --left_;
        auto typeAndStyle = groups_.next();
        auto value = groups_.next();
        auto counts = groups_.next();
        current_ = NvtxGroup{static_cast<std::uint32_t>(typeAndStyle & 0xffffffff), (typeAndStyle >> 32) != 0,
                             value, static_cast<std::uint32_t>(counts & 0xffffffff),
                             static_cast<std::uint32_t>(counts >> 32)};
    }
    SpillStore::Cursor groups_, times_;
    std::uint64_t left_;
    std::optional<NvtxGroup> current_;
};

// Calls use(first, durations) for every nvtx_sum group of the tasks, in key order (the numbering nsys_sum
// breaks ties of total time by): `first` is the group's NvtxGroup of the smallest type (the one that names
// it), `durations` its ranges' over every task. A merge of the tasks' groups as they come from the store:
// one group's ranges in memory at a time.
template <class Use>
void forEachGroup(const std::vector<const HostCallsRun*>& tasks, const SpillStore& store,
                  std::int64_t lastNvtx, Use&& use) {
    std::vector<TaskGroups> readers;
    readers.reserve(tasks.size());
    for (const auto* t : tasks) readers.emplace_back(store, *t, cursorBuffer(2 * tasks.size()));
    auto later = [&](std::size_t x, std::size_t y) {
        return std::pair{groupKey(readers[x].group()), x} > std::pair{groupKey(readers[y].group()), y};
    };
    std::vector<std::size_t> heap; // readers with groups left, the smallest key on top
    for (std::size_t r = 0; r < readers.size(); ++r)
        if (!readers[r].done()) heap.push_back(r);
    std::make_heap(heap.begin(), heap.end(), later);
    std::vector<std::int64_t> durations;
    while (!heap.empty()) {
        const auto key = groupKey(readers[heap.front()].group());
        NvtxGroup first = readers[heap.front()].group();
        durations.clear();
        while (!heap.empty() && groupKey(readers[heap.front()].group()) == key) {
            std::pop_heap(heap.begin(), heap.end(), later);
            auto& reader = readers[heap.back()];
            if (reader.group().type < first.type) first = reader.group();
            reader.take(lastNvtx, durations);
            if (reader.done())
                heap.pop_back();
            else
                std::push_heap(heap.begin(), heap.end(), later);
        }
        use(first, durations);
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

// Any type of an NVTX domain (ranges, marks, payloads) or the start/end type: the host event types but
// the CUDA API's.
bool isNvtxType(std::uint32_t type) {
    return type != types::kCudaApi && isHostEventType(type);
}

// Whether the range begun by group[i] is a start/end range: the translator writes a start/end range's domain
// type first and 9004 after it in the same record, and every record holding 9004 begins with a range type,
// so the first 9004 before the next range type at the same time is this one's.
bool isStartEnd(std::span<const HostEvent> group, std::size_t i) {
    for (std::size_t j = i + 1; j < group.size(); ++j) {
        if (group[j].type == types::kNvtxStartEndRange) return group[j].value != 0;
        if (types::isNvtxRangeType(group[j].type)) return false;
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

// The rows a summary lists, chosen as its groups come in key order: by total time, largest first (nsys'
// ORDER BY; ties in key order), at most kMaxSummaryRows; the others are counted in `leftOut`.
template <class Row>
class TopRows {
public:
    // The next group; make() gives its row, called only while the group is among the first.
    template <class Make>
    void offer(std::int64_t total, std::uint64_t instances, Make&& make) {
        Entry e{total, next_++, instances, {}};
        ++all_.rows;
        all_.instances += instances;
        all_.total += total;
        if (heap_.size() == kMaxSummaryRows) {
            if (!before(e, heap_.front())) return;
            std::pop_heap(heap_.begin(), heap_.end(), before);
            heap_.pop_back();
        }
        e.row = make();
        heap_.push_back(std::move(e));
        std::push_heap(heap_.begin(), heap_.end(), before);
    }
    // The listed rows, best first, with their totals.
    std::vector<std::pair<Row, std::int64_t>> rows(RowsLeftOut& leftOut) && {
        std::sort_heap(heap_.begin(), heap_.end(), before);
        leftOut = all_;
        std::vector<std::pair<Row, std::int64_t>> out;
        for (auto& e : heap_) {
            --leftOut.rows;
            leftOut.instances -= e.instances;
            leftOut.total -= e.total;
            out.emplace_back(std::move(e.row), e.total);
        }
        return out;
    }

private:
    struct Entry {
        std::int64_t total;
        std::uint64_t index, instances;
        Row row;
    };
    static bool before(const Entry& x, const Entry& y) {
        return x.total != y.total ? x.total > y.total : x.index < y.index;
    }
    std::vector<Entry> heap_; // the worst kept row on top
    std::uint64_t next_ = 0;
    RowsLeftOut all_;
};

// Calls use(value, durations) for every CUDA API value of the tasks, in value order, `durations` every
// task's calls of it, sorted (each task's come sorted: hostCallsOf): one value's calls in memory at a time.
template <class Use>
void forEachApi(const std::vector<const HostCallsRun*>& tasks, const SpillStore& store, Use&& use) {
    struct Run {
        const HostCallsRun* task;
        std::uint64_t at, count;
    };
    std::map<std::int64_t, std::vector<Run>> runs;
    for (const auto* t : tasks) {
        auto at = t->nvtxGroups * kGroupBytes + t->nvtxRanges * sizeof(std::int64_t);
        for (auto [value, count] : t->api) {
            runs[value].push_back({t, at, count});
            at += count * sizeof(std::int64_t);
        }
    }
    std::vector<std::int64_t> run;
    for (auto& [value, list] : runs) {
        SortedRuns<std::int64_t> sorted;
        for (const auto& r : list) {
            run.resize(r.count);
            store.read(r.task->bulk, r.at, r.count * sizeof(std::int64_t),
                       reinterpret_cast<char*>(run.data()));
            sorted.add(run);
        }
        auto durations = std::move(sorted).merged();
        use(value, durations);
    }
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
    struct Values {
        std::vector<std::int64_t> durations, bytes;
    };
    std::map<std::int64_t, Values> byValue; // one name lookup per kind, not per operation
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
    std::map<std::string, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> byName;
    for (auto& [value, ops] : byValue) {
        auto& mine = byName[operationName(valueName(shard.trace, types::kMemoryOperation, value))];
        mine.first.insert(mine.first.end(), ops.durations.begin(), ops.durations.end());
        mine.second.insert(mine.second.end(), ops.bytes.begin(), ops.bytes.end());
    }
    // Sorted here, on the workers, for the reduction to merge (names sharing a kind were appended above).
    for (auto& [name, ops] : byName)
        out.memoryOperations[name] = {spillRun(shard.store, ops.first), spillRun(shard.store, ops.second)};
}

std::uint64_t hostCallsRun(std::uint64_t memoryBudget, unsigned jobs) {
    constexpr std::uint64_t least = 4u << 10, most = 1u << 20;
    if (memoryBudget == 0) return most;
    return std::clamp<std::uint64_t>(memoryBudget / std::max(jobs, 1u) / 32 / sizeof(std::int64_t), least,
                                     most);
}

void hostCallsOf(const ShardReader& shard, const TaskInfo& task, TaskPartial& out) {
    // Ranges of one type nest on a thread (a value opens one, 0 closes the innermost), as calls do. Open
    // ranges carry their begin in `time`.
    struct Row {
        IntervalPairing<NvtxInstance> ranges{Nesting::Stack};
        IntervalPairing<std::pair<std::int64_t, std::int64_t>> apis{Nesting::Stack}; // (value, begin)
        std::map<std::uint32_t, std::size_t> openStartEnd;
    };
    // The groups sort their durations (and the calls theirs) before use: the order rows come in is free.
    struct Walker : HostEventWalker {
        HostCallsPartial& calls;
        SpillStore& store;
        NvtxGroups nvtx;
        std::map<std::int64_t, std::vector<std::int64_t>> api; // value of 63000000 -> durations
        std::uint64_t apiCalls = 0;                            // in `api`
        RowStates<Row> rows;
        std::uint64_t runValues;
        Walker(HostCallsPartial& c, SpillStore& s, std::uint64_t n) : calls(c), store(s), runValues(n) {}
        void events(std::uint32_t row, std::span<const HostEvent> group) override {
            // Named, not structured bindings: the lambdas below capture them (clang before 16 refuses).
            auto& state = rows.of(row);
            auto& ranges = state.ranges;
            auto& apis = state.apis;
            auto& openStartEnd = state.openStartEnd;
            for (std::size_t i = 0; i < group.size(); ++i) {
                const auto t = group[i].time;
                const auto type = group[i].type;
                const auto value = group[i].value;
                if (type == types::kCudaApi) {
                    // A call never ended is not counted.
                    apis.event(
                        type, value,
                        [&](const auto*) {
                            return std::pair{value, t};
                        },
                        [&](const auto& call, const auto*) {
                            api[call.first].push_back(t - call.second);
                            ++apiCalls;
                        });
                    continue;
                }
                // nsys' last NVTX timestamp is any NVTX row's (marks included), not only a range's.
                if (isNvtxType(type)) calls.lastNvtxEvent = std::max(calls.lastNvtxEvent, t);
                if (!types::isNvtxRangeType(type)) continue;
                ranges.event(
                    type, value,
                    [&](const NvtxInstance* enclosing) {
                        bool startEnd = isStartEnd(group, i);
                        // Start/end ranges need not nest: inside another range of their type, an end may
                        // close the other one (the trace cannot tell which end is whose; nsys pairs them by
                        // range id).
                        if (enclosing && (startEnd || openStartEnd[type] > 0)) ++calls.startEndNested;
                        if (startEnd) ++openStartEnd[type];
                        return NvtxInstance{type, startEnd, false, value, t};
                    },
                    [&](NvtxInstance& r, const NvtxInstance*) {
                        if (r.startEnd) --openStartEnd[type];
                        r.time = t - r.time;
                        nvtx.add(r);
                    });
            }
            if (nvtx.ranges() + apiCalls >= runValues) {
                nvtx.pack(api, store, calls);
                apiCalls = 0;
            }
        }
        void rowEnd(std::uint32_t row) override {
            rows.end(row, [&](Row& r) {
                r.ranges.forEachOpen([&](std::uint32_t, NvtxInstance& open) {
                    open.open = true;
                    nvtx.add(open);
                });
            });
        }
    } walker(out.calls, shard.store, shard.callsPerRun);
    shard.hostEvents(task, walker);
    // Grouped and sorted here, on the workers: the reduction walks the tasks' groups in order.
    walker.nvtx.pack(walker.api, shard.store, out.calls);
}

void reduceNsysStats(Analysis& a, std::vector<DevicePartial>& devices, std::vector<TaskPartial>& tasks,
                     const semantic::LoadedTrace& labels, const SpillStore& store) {
    auto& s = a.nsysStats;
    std::int64_t lastNvtx = -1;
    std::uint64_t open = 0, nested = 0;
    for (const auto& t : tasks) lastNvtx = std::max(lastNvtx, t.calls.lastNvtxEvent);

    // NVTX: every task's groups (hostCallsOf) merged by key.
    std::vector<const HostCallsRun*> hostCalls; // every task's runs
    for (auto& t : tasks) {
        nested += t.calls.startEndNested;
        open += t.calls.nvtxOpen;
        for (const auto& run : t.calls.runs) hostCalls.push_back(&run);
    }
    double grand = 0; // exact: integer ns below 2^53
    TopRows<std::pair<KernelRow, NvtxGroup>> nvtx;
    forEachGroup(
        hostCalls, store, lastNvtx, [&](const NvtxGroup& first, std::vector<std::int64_t>& durations) {
            std::int64_t total = 0;
            for (auto d : durations) total += d;
            grand += static_cast<double>(total);
            nvtx.offer(total, durations.size(), [&] { return std::pair{summaryRow({}, durations), first}; });
        });
    std::map<std::uint32_t, std::string> domains;
    for (auto& [row, total] : std::move(nvtx).rows(s.nvtxLeftOut)) {
        const auto& [stats, first] = row;
        NvtxRow r;
        static_cast<KernelRow&>(r) = stats;
        r.name = valueName(labels, first.type, first.value);
        r.timePercent = shareOf(total, grand);
        auto base = domainBase(first.type);
        auto d = domains.find(base);
        if (d == domains.end()) d = domains.emplace(base, domainName(labels, base)).first;
        r.domain = d->second;
        r.startEnd = first.startEnd;
        s.nvtx.push_back(std::move(r));
    }

    // API calls, by value.
    grand = 0;
    TopRows<std::pair<KernelRow, std::int64_t>> api;
    forEachApi(hostCalls, store, [&](std::int64_t value, std::vector<std::int64_t>& durations) {
        std::int64_t total = 0;
        for (auto x : durations) total += x;
        grand += static_cast<double>(total);
        api.offer(total, durations.size(), [&] { return std::pair{summaryRow({}, durations), value}; });
    });
    for (auto& [row, total] : std::move(api).rows(s.cudaApiLeftOut)) {
        s.cudaApi.push_back(row.first);
        s.cudaApi.back().name = valueName(labels, types::kCudaApi, row.second);
        s.cudaApi.back().timePercent = shareOf(total, grand);
    }

    // Memory operations by kind, a kind at a time: each device's durations and bytes come sorted
    // (memoryOperationsOf).
    std::map<std::string, std::pair<std::vector<const SpilledRun*>, std::vector<const SpilledRun*>>> runs;
    for (const auto& d : devices)
        for (const auto& [name, ops] : d.memoryOperations) {
            runs[name].first.push_back(&ops.durations);
            runs[name].second.push_back(&ops.bytes);
        }
    std::uint64_t withoutBytes = 0;
    for (const auto& [name, kind] : runs) {
        auto durations = mergeRuns(store, kind.first);
        auto bytes = mergeRuns(store, kind.second);
        withoutBytes += durations.size() - bytes.size();
        if (!bytes.empty()) {
            auto b = summaryRow(name, bytes);
            MemorySizeRow r{name,      b.instances, b.total,  b.min,       b.max,
                            b.average, b.median,    b.stddev, std::nullopt};
            std::int64_t time = 0;
            for (auto x : durations) time += x;
            // Bytes and time of the same operations only: every operation carries its bytes in gpueff's
            // traces.
            if (time > 0 && bytes.size() == durations.size())
                r.bandwidth = static_cast<double>(r.total) / static_cast<double>(time);
            s.memorySize.push_back(std::move(r));
        }
        if (!durations.empty()) s.memoryTime.push_back(summaryRow(name, durations));
    }
    // A handful of kinds: every one listed.
    grand = 0;
    for (const auto& r : s.memoryTime) grand += static_cast<double>(r.total);
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
