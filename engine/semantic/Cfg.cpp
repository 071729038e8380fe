#include "engine/semantic/Cfg.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
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
// A row index beyond any trace gpueff reads (the Paraver reader caps threads, tasks and CPUs at 1,000,000).
constexpr std::size_t kMaxObjectIndex = 1'000'000'000;

class Parser {
public:
    explicit Parser(std::string path) : path_(std::move(path)) {}

    Cfg run(std::istream& in) {
        cfg_.path = path_;
        cfg_.name = std::filesystem::path(path_).stem().string();
        std::string raw;
        bool sawHeader = false;
        while (std::getline(in, raw)) {
            ++line_;
            line_text_ = trim(raw);
            if (line_text_.empty()) continue;
            if (line_ == 1 || !sawHeader) {
                if (line_text_ == "#ParaverCFG") {
                    sawHeader = true;
                    continue;
                }
                if (!sawHeader) fail("not a Paraver cfg (the first line must be #ParaverCFG)");
            }
            if (inDescription_) {
                if (line_text_.rfind("ConfigFile.EndDescription", 0) == 0) inDescription_ = false;
                continue;
            }
            if (line_text_[0] == '#') continue;
            if (histogramDropped_) continue; // paramedir stops reading at a histogram line it cannot parse
            parseLine();
        }
        if (!sawHeader) fail("empty file, not a Paraver cfg");
        if (expectedWindows_ && *expectedWindows_ != cfg_.windows.size())
            throw Error(path_ + ": ConfigFile.NumWindows says " + std::to_string(*expectedWindows_) +
                        " but " + std::to_string(cfg_.windows.size()) + " windows are defined");
        if (cfg_.windows.empty()) throw Error(path_ + ": no window defined");
        for (const auto& w : cfg_.windows)
            if (w.beginRelative > w.endRelative)
                throw Error(path_ + ":" + std::to_string(w.line) + ": window '" + w.name +
                            "': window_begin_time_relative (" + shortNumber(w.beginRelative) +
                            ") is after window_end_time_relative (" + shortNumber(w.endRelative) + ")");
        if (histogram_) finishHistogram();
        return std::move(cfg_);
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw Error(path_ + ":" + std::to_string(line_) + ": " + why + ": " + line_text_.substr(0, 160));
    }

    WindowSpec& window() {
        if (cfg_.windows.empty()) fail("window property before any window_name");
        return cfg_.windows.back();
    }

    // "a.cfg:12: Analyzer2D.Delta: must be a finite number > 0, got nan": the key, what it must be, and
    // the value as written.
    [[noreturn]] void badValue(const std::string& key, const std::string& what, const std::string& given,
                               std::size_t line = 0) const {
        throw Error(path_ + ":" + std::to_string(line ? line : line_) + ": " + key + ": " + what + ", got " +
                    given.substr(0, 60));
    }

    static std::string shortNumber(double v) {
        std::ostringstream s;
        s << v;
        return s.str();
    }

    double number(const std::string& key, const std::string& text) {
        const char* b = text.c_str();
        char* e = nullptr;
        double v = std::strtod(b, &e);
        if (e == b || trim(e) != "") badValue(key, "must be a number", "'" + text + "'");
        return v;
    }

    double finiteNumber(const std::string& key, const std::string& text) {
        double v = number(key, text);
        if (!std::isfinite(v)) badValue(key, "must be a finite number", text);
        return v;
    }

    // A count or an index: a whole number in [lo, hi] (checked before any conversion to an integer).
    std::size_t wholeNumber(const std::string& key, const std::string& text, std::size_t lo, std::size_t hi,
                            const std::string& what) {
        double v = number(key, text);
        auto n = wholeAs<std::size_t>(v);
        if (!n || *n < lo || *n > hi) badValue(key, what, text);
        return *n;
    }

    // Words left in `in`: a bound for counts a line announces (its values must follow on the same line).
    static std::size_t wordsLeft(std::istringstream& in) {
        auto position = in.tellg();
        std::size_t n = 0;
        std::string word;
        while (in >> word) ++n;
        in.clear();
        in.seekg(position);
        return n;
    }

    bool boolean(const std::string& text) {
        if (text == "true" || text == "True") return true;
        if (text == "false" || text == "False") return false;
        fail("'" + text + "' is not true or false");
    }

    void parseLine() {
        const std::string& l = line_text_;
        if (l.rfind("< NEW ANALYZER2D >", 0) == 0) return startHistogram();
        if (l[0] == '<') return; // "< NEW DISPLAYING WINDOW ... >" banners
        if (l.rfind("Analyzer2D.", 0) == 0 || l.rfind("Analyzer3D.", 0) == 0) return histogramLine();
        auto sp = l.find_first_of(" \t");
        std::string key = sp == std::string::npos ? l : l.substr(0, sp);
        std::string rest = sp == std::string::npos ? "" : trim(l.substr(sp));
        if (key == "ConfigFile.Version:" || key == "version") return;
        if (key == "ConfigFile.NumWindows:" || key == "number_of_windows") {
            auto name = key.back() == ':' ? key.substr(0, key.size() - 1) : key;
            expectedWindows_ = wholeNumber(name, rest, 1, kMaxWindows,
                                           "must be a whole number from 1 to " + std::to_string(kMaxWindows));
            return;
        }
        if (key == "ConfigFile.BeginDescription" || key == "begin_description") {
            inDescription_ = true;
            return;
        }
        if (key.rfind("window_", 0) != 0) return; // other global keys (cfg4d aliases...) change nothing
        windowLine(key, rest);
    }

