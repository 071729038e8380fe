#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::semantic {

struct HistogramStatistic; // a row of the catalogue of engine/semantic/HistogramStatistic.h

// Paraver's object levels; the order is Paraver's (a "finer" level compares greater within each tree).
enum class Level { Workload, Application, Task, Thread, System, Node, Cpu };
const char* levelName(Level level); // "THREAD", "TASK", ... as in .row files and labels

// Time units a window reports durations in.
enum class Unit { Nanoseconds, Microseconds, Milliseconds, Seconds, Minutes, Hours, Days };

// A semantic function as a cfg names it, with the parameters given by window_semantic_module (empty:
// the function's defaults).
struct FunctionRef {
    std::string name;
    std::vector<std::vector<double>> params;
};

// window_filter_module and the filter functions of window_selected_functions.
struct FilterSpec {
    bool logical = true, physical = false;
    bool fromToAnd = true, tagSizeAnd = true, typeValueAnd = true;
    std::string fromFunction = "All", toFunction = "All", tagFunction = "All", sizeFunction = "All",
                bandwidthFunction = "All", typeFunction = "All", valueFunction = "All";
    std::vector<double> from, to, tags, sizes, bandwidths, values;
    std::vector<std::uint32_t> types;
    std::vector<std::string> typeLabels, valueLabels;
};

struct WindowSpec {
    std::string name;
    std::size_t line = 0; // where its definition starts
    bool derived = false;
    Level level = Level::Thread;
    Unit unit = Unit::Microseconds; // Paraver sets microseconds when it makes a window (WindowType::parseLine)
    std::map<std::string, FunctionRef> functions; // "thread", "task", "compose_thread", "topcompose1", ...
    // extratopcompose1 entries, in order: compose functions stacked on top of topcompose1, each on the one
    // before (what histograms and derived windows read).
    std::vector<FunctionRef> extraTopCompose;
    std::size_t extraParamsAssigned = 0; // Paraver's counter: the next extra compose a parameter goes to
    FilterSpec filter;
    std::string operation;     // derived windows
    int parents[2] = {-1, -1}; // 0-based window indices
    double factors[2] = {1.0, 1.0};
    int shifts[2] = {0, 0}; // window_shifts, in intervals
    double beginRelative = 0.0, endRelative = 1.0;
    // window_begin_time / window_stop_time in trace units; the later of a window's absolute and relative
    // keys wins, as each sets the same property in Paraver.
    std::optional<double> beginAbsolute, stopAbsolute;
    // window_zoom_objects FIRST LAST: the rows (0-based, each past the last row reads as the last) a histogram
    // whose control window this is computes; a timeline dump lists every row whatever it says (paramedir's).
    std::optional<std::pair<std::size_t, std::size_t>> zoomRows;
    bool codeColor = true;     // Paraver's default colour mode; decides the column scale of ComputeYScale
    bool functionLine = false; // window_noncolor_mode false: drawn as a function line, never in code colour
};

// gpueff's cap on a histogram's columns (NumColumns, or (Maximum - Minimum) / Delta): Paraver has none and
// allocates whatever the cfg asks for; 100,000 columns is far beyond any readable table, and the cells of
// every row are allocated up front.
inline constexpr std::size_t kMaxHistogramColumns = 100'000;

// Analyzer2D.SortCriteria: the column totals Paraver sorts the columns by (SortCols).
enum class SortCriterion { Total, Average, Maximum, Minimum, Stdev, AvgDivMax };

struct HistogramSpec {
    std::string name;
    std::size_t line = 0;
    int control = -1, data = -1, extra = -1; // 0-based window indices
    // Analyzer2D.Statistic's row of the catalogue, resolved when the cfg is read (never null in a read cfg:
    // "Time" when the cfg has no Statistic line).
    const HistogramStatistic* statistic = nullptr;
    bool computeYScale = false;
    double minimum = 0, maximum = 0, delta = 1;
    std::optional<std::size_t> numColumns; // 1 .. kMaxHistogramColumns
    // Analyzer2D.UseFixedDelta: the columns are Delta wide, whatever NumColumns says. Paraver also fixes the
    // delta when the scale is not computed and no NumColumns line was read (finishHistogram).
    bool useFixedDelta = false;
    double extraMinimum = 0, extraMaximum = 0, extraDelta = 1;
    bool extraComputeScale = false; // Analyzer3D.ComputeYScale
    bool hideColumns = false;
    bool horizontal = true;
    // Analyzer2D.ShortHeaderLabels: an event-value column's label without its "[...]" part. On unless the
    // cfg says False (ParaverConfig's default, which paramedir uses).
    bool shortLabels = true;
    // Analyzer2D.SortCols / SortCriteria / SortReverse: columns ordered by a column total, largest first
    // (SortReverse: smallest first); SortReverse without SortCols reverses the value order.
    bool sortColumns = false, sortReverse = false;
    SortCriterion sortCriterion = SortCriterion::Average;
    std::string limits = "Alltrace";
    std::optional<std::vector<std::size_t>> objects; // Analyzer2D.Objects: 0-based rows, sorted; none = all
};

struct Cfg {
    std::string path;
    std::string name; // file name without ".cfg"
    std::vector<WindowSpec> windows;
    std::optional<HistogramSpec> histogram; // paramedir uses the last one
    std::vector<std::string> warnings;      // things paramedir also tolerates (a histogram it drops)
};

// Parses a ConfigFile 3.x cfg. Malformed lines and keys that change results but are not implemented
// throw gpueff::Error naming the file and line; layout-only keys (positions, colours) are ignored. Every
// number that changes a result is checked here, before any arithmetic: finite, in range, whole where it is
// a count or an index ("a.cfg:12: Analyzer2D.Delta: must be a finite number > 0, got nan").
Cfg parseCfg(const std::filesystem::path& path);
// The same from text held in memory (cfgs compiled into the binary); `name` stands for the path in errors.
Cfg parseCfgText(const std::string& text, const std::string& name);

} // namespace gpueff::semantic
