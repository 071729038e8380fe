#include "engine/semantic/CfgReader.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
#include "engine/common/Utf8.h"
#include "engine/semantic/WholeNumber.h"

#include <cmath>
#include <cstdlib>
#include <set>

namespace gpueff::semantic {

void CfgReader::fail(const std::string& why) const {
    throw Error(path_ + ":" + std::to_string(line_) + ": " + why + ": " + printableExcerpt(lineText_, 160));
}

void CfgReader::badValue(const std::string& key, const std::string& what, const std::string& given,
                         std::size_t line) const {
    throw Error(path_ + ":" + std::to_string(line ? line : line_) + ": " + key + ": " + what + ", got " +
                printableExcerpt(given, 60));
}

void CfgReader::warn(const std::string& what, std::size_t line) const {
    warnings_.push_back(path_ + ":" + std::to_string(line ? line : line_) + ": " + what);
}

std::string CfgReader::validName(const std::string& what, const std::string& name) const {
    if (isValidUtf8(name)) return name;
    warn(what + " name '" + printableExcerpt(name, 60) + "' is not UTF-8: its ill-formed bytes are written as U+FFFD");
    return repairUtf8(name);
}

std::string CfgReader::shortNumber(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

double CfgReader::number(const std::string& key, const std::string& text) const {
    const char* b = text.c_str();
    char* e = nullptr;
    double v = std::strtod(b, &e);
    if (e == b || trim(e) != "") badValue(key, "must be a number", "'" + text + "'");
    return v;
}

double CfgReader::finiteNumber(const std::string& key, const std::string& text) const {
    double v = number(key, text);
    if (!std::isfinite(v)) badValue(key, "must be a finite number", text);
    return v;
}

std::size_t CfgReader::wholeNumber(const std::string& key, const std::string& text, std::size_t lo,
                                   std::size_t hi, const std::string& what) const {
    double v = number(key, text);
    auto n = wholeAs<std::size_t>(v);
    if (!n || *n < lo || *n > hi) badValue(key, what, text);
    return *n;
}

bool CfgReader::boolean(const std::string& text) const {
    if (text == "true" || text == "True") return true;
    if (text == "false" || text == "False") return false;
    fail("'" + text + "' is not true or false");
}

std::size_t CfgReader::wordsLeft(std::istringstream& in) {
    auto position = in.tellg();
    std::size_t n = 0;
    std::string word;
    while (in >> word) ++n;
    in.clear();
    in.seekg(position);
    return n;
}

bool isParaverCfgKey(const std::string& key) {
    // paraver-kernel 4.11's CFGLoader tag table (api/cfg.cpp loadMap), the header keys it reads before it,
    // and `window_id`, which Paraver's own older cfgs carry and its loader skips.
    static const std::set<std::string> keys = {
        "ConfigFile.Version", "ConfigFile.NumWindows", "ConfigFile.BeginDescription", "ConfigFile.EndDescription",
        "version", "number_of_windows", "begin_description", "end_description", "CFG4D_ENABLED", "cfg4d",
        "cfg4dlink", "cfg4dparam", "cfg4dstatistic", "window_id",
        // windows
        "window_name", "window_type", "window_factors", "window_shifts", "window_position_x", "window_position_y",
        "window_width", "window_height", "window_comm_lines_enabled", "window_flags_enabled",
        "window_noncolor_mode", "window_units", "window_color_mode", "window_gradient_function",
        "window_custom_color_enabled", "window_custom_color_palette", "window_semantic_scale_min_at_zero",
        "window_operation", "window_maximum_y", "window_minimum_y", "window_compute_y_max", "window_level",
        "window_scale_relative", "window_end_time_relative", "window_object", "window_identifiers",
        "window_zoom_objects", "window_begin_time", "window_stop_time", "window_end_time",
        "window_begin_time_relative", "window_number_of_row", "window_selected_functions",
        "window_semantic_module", "window_compose_functions", "window_filter_module", "window_logical_filtered",
        "window_physical_filtered", "window_intracomms_enabled", "window_intercomms_enabled",
        "window_comm_fromto", "window_comm_tagsize", "window_comm_typeval", "window_open", "window_drawmode",
        "window_drawmode_rows", "window_pixel_size", "window_labels_to_draw", "window_object_axis_position",
        "window_punctual_color_window", "window_synchronize",
        // histograms
        "Analyzer2D.Name", "Analyzer2D.X", "Analyzer2D.Y", "Analyzer2D.Width", "Analyzer2D.Height",
        "Analyzer2D.ControlWindow", "Analyzer2D.DataWindow", "Analyzer2D.Statistic", "Analyzer2D.CalculateAll",
        "Analyzer2D.HideCols", "Analyzer2D.HorizVert", "Analyzer2D.Color", "Analyzer2D.SemanticColor",
        "Analyzer2D.Zoom", "Analyzer2D.Accumulator", "Analyzer2D.AccumulateByControlWindow",
        "Analyzer2D.SortCols", "Analyzer2D.SortCriteria", "Analyzer2D.SortReverse", "Analyzer2D.Parameters",
        "Analyzer2D.AnalysisLimits", "Analyzer2D.RelativeTime", "Analyzer2D.ComputeYScale",
        "Analyzer2D.ComputeYScaleZero", "Analyzer2D.Minimum", "Analyzer2D.Maximum", "Analyzer2D.Delta",
        "Analyzer2D.UseCustomDelta", "Analyzer2D.UseFixedDelta", "Analyzer2D.NumColumns",
        "Analyzer2D.ComputeGradient", "Analyzer2D.MinimumGradient", "Analyzer2D.MaximumGradient",
        "Analyzer2D.PixelSize", "Analyzer2D.CodeColor", "Analyzer2D.ColorMode", "Analyzer2D.ShowOnlyTotals",
        "Analyzer2D.ShortHeaderLabels", "Analyzer2D.Synchronize", "Analyzer2D.DrawModeColumns",
        "Analyzer2D.DrawModeObjects", "Analyzer2D.Objects", "Analyzer2D.3D_ControlWindow",
        "Analyzer3D.ComputeYScale", "Analyzer2D.3D_Minimum", "Analyzer2D.3D_Maximum", "Analyzer2D.3D_Delta",
        "Analyzer2D.3D_FixedValue"};
    return keys.count(key) != 0;
}

} // namespace gpueff::semantic
