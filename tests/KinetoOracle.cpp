#include "tests/KinetoOracle.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>
#include <zlib.h>

using nlohmann::json;

namespace kinetooracle {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Builds the DOM from nlohmann's SAX events, as its own DOM parser would, except that a number with a
// fraction or an exponent is stored as its text: the SAX interface hands that text over, the DOM forgets it.
class DomKeepingNumberText {
public:
    json root;

    bool null() { return insert(nullptr); }
    bool boolean(bool v) { return insert(v); }
    bool number_integer(json::number_integer_t v) { return insert(v); }
    bool number_unsigned(json::number_unsigned_t v) { return insert(v); }
    bool number_float(json::number_float_t, const json::string_t& text) { return insert(text); }
    bool string(json::string_t& v) { return insert(v); }
    bool binary(json::binary_t&) { return false; } // only binary formats (CBOR, ...) have these
    bool start_object(std::size_t) { return open(json::object()); }
    bool key(json::string_t& k) {
        key_ = k;
        return true;
    }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t position, const std::string& token, const json::exception& e) {
        throw std::runtime_error("bad JSON at byte " + std::to_string(position) + " near '" + token +
                                 "': " + e.what());
    }

private:
    // Containers being filled, innermost last. A pointer stays valid while it is open: only the innermost
    // container grows, and a container's parent grows only once it is closed.
    std::vector<json*> open_;
    std::string key_;

    json* place(json v) {
        if (open_.empty()) {
            root = std::move(v);
            return &root;
        }
        json& top = *open_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        return &(top[key_] = std::move(v));
    }
    template <class T>
    bool insert(T&& v) {
        place(json(std::forward<T>(v)));
        return true;
    }
    bool open(json container) {
        open_.push_back(place(std::move(container)));
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }
};

std::int64_t integerOf(const json& v, const char* what) {
    if (v.is_number_integer()) return v.get<std::int64_t>();
    throw std::runtime_error(std::string(what) + " is not an integer: " + v.dump());
}

const json& arg(const json& event, const char* key) {
    static const json none;
    if (!event.contains("args") || !event["args"].is_object() || !event["args"].contains(key)) return none;
    return event["args"][key];
}

// A thread id as its JSON text (Kineto writes integers; the text keeps any other form apart).
std::string tidOf(const json& event) {
    return event.contains("tid") ? event["tid"].dump() : std::string();
}

// A time as a float64 reader of the JSON holds it: the number's text read as a double.
double asDouble(const json& number) {
    if (number.is_string()) return std::strtod(number.get<std::string>().c_str(), nullptr);
    return number.get<double>();
}

// A host range the contract keeps (cpu_op, user_annotation, python_function with numeric pid and tid).
bool isHostRange(const json& e) {
    const auto cat = e.value("cat", std::string());
    return (cat == "cpu_op" || cat == "user_annotation" || cat == "python_function") && e.contains("pid") &&
           e["pid"].is_number_integer() && e.contains("tid") && e["tid"].is_number_integer();
}

// args.stream is an integer other than -1 (a string such as ROCm's "0x0" is no stream to HTA).
bool namesStream(const json& e) {
    const json& s = arg(e, "stream");
    if (s.is_number_unsigned()) return true;
    return s.is_number_integer() && s.get<std::int64_t>() != -1;
}

std::string text(const json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
}

} // namespace

