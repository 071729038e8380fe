#include "engine/semantic/Cfg.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
#include "engine/common/Utf8.h"
#include "engine/semantic/CfgHistogram.h"
#include "engine/semantic/CfgReader.h"
#include "engine/semantic/WholeNumber.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace gpueff::semantic {

const char* levelName(Level level) {
    switch (level) {
    case Level::Workload:
        return "WORKLOAD";
    case Level::Application:
        return "APPL";
    case Level::Task:
        return "TASK";
    case Level::Thread:
        return "THREAD";
    case Level::System:
        return "SYSTEM";
    case Level::Node:
        return "NODE";
    case Level::Cpu:
        return "CPU";
    }
    return "?";
}

namespace {

// Level keys as the cfg spells them, normalised to one name each.
std::optional<std::string> levelKey(const std::string& word) {
    static const std::map<std::string, std::string> keys = {{"workload", "workload"},
                                                            {"appl", "appl"},
                                                            {"ptask", "appl"},
                                                            {"task", "task"},
                                                            {"thread", "thread"},
                                                            {"cpu", "cpu"},
                                                            {"node", "node"},
                                                            {"system", "system"},
                                                            {"topcompose", "topcompose2"},
                                                            {"topcompose1", "topcompose1"},
                                                            {"topcompose2", "topcompose2"},
                                                            {"compose1", "topcompose1"},
                                                            {"compose2", "topcompose2"},
                                                            {"compose_workload", "compose_workload"},
                                                            {"compose_appl", "compose_appl"},
                                                            {"compose_task", "compose_task"},
                                                            {"compose_thread", "compose_thread"},
                                                            {"compose_cpu", "compose_cpu"},
                                                            {"compose_node", "compose_node"},
                                                            {"compose_system", "compose_system"}};
    auto it = keys.find(word);
    if (it == keys.end()) return std::nullopt;
    return it->second;
}

// Caps on counts a cfg states, checked before anything is sized by them.
constexpr std::size_t kMaxWindows = 10'000;
constexpr std::uint32_t kMaxLruDepth = 1'000'000;

class Parser : public CfgReader {
public:
    explicit Parser(std::string path) : CfgReader(std::move(path), cfg_.warnings), histograms_(*this) {}

    Cfg run(std::istream& in) {
        cfg_.path = path_;
        cfg_.name = std::filesystem::path(path_).stem().string();
        std::string raw;
        std::size_t number = 0;
        bool sawHeader = false;
        while (std::getline(in, raw)) {
            at(++number, trim(raw));
            if (lineText_.empty()) continue;
            if (number == 1 || !sawHeader) {
                if (lineText_ == "#ParaverCFG") {
                    sawHeader = true;
                    continue;
                }
                if (!sawHeader) fail("not a Paraver cfg (the first line must be #ParaverCFG)");
            }
            if (inDescription_) {
                if (lineText_.rfind("ConfigFile.EndDescription", 0) == 0 ||
                    lineText_.rfind("end_description", 0) == 0)
                    inDescription_ = false;
                continue;
            }
            if (lineText_[0] == '#') continue;
            if (!parseLine()) break; // paramedir stops reading at a histogram line it cannot parse
        }
        if (!sawHeader) fail("empty file, not a Paraver cfg");
        unusedName();
        if (expectedWindows_ && *expectedWindows_ != cfg_.windows.size())
            throw Error(path_ + ": ConfigFile.NumWindows says " + std::to_string(*expectedWindows_) +
                        " but " + std::to_string(cfg_.windows.size()) + " windows are defined");
        if (cfg_.windows.empty()) throw Error(path_ + ": no window defined");
        for (const auto& w : cfg_.windows) checkWindow(w);
        histograms_.finish(cfg_);
        return std::move(cfg_);
    }

private:
    WindowSpec& window() {
        if (cfg_.windows.empty()) fail("window property before any window_type line");
        return cfg_.windows.back();
    }

    void unusedName() {
        if (nameUnused_)
            warn("window '" + name_ +
                     "' has no window_type line: Paraver makes no window of it, and the lines after it go to "
                     "the window before",
                 nameLine_);
        nameUnused_ = false;
    }

