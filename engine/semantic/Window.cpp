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

std::string typeList(const std::vector<double>& types) {
    std::string list;
    for (auto t : types) list += (list.empty() ? "" : ", ") + std::to_string(static_cast<std::uint64_t>(t));
    return list;
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
    checkEventTypes();
    checkObjects();
}

// Analyzer2D.Objects naming rows the control window's level does not have: Paraver ignores them, and crashes
// when none is left (nsys2prv's analysis/kernel-timepercent on a 2-thread trace); gpueff writes the rows that
// exist, and says which it could not.
void WindowSet::checkObjects() {
    if (!cfg_.histogram || cfg_.histogram->control < 0) return;
    auto control = static_cast<std::size_t>(cfg_.histogram->control);
    if (control >= windows_.size()) return;
    std::size_t count = rows(control);
    const auto& spec = cfg_.windows[control];
    auto [first, last] = zoomedRows(control);
    if (spec.zoomRows && count > 0 && first > last)
        warnings_.push_back(cfg_.path + ":" + std::to_string(spec.line) + ": window '" + spec.name +
                            "': window_zoom_objects " + std::to_string(spec.zoomRows->first) + " " +
                            std::to_string(spec.zoomRows->second) +
                            " starts after it ends: the histogram has no row (paramedir crashes here)");
    if (!cfg_.histogram->objects) return;
    std::string past;
    std::size_t kept = 0;
    for (auto r : *cfg_.histogram->objects) {
        if (r < count)
            ++kept;
        else
            past += (past.empty() ? "" : ",") + std::to_string(r);
    }
    if (past.empty()) return;
    warnings_.push_back(cfg_.path + ":" + std::to_string(cfg_.histogram->line) + ": histogram '" +
                        cfg_.histogram->name + "': Analyzer2D.Objects " + past + " past the last of the " +
                        std::to_string(count) + " " + levelName(level(control)) + " rows (0-based), ignored" +
                        (kept == 0 ? "; no row is left, so the histogram has none (paramedir crashes here)"
                                   : ""));
}

void WindowSet::compile(std::size_t w) {
    const auto& spec = cfg_.windows[w];
    auto& c = windows_[w];
    c.spec = &spec;
    std::string where = cfg_.path + ":" + std::to_string(spec.line) + ": window '" + spec.name + "'";
    // paramedir cannot load a window at a resource level of a trace that declares no CPUs (nsys2prv's).
    if (cpuTree(spec.level) && context_.objects.count(Level::Cpu) == 0)
        throw Error(where + ": a " + levelName(spec.level) +
                    " level window needs the trace's resources, and this trace declares no CPUs (paramedir "
                    "cannot load this cfg either)");
    auto fn = [&](const std::string& key, const char* fallback) {
        auto it = spec.functions.find(key);
        return it == spec.functions.end() ? FunctionRef{fallback, {}} : it->second;
    };
    for (const char* key : {"topcompose1", "topcompose2", "compose_workload", "compose_appl", "compose_task",
                            "compose_thread", "compose_system", "compose_node", "compose_cpu"}) {
        auto f = fn(key, "As Is");
        c.levels[key] = Bound{nullptr, &composeFunction(f.name, where), f.params};
    }
    for (const auto& f : spec.extraTopCompose)
        c.extraTop.push_back(Bound{nullptr, &composeFunction(f.name, where), f.params});
    for (const char* key : {"workload", "appl", "task", "system", "node"}) {
        auto f = fn(key, "Adding");
        c.levels[key] = Bound{&aggregateFunction(f.name, where), nullptr, f.params};
    }
    if (spec.derived) {
        for (int p : spec.parents)
            if (p < 0 || static_cast<std::size_t>(p) >= w)
                throw Error(where + ": window_identifiers must name two windows defined before it");
        c.derived = &derivedFunction(spec.operation.empty() ? "product" : spec.operation, where);
        auto l0 = cfg_.windows[static_cast<std::size_t>(spec.parents[0])].level;
        auto l1 = cfg_.windows[static_cast<std::size_t>(spec.parents[1])].level;
        if (!sameTree(l0, l1))
            throw Error(where + ": parents at process and resource levels cannot be combined");
        // A controlled operation walks the rows of its first (data) parent and finds each one's row of the
        // second (control) parent: Paraver has no row to find when the control parent is the finer one.
        if (c.derived->controlled && static_cast<int>(l0) < static_cast<int>(l1))
            throw Error(
                where + ": '" + c.derived->name +
                "' needs its first parent (data) at a level at least as fine as its second (control)");
        c.baseLevel = static_cast<int>(l0) >= static_cast<int>(l1) ? l0 : l1;
        if (!finerOrEqual(c.baseLevel, spec.level)) throw Error(where + ": level is finer than its parents'");
        return;
    }
    auto threadRef = fn("thread", "State As Is");
    c.thread = &threadFunction(threadRef.name, where);
    c.threadParams = threadRef.params;
    auto cpuRef = fn("cpu", "Active Thd");
    c.levels["cpu"] = Bound{&aggregateFunction(cpuRef.name, where), nullptr, cpuRef.params};
    if (cpuTree(spec.level) && !cpuRecords_) cpuRecords_ = std::make_unique<CpuRecords>(context_.trace);
    c.filter = std::make_unique<Filter>(spec.filter, context_.labels, where);
    // Paraver's bookkeeping of the filter's event types against the trace (cfg.cpp pickSymbols): which are
    // absent, and whether the window counts as one whose events exist.
    const auto& types = c.filter->types();
    auto present = [&](double t) {
        return std::binary_search(context_.eventTypes.begin(), context_.eventTypes.end(),
                                  static_cast<std::uint32_t>(t));
    };
    const auto& function = spec.filter.typeFunction;
    c.eventsExist = function == "All" || function == "None";
    for (auto t : types) {
        if (present(t))
            c.eventsExist = true;
        else
            c.absentTypes.push_back(t);
    }
    // A range [x, y] keeps every type from x to y: any of them present is enough (paraver-kernel's
    // pickSymbols asks anyEventLoaded(x, y)).
    if (function == "[x,y]" && types.size() >= 2) {
        auto lo = std::lower_bound(context_.eventTypes.begin(), context_.eventTypes.end(),
                                   static_cast<std::uint32_t>(types[0]));
        if (lo != context_.eventTypes.end() && *lo <= types[1]) {
            c.eventsExist = true;
            c.absentTypes.clear();
        } else {
            c.absentTypes.clear();
            c.absentRange = typeList({types[0]}) + " to " + typeList({types[1]});
            c.missingEvents = where + ": the trace has no event of a type from " + c.absentRange +
                              " that the window filters on";
        }
    }
    // A window that keeps only event types the trace lacks reads 0 everywhere.
    if (function == "=" && !types.empty() && c.absentTypes.size() == types.size())
        c.missingEvents =
            where + ": the trace has no event of type " + typeList(types) + " that the window filters on";
}