std::int64_t microsecondsTextToNs(std::string_view s) {
    std::size_t i = 0;
    const bool negative = i < s.size() && s[i] == '-';
    if (negative) ++i;
    std::string digits; // integer then fraction digits: value = 0.digits x 10^(intDigits + exponent)
    std::int64_t intDigits = 0;
    while (i < s.size() && isDigit(s[i])) digits += s[i++], ++intDigits;
    if (intDigits == 0) throw std::invalid_argument("not a number: '" + std::string(s) + "'");
    if (i < s.size() && s[i] == '.') {
        ++i;
        std::size_t fraction = 0;
        while (i < s.size() && isDigit(s[i])) digits += s[i++], ++fraction;
        if (fraction == 0) throw std::invalid_argument("not a number: '" + std::string(s) + "'");
    }
    std::int64_t exponent = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool negativeExponent = false;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) negativeExponent = s[i++] == '-';
        std::size_t n = 0;
        while (i < s.size() && isDigit(s[i])) {
            // An exponent of 6 digits is far beyond any time; refusing it keeps the loop below short.
            if (++n > 5) throw std::out_of_range("exponent too large: '" + std::string(s) + "'");
            exponent = exponent * 10 + (s[i++] - '0');
        }
        if (n == 0) throw std::invalid_argument("not a number: '" + std::string(s) + "'");
        if (negativeExponent) exponent = -exponent;
    }
    if (i != s.size()) throw std::invalid_argument("not a number: '" + std::string(s) + "'");

    // x 1000 moves the decimal point three places: the ns integer is the first `point` digits (zeros past
    // the end), and the first digit dropped decides the rounding (half away from zero: 5 or more rounds the
    // magnitude up, whatever follows).
    const std::int64_t point = intDigits + exponent + 3;
    const auto size = static_cast<std::int64_t>(digits.size());
    std::int64_t n = 0;
    for (std::int64_t k = 0; k < point; ++k) {
        const int d = k < size ? digits[static_cast<std::size_t>(k)] - '0' : 0;
        if (n > (std::numeric_limits<std::int64_t>::max() - d) / 10)
            throw std::out_of_range("beyond int64 ns: '" + std::string(s) + "'");
        n = n * 10 + d;
    }
    const char dropped = point >= 0 && point < size ? digits[static_cast<std::size_t>(point)] : '0';
    if (dropped >= '5') {
        if (n == std::numeric_limits<std::int64_t>::max())
            throw std::out_of_range("beyond int64 ns: '" + std::string(s) + "'");
        ++n;
    }
    return negative ? -n : n;
}

json parseKeepingNumberText(const std::string& text) {
    DomKeepingNumberText dom;
    if (!json::sax_parse(text, &dom)) throw std::runtime_error("bad JSON");
    return std::move(dom.root);
}

json loadKeepingNumberText(const std::filesystem::path& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot open " + path.string());
    std::string bytes;
    char buffer[1 << 16];
    int n = 0;
    while ((n = gzread(f, buffer, sizeof buffer)) > 0) bytes.append(buffer, static_cast<std::size_t>(n));
    const bool failed = n < 0;
    gzclose(f);
    if (failed) throw std::runtime_error("cannot read " + path.string());
    return parseKeepingNumberText(bytes);
}

std::int64_t microsecondsToNs(const json& number) {
    if (number.is_string()) return microsecondsTextToNs(number.get<std::string>());
    if (number.is_number_integer()) {
        std::int64_t out = 0;
        if (__builtin_mul_overflow(number.get<std::int64_t>(), 1000, &out))
            throw std::out_of_range("beyond int64 ns: " + number.dump());
        return out;
    }
    throw std::runtime_error("not a time: " + number.dump());
}

std::int64_t memcpyKindValue(const std::string& name) {
    // "Memcpy HtoD (Pinned -> Device)": the word after "Memcpy " (reading: the contract's "from the name").
    const std::string prefix = "Memcpy ";
    if (name.rfind(prefix, 0) != 0) return 99;
    const std::string word = name.substr(prefix.size(), name.find(' ', prefix.size()) - prefix.size());
    if (word == "HtoD") return 1;
    if (word == "DtoH") return 2;
    if (word == "DtoD") return 8;
    if (word == "PtoP") return 10;
    return 99;
}

std::int64_t syncTypeValue(const std::string& kind) {
    if (kind == "Event Sync") return 2;
    if (kind == "Stream Wait Event") return 3;
    if (kind == "Stream Sync") return 4;
    if (kind == "Context Sync") return 5;
    return 1; // unknown
}