    // What a window must have once the cfg is read: a begin before its end, and the lines that say what it
    // is. A window without them is evaluated with Paraver's defaults, said in a warning.
    void checkWindow(const WindowSpec& w) {
        if (w.beginRelative > w.endRelative)
            throw Error(path_ + ":" + std::to_string(w.line) + ": window '" + w.name +
                        "': window_begin_time_relative (" + shortNumber(w.beginRelative) +
                        ") is after window_end_time_relative (" + shortNumber(w.endRelative) + ")");
        if (w.derived && w.parents[0] < 0)
            throw Error(path_ + ":" + std::to_string(w.line) + ": window '" + w.name +
                        "' is composed but has no window_identifiers line naming its two parents");
        if (!w.derived && w.functions.empty())
            warn("window '" + w.name +
                     "' selects no semantic functions (no window_selected_functions line): Paraver's defaults "
                     "are used",
                 w.line);
    }

    // One line; false when the cfg is read no further (a histogram line paramedir cannot parse).
    bool parseLine() {
        const std::string& l = lineText_;
        if (l.rfind("< NEW ANALYZER2D >", 0) == 0) {
            histograms_.start(cfg_);
            return true;
        }
        if (l[0] == '<') return true; // "< NEW DISPLAYING WINDOW ... >" banners
        if (l.rfind("Analyzer2D.", 0) == 0 || l.rfind("Analyzer3D.", 0) == 0)
            return histograms_.line(l, cfg_.windows.size());
        auto sp = l.find_first_of(" \t");
        std::string key = sp == std::string::npos ? l : l.substr(0, sp);
        std::string rest = sp == std::string::npos ? "" : trim(l.substr(sp));
        if (!key.empty() && key.back() == ':') key.pop_back();
        if (key == "ConfigFile.NumWindows" || key == "number_of_windows") {
            expectedWindows_ = wholeNumber(key, rest, 1, kMaxWindows,
                                           "must be a whole number from 1 to " + std::to_string(kMaxWindows));
        } else if (key == "ConfigFile.BeginDescription" || key == "begin_description") {
            inDescription_ = true;
        } else if (key.rfind("window_", 0) == 0 && isParaverCfgKey(key)) {
            windowLine(key, rest);
        } else if (!isParaverCfgKey(key)) {
            // Paraver skips a line it has no tag for; a typo there would silently change nothing.
            warn("unknown key '" + printableExcerpt(key, 60) + "' ignored (Paraver ignores it too)");
        }
        return true; // other global keys (version, cfg4d aliases) change nothing
    }

