// Every cfg of cfgs/ loaded by wxparaver 4.11 on every real export translated by gpueff: the questions its
// CFGLoader asks and the look the cfg gives, rebuilt here from paraver-kernel's sources (api/cfg.cpp,
// api/symbolpicker.cpp, api/eventlabels.cpp, api/histogram.cpp at abbc7c3b) without gpueff's cfg parser:
//  - the modal questions. CFGLoader::loadCFG keeps two flags for the whole cfg. A window whose evt_type
//    function is "All" or "None" sets "some exist". Each window's filter types (evt_type numbers, or the
//    types whose .pcf label matches its evt_type_label, '*' matching anything) set "some exist" when the
//    .prv body has an event of that type (KTrace::eventLoaded) and "some missing" otherwise; a "[x,y]" window
//    with an event of a type from x to y present clears "some missing" and sets "some exist". At the end:
//    nothing exists -> "None of the events specified in the filter appear in the trace."; something is
//    missing -> "Some of the events specified in the filter doesn't appear in the trace."
//  - the look: window_noncolor_mode false draws a function line (a white line on black), code colour comes
//    from the default mode (window_color_mode only sets gradients), a histogram gets one column per value
//    only when ComputeYScale is on, its control window is code coloured and the values span at most 10000,
//    Zoom Enabled opens it as a colour grid without numbers, positions are where each frame opens.
#include "engine/paraver/TraceLabels.h"
#include "engine/semantic/Cfg.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/Window.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace testsupport;