// paramedir's rule for a whole cfg: when no window filters on an event type the trace has (nor keeps all
// types), it aborts the cfg; when some listed types are absent, it says so and evaluates.
void WindowSet::checkEventTypes() {
    bool exist = false;
    std::vector<double> absent;
    for (const auto& c : windows_) {
        if (c.spec->derived) continue;
        exist = exist || c.eventsExist;
        absent.insert(absent.end(), c.absentTypes.begin(), c.absentTypes.end());
    }
    std::sort(absent.begin(), absent.end());
    absent.erase(std::unique(absent.begin(), absent.end()), absent.end());
    std::string list = typeList(absent);
    for (const auto& c : windows_)
        if (!c.absentRange.empty()) list += (list.empty() ? "" : ", ") + c.absentRange;
    if (!exist)
        noEvents_ =
            (cfg_.path + ": None of the events specified in the filter appear in the trace" +
             (list.empty() ? std::string() : " (types " + list + ")") + "; paramedir aborts this cfg too");
    else if (!list.empty())
        warnings_.push_back(cfg_.path +
                            ": Some of the events specified in the filter don't appear in the trace " +
                            "(types " + list + "); evaluated without them, as paramedir does");
}

std::size_t WindowSet::rows(std::size_t w) const {
    return context_.objects.count(level(w));
}

