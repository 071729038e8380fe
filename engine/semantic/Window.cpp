#include "engine/semantic/Window.h"

#include "engine/common/Error.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace gpueff::semantic {

namespace {

bool cpuTree(Level l) {
    return l == Level::System || l == Level::Node || l == Level::Cpu;
}

// The cfg's lower-case name of a level ("thread", "appl", ...): the .row name in lower case.
std::string levelKey(Level l) {
    std::string key = levelName(l);
    for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return key;
}

// The level directly below `l` in its tree (Thread and Cpu have none).
Level childLevel(Level l) {
    switch (l) {
    case Level::Workload:
        return Level::Application;
    case Level::Application:
        return Level::Task;
    case Level::Task:
        return Level::Thread;
    case Level::System:
        return Level::Node;
    case Level::Node:
        return Level::Cpu;
    default:
        return l;
    }
}

} // namespace

bool sameTree(Level a, Level b) {
    return cpuTree(a) == cpuTree(b);
}
bool finerOrEqual(Level a, Level b) {
    return sameTree(a, b) && static_cast<int>(a) >= static_cast<int>(b);
}

WindowSet::WindowSet(const Cfg& cfg, const TraceContext& context) : cfg_(cfg), context_(context) {
    windows_.resize(cfg.windows.size());
    for (std::size_t w = 0; w < cfg.windows.size(); ++w) compile(w);
}

void WindowSet::compile(std::size_t w) {
    const auto& spec = cfg_.windows[w];
    auto& c = windows_[w];
    c.spec = &spec;
    std::string where = cfg_.path + ":" + std::to_string(spec.line) + ": window '" + spec.name + "'";
    auto fn = [&](const std::string& key, const char* fallback) {
        auto it = spec.functions.find(key);
        return it == spec.functions.end() ? FunctionRef{fallback, {}} : it->second;
    };
    for (const char* key : {"topcompose1", "topcompose2", "compose_workload", "compose_appl", "compose_task",
                            "compose_thread", "compose_system", "compose_node", "compose_cpu"}) {
        auto f = fn(key, "As Is");
        c.levels[key] = Bound{nullptr, &composeFunction(f.name, where), f.params};
    }
    for (const char* key : {"workload", "appl", "task", "system", "node"}) {
        auto f = fn(key, "Adding");
        c.levels[key] = Bound{&aggregateFunction(f.name, where), nullptr, f.params};
    }
    if (spec.derived) {
        for (int p : spec.parents)
            if (p < 0 || static_cast<std::size_t>(p) >= w)
                throw Error(where + ": window_identifiers must name two windows defined before it");
        if (spec.shifts[0] != 0 || spec.shifts[1] != 0)
            throw Error(where + ": window_shifts is not implemented by gpueff");
        c.derived = &derivedFunction(spec.operation.empty() ? "product" : spec.operation, where);
        auto l0 = cfg_.windows[static_cast<std::size_t>(spec.parents[0])].level;
        auto l1 = cfg_.windows[static_cast<std::size_t>(spec.parents[1])].level;
        if (!sameTree(l0, l1))
            throw Error(where + ": parents at process and resource levels cannot be combined");
        c.baseLevel = static_cast<int>(l0) >= static_cast<int>(l1) ? l0 : l1;
        if (!finerOrEqual(c.baseLevel, spec.level)) throw Error(where + ": level is finer than its parents'");
        return;
    }
    auto threadRef = fn("thread", "State As Is");
    c.thread = &threadFunction(threadRef.name, where);
    c.threadParams = threadRef.params;
    auto cpuRef = fn("cpu", "Active Thd");
    c.levels["cpu"] = Bound{&aggregateFunction(cpuRef.name, where), nullptr, cpuRef.params};
    if (cpuTree(spec.level))
        throw Error(where + ": CPU, node and system level windows are not implemented by gpueff");
    c.filter = std::make_unique<Filter>(spec.filter, context_.labels, where);
    // A window that keeps only event types the trace lacks reads 0 everywhere: Paraver warns about such cfgs.
    // A range [x,y] keeps every type from x to y, so any of them present is enough (paraver-kernel's
    // pickSymbols asks anyEventLoaded(x, y) for it).
    const auto& types = c.filter->types();
    if (spec.filter.typeFunction == "=" && !types.empty()) {
        bool any = false;
        std::string list;
        for (auto t : types) {
            any = any || std::binary_search(context_.eventTypes.begin(), context_.eventTypes.end(),
                                            static_cast<std::uint32_t>(t));
            list += (list.empty() ? "" : ", ") + std::to_string(static_cast<std::uint64_t>(t));
        }
        if (!any)
            c.missingEvents =
                where + ": the trace has no event of type " + list + " that the window filters on";
    } else if (spec.filter.typeFunction == "[x,y]" && types.size() >= 2) {
        // Event types are whole numbers: the first present type >= x, if any, must also be <= y.
        auto first = std::lower_bound(context_.eventTypes.begin(), context_.eventTypes.end(), types[0],
                                      [](std::uint32_t have, double bound) { return have < bound; });
        if (first == context_.eventTypes.end() || *first > types[1])
            c.missingEvents = where + ": the trace has no event of a type from " +
                              std::to_string(static_cast<std::uint64_t>(types[0])) + " to " +
                              std::to_string(static_cast<std::uint64_t>(types[1])) +
                              " that the window filters on";
    }
}