namespace {

struct CfgWindow {
    std::string name;
    std::map<std::string, std::string> keys; // window_* key -> the rest of its line
    std::string typeFunction = "All";        // evt_type's filter function
    std::vector<std::uint32_t> types;
    std::vector<std::string> typeLabels;
    bool hasValueLabels = false;
    std::vector<std::string> objects; // every window_object line, in order
    std::string threadFunction;       // {thread, ...} of window_selected_functions
    std::string tagFunction = "All";  // {tag_msg, ...}
    std::vector<std::int64_t> tags;   // window_filter_module tag_msg
};

struct CfgHistogram {
    std::map<std::string, std::string> keys; // "Analyzer2D.X" -> "10"
};

struct CfgFile {
    std::string name; // path under cfgs/
    std::vector<CfgWindow> windows;
    std::vector<CfgHistogram> histograms;
};

std::string trimmed(const std::string& s) {
    auto b = s.find_first_not_of(" \t\r");
    auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

CfgFile readCfg(const std::filesystem::path& path, const std::string& name) {
    CfgFile cfg{name, {}, {}};
    std::ifstream in(path);
    std::string line;
    bool inHistogram = false;
    while (std::getline(in, line)) {
        line = trimmed(line);
        if (line == "< NEW ANALYZER2D >") {
            cfg.histograms.emplace_back();
            inHistogram = true;
            continue;
        }
        if (line.rfind("Analyzer2D.", 0) == 0 && inHistogram) {
            auto colon = line.find(':');
            cfg.histograms.back().keys[line.substr(0, colon)] = trimmed(line.substr(colon + 1));
            continue;
        }
        if (line.rfind("window_", 0) != 0) continue;
        auto space = line.find(' ');
        auto key = line.substr(0, space);
        auto rest = space == std::string::npos ? "" : trimmed(line.substr(space + 1));
        if (key == "window_name") {
            cfg.windows.push_back({rest, {}, "All", {}, {}, false, {}, "", "All", {}});
            inHistogram = false;
            continue;
        }
        REQUIRE_MESSAGE(!cfg.windows.empty(), name << ": " << key << " before any window_name");
        auto& w = cfg.windows.back();
        w.keys[key] = rest;
        if (key == "window_object") w.objects.push_back(rest);
        if (key == "window_selected_functions") {
            auto function = [&rest](const std::string& level) -> std::string {
                auto at = rest.find("{" + level + ",");
                if (at == std::string::npos) return "";
                auto e = rest.find('}', at);
                return trimmed(rest.substr(at + level.size() + 2, e - at - level.size() - 2));
            };
            if (auto f = function("evt_type"); !f.empty()) w.typeFunction = f;
            if (auto f = function("tag_msg"); !f.empty()) w.tagFunction = f;
            w.threadFunction = function("thread");
        } else if (key == "window_filter_module") {
            std::istringstream ls(rest);
            std::string tag;
            std::size_t n = 0;
            ls >> tag >> n;
            if (tag == "evt_type") {
                for (std::size_t i = 0; i < n; ++i) {
                    std::uint32_t t = 0;
                    ls >> t;
                    w.types.push_back(t);
                }
            } else if (tag == "evt_type_label") {
                std::string text;
                std::getline(ls, text);
                for (std::size_t i = 0, pos = 0; i < n; ++i) {
                    auto b = text.find('"', pos), e = text.find('"', b + 1);
                    REQUIRE_MESSAGE(e != std::string::npos,
                                    name << ": evt_type_label needs " << n << " quoted labels");
                    w.typeLabels.push_back(text.substr(b + 1, e - b - 1));
                    pos = e + 1;
                }
            } else if (tag == "evt_value_label") {
                w.hasValueLabels = true;
            } else if (tag == "tag_msg") {
                for (std::size_t i = 0; i < n; ++i) {
                    std::int64_t t = 0;
                    ls >> t;
                    w.tags.push_back(t);
                }
            }
        }
    }
    return cfg;
}

std::vector<std::pair<std::string, std::filesystem::path>> allCfgs() {
    std::vector<std::pair<std::string, std::filesystem::path>> out;
    auto root = sourceDir() / "cfgs";
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.is_regular_file() && e.path().extension() == ".cfg")
            out.emplace_back(e.path().lexically_relative(root).generic_string(), e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// .pcf event type -> its label (the EVENT_TYPE lines "<gradient> <type> <label>").
std::map<std::uint32_t, std::string> pcfTypeLabels(const std::filesystem::path& path) {
    std::map<std::uint32_t, std::string> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (trimmed(line) != "EVENT_TYPE") continue;
        while (std::getline(in, line) && !trimmed(line).empty() && trimmed(line) != "VALUES") {
            std::istringstream ls(line);
            long gradient = 0;
            std::uint32_t type = 0;
            ls >> gradient >> type;
            std::string label;
            std::getline(ls, label);
            out[type] = trimmed(label);
        }
    }
    return out;
}

// Paraver's label pattern: the whole label, '*' matching any run of characters (written here as a plain
// recursive match on short strings, independently of the engine's).
bool labelMatches(const std::string& label, const std::string& pattern, std::size_t l = 0,
                  std::size_t p = 0) {
    if (p == pattern.size()) return l == label.size();
    if (pattern[p] == '*')
        return labelMatches(label, pattern, l, p + 1) ||
               (l < label.size() && labelMatches(label, pattern, l + 1, p));
    return l < label.size() && label[l] == pattern[p] && labelMatches(label, pattern, l + 1, p + 1);
}

enum class RowKind { CpuThread, CudaStream, GpuMetrics };

struct Translated {
    std::string name;
    std::filesystem::path prv;
    std::set<std::uint32_t> types; // types of the .prv body's events
    std::map<std::uint32_t, std::string> typeLabels;
    std::map<std::uint32_t, std::map<std::int64_t, std::string>> values;
    std::filesystem::path export_, cfgDir; // the source export; PREFIX.cfgs
    std::vector<int> threadsPerTask;       // from the .prv header
    std::vector<RowKind> rows;             // per thread in the .row's order, from its labels
    std::set<std::int64_t> tags;           // communication tags of the .prv body
};

// What a .row thread label says the row is (docs/events.md "Rows"): "CUDA-D<device>.S<stream>" a CUDA
// stream, "Metrics GPU<n>" a GPU-metrics row, anything else a CPU thread.
RowKind rowKindOfLabel(const std::string& label) {
    if (label.rfind("CUDA-D", 0) == 0 && label.find(".S") != std::string::npos) return RowKind::CudaStream;
    if (label.rfind("Metrics GPU", 0) == 0) return RowKind::GpuMetrics;
    return RowKind::CpuThread;
}

// `gpueff translate DB -o DIR/NAME`, and what the trace has.
Translated translated(const std::filesystem::path& db, const std::filesystem::path& dir) {
    auto prefix = dir / db.stem();
    auto r =
        run("'" + gpueffBinary().string() + "' translate --quiet " + quoted(db) + " -o " + quoted(prefix));
    REQUIRE_MESSAGE(r.exitCode == 0, db.filename().string() << ": " << r.output);
    Translated t{
        db.stem().string(), prefix.string() + ".prv", {}, {}, {}, db, prefix.string() + ".cfgs", {}, {}, {}};
    auto prv = readPrv(t.prv);
    for (const auto& e : prv.events)
        for (const auto& [type, value] : e.pairs) t.types.insert(type);
    for (const auto& c : prv.comms) t.tags.insert(c.tag);
    t.threadsPerTask = prv.threadsPerTask;
    for (const auto& label : readRowLevel(prefix.string() + ".row", "THREAD"))
        t.rows.push_back(rowKindOfLabel(label));
    t.typeLabels = pcfTypeLabels(prefix.string() + ".pcf");
    t.values = readPcfValues(prefix.string() + ".pcf");
    return t;
}

const std::vector<Translated>& translatedExports() {
    static const std::vector<Translated> all = [] {
        std::vector<Translated> out;
        auto dir = tempDir("cfgs_wxparaver");
        for (const auto& db : realExports()) out.push_back(translated(db, dir));
        return out;
    }();
    return all;
}

// The types a window filters on in this trace (EventTypeSymbolPicker::pick): a label the .pcf has replaces
// its number by every type so labelled, otherwise the number stays.
std::vector<std::uint32_t> pickedTypes(const CfgWindow& w, const Translated& t) {
    if (w.typeLabels.empty()) return w.types;
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < w.types.size(); ++i) {
        std::vector<std::uint32_t> found;
        for (const auto& [type, label] : t.typeLabels)
            if (labelMatches(label, w.typeLabels[i])) found.push_back(type);
        if (found.empty()) found.push_back(w.types[i]);
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

enum class Question { None, NoneOfTheEvents, SomeOfTheEvents };

std::string describe(Question q) {
    switch (q) {
    case Question::None:
        return "no question";
    case Question::NoneOfTheEvents:
        return "\"None of the events specified in the filter appear in the trace.\"";
    case Question::SomeOfTheEvents:
        return "\"Some of the events specified in the filter doesn't appear in the trace.\"";
    }
    return "";
}

Question questionOnLoad(const CfgFile& cfg, const Translated& t) {
    bool someExist = false, someMissing = false;
    for (const auto& w : cfg.windows) {
        if (w.keys.count("window_type") && w.keys.at("window_type") == "composed") continue;
        if (w.typeFunction == "All" || w.typeFunction == "None") someExist = true;
        auto types = pickedTypes(w, t);
        for (auto type : types) (t.types.count(type) ? someExist : someMissing) = true;
        if (w.typeFunction == "[x,y]" && types.size() >= 2) {
            auto lo = std::min(types[0], types[1]), hi = std::max(types[0], types[1]);
            auto it = t.types.lower_bound(lo);
            if (it != t.types.end() && *it <= hi) {
                someMissing = false;
                someExist = true;
            }
        }
    }
    if (!someExist) return Question::NoneOfTheEvents;
    return someMissing ? Question::SomeOfTheEvents : Question::None;
}

// Whether wxparaver finds an event of the window's filter types (pickSymbols for one window).
bool windowFindsEvents(const CfgWindow& w, const Translated& t) {
    auto types = pickedTypes(w, t);
    if (w.typeFunction == "[x,y]" && types.size() >= 2) {
        auto it = t.types.lower_bound(std::min(types[0], types[1]));
        return it != t.types.end() && *it <= std::max(types[0], types[1]);
    }
    return std::any_of(types.begin(), types.end(),
                       [&](std::uint32_t type) { return t.types.count(type) > 0; });
}

// What each cfg is for, and so what loading it may ask.
enum class Scope {
    EveryExport, // the GPU views: open without a question on every translated export
    OneKind,     // one optional kind (NCCL, graphs, copies, MPI, sync, GPU metrics...): where the trace lacks
                 // it wxparaver says none of its events appear; never "some"
    PapiCounters // pypop's modelfactors cfgs on PAPI counters, which nsys exports never have (kept unchanged)
};

Scope scopeOf(const std::string& cfg) {
    static const std::map<std::string, Scope> scopes = {
        {"model/device_activity.cfg", Scope::EveryExport},
        {"views/device_state.cfg", Scope::EveryExport},
        {"analysis/kernels_in_flight.cfg", Scope::EveryExport},
        {"analysis/kernels_queued.cfg", Scope::EveryExport},
        {"analysis/launches_in_transit.cfg", Scope::EveryExport},
        {"modelfactors/total_runtime.cfg", Scope::EveryExport},
        {"modelfactors/total_useful_computation.cfg", Scope::EveryExport},
        {"modelfactors/useful_instructions.cfg", Scope::PapiCounters},
        {"modelfactors/useful_cycles.cfg", Scope::PapiCounters},
    };
    auto it = scopes.find(cfg);
    return it == scopes.end() ? Scope::OneKind : it->second;
}

// gpueff's own cfgs (not pypop's, which are kept as POP analysts use them).
bool ours(const std::string& cfg) {
    return cfg.rfind("modelfactors/", 0) != 0;
}

// The colour each of our windows must open in: names in code colour (one colour per kernel, call, copy kind),
// counts and samples in a gradient.
const std::map<std::string, std::string>& intendedColour() {
    static const std::map<std::string, std::string> colours = {
        {"Compute kernels", "window_in_code_mode"},
        {"NCCL kernels", "window_in_code_mode"},
        {"CUDA graph launches", "window_in_code_mode"},
        {"Memory operations", "window_in_code_mode"},
        {"CUDA synchronization", "window_in_code_mode"},
        {"MPI calls", "window_in_code_mode"},
        {"Kernels", "window_in_code_mode"},
        {"Kernels in flight", "window_in_null_gradient_mode"},
        {"Kernels queued", "window_in_null_gradient_mode"},
        {"Launches in transit", "window_in_null_gradient_mode"},
        {"Tensor Active", "window_in_null_gradient_mode"},
    };
    return colours;
}

std::string key(const std::map<std::string, std::string>& keys, const std::string& k) {
    auto it = keys.find(k);
    return it == keys.end() ? "" : it->second;
}

// The screen the frames must fit: 1600x1000, wxparaver's main window 300 px wide at x = 0 (xwininfo under
// Xvfb: 300x600+0+0). Around a cfg's drawing area (window_width/height, Analyzer2D.Width/Height) wxparaver
// 4.11.4's histogram frames add their toolbar (64 px: 740x400 opens as a 740x464 frame) and a window manager
// its title bar (about 30 px) and borders.
constexpr int kFrameAbove = 100, kFrameAround = 20;
constexpr int kScreenWidth = 1600, kScreenHeight = 1000, kMainWindowWidth = 300;

// Whether the frame at (x, y) of that drawing size opens on the screen, right of the main window.
bool fitsScreen(const std::string& x, const std::string& y, const std::string& width,
                const std::string& height) {
    int l = std::stoi(x), t = std::stoi(y), w = std::stoi(width), h = std::stoi(height);
    return l >= kMainWindowWidth && t >= 0 && l + w + kFrameAround <= kScreenWidth &&
           t + h + kFrameAbove + kFrameAround <= kScreenHeight;
}

} // namespace

TEST_CASE("wxparaver: every cfg loads on every translated real export without the 'some events' question") {
    const auto& traces = translatedExports();
    REQUIRE(traces.size() == realExports().size());
    for (const auto& [name, path] : allCfgs()) {
        auto cfg = readCfg(path, name);
        REQUIRE_MESSAGE(!cfg.windows.empty(), name);
        auto scope = scopeOf(name);
        std::size_t applies = 0;
        for (const auto& t : traces) {
            CAPTURE(name);
            CAPTURE(t.name);
            for (const auto& w : cfg.windows) {
                // pick() refuses (and the window is dropped) when numbers and labels do not pair up.
                CHECK_MESSAGE((w.typeLabels.empty() || w.typeLabels.size() == w.types.size()), w.name);
                // A value label with several values asks "Some of the events ... have multiple instances".
                CHECK_MESSAGE(!w.hasValueLabels, w.name);
            }
            auto q = questionOnLoad(cfg, t);
            applies += q == Question::None;
            switch (scope) {
            case Scope::EveryExport:
                CHECK_MESSAGE(q == Question::None, "wxparaver asks " << describe(q));
                break;
            case Scope::OneKind:
                CHECK_MESSAGE(q != Question::SomeOfTheEvents, "wxparaver asks " << describe(q));
                break;
            case Scope::PapiCounters:
                // nsys exports have no PAPI counter, so the pypop cfg's counter window is "some" missing next
                // to its state window. gpueff modelfactors says so and skips the IPC factors.
                CHECK_MESSAGE(q == (t.types.count(42000050) || t.types.count(42000059)
                                        ? Question::None
                                        : Question::SomeOfTheEvents),
                              "wxparaver asks " << describe(q));
                break;
            }
        }
        if (scope == Scope::EveryExport) CHECK_MESSAGE(applies == traces.size(), name);
    }
}

TEST_CASE("wxparaver: the optional-kind cfgs are each whole on the exports that have their kind") {
    // Not vacuous: each cfg split off for an optional kind opens without a question somewhere in data/.
    const auto& traces = translatedExports();
    for (const char* name : {"model/nccl_kernels.cfg", "model/memory_operations.cfg",
                             "model/host_blocking.cfg", "model/mpi_calls.cfg"}) {
        auto cfg = readCfg(sourceDir() / "cfgs" / name, name);
        std::size_t applies = 0;
        for (const auto& t : traces) applies += questionOnLoad(cfg, t) == Question::None;
        CHECK_MESSAGE(applies > 0, name << " opens without a question on none of the real exports");
    }
}

TEST_CASE("wxparaver: the cfgs' look (colour modes, tiled frames, launch lines, histograms as numbers)") {
    // Our cfgs cascade: loaded together, no two frames of the catalogue open at the same place either.
    std::map<std::pair<std::string, std::string>, std::string> catalogue;
    for (const auto& [name, path] : allCfgs()) {
        CAPTURE(name);
        auto cfg = readCfg(path, name);
        // Each frame (timeline or histogram) opens where the cfg says: no two at the same place.
        std::set<std::pair<std::string, std::string>> positions;
        std::size_t frames = 0;
        for (const auto& w : cfg.windows) {
            CAPTURE(w.name);
            // Values CFGLoader refuses (the window is dropped) or reads as something else.
            CHECK(key(w.keys, "window_noncolor_mode") == "true"); // "false" is the function-line mode
            auto comm = key(w.keys, "window_comm_lines_enabled");
            CHECK((comm == "false" || comm == "true"));
            CHECK(key(w.keys, "window_object") ==
                  "appl { 1, { All } }"); // every row: no "0 objects" question
            if (key(w.keys, "window_open") != "false") {
                ++frames;
                positions.insert({key(w.keys, "window_position_x"), key(w.keys, "window_position_y")});
                CHECK(fitsScreen(key(w.keys, "window_position_x"), key(w.keys, "window_position_y"),
                                 key(w.keys, "window_width"), key(w.keys, "window_height")));
            }
            if (!ours(name)) continue;
            CHECK(comm == "false"); // launch lines paint a GPU view solid
            auto colour = intendedColour().find(w.name);
            REQUIRE_MESSAGE(colour != intendedColour().end(),
                            "no intended colour for this window in the test");
            CHECK(key(w.keys, "window_color_mode") == colour->second);
        }
        for (const auto& h : cfg.histograms) {
            CAPTURE(key(h.keys, "Analyzer2D.Name"));
            for (const char* flag :
                 {"Analyzer2D.HideCols", "Analyzer2D.ComputeGradient", "Analyzer2D.ShortHeaderLabels"})
                if (h.keys.count(flag)) CHECK((h.keys.at(flag) == "True" || h.keys.at(flag) == "False"));
            ++frames;
            positions.insert({key(h.keys, "Analyzer2D.X"), key(h.keys, "Analyzer2D.Y")});
            CHECK(fitsScreen(key(h.keys, "Analyzer2D.X"), key(h.keys, "Analyzer2D.Y"),
                             key(h.keys, "Analyzer2D.Width"), key(h.keys, "Analyzer2D.Height")));
            // Enabled: a colour grid without numbers (pypop's total_useful_computation opened so).
            CHECK(key(h.keys, "Analyzer2D.Zoom") == "Disabled");
            if (!ours(name)) continue;
            CHECK(key(h.keys, "Analyzer2D.HideCols") == "True"); // no empty columns between the values
            auto control = std::stoul(key(h.keys, "Analyzer2D.ControlWindow"));
            REQUIRE((control >= 1 && control <= cfg.windows.size()));
            const auto& cw = cfg.windows[control - 1];
            if (key(h.keys, "Analyzer2D.ComputeYScale") == "True") {
                // One column per value needs a code-coloured control window (HistogramProxy::compute2DScale).
                CHECK(key(cw.keys, "window_color_mode") == "window_in_code_mode");
            } else {
                // A count: one column per whole number from a fixed scale.
                CHECK(key(h.keys, "Analyzer2D.Delta") == "1.000000000000");
                CHECK(key(h.keys, "Analyzer2D.Minimum") == "0.000000000000");
            }
        }
        CHECK_MESSAGE(positions.size() == frames,
                      frames << " frames open at " << positions.size() << " places");
        if (ours(name))
            for (const auto& at : positions) {
                auto [it, fresh] = catalogue.emplace(at, name);
                CHECK_MESSAGE(fresh, "a frame opens where one of " << it->second << " does");
            }
    }
}

TEST_CASE("wxparaver: histograms by name get one column per name (values of a type span at most 10000)") {
    // HistogramProxy::compute2DScale gives a code-coloured control window one column per value only when its
    // values span at most 10000; hashed values (up to 2^31) were binned into ranges, dense per-trace values
    // are not.
    for (const auto& t : translatedExports()) {
        CAPTURE(t.name);
        for (std::uint32_t type : {63000006u, 63000007u, 63000008u, 63000000u}) {
            auto it = t.values.find(type);
            if (it == t.values.end() || it->second.empty()) continue;
            CAPTURE(type);
            CHECK(it->second.rbegin()->first - it->second.begin()->first <= 10000);
        }
    }
}

TEST_CASE(
    "evt_type_label picks types as Paraver: whole label, '*' matches any characters, nothing else special") {
    gpueff::paraver::TraceLabels labels;
    labels.eventTypes = {{9407, "Tensor Active [Throughput %]"},
                         {9423, "Tensor Active"},
                         {9405, "SMs Active [Throughput %]"},
                         {9430, "Tensor.Active"},
                         {9431, "a(b)"}};
    using Types = std::vector<std::uint32_t>;
    CHECK(labels.typesLabelled("Tensor Active*") == Types{9407, 9423});
    CHECK(labels.typesLabelled("Tensor Active") == Types{9423});                // exact without '*'
    CHECK(labels.typesLabelled("Tensor Active [Throughput %]") == Types{9407}); // brackets are literal
    CHECK(labels.typesLabelled("*Active [Throughput %]") == Types{9405, 9407});
    CHECK(labels.typesLabelled("Tensor?Active").empty()); // '?' and '.' are literal
    CHECK(labels.typesLabelled("Tensor.Active") == Types{9430});
    CHECK(labels.typesLabelled("a(b)") == Types{9431});
    CHECK(labels.typesLabelled("*").size() == 5);
    CHECK(labels.typesLabelled("Tensor").empty()); // the whole label, not a prefix
    CHECK(labels.typesLabelled("*Throughput").empty());
    // Many stars over a long label: no exponential backtracking.
    labels.eventTypes = {{1, std::string(5000, 'a') + "b"}};
    CHECK(labels.typesLabelled("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c").empty());
    CHECK(labels.typesLabelled("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b") == Types{1});
}

TEST_CASE(
    "gpueff reads a window as having no events exactly where wxparaver finds none of its filter types") {
    // The engine's missing-type handling (a window with none of its types reads 0, analyze skips the metric)
    // must agree with what wxparaver finds, ranges and label patterns included: mpi_calls has events on the
    // MPI export only, tensor_active nowhere in data/ (no export has GPU metrics).
    for (const auto& t : translatedExports()) {
        CAPTURE(t.name);
        auto trace = gpueff::semantic::LoadedTrace::load(t.prv);
        for (const auto& [name, path] : allCfgs()) {
            if (!ours(name)) continue;
            CAPTURE(name);
            auto cfg = readCfg(path, name);
            gpueff::semantic::WindowSet windows(gpueff::semantic::parseCfgText(readText(path), name),
                                                trace->context());
            REQUIRE(windows.size() == cfg.windows.size());
            for (std::size_t w = 0; w < cfg.windows.size(); ++w) {
                const auto& cw = cfg.windows[w];
                if (cw.typeFunction != "=" && cw.typeFunction != "[x,y]") continue;
                CAPTURE(cw.name);
                bool engineFinds = true;
                try {
                    windows.requireEvents(w);
                } catch (const std::exception&) {
                    engineFinds = false;
                }
                CHECK(engineFinds == windowFindsEvents(cw, t));
            }
        }
    }
}

// ---- The cfgs written beside a trace (PREFIX.cfgs/, jobs/TraceCfgs.h) ----

namespace {

// The rows each cfg of PREFIX.cfgs is about: GPU views the CUDA stream rows, Tensor Active the GPU-metrics
// rows, host views the CPU threads.
RowKind rowsOfCfg(const std::string& file) {
    if (file == "tensor_active.cfg") return RowKind::GpuMetrics;
    if (file == "host_blocking.cfg" || file == "mpi_calls.cfg") return RowKind::CpuThread;
    return RowKind::CudaStream;
}

struct Selection {
    std::vector<bool> tasks, threads;
};

// Paraver's row selection after a window's window_object lines (api/cfg.cpp WindowObject::parseLine and
// genericParseObjects): every row starts selected; a "task { appl, n, { ... } }" or "thread { appl, task, n,
// { ... } }" line sets the first n objects of its application or task (a line naming more objects than
// there are is skipped); at the window's own level an object is "1" or "0", at other levels "None" deselects
// and any other word selects. Each list must be written "{ a, b, c }", as the parser strips exactly one
// space around each item.
Selection selectedRows(const CfgWindow& w, const Translated& t) {
    const std::string level = key(w.keys, "window_level").empty() ? "thread" : key(w.keys, "window_level");
    std::size_t threads = 0;
    std::vector<std::size_t> firstThread;
    for (int n : t.threadsPerTask) {
        firstThread.push_back(threads);
        threads += static_cast<std::size_t>(n);
    }
    Selection sel{std::vector<bool>(t.threadsPerTask.size(), true), std::vector<bool>(threads, true)};
    for (const auto& line : w.objects) {
        auto space = line.find(' ');
        auto objectLevel = line.substr(0, space);
        auto outer = line.find('{'), inner = line.find('{', outer + 1), close = line.find('}', inner);
        REQUIRE_MESSAGE(
            (outer != std::string::npos && inner != std::string::npos && close != std::string::npos), line);
        std::vector<std::size_t> numbers;
        std::istringstream head(line.substr(outer + 1, inner - outer - 1));
        for (std::string n; std::getline(head, n, ',');)
            if (!trimmed(n).empty()) numbers.push_back(std::stoul(trimmed(n)));
        std::vector<std::string> items;
        std::istringstream list(line.substr(inner + 2, close - inner - 3));
        for (std::string item; std::getline(list, item, ',');) items.push_back(trimmed(item));
        std::string rewritten = "{ ";
        for (std::size_t i = 0; i < items.size(); ++i) rewritten += (i ? ", " : "") + items[i];
        CHECK_MESSAGE(line.substr(inner, close - inner + 1) == rewritten + " }", line);
        auto on = [&](const std::string& item) {
            if (objectLevel != level) return item != "None";
            CHECK_MESSAGE((item == "1" || item == "0"), line); // anything else fails the line
            return item == "1";
        };
        if (objectLevel == "task") {
            REQUIRE(numbers.size() == 2);
            CHECK(numbers[1] == items.size());
            if (numbers[0] != 0 || numbers[1] > sel.tasks.size()) continue;
            for (std::size_t i = 0; i < items.size(); ++i) sel.tasks[i] = on(items[i]);
        } else if (objectLevel == "thread") {
            REQUIRE(numbers.size() == 3);
            CHECK(numbers[2] == items.size());
            if (numbers[0] != 0 || numbers[1] >= sel.tasks.size() ||
                numbers[2] > static_cast<std::size_t>(t.threadsPerTask[numbers[1]]))
                continue;
            for (std::size_t i = 0; i < items.size(); ++i)
                sel.threads[firstThread[numbers[1]] + i] = on(items[i]);
        } else {
            CHECK_MESSAGE(objectLevel == "appl", line);
        }
    }
    return sel;
}

std::vector<std::size_t> indicesOf(const std::vector<bool>& on) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < on.size(); ++i)
        if (on[i]) out.push_back(i);
    return out;
}

// Analyzer2D.Objects: "All" or "3,4,5".
std::vector<std::size_t> histogramObjects(const std::string& text, std::size_t all) {
    std::vector<std::size_t> out;
    if (text == "All") {
        for (std::size_t i = 0; i < all; ++i) out.push_back(i);
        return out;
    }
    std::istringstream in(text);
    for (std::string n; std::getline(in, n, ',');) out.push_back(std::stoul(trimmed(n)));
    return out;
}

// Whether a cfg of cfgs/ is one the trace should get: it opens without a question, the trace has rows of
// its kind, and its windows counting messages find a line of a tag they keep.
bool shouldApply(const CfgFile& cfg, const std::string& file, const Translated& t) {
    if (questionOnLoad(cfg, t) != Question::None) return false;
    if (std::find(t.rows.begin(), t.rows.end(), rowsOfCfg(file)) == t.rows.end()) return false;
    for (const auto& w : cfg.windows) {
        if (w.threadFunction.find("Messages") == std::string::npos) continue;
        bool any = std::any_of(t.tags.begin(), t.tags.end(), [&](std::int64_t tag) {
            return w.tagFunction == "All" || std::find(w.tags.begin(), w.tags.end(), tag) != w.tags.end();
        });
        if (!any) return false;
    }
    return true;
}

// The keys of a window or histogram that say what it computes (all but frames and rows).
std::map<std::string, std::string> definitionKeys(std::map<std::string, std::string> keys) {
    for (const char* k :
         {"window_position_x", "window_position_y", "window_width", "window_height", "window_object",
          "Analyzer2D.X", "Analyzer2D.Y", "Analyzer2D.Width", "Analyzer2D.Height", "Analyzer2D.Objects"})
        keys.erase(k);
    return keys;
}

} // namespace