std::pair<std::size_t, std::size_t> WindowSet::zoomedRows(std::size_t w) const {
    std::size_t count = rows(w);
    if (count == 0) return {1, 0};
    const auto& zoom = windows_[w].spec->zoomRows;
    if (!zoom) return {0, count - 1};
    return {std::min(zoom->first, count - 1), std::min(zoom->second, count - 1)};
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

// Paraver's clamps: a begin at or past the trace end means the trace start, a stop past it the trace end.
std::int64_t WindowSet::beginTime(std::size_t w) const {
    const auto& spec = *windows_[w].spec;
    if (spec.beginAbsolute)
        return *spec.beginAbsolute < static_cast<double>(context_.endTime)
                   ? static_cast<std::int64_t>(*spec.beginAbsolute)
                   : 0;
    return fractionOf(spec.beginRelative, context_.endTime);
}
std::int64_t WindowSet::endTime(std::size_t w) const {
    const auto& spec = *windows_[w].spec;
    if (spec.stopAbsolute)
        return *spec.stopAbsolute <= static_cast<double>(context_.endTime)
                   ? static_cast<std::int64_t>(*spec.stopAbsolute)
                   : context_.endTime;
    return fractionOf(spec.endRelative, context_.endTime);
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
    return c.filter->validEventTypes(context_.eventTypes);
}

InfoType WindowSet::infoType(std::size_t w) const {
    const auto& c = windows_[w];
    auto composeInfo = [&](const char* key) { return c.levels.at(key).compose->info; };
    auto aggregateInfo = [&](const char* key) { return c.levels.at(key).aggregate->info; };
    for (auto e = c.extraTop.rbegin(); e != c.extraTop.rend(); ++e)
        if (e->compose->info != InfoType::Same) return e->compose->info;
    for (const char* key : {"topcompose1", "topcompose2"})
        if (composeInfo(key) != InfoType::Same) return composeInfo(key);
    // From the window's level down to the base, compose then aggregate of each level; a CPU row reads
    // the thread function through compose_thread.
    Level l = c.spec->level;
    Level base = c.spec->derived ? c.baseLevel : Level::Thread;
    while (true) {
        auto key = levelKey(l);
        auto ci = composeInfo(("compose_" + key).c_str());
        if (ci != InfoType::Same) return ci;
        if (l == base) break;
        auto ai = aggregateInfo(key.c_str());
        if (ai != InfoType::Same) return ai;
        if (l == Level::Cpu) {
            l = Level::Thread;
            continue;
        }
        l = childLevel(l);
    }
    if (c.spec->derived) {
        if (c.derived->info != InfoType::Same) return c.derived->info;
        return infoType(static_cast<std::size_t>(c.spec->parents[0]));
    }
    return c.thread->info;
}

void WindowSet::requireSomeEvents() const {
    if (!noEvents_.empty()) throw Error(noEvents_);
}

void WindowSet::requireEvents(std::size_t w) const {
    const auto& c = windows_[w];
    if (!c.missingEvents.empty()) throw Error(c.missingEvents);
}

std::vector<std::string> WindowSet::warnings() const {
    std::vector<std::string> out = warnings_;
    for (const auto& c : windows_)
        if (!c.missingEvents.empty()) out.push_back(c.missingEvents + " (it reads 0 everywhere)");
    return out;
}

IntervalPtr WindowSet::compose(std::size_t w, const std::string& key, IntervalPtr child) const {
    return compose(w, windows_[w].levels.at(key), std::move(child));
}

IntervalPtr WindowSet::compose(std::size_t w, const Bound& b, IntervalPtr child) const {
    if (b.compose->id == ComposeFunction::Id::AsIs)
        return child; // identity: skip a virtual call per interval
    return std::make_unique<ComposeInterval>(std::move(child), *b.compose, b.params, context_, unit(w));
}

bool WindowSet::passesCommunication(std::size_t w, std::uint32_t comm, std::uint16_t type) const {
    const auto& c = windows_[w];
    if (!c.filter) return true; // a derived window has no filter of its own
    return c.filter->passCommunication(context_.trace, comm, type, context_.objects, c.spec->level,
                                       toWindowUnits(1.0, context_.trace.header.unit, c.spec->unit));
}

std::pair<bool, bool> WindowSet::filterSelection(std::size_t w) const {
    const auto& c = windows_[w];
    if (!c.filter) return {true, false};
    return {c.filter->logical(), c.filter->physical()};
}

IntervalPtr WindowSet::makeRow(std::size_t w, std::size_t row) const {
    auto r = levelRow(w, level(w), row);
    r = compose(w, "topcompose1", compose(w, "topcompose2", std::move(r)));
    for (const auto& extra : windows_[w].extraTop) r = compose(w, extra, std::move(r));
    return r;
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
    if (!c.spec->derived && l == Level::Cpu) {
        // The threads a CPU's records belong to, each with the window's thread function and compose_thread.
        auto makeThread = [this, w, &c](std::uint32_t thread) {
            auto raw = std::make_unique<ThreadInterval>(context_, thread, *c.thread, c.threadParams,
                                                        *c.filter, c.spec->unit, c.spec->level);
            CpuInterval::ThreadRow r;
            r.raw = raw.get();
            r.composed = compose(w, "compose_thread", std::move(raw));
            return r;
        };
        const auto& b = c.levels.at("cpu");
        return std::make_unique<CpuInterval>(*cpuRecords_, static_cast<std::uint32_t>(row), context_.endTime,
                                             makeThread, *b.aggregate, b.params);
    }
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
// go with the position (first, second) in that order, not with the parent's index. Shifts are Paraver's
// too: the first position is shifted when window_shifts' first number is not 0, by the finer parent's
// shift, the second position when the second number is not 0, by the other one. A controlled operation
// keeps the parents' own order: data first, control second, each shifted by its own number.
IntervalPtr WindowSet::derivedRow(std::size_t w, std::size_t row) const {
    const auto& spec = *windows_[w].spec;
    const auto& function = *windows_[w].derived;
    auto p0 = static_cast<std::size_t>(spec.parents[0]), p1 = static_cast<std::size_t>(spec.parents[1]);
    bool keep = function.controlled || static_cast<int>(level(p0)) >= static_cast<int>(level(p1));
    auto first = keep ? p0 : p1, second = keep ? p1 : p0;
    auto shifted = [&](IntervalPtr r, std::size_t position) -> IntervalPtr {
        if (spec.shifts[position] == 0) return r;
        auto shift = spec.shifts[keep ? position : 1 - position];
        return std::make_unique<ShiftInterval>(std::move(r), static_cast<int>(shift));
    };
    auto a = shifted(makeRow(first, row), 0);
    auto b = shifted(makeRow(second, ownerRow(level(first), row, level(second))), 1);
    if (function.controlled)
        return std::make_unique<ControlledInterval>(std::move(a), std::move(b), spec.factors[0], function,
                                                    context_.endTime);
    return std::make_unique<DerivedInterval>(std::move(a), std::move(b), spec.factors[0], spec.factors[1],
                                             function, context_.endTime);
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