std::size_t WindowSet::rows(std::size_t w) const {
    return context_.objects.count(level(w));
}

namespace {

// A fraction in [0, 1] (the parser checks it) of the trace's end time; the product can round up to 2^63
// for an end near INT64_MAX, which llround cannot return, so it is clamped to the end itself.
std::int64_t fractionOf(double fraction, std::int64_t end) {
    double t = fraction * static_cast<double>(end);
    if (!(t < static_cast<double>(end))) return end;
    return t > 0 ? static_cast<std::int64_t>(std::llround(t)) : 0;
}

} // namespace

std::int64_t WindowSet::beginTime(std::size_t w) const {
    return fractionOf(windows_[w].spec->beginRelative, context_.endTime);
}
std::int64_t WindowSet::endTime(std::size_t w) const {
    return fractionOf(windows_[w].spec->endRelative, context_.endTime);
}

std::string WindowSet::rowLabel(std::size_t w, std::size_t row, bool withLevel, bool fromRowFile) const {
    if (fromRowFile) {
        auto name = context_.labels.rowName(levelName(level(w)), row);
        if (!name.empty()) return name;
    }
    return context_.objects.label(level(w), row, withLevel);
}

std::vector<double> WindowSet::filterTypes(std::size_t w) const {
    const auto& c = windows_[w];
    if (c.spec->derived) return filterTypes(static_cast<std::size_t>(c.spec->parents[0]));
    return c.filter->types();
}

InfoType WindowSet::infoType(std::size_t w) const {
    const auto& c = windows_[w];
    auto composeInfo = [&](const char* key) { return c.levels.at(key).compose->info; };
    auto aggregateInfo = [&](const char* key) { return c.levels.at(key).aggregate->info; };
    for (const char* key : {"topcompose1", "topcompose2"})
        if (composeInfo(key) != InfoType::Same) return composeInfo(key);
    // From the window's level down to the base, compose then aggregate of each level.
    Level l = c.spec->level;
    Level base = c.spec->derived ? c.baseLevel : Level::Thread;
    while (true) {
        auto key = levelKey(l);
        auto ci = composeInfo(("compose_" + key).c_str());
        if (ci != InfoType::Same) return ci;
        if (l == base) break;
        auto ai = aggregateInfo(key.c_str());
        if (ai != InfoType::Same) return ai;
        l = childLevel(l);
    }
    if (c.spec->derived) return infoType(static_cast<std::size_t>(c.spec->parents[0]));
    return c.thread->info;
}

void WindowSet::requireEvents(std::size_t w) const {
    const auto& c = windows_[w];
    if (!c.missingEvents.empty()) throw Error(c.missingEvents);
}