    void windowLine(const std::string& key, const std::string& rest) {
        // Paraver makes a window at its window_type line, named by the last window_name read: a name without a
        // type makes no window, and the lines after it go to the window before.
        if (key == "window_name") {
            if (histograms_.open() || cfg_.histogram) fail("window defined after a histogram");
            unusedName();
            name_ = validName("window", rest);
            nameLine_ = line_;
            nameUnused_ = true;
            return;
        }
        if (key == "window_type") {
            if (histograms_.open() || cfg_.histogram) fail("window defined after a histogram");
            cfg_.windows.emplace_back();
            cfg_.windows.back().name = name_;
            cfg_.windows.back().line = nameUnused_ ? nameLine_ : line_;
            nameUnused_ = false;
        }
        auto& w = window();
        if (key == "window_type") {
            if (rest == "composed")
                w.derived = true;
            else if (rest != "single")
                fail("unknown window_type");
        } else if (key == "window_level") {
            static const std::map<std::string, Level> levels = {
                {"workload", Level::Workload}, {"appl", Level::Application}, {"ptask", Level::Application},
                {"task", Level::Task},         {"thread", Level::Thread},    {"system", Level::System},
                {"node", Level::Node},         {"cpu", Level::Cpu}};
            auto it = levels.find(rest);
            if (it == levels.end()) fail("unknown window_level");
            w.level = it->second;
        } else if (key == "window_units") {
            static const std::map<std::string, Unit> units = {{"Nanoseconds", Unit::Nanoseconds},
                                                              {"Microseconds", Unit::Microseconds},
                                                              {"Milliseconds", Unit::Milliseconds},
                                                              {"Seconds", Unit::Seconds},
                                                              {"Minutes", Unit::Minutes},
                                                              {"Hours", Unit::Hours},
                                                              {"Days", Unit::Days}};
            auto it = units.find(rest);
            if (it == units.end()) fail("unknown window_units");
            w.unit = it->second;
        } else if (key == "window_operation") {
            w.operation = rest;
        } else if (key == "window_identifiers") {
            // The parents of a derived window are windows defined before it (1-based).
            auto words = numbers(key, rest, 2);
            std::size_t before = cfg_.windows.size() - 1;
            std::string what = before == 0 ? "must name two windows defined before this one (there are none)"
                                           : "must name two windows defined before this one (1 to " +
                                                 std::to_string(before) + ")";
            for (int i = 0; i < 2; ++i)
                w.parents[i] = static_cast<int>(wholeNumber(key, words[static_cast<std::size_t>(i)],
                                                            before == 0 ? 2 : 1, before, what)) -
                               1;
        } else if (key == "window_factors") {
            auto words = numbers(key, rest, 2);
            for (int i = 0; i < 2; ++i) w.factors[i] = finiteNumber(key, words[static_cast<std::size_t>(i)]);
        } else if (key == "window_shifts") {
            // Paraver keeps a shift as a 16-bit count of intervals.
            auto words = numbers(key, rest, 2);
            for (int i = 0; i < 2; ++i) {
                const auto& word = words[static_cast<std::size_t>(i)];
                double v = number(key, word);
                auto n = wholeAs<std::int64_t>(v);
                if (!n || *n < -32768 || *n > 32767)
                    badValue(key, "must be two whole numbers of intervals from -32768 to 32767", word);
                w.shifts[i] = static_cast<int>(*n);
            }
        } else if (key == "window_begin_time_relative") {
            // A fraction of the trace: outside [0, 1] it would name times the trace does not have.
            double v = number(key, rest);
            if (!(v >= 0.0 && v <= 1.0)) badValue(key, "must be a fraction of the trace from 0 to 1", rest);
            w.beginRelative = v;
            w.beginAbsolute.reset();
        } else if (key == "window_end_time_relative" || key == "window_scale_relative") {
            // Both set the window's end to this fraction of the trace end, in the order they come (Paraver's
            // WindowEndTimeRelative and WindowScaleRelative). Past 1 the end is the trace end: Paraver stores
            // the product and clamps it where it is used (textoutput's dumpWindow, KHistogram::execute).
            double v = number(key, rest);
            if (!(v >= 0.0)) badValue(key, "must be a fraction of the trace >= 0 (above 1: the trace end)", rest);
            w.endRelative = std::min(v, 1.0);
            w.stopAbsolute.reset();
        } else if (key == "window_begin_time" || key == "window_stop_time") {
            // Absolute times in trace units (Paraver clamps them to the trace once it is loaded).
            double v = number(key, firstWord(rest));
            if (!(std::isfinite(v) && v >= 0.0)) badValue(key, "must be a time >= 0 in trace units", rest);
            (key == "window_begin_time" ? w.beginAbsolute : w.stopAbsolute) = v;
        } else if (key == "window_end_time") {
            // Paraver reads this key and drops the value (the end is window_stop_time's): say so, since the
            // window then runs to the trace end.
            number(key, firstWord(rest));
            warn("window '" + w.name +
                 "': window_end_time is ignored, as Paraver ignores it (window_stop_time or "
                 "window_end_time_relative set the end)");
        } else if (key == "window_color_mode") {
            // Paraver sets only the gradient-like modes from this key (code colour is the default, which
            // "window_in_code_mode" leaves as it is), and ignores it once the window draws a function line.
            static const std::set<std::string> gradients = {
                "window_in_gradient_mode", "window_in_null_gradient_mode",
                "window_in_alternative_gradient_mode", "window_in_punctual_mode",
                "window_in_fused_lines_mode"};
            if (!w.functionLine && gradients.count(rest)) w.codeColor = false;
        } else if (key == "window_noncolor_mode") {
            // "false" is Paraver's function-line mode (no code colour); "true" changes nothing.
            if (rest == "false") {
                w.functionLine = true;
                w.codeColor = false;
            } else if (rest != "true") {
                fail("window_noncolor_mode: expected true or false");
            }
        } else if (key == "window_logical_filtered") {
            w.filter.logical = boolean(rest);
        } else if (key == "window_physical_filtered") {
            w.filter.physical = boolean(rest);
        } else if (key == "window_comm_fromto") {
            w.filter.fromToAnd = boolean(rest);
        } else if (key == "window_comm_tagsize") {
            w.filter.tagSizeAnd = boolean(rest);
        } else if (key == "window_comm_typeval") {
            w.filter.typeValueAnd = boolean(rest);
        } else if (key == "window_selected_functions" || key == "window_compose_functions") {
            selectedFunctions(w, rest);
        } else if (key == "window_semantic_module") {
            semanticModule(w, rest);
        } else if (key == "window_filter_module") {
            if (!w.derived) filterModule(w, rest);
        } else if (key == "window_zoom_objects") {
            auto words = numbers(key, rest, 2);
            std::size_t rows[2];
            for (int i = 0; i < 2; ++i)
                rows[i] = wholeNumber(key, words[static_cast<std::size_t>(i)], 0, kMaxObjectIndex,
                                      "must be two 0-based row numbers");
            w.zoomRows = std::make_pair(rows[0], rows[1]);
        }
        // Other window_ keys (position, size, drawing, colours, object selection "All") change no number.
    }