    void windowLine(const std::string& key, const std::string& rest) {
        if (key == "window_name") {
            if (histogram_) fail("window defined after a histogram");
            cfg_.windows.emplace_back();
            cfg_.windows.back().name = rest;
            cfg_.windows.back().line = line_;
            return;
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
        } else if (key == "window_begin_time_relative" || key == "window_end_time_relative") {
            // A fraction of the trace: outside [0, 1] it would name times the trace does not have.
            double v = number(key, rest);
            if (!(v >= 0.0 && v <= 1.0)) badValue(key, "must be a fraction of the trace from 0 to 1", rest);
            bool isBegin = key == "window_begin_time_relative";
            (isBegin ? w.beginRelative : w.endRelative) = v;
            (isBegin ? w.beginAbsolute : w.stopAbsolute).reset();
        } else if (key == "window_begin_time" || key == "window_stop_time") {
            // Absolute times in trace units (Paraver clamps them to the trace once it is loaded).
            double v = number(key, firstWord(rest));
            if (!(std::isfinite(v) && v >= 0.0)) badValue(key, "must be a time >= 0 in trace units", rest);
            (key == "window_begin_time" ? w.beginAbsolute : w.stopAbsolute) = v;
        } else if (key == "window_end_time") {
            // Paraver reads this key and drops the value (the end is window_stop_time's): say so, since the
            // window then runs to the trace end.
            number(key, firstWord(rest));
            cfg_.warnings.push_back(path_ + ":" + std::to_string(line_) + ": window '" + w.name +
                                    "': window_end_time is ignored, as Paraver ignores it (window_stop_time "
                                    "or window_end_time_relative set the end)");
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
            fail("window_zoom_objects (a subset of rows) is not supported");
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

    void startHistogram() {
        if (histogram_) finishHistogram();
        histogram_ = HistogramSpec{};
        histogram_->line = line_;
        keyLines_.clear();
    }

    int windowIndex(const std::string& key, const std::string& text) {
        auto n = cfg_.windows.size();
        return static_cast<int>(wholeNumber(key, text, 1, n,
                                            "must be a window of the cfg (1 to " + std::to_string(n) + ")")) -
               1;
    }

    void histogramLine() {
        if (!histogram_) fail("histogram property before '< NEW ANALYZER2D >'");
        auto colon = line_text_.find(':');
        if (colon == std::string::npos) fail("expected 'Analyzer2D.Key: value'");
        auto key = line_text_.substr(0, colon);
        auto value = trim(line_text_.substr(colon + 1));
        auto& h = *histogram_;
        // A value paramedir cannot parse makes it drop the histogram and stop reading the cfg; do the same,
        // loudly, so the cfg still gives its last window's timeline as paramedir's output does.
        auto numeric = [&](double& out) {
            const char* b = value.c_str();
            char* e = nullptr;
            double v = std::strtod(b, &e);
            if (e == b || trim(e) != "") {
                dropHistogram(key, "'" + value + "' is not a number");
                return false;
            }
            out = v;
            return true;
        };
        // A number paramedir reads (strtod takes "nan" and "inf" too): finite, else refused.
        auto finite = [&](double& out) {
            double v = 0;
            if (!numeric(v)) return false;
            if (!std::isfinite(v)) badValue(key, "must be a finite number", value);
            out = v;
            keyLines_[key] = line_;
            return true;
        };
        double v = 0;
        if (key == "Analyzer2D.Name")
            h.name = value;
        else if (key == "Analyzer2D.ControlWindow")
            h.control = windowIndex(key, value);
        else if (key == "Analyzer2D.DataWindow")
            h.data = windowIndex(key, value);
        else if (key == "Analyzer2D.3D_ControlWindow")
            h.extra = windowIndex(key, value);
        else if (key == "Analyzer2D.Statistic")
            h.statistic = value;
        else if (key == "Analyzer2D.HideCols")
            h.hideColumns = boolean(value);
        else if (key == "Analyzer2D.HorizVert") {
            if (value == "Horizontal")
                h.horizontal = true;
            else if (value == "Vertical")
                h.horizontal = false;
            else
                fail("unknown HorizVert");
        } else if (key == "Analyzer2D.AnalysisLimits") {
            // Paraver knows three limits; any other word drops the histogram (as a bad number does).
            if (value == "Alltrace" || value == "Allwindow" || value == "Region")
                h.limits = value;
            else
                dropHistogram(key, "'" + value + "' is not Alltrace, Allwindow or Region");
        } else if (key == "Analyzer2D.ComputeYScale")
            h.computeYScale = boolean(value);
        else if (key == "Analyzer2D.Minimum") {
            if (finite(v)) h.minimum = v;
        } else if (key == "Analyzer2D.Maximum") {
            if (finite(v)) h.maximum = v;
        } else if (key == "Analyzer2D.Delta") {
            if (numeric(v)) {
                if (!(std::isfinite(v) && v > 0)) badValue(key, "must be a finite number > 0", value);
                h.delta = v;
                keyLines_[key] = line_;
            }
        } else if (key == "Analyzer2D.NumColumns" || key == "Analyzer2D.num_columns") {
            if (numeric(v)) {
                auto n = wholeAs<std::size_t>(v);
                if (!n || *n < 1 || *n > kMaxHistogramColumns)
                    badValue(key,
                             "must be a whole number from 1 to " + std::to_string(kMaxHistogramColumns) +
                                 " (gpueff's limit)",
                             value);
                h.numColumns = *n;
            }
        } else if (key == "Analyzer2D.3D_Minimum") {
            if (finite(v)) h.extraMinimum = v;
        } else if (key == "Analyzer2D.3D_Maximum") {
            if (finite(v)) h.extraMaximum = v;
        } else if (key == "Analyzer2D.3D_Delta") {
            if (finite(v) && !(v > 0)) badValue(key, "must be a finite number > 0", value);
            h.extraDelta = v;
        } else if (key == "Analyzer2D.Accumulator") {
            if (value != "Semantic") fail("only the Semantic accumulator is supported");
        } else if (key == "Analyzer3D.ComputeYScale") {
            h.extraComputeScale = boolean(value);
        } else if (key == "Analyzer2D.Objects") {
            h.objects = objectList(key, value);
        } else if (key == "Analyzer2D.AccumulateByControlWindow" || key == "Analyzer2D.3D_FixedValue") {
            // display-only for paramedir
        }
        // Remaining Analyzer2D keys are display settings (position, colours, sorting, gradient).
    }

    // "All" or "1,3": 0-based rows of the control window's level (rows past the last are ignored later,
    // as Paraver does, once the trace is known).
    std::optional<std::vector<std::size_t>> objectList(const std::string& key, const std::string& value) {
        if (value == "All") return std::nullopt;
        std::vector<std::size_t> rows;
        std::stringstream in(value);
        std::string word;
        while (std::getline(in, word, ','))
            rows.push_back(wholeNumber(key, trim(word), 0, kMaxObjectIndex,
                                       "must be All or 0-based row numbers separated by commas"));
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        return rows;
    }

    // A histogram line paramedir cannot take makes it drop the histogram and stop reading the cfg; gpueff
    // does the same, loudly, so the cfg still gives its last window's timeline as paramedir's output does.
    void dropHistogram(const std::string& key, const std::string& why) {
        cfg_.warnings.push_back(path_ + ":" + std::to_string(line_) + ": histogram '" + histogram_->name +
                                "' dropped: " + key + " " + why +
                                " (paramedir drops it too and writes the last window's timeline)");
        histogram_.reset();
        histogramDropped_ = true;
    }

    void finishHistogram() {
        auto& h = *histogram_;
        if (h.control < 0)
            throw Error(path_ + ":" + std::to_string(h.line) + ": histogram '" + h.name +
                        "' has no ControlWindow");
        if (h.data < 0) h.data = h.control;
        if (!h.computeYScale) checkFixedScale(h);
        cfg_.histogram = h;
    }

    // A fixed scale must be a range with a number of columns gpueff can allocate (ComputeYScale takes its
    // range from the data and at most 10001 columns, or NumColumns, checked where it is read).
    void checkFixedScale(const HistogramSpec& h) {
        auto lineOf = [&](const char* key) {
            auto it = keyLines_.find(key);
            return it == keyLines_.end() ? h.line : it->second;
        };
        if (h.maximum < h.minimum)
            badValue("Analyzer2D.Maximum",
                     "must not be below Analyzer2D.Minimum (" + shortNumber(h.minimum) + ")",
                     shortNumber(h.maximum), lineOf("Analyzer2D.Maximum"));
        if (h.numColumns) return;
        double columns = std::ceil((h.maximum - h.minimum) / h.delta);
        if (!(columns <= static_cast<double>(kMaxHistogramColumns)))
            badValue("Analyzer2D.Delta",
                     "(Maximum - Minimum) / Delta gives more columns than gpueff's limit of " +
                         std::to_string(kMaxHistogramColumns) + " (Minimum " + shortNumber(h.minimum) +
                         ", Maximum " + shortNumber(h.maximum) + ")",
                     shortNumber(h.delta), lineOf("Analyzer2D.Delta"));
    }

    std::string path_;
    std::size_t line_ = 0;
    std::string line_text_;
    Cfg cfg_;
    std::optional<std::size_t> expectedWindows_;
    std::map<std::string, std::size_t> keyLines_; // line of each numeric histogram key, for later checks
    std::optional<HistogramSpec> histogram_;
    bool inDescription_ = false;
    bool histogramDropped_ = false;
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