namespace {

// The cfgs written beside a translated trace: those that apply and no other, each asking nothing on load,
// showing its rows only, counting over them, its frames on the screen in a cascade.
void checkTraceCfgs(const Translated& t) {
    {
        CAPTURE(t.name);
        REQUIRE(std::filesystem::is_directory(t.cfgDir));
        std::set<std::string> written, expected;
        for (const auto& e : std::filesystem::directory_iterator(t.cfgDir))
            written.insert(e.path().filename());
        for (const auto& [name, path] : allCfgs())
            if (ours(name) && shouldApply(readCfg(path, name), path.filename(), t))
                expected.insert(path.filename());
        CHECK(written == expected);
        CHECK(written.count("device_activity.cfg") == 1); // every export has kernels
        std::set<std::pair<std::string, std::string>> positions;
        std::size_t frames = 0;
        int lastTop = -1;
        for (const auto& file : written) { // a std::set: in file-name order
            CAPTURE(file);
            auto cfg = readCfg(t.cfgDir / file, file);
            CHECK(questionOnLoad(cfg, t) == Question::None);
            // The definitions are cfgs/' own: only frames and rows differ.
            std::string generic;
            for (const auto& [name, path] : allCfgs())
                if (path.filename() == file) generic = name;
            auto original = readCfg(sourceDir() / "cfgs" / generic, generic);
            REQUIRE(original.windows.size() == cfg.windows.size());
            REQUIRE(original.histograms.size() == cfg.histograms.size());
            for (std::size_t i = 0; i < cfg.windows.size(); ++i)
                CHECK(definitionKeys(cfg.windows[i].keys) == definitionKeys(original.windows[i].keys));
            for (std::size_t i = 0; i < cfg.histograms.size(); ++i)
                CHECK(definitionKeys(cfg.histograms[i].keys) == definitionKeys(original.histograms[i].keys));

            std::vector<Selection> selections;
            const auto kind = rowsOfCfg(file);
            for (const auto& w : cfg.windows) {
                CAPTURE(w.name);
                selections.push_back(selectedRows(w, t));
                const auto& sel = selections.back();
                if (key(w.keys, "window_level") == "task") {
                    // A task is shown when it has rows of the kind.
                    std::vector<bool> tasks(t.threadsPerTask.size(), false);
                    std::size_t g = 0;
                    for (std::size_t task = 0; task < t.threadsPerTask.size(); ++task)
                        for (int i = 0; i < t.threadsPerTask[task]; ++i, ++g)
                            if (t.rows[g] == kind) tasks[task] = true;
                    CHECK(sel.tasks == tasks);
                } else {
                    CHECK(key(w.keys, "window_level") == "thread");
                    std::vector<bool> rows;
                    for (auto r : t.rows) rows.push_back(r == kind);
                    CHECK(sel.threads == rows);
                }
                if (key(w.keys, "window_open") == "false") continue;
                CHECK(fitsScreen(key(w.keys, "window_position_x"), key(w.keys, "window_position_y"),
                                 key(w.keys, "window_width"), key(w.keys, "window_height")));
                // A cascade in the order `T.cfgs/*.cfg` opens them: each frame below the one opened before.
                int y = std::stoi(key(w.keys, "window_position_y"));
                CHECK(y > lastTop);
                lastTop = y;
                positions.insert({key(w.keys, "window_position_x"), key(w.keys, "window_position_y")});
                ++frames;
            }
            for (const auto& h : cfg.histograms) {
                CHECK(key(h.keys, "Analyzer2D.Zoom") == "Disabled");
                CHECK(key(h.keys, "Analyzer2D.ShortHeaderLabels") == "True");
                CHECK(key(h.keys, "Analyzer2D.HideCols") == "True");
                // The histogram counts over the control window's rows only (no host row adds an idle line).
                auto control = std::stoul(key(h.keys, "Analyzer2D.ControlWindow")) - 1;
                REQUIRE(control < cfg.windows.size());
                bool taskLevel = key(cfg.windows[control].keys, "window_level") == "task";
                const auto& sel = selections[control];
                auto rows = indicesOf(taskLevel ? sel.tasks : sel.threads);
                CHECK(histogramObjects(key(h.keys, "Analyzer2D.Objects"),
                                       taskLevel ? sel.tasks.size() : sel.threads.size()) == rows);
                CHECK(fitsScreen(key(h.keys, "Analyzer2D.X"), key(h.keys, "Analyzer2D.Y"),
                                 key(h.keys, "Analyzer2D.Width"), key(h.keys, "Analyzer2D.Height")));
                positions.insert({key(h.keys, "Analyzer2D.X"), key(h.keys, "Analyzer2D.Y")});
                ++frames;
            }
        }
        CHECK_MESSAGE(positions.size() == frames,
                      frames << " frames open at " << positions.size() << " places");
    }
}

} // namespace