    static std::string firstWord(const std::string& text) {
        std::istringstream in(text);
        std::string word;
        in >> word;
        return word;
    }

    // The words of a line that must hold exactly `expected` numbers (each checked by the caller).
    std::vector<std::string> numbers(const std::string& key, const std::string& text, std::size_t expected) {
        std::istringstream in(text);
        std::vector<std::string> out;
        std::string word;
        while (in >> word) out.push_back(word);
        if (out.size() != expected) badValue(key, "must be " + std::to_string(expected) + " numbers", text);
        return out;
    }

    // "{ 14, { {cpu, Active Thd}, {appl, Adding}, ..., {evt_value, All} } }"
    void selectedFunctions(WindowSpec& w, const std::string& text) {
        auto open = text.find('{', text.find('{') + 1);
        if (text.empty() || text[0] != '{' || open == std::string::npos)
            fail("expected '{ n, { {level, function}, ... } }'");
        std::size_t pos = open + 1;
        while (true) {
            auto b = text.find('{', pos);
            if (b == std::string::npos) break;
            auto e = text.find('}', b);
            if (e == std::string::npos) fail("unbalanced braces");
            auto pair = text.substr(b + 1, e - b - 1);
            auto comma = pair.find(',');
            if (comma == std::string::npos) fail("expected {level, function}");
            auto level = trim(pair.substr(0, comma));
            auto function = trim(pair.substr(comma + 1));
            assignFunction(w, level, function);
            pos = e + 1;
        }
    }

    void assignFunction(WindowSpec& w, const std::string& level, const std::string& function) {
        auto& f = w.filter;
        if (level == "from_obj")
            f.fromFunction = function;
        else if (level == "to_obj")
            f.toFunction = function;
        else if (level == "tag_msg")
            f.tagFunction = function;
        else if (level == "size_msg")
            f.sizeFunction = function;
        else if (level == "bw_msg")
            f.bandwidthFunction = function;
        else if (level == "evt_type")
            f.typeFunction = function;
        else if (level == "evt_value")
            f.valueFunction = function;
        else if (level == "extratopcompose1")
            w.extraTopCompose.push_back(FunctionRef{function, {}});
        else if (auto key = levelKey(level))
            w.functions[*key] = FunctionRef{function, {}};
        else
            fail("unknown level '" + level + "'");
    }

    // "thread Given State { 1, { 1 14.000000000000 } }": parameters, applied only when the function at that
    // level is the one named (as Paraver does).
    void semanticModule(WindowSpec& w, const std::string& text) {
        auto sp = text.find(' ');
        auto brace = text.find('{');
        if (sp == std::string::npos || brace == std::string::npos || brace < sp)
            fail("expected 'level function { n, { ... } }'");
        auto levelWord = text.substr(0, sp);
        auto function = trim(text.substr(sp, brace - sp));
        // Parameters of extra top composes go to the next one not yet given any, one extra compose per
        // parameter (paraver-kernel's counter), when that one has the function named.
        bool extra = levelWord == "extratopcompose1";
        FunctionRef* target = nullptr;
        if (extra) {
            if (w.extraParamsAssigned >= w.extraTopCompose.size() ||
                w.extraTopCompose[w.extraParamsAssigned].name != function)
                return;
            target = &w.extraTopCompose[w.extraParamsAssigned];
        } else {
            auto key = levelKey(levelWord);
            if (!key) fail("unknown level '" + levelWord + "'");
            auto it = w.functions.find(*key);
            if (it == w.functions.end() || it->second.name != function) return;
            target = &it->second;
        }
        // Parameters: "{ n, { k v1 .. vk, k v1 .. vk } }"
        auto body = text.substr(brace + 1);
        auto comma = body.find(',');
        if (comma == std::string::npos) fail("expected the number of parameters");
        auto inner = body.find('{', comma);
        auto close = body.rfind('}');
        if (inner == std::string::npos || close == std::string::npos) fail("unbalanced braces");
        std::string list = body.substr(inner + 1);
        for (auto& c : list)
            if (c == ',' || c == '{' || c == '}') c = ' ';
        std::istringstream in(list);
        // Counts are bounded by the words that follow: a count the line cannot hold is refused before
        // anything is allocated for it.
        const std::string what = "window_semantic_module " + levelWord + " " + function;
        std::size_t available = wordsLeft(in);
        auto count = wholeNumber(what, trim(body.substr(0, comma)), 0, available,
                                 "the number of parameters must be a whole number the line holds (0 to " +
                                     std::to_string(available) + ")");
        std::vector<std::vector<double>> params;
        for (std::size_t i = 0; i < count; ++i) {
            std::string word;
            if (!(in >> word)) fail("fewer parameters than announced");
            available = wordsLeft(in);
            auto n = wholeNumber(what, word, 0, available,
                                 "the number of values of parameter " + std::to_string(i + 1) +
                                     " must be a whole number the line holds (0 to " +
                                     std::to_string(available) + ")");
            std::vector<double> values;
            for (std::size_t j = 0; j < n; ++j) {
                if (!(in >> word)) fail("fewer parameter values than announced");
                values.push_back(finiteNumber(what, word));
            }
            params.push_back(std::move(values));
        }
        checkParameters(what, function, params);
        if (!extra) {
            target->params = std::move(params);
            return;
        }
        for (std::size_t i = 0; i < params.size() && w.extraParamsAssigned < w.extraTopCompose.size(); ++i) {
            auto& slot = w.extraTopCompose[w.extraParamsAssigned++].params;
            if (slot.size() <= i) slot.resize(i + 1);
            slot[i] = std::move(params[i]);
        }
    }