Trace fromJson(const json& document) {
    if (!document.is_object() || !document.contains("traceEvents") || !document["traceEvents"].is_array())
        throw std::runtime_error("not a Kineto trace: no traceEvents array");
    const json& events = document["traceEvents"];
    Trace t;
    t.host = text(document, "host_name");
    if (t.host.empty()) t.host = "localhost";

    std::optional<std::int64_t> cpuPid, firstHostPid;
    for (const auto& e : events) {
        const auto ph = text(e, "ph"), cat = text(e, "cat");
        if (ph == "M" && text(e, "name") == "process_labels" && arg(e, "labels") == "CPU" &&
            e.contains("pid") && e["pid"].is_number_integer())
            cpuPid = e["pid"].get<std::int64_t>();
        if (!firstHostPid && ph == "X" && (cat == "cpu_op" || cat == "cuda_runtime") && e.contains("pid") &&
            e["pid"].is_number_integer())
            firstHostPid = e["pid"].get<std::int64_t>();
    }
    if (!cpuPid && !firstHostPid) throw std::runtime_error("no CPU process in the trace");
    t.pid = cpuPid ? *cpuPid : *firstHostPid;

    // Launch calls first: the GPU work below looks them up by correlation id.
    for (const auto& e : events) {
        const auto cat = text(e, "cat");
        if (text(e, "ph") != "X" || (cat != "cuda_runtime" && cat != "cuda_driver")) continue;
        ++t.counts.apiCalls;
        ++t.hostThreads[tidOf(e)].apiCalls;
        const json& c = arg(e, "correlation");
        if (!c.is_number_integer()) continue;
        auto start = microsecondsToNs(e.at("ts"));
        auto [it, added] = t.callStart.emplace(c.get<std::int64_t>(), start);
        if (added || start < it->second) it->second = start, t.callThread[c.get<std::int64_t>()] = tidOf(e);
    }

    for (const auto& e : events) {
        if (text(e, "ph") != "X") continue;
        const auto cat = text(e, "cat");
        if (isHostRange(e)) {
            const auto begin = microsecondsToNs(e.at("ts")), end = begin + microsecondsToNs(e.at("dur"));
            const auto name = text(e, "name");
            if (name.rfind("ProfilerStep#", 0) == 0 && name.size() > 13 && isDigit(name[13]))
                t.profilerSteps.emplace_back(begin, name);
            if (namesStream(e)) t.streamHostEvents.push_back({begin, end, name});
        }
        if (cat == "cuda_sync" && namesStream(e) && arg(e, "correlation").is_number_integer() &&
            t.callStart.count(arg(e, "correlation").get<std::int64_t>())) {
            const auto begin = microsecondsToNs(e.at("ts"));
            t.streamHostEvents.push_back(
                {begin, begin + microsecondsToNs(e.at("dur")), text(e, "name"), true});
        }
        if (cat == "cpu_op") ++t.counts.cpuOps, ++t.hostThreads[tidOf(e)].cpuOps;
        if (cat == "user_annotation") ++t.counts.userAnnotations, ++t.hostThreads[tidOf(e)].userAnnotations;
        if (cat == "cuda_sync") {
            const json& c = arg(e, "correlation");
            if (c.is_number_integer() && t.callStart.count(c.get<std::int64_t>())) {
                ++t.counts.syncs[syncTypeValue(arg(e, "cuda_sync_kind").is_string()
                                                   ? arg(e, "cuda_sync_kind").get<std::string>()
                                                   : std::string())];
                ++t.hostThreads[t.callThread.at(c.get<std::int64_t>())].syncs;
            } else {
                ++t.counts.syncsWithoutCall;
            }
        }
        if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;

        Activity a;
        a.name = text(e, "name");
        a.begin = microsecondsToNs(e.at("ts"));
        a.end = a.begin + microsecondsToNs(e.at("dur"));
        a.tsUs = asDouble(e.at("ts"));
        a.durUs = asDouble(e.at("dur"));
        a.device = integerOf(arg(e, "device"), "args.device");
        a.stream = integerOf(arg(e, "stream"), "args.stream");
        if (arg(e, "correlation").is_number_integer())
            a.correlation = arg(e, "correlation").get<std::int64_t>();
        a.memset = cat == "gpu_memset";
        a.cls = cat == "kernel" ? (analyzeoracle::isNccl(a.name) ? 'N' : 'C') : 'M';
        const bool launched = a.correlation && t.callStart.count(*a.correlation);

        auto& c = t.counts;
        if (a.cls == 'M') {
            ++c.memory[a.memset ? 100 : memcpyKindValue(a.name)];
            if (arg(e, "bytes").is_number_integer()) c.memoryBytes += arg(e, "bytes").get<std::int64_t>();
            c.memoryLaunches += launched;
        } else {
            ++(a.cls == 'N' ? c.ncclKernels : c.kernels);
            c.kernelLaunches += launched;
        }
        ++c.activitiesByRow["CUDA-D" + std::to_string(a.device) + ".S" + std::to_string(a.stream)];
        t.activities.push_back(std::move(a));
    }
    return t;
}

Trace load(const std::filesystem::path& path) {
    return fromJson(loadKeepingNumberText(path));
}

std::string deviceId(const Trace& trace, std::int64_t device) {
    return trace.host + ":" + std::to_string(trace.pid) + ":" + std::to_string(device);
}

std::map<DeviceKey, Device> devices(const Trace& trace, std::int64_t shift) {
    std::map<DeviceKey, Device> out;
    for (const auto& a : trace.activities) {
        auto& d = out[{trace.pid, a.device}];
        const Interval iv{a.begin + shift, a.end + shift};
        if (a.cls == 'M') {
            d.memory.push_back(iv);
            ++d.memoryOperations;
            continue;
        }
        (a.cls == 'N' ? d.nccl : d.compute).push_back(iv);
        if (a.cls == 'N') d.ncclRuns[a.name].push_back(iv);
        d.durations[a.name].push_back(a.end - a.begin);
        ++d.kernels;
    }
    return out;
}