TEST_CASE("wxparaver: the cfgs beside each translated real export apply, select their rows, fit the screen") {
    for (const auto& t : translatedExports()) checkTraceCfgs(t);
}

TEST_CASE("wxparaver: GPU metrics and CUDA graphs get their cfgs, on their rows (synthetic exports)") {
    // What no real export has: GPU-metrics rows (Tensor Active) and graph launches
    // (--cuda-graph-trace=graph).
    auto dir = tempDir("cfgs_wxparaver_synthetic");
    for (std::string fixture : {"gpu_metrics", "cuda_graph_graph_mode"}) {
        CAPTURE(fixture);
        auto db = buildDatabase(sourceDir() / "data" / "synthetic" / (fixture + ".sql"),
                                dir / (fixture + ".sqlite"));
        auto t = translated(db, dir);
        checkTraceCfgs(t);
        auto wanted = fixture == "gpu_metrics" ? "tensor_active.cfg" : "cuda_graphs.cfg";
        CHECK_MESSAGE(std::filesystem::exists(t.cfgDir / wanted), wanted);
    }
}

TEST_CASE("wxparaver: kernel columns are headed by unique short names standing for the export's kernels") {
    for (const auto& t : translatedExports()) {
        CAPTURE(t.name);
        std::set<std::string> names;
        for (std::uint32_t type : {63000006u, 63000007u}) {
            auto it = t.values.find(type);
            if (it == t.values.end()) continue;
            std::set<std::string> headers;
            for (const auto& [value, label] : it->second) {
                if (value == 0) continue; // "End"
                auto header = shortHeader(label);
                CAPTURE(label);
                CHECK(header.find_first_of("[]") == std::string::npos);
                CHECK(header.size() <= 80); // a column a few hundred pixels wide at most
                CHECK_MESSAGE(headers.insert(header).second, "two columns headed " << header);
                names.insert(pcfKernelName(label));
            }
        }
        // Every name the .pcf stands for is a kernel of the export, and every kernel has its label.
        std::set<std::string> kernels;
        bool demangled =
            queryInt(t.export_, "SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') "
                                "WHERE name = 'demangledName'") > 0;
        for (const auto& row :
             query(t.export_, std::string("SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                          "k JOIN StringIds s ON s.id = k.") +
                                  (demangled ? "demangledName" : "shortName")))
            kernels.insert(row[0]);
        CHECK(names == kernels);
    }
}

TEST_CASE("wxparaver: analyze writes beside its trace the cfgs translate writes") {
    auto db = dataDir() / "nsys" / "saxpy_mpi_a100_rank0.sqlite";
    auto dir = tempDir("cfgs_wxparaver_analyze");
    auto r =
        run("'" + gpueffBinary().string() + "' analyze --quiet " + quoted(db) + " -o " + quoted(dir / "out"));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    const Translated* translated = nullptr;
    for (const auto& t : translatedExports())
        if (t.name == "saxpy_mpi_a100_rank0") translated = &t;
    REQUIRE(translated);
    std::set<std::string> fromAnalyze, fromTranslate;
    for (const auto& e : std::filesystem::directory_iterator(dir / "out" / "saxpy_mpi_a100_rank0.cfgs"))
        fromAnalyze.insert(e.path().filename().string() + "\n" + readText(e.path()));
    for (const auto& e : std::filesystem::directory_iterator(translated->cfgDir))
        fromTranslate.insert(e.path().filename().string() + "\n" + readText(e.path()));
    CHECK(fromAnalyze == fromTranslate);
    CHECK(fromAnalyze.size() >= 2);
}