    // Parameters that become a duration or a size in the functions' arithmetic.
    void checkParameters(const std::string& key, const std::string& function,
                         const std::vector<std::vector<double>>& params) {
        if (params.empty() || params[0].empty()) return;
        double v = params[0][0];
        if (function == "Timer" && v < 0) badValue(key, "the timer's duration must be >= 0", shortNumber(v));
        auto depth = wholeAs<std::uint32_t>(v);
        if (function == "LRU Depth" && !(depth && *depth <= kMaxLruDepth))
            badValue(key, "the depth must be a whole number from 0 to " + std::to_string(kMaxLruDepth),
                     shortNumber(v));
    }

    // "evt_type 4 60000001 60000005 ..." or "evt_type_label 1 \"label\"".
    void filterModule(WindowSpec& w, const std::string& text) {
        std::istringstream in(text);
        std::string tag, countText;
        if (!(in >> tag >> countText)) fail("expected 'tag n values...'");
        const std::string key = "window_filter_module " + tag;
        std::size_t available = wordsLeft(in);
        auto count = wholeNumber(key, countText, 0, available,
                                 "the number of values must be a whole number the line holds (0 to " +
                                     std::to_string(available) + ")");
        auto& f = w.filter;
        if (tag == "evt_type_label" || tag == "evt_value_label") {
            std::string rest;
            std::getline(in, rest);
            auto& out = tag == "evt_type_label" ? f.typeLabels : f.valueLabels;
            std::size_t pos = 0;
            for (std::size_t i = 0; i < count; ++i) {
                auto b = rest.find('"', pos);
                auto e = b == std::string::npos ? b : rest.find('"', b + 1);
                if (e == std::string::npos) fail("expected " + std::to_string(count) + " quoted labels");
                out.push_back(rest.substr(b + 1, e - b - 1));
                pos = e + 1;
            }
            return;
        }
        std::vector<double>* list = tag == "evt_value"  ? &f.values
                                    : tag == "from_obj" ? &f.from
                                    : tag == "to_obj"   ? &f.to
                                    : tag == "tag_msg"  ? &f.tags
                                    : tag == "size_msg" ? &f.sizes
                                    : tag == "bw_msg"   ? &f.bandwidths
                                                        : nullptr;
        if (!list && tag != "evt_type") fail("unknown filter '" + tag + "'");
        std::vector<double> values;
        std::string word;
        for (std::size_t i = 0; i < count; ++i) {
            if (!(in >> word)) fail("fewer values than announced");
            if (list) {
                values.push_back(finiteNumber(key, word));
                continue;
            }
            // Paraver event types are unsigned 32-bit: a larger one must not wrap to another type.
            auto type = wholeAs<std::uint32_t>(number(key, word));
            if (!type) badValue(key, "event types must be whole numbers from 0 to 4294967295", word);
            f.types.push_back(*type);
        }
        if (list) *list = std::move(values);
    }

    Cfg cfg_;
    HistogramReader histograms_;
    std::optional<std::size_t> expectedWindows_;
    bool inDescription_ = false;
    std::string name_;          // the last window_name
    std::size_t nameLine_ = 0;
    bool nameUnused_ = false;   // no window_type has followed it yet
};

} // namespace

Cfg parseCfg(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw Error(path.string() + ": cannot open cfg");
    return Parser(path.string()).run(in);
}

Cfg parseCfgText(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    return Parser(name).run(in);
}

} // namespace gpueff::semantic