std::map<std::int64_t, Hta> hta(const Trace& trace) {
    using analyzeoracle::length;
    std::map<std::int64_t, std::vector<const Activity*>> byDevice;
    for (const auto& a : trace.activities) byDevice[a.device].push_back(&a);

    std::map<std::int64_t, Hta> out;
    for (const auto& [device, acts] : byDevice) {
        Hta& h = out[device];
        std::int64_t lo = std::numeric_limits<std::int64_t>::max(),
                     hi = std::numeric_limits<std::int64_t>::min();
        Intervals all, compute, nccl;
        for (const auto* a : acts) {
            lo = std::min(lo, a->begin), hi = std::max(hi, a->end);
            all.push_back({a->begin, a->end});
            if (a->cls == 'C') compute.push_back({a->begin, a->end});
            if (a->cls == 'N') nccl.push_back({a->begin, a->end});
        }
        h.kernelTime = hi - lo;
        h.idle = h.kernelTime - length(all, lo, hi);
        h.compute = length(compute, lo, hi);
        h.nonCompute = h.kernelTime - h.compute - h.idle;
        // |C intersect N| = |C| + |N| - |C union N|: no interval intersection code to get wrong.
        h.ncclTime = length(nccl, lo, hi);
        h.computeNcclOverlap =
            h.compute + h.ncclTime - length(analyzeoracle::concat({&compute, &nccl}), lo, hi);
        if (h.ncclTime > 0)
            h.commCompOverlap = static_cast<double>(h.computeNcclOverlap) / static_cast<double>(h.ncclTime);

        // Idle by cause, stream by stream: each activity against the previous one in start order (ties,
        // which none of the traces has, by end), its gap as it is, negative included.
        std::map<std::int64_t, std::vector<const Activity*>> byStream;
        for (const auto* a : acts) byStream[a->stream].push_back(a);
        for (auto& [stream, v] : byStream) {
            std::sort(v.begin(), v.end(), [](const Activity* x, const Activity* y) {
                return std::pair(x->begin, x->end) < std::pair(y->begin, y->end);
            });
            for (std::size_t i = 1; i < v.size(); ++i) {
                const std::int64_t previousEnd = v[i - 1]->end, gap = v[i]->begin - previousEnd;
                auto call =
                    v[i]->correlation ? trace.callStart.find(*v[i]->correlation) : trace.callStart.end();
                if (call != trace.callStart.end() && call->second > previousEnd)
                    h.hostWait += gap;
                else if (gap < kConsecutiveKernelDelayNs)
                    h.kernelWait += gap;
                else
                    h.other += gap;
            }
        }
    }
    return out;
}

namespace {

// HTA's rule of compute kernels by name, restated from its source: a name is not compute when it begins with
// nccl, hip, hccl, runFunction, job_exe, packet, pe_exe, cpum_exe_subgraph, collective_subgraph_execution or
// "Stream Wait Event", holds Memcpy, Memset, dma or Sync anywhere, or begins with cuda and holds
// LaunchKernel later.
bool htaComputeName(const std::string& n) {
    const std::vector<std::string> prefixes{"nccl",
                                            "hip",
                                            "hccl",
                                            "runFunction",
                                            "job_exe",
                                            "packet",
                                            "pe_exe",
                                            "cpum_exe_subgraph",
                                            "collective_subgraph_execution",
                                            "Stream Wait Event"};
    for (const auto& p : prefixes)
        if (n.size() >= p.size() && std::equal(p.begin(), p.end(), n.begin())) return false;
    for (const char* part : {"Memcpy", "Memset", "dma", "Sync"})
        if (n.find(part) != std::string::npos) return false;
    const auto launch = n.find("LaunchKernel");
    return !(n.size() >= 4 && n.compare(0, 4, "cuda") == 0 && launch != std::string::npos && launch >= 4);
}

// gpueff's own reading: span first start .. last end, idle = span - |union|, compute = |compute union|.
HtaReading plainReading(const Intervals& all, const Intervals& compute) {
    HtaReading r;
    if (all.empty()) return r;
    std::int64_t lo = all.front().first, hi = all.front().second;
    for (const auto& [b, e] : all) lo = std::min(lo, b), hi = std::max(hi, e);
    r.kernelTime = hi - lo;
    r.idle = r.kernelTime - analyzeoracle::length(all, lo, hi);
    r.compute = analyzeoracle::length(compute, lo, hi);
    return r;
}

// HTA's merge as its data frame code does it: rows sorted by start; a row with a start above the running
// maximum of the ends before it opens a group; a group runs from its smallest start to its largest end
// (negative for an inverted row alone). Returns (sum over groups, first group's start, last group's end).
std::tuple<std::int64_t, std::int64_t, std::int64_t> htaGroups(Intervals rows) {
    std::sort(rows.begin(), rows.end());
    std::vector<std::size_t> groupOf(rows.size());
    std::int64_t runningMax = std::numeric_limits<std::int64_t>::min();
    std::size_t group = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0 && rows[i].first > runningMax) ++group;
        groupOf[i] = group;
        runningMax = std::max(runningMax, rows[i].second);
    }
    std::map<std::size_t, Interval> groups;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto [it, fresh] = groups.try_emplace(groupOf[i], rows[i]);
        if (!fresh)
            it->second = {std::min(it->second.first, rows[i].first),
                          std::max(it->second.second, rows[i].second)};
    }
    std::int64_t sum = 0;
    for (const auto& [g, iv] : groups) sum += iv.second - iv.first;
    if (groups.empty()) return {0, 0, 0};
    return {sum, groups.begin()->second.first, groups.rbegin()->second.second};
}

} // namespace

