#include "engine/paraver/EventCatalog.h"

#include "engine/common/Error.h"
#include "engine/paraver/ShortLabels.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace gpueff::paraver {

void EventCatalog::declare(std::uint32_t type, std::string label, std::uint32_t from) {
    std::lock_guard lock(mutex_);
    auto& t = types_[type];
    if (t.labelFrom == kNoWriter || from < t.labelFrom) {
        t.label = std::move(label);
        t.labelFrom = from;
    }
}

bool EventCatalog::declared(std::uint32_t type) const {
    std::lock_guard lock(mutex_);
    auto it = types_.find(type);
    return it != types_.end() && it->second.labelFrom != kNoWriter;
}

EventCatalog::TypeInfo& EventCatalog::at(std::uint32_t type) {
    auto& t = types_[type];
    if (t.label.empty()) t.label = "Event type " + std::to_string(type);
    return t;
}

void EventCatalog::labelValue(std::uint32_t type, std::int64_t value, std::string label, std::uint32_t from) {
    std::lock_guard lock(mutex_);
    auto& t = at(type);
    auto [writer, added] = t.fixedFrom.emplace(value, from);
    if (!added && from < writer->second) return;
    writer->second = from;
    t.fixed[value] = std::move(label);
}

EventCatalog::Family& EventCatalog::newFamily(std::int64_t firstValue) {
    if (assigned_)
        throw Error("internal error: a family of event values was created after values were assigned");
    auto& f = families_.emplace_back();
    f.firstValue = firstValue;
    return f;
}

void EventCatalog::shareNames(std::initializer_list<std::uint32_t> types, std::int64_t firstValue) {
    std::lock_guard lock(mutex_);
    auto& f = newFamily(firstValue);
    for (auto t : types) at(t).names = &f.names;
}

void EventCatalog::joinFamily(std::uint32_t type, std::uint32_t member) {
    std::lock_guard lock(mutex_);
    auto& t = at(type);
    if (t.names) return;
    t.names = &names(member);
}

void EventCatalog::labelShort(std::uint32_t type) {
    std::lock_guard lock(mutex_);
    shortLabelled_.insert(&names(type));
}

NameDictionary& EventCatalog::names(std::uint32_t type) {
    std::lock_guard lock(mutex_);
    auto& t = at(type);
    if (!t.names) t.names = &newFamily(1).names;
    return *t.names;
}

void EventCatalog::assignValues() {
    std::lock_guard lock(mutex_);
    for (auto& f : families_) f.names.assignValues(f.firstValue);
    assigned_ = true;
}

namespace {
// Labels are single-line in the .pcf grammar.
std::string oneLine(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    return out;
}
} // namespace

namespace {
// A family's names by value, single-line, and the .pcf labels Paraver gets for them.
struct FamilyLabels {
    std::vector<std::int64_t> values;
    std::vector<std::string> labels;
};

FamilyLabels shortFamilyLabels(const NameDictionary& names) {
    FamilyLabels out;
    std::vector<std::string> full;
    names.forEachByValue([&](std::int64_t v, std::string_view name) {
        out.values.push_back(v);
        full.push_back(oneLine(std::string(name)));
    });
    out.labels = shortLabels(full);
    return out;
}
} // namespace

void EventCatalog::writePcf(std::FILE* f, Names labels) const {
    std::fputs("DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
               "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
               "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\nDEFAULT_SEMANTIC\n\n"
               "THREAD_FUNC          State As Is\n\n\nSTATES\n0    Idle\n1    Running\n\n\n"
               "STATES_COLOR\n0    {117,195,255}\n1    {0,0,255}\n\n",
               f);
    std::map<const NameDictionary*, FamilyLabels> shortened; // computed once for the types of a family
    for (const auto& [type, info] : types_) {
        if (!info.used) continue;
        std::fprintf(f, "\nEVENT_TYPE\n0    %u    %s\n", type, oneLine(info.label).c_str());
        bool named = info.names && !info.names->empty();
        if (!info.fixed.empty() || named) {
            std::fputs("VALUES\n", f);
            if (info.fixed.count(0) == 0) std::fputs("0      End\n", f);
            std::string text;
            auto line = [f, &text](std::int64_t v, std::string_view name) {
                text = std::to_string(v);
                text.append("      ").append(name);
                for (std::size_t i = text.size() - name.size(); i < text.size(); ++i)
                    if (text[i] == '\n' || text[i] == '\r' || text[i] == '\t') text[i] = ' ';
                text.push_back('\n');
                std::fwrite(text.data(), 1, text.size(), f);
            };
            for (const auto& [v, name] : info.fixed) line(v, name);
            // A structured binding is captured through a reference of its own (clang 14 refuses it as is).
            if (named && labels == Names::ForParaver && shortLabelled_.count(info.names)) {
                auto& family = shortened[info.names];
                if (family.values.empty()) family = shortFamilyLabels(*info.names);
                for (std::size_t i = 0; i < family.values.size(); ++i)
                    if (info.fixed.count(family.values[i]) == 0) line(family.values[i], family.labels[i]);
            } else if (named)
                info.names->forEachByValue(
                    [&line, &fixed = info.fixed](std::int64_t v, std::string_view name) {
                        if (fixed.count(v) == 0) line(v, name);
                    });
        }
        std::fputs("\n", f);
    }
}

} // namespace gpueff::paraver