std::vector<std::string> WindowSet::warnings() const {
    std::vector<std::string> out;
    for (const auto& c : windows_)
        if (!c.missingEvents.empty()) out.push_back(c.missingEvents + " (it reads 0 everywhere)");
    return out;
}

IntervalPtr WindowSet::compose(std::size_t w, const std::string& key, IntervalPtr child) const {
    const auto& b = windows_[w].levels.at(key);
    if (b.compose->id == ComposeFunction::Id::AsIs)
        return child; // identity: skip a virtual call per interval
    return std::make_unique<ComposeInterval>(std::move(child), *b.compose, b.params, context_, unit(w));
}

IntervalPtr WindowSet::makeRow(std::size_t w, std::size_t row) const {
    auto r = levelRow(w, level(w), row);
    return compose(w, "topcompose1", compose(w, "topcompose2", std::move(r)));
}

IntervalPtr WindowSet::levelRow(std::size_t w, Level l, std::size_t row) const {
    return compose(w, "compose_" + levelKey(l), baseRow(w, l, row));
}

IntervalPtr WindowSet::baseRow(std::size_t w, Level l, std::size_t row) const {
    const auto& c = windows_[w];
    if (c.spec->derived && l == c.baseLevel) return derivedRow(w, row);
    if (!c.spec->derived && l == Level::Thread)
        return std::make_unique<ThreadInterval>(context_, static_cast<std::uint32_t>(row), *c.thread,
                                                c.threadParams, *c.filter, c.spec->unit, c.spec->level);
    auto child = childLevel(l);
    auto [first, last] = context_.objects.children(l, row, child);
    std::vector<IntervalPtr> children;
    for (auto i = first; i <= last && first <= last; ++i) children.push_back(levelRow(w, child, i));
    if (children.empty())
        throw Error(cfg_.path + ": " + context_.objects.label(l, row, true) + " has no " + levelName(child) +
                    " objects in the trace header; window '" + c.spec->name + "' cannot aggregate it");
    const auto& b = c.levels.at(levelKey(l));
    return std::make_unique<AggregateInterval>(std::move(children), *b.aggregate, b.params);
}

std::size_t WindowSet::ownerRow(Level from, std::size_t row, Level to) const {
    if (from == to) return row;
    const auto& o = context_.objects;
    if (to == Level::Workload || to == Level::System) return 0;
    if (from == Level::Thread) return o.ownerOfThread(to, static_cast<std::uint32_t>(row));
    if (from == Level::Task && to == Level::Application) return o.taskApplication[row];
    if (from == Level::Cpu && to == Level::Node) return o.cpuNode[row];
    return row;
}

// Paraver walks the finer parent's rows and finds the coarser parent's row that contains each; the factors
// go with the position (first, second) in that order, not with the parent's index.
IntervalPtr WindowSet::derivedRow(std::size_t w, std::size_t row) const {
    const auto& spec = *windows_[w].spec;
    auto p0 = static_cast<std::size_t>(spec.parents[0]), p1 = static_cast<std::size_t>(spec.parents[1]);
    bool keep = static_cast<int>(level(p0)) >= static_cast<int>(level(p1));
    auto first = keep ? p0 : p1, second = keep ? p1 : p0;
    auto a = makeRow(first, row);
    auto b = makeRow(second, ownerRow(level(first), row, level(second)));
    return std::make_unique<DerivedInterval>(std::move(a), std::move(b), spec.factors[0], spec.factors[1],
                                             *windows_[w].derived, context_.endTime);
}

double toWindowUnits(double t, paraver::TimeUnit traceUnit, Unit windowUnit) {
    // Unit ladder: ns, us, ms, s (x1000 each), then minutes (x60), hours (x60), days (x24).
    static const double factors[] = {1, 1000, 1000, 1000, 60, 60, 24};
    int from = static_cast<int>(traceUnit), to = static_cast<int>(windowUnit);
    if (from == to) return t;
    int lo = std::min(from, to), hi = std::max(from, to);
    double factor = 1;
    for (int i = lo + 1; i <= hi; ++i) factor *= factors[i];
    return from > to ? t * factor : t / factor;
}

} // namespace gpueff::semantic