std::map<std::int64_t, HtaRules> htaRules(const Trace& trace) {
    std::map<std::int64_t, std::vector<const Activity*>> byDevice;
    for (const auto& a : trace.activities) byDevice[a.device].push_back(&a);
    std::set<std::string> stepNames;
    std::int64_t lastStep = std::numeric_limits<std::int64_t>::min();
    for (const auto& [begin, name] : trace.profilerSteps)
        stepNames.insert(name), lastStep = std::max(lastStep, begin);

    std::map<std::int64_t, HtaRules> out;
    for (const auto& [device, acts] : byDevice) {
        HtaRules& r = out[device];
        Intervals all, compute;
        for (const auto* a : acts) {
            all.push_back({a->begin, a->end});
            if (a->cls == 'C') compute.push_back({a->begin, a->end});
        }
        const HtaReading ours = plainReading(all, compute);

        if (stepNames.size() >= 2) {
            HtaRules::LastStep rule;
            rule.stepBegin = lastStep;
            Intervals kept, keptCompute, dropped;
            for (const auto* a : acts) {
                auto call = a->correlation ? trace.callStart.find(*a->correlation) : trace.callStart.end();
                if (call != trace.callStart.end() && call->second < lastStep) {
                    kept.push_back({a->begin, a->end});
                    if (a->cls == 'C') keptCompute.push_back({a->begin, a->end});
                } else {
                    dropped.push_back({a->begin, a->end});
                }
            }
            rule.dropped = static_cast<std::int64_t>(dropped.size());
            rule.droppedTime = analyzeoracle::length(dropped, std::numeric_limits<std::int64_t>::min(),
                                                     std::numeric_limits<std::int64_t>::max());
            rule.reading = plainReading(kept, keptCompute);
            if (rule.dropped > 0) r.lastStep = rule;
        }

        Intervals rounded, roundedCompute;
        for (const auto* a : acts) {
            const double end = a->tsUs + a->durUs;
            const Interval iv{static_cast<std::int64_t>(std::ceil(a->tsUs)) * 1000,
                              static_cast<std::int64_t>(std::floor(end)) * 1000};
            rounded.push_back(iv);
            if (a->cls == 'C') roundedCompute.push_back(iv);
        }
        auto [busy, first, last] = htaGroups(rounded);
        HtaReading whole{last - first, last - first - busy, std::get<0>(htaGroups(roundedCompute))};
        if (!(whole == ours)) r.wholeMicroseconds = whole;
    }

    // Host events with a stream go to the trace's lowest device (HTA counts a rank).
    if (!trace.streamHostEvents.empty() && !byDevice.empty()) {
        const auto device = byDevice.begin()->first;
        HtaRules::StreamHost rule;
        Intervals all, compute;
        for (const auto* a : byDevice.begin()->second) {
            all.push_back({a->begin, a->end});
            if (a->cls == 'C') compute.push_back({a->begin, a->end});
        }
        for (const auto& e : trace.streamHostEvents) {
            ++rule.events;
            rule.time += e.end - e.begin;
            all.push_back({e.begin, e.end});
            if (htaComputeName(e.name)) compute.push_back({e.begin, e.end});
        }
        rule.reading = plainReading(all, compute);
        out[device].streamHost = rule;
    }
    return out;
}

} // namespace kinetooracle
