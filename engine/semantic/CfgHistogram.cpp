#include "engine/semantic/CfgHistogram.h"

#include "engine/common/Error.h"
#include "engine/common/Text.h"
#include "engine/semantic/HistogramStatistic.h"
#include "engine/semantic/WholeNumber.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace gpueff::semantic {

namespace {

bool sameIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

const std::map<std::string, SortCriterion>& sortCriteria() {
    static const std::map<std::string, SortCriterion> names = {
        {"Total", SortCriterion::Total},     {"Average", SortCriterion::Average},
        {"Maximum", SortCriterion::Maximum}, {"Minimum", SortCriterion::Minimum},
        {"Stdev", SortCriterion::Stdev},     {"Avg/Max", SortCriterion::AvgDivMax}};
    return names;
}

} // namespace

void HistogramReader::start(Cfg& cfg) {
    if (histogram_) finish(cfg);
    histogram_ = HistogramSpec{};
    histogram_->line = r_.line();
    keyLines_.clear();
}

bool HistogramReader::line(const std::string& text, std::size_t windowCount) {
    if (!histogram_) r_.fail("histogram property before '< NEW ANALYZER2D >'");
    auto colon = text.find(':');
    if (colon == std::string::npos) r_.fail("expected 'Analyzer2D.Key: value'");
    auto key = text.substr(0, colon);
    auto value = trim(text.substr(colon + 1));
    auto& h = *histogram_;
    // A value paramedir cannot parse makes it drop the histogram and stop reading the cfg; gpueff does the same,
    // loudly, so the cfg still gives its last window's timeline as paramedir's output does.
    double v = 0;
    auto numeric = [&](double& out) {
        const char* b = value.c_str();
        char* e = nullptr;
        out = std::strtod(b, &e);
        return e != b && trim(e).empty();
    };
    // A number paramedir reads (strtod takes "nan" and "inf" too): finite, else refused.
    auto finite = [&](double& out) {
        if (!numeric(out)) return false;
        if (!std::isfinite(out)) r_.badValue(key, "must be a finite number", value);
        keyLines_[key] = r_.line();
        return true;
    };
    // Paraver's histogram switches are the words True and False, nothing else.
    auto flag = [&](bool& out) {
        if (value != "True" && value != "False") return false;
        out = value == "True";
        return true;
    };
    // A window of the cfg, 1-based in the cfg and 0-based here; anything else is refused.
    auto window = [&] {
        return static_cast<int>(r_.wholeNumber(key, value, 1, windowCount,
                                               "must be a window of the cfg (1 to " +
                                                   std::to_string(windowCount) + ")")) -
               1;
    };
    bool ok = true;
    if (key == "Analyzer2D.Name") {
        h.name = r_.validName("histogram", value);
    } else if (key == "Analyzer2D.ControlWindow") {
        h.control = window();
    } else if (key == "Analyzer2D.DataWindow") {
        h.data = window();
    } else if (key == "Analyzer2D.3D_ControlWindow") {
        h.extra = window();
    } else if (key == "Analyzer2D.Statistic") {
        h.statistic = statistic(value);
    } else if (key == "Analyzer2D.HideCols") {
        ok = flag(h.hideColumns);
    } else if (key == "Analyzer2D.HorizVert") {
        ok = value == "Horizontal" || value == "Vertical";
        h.horizontal = value != "Vertical";
    } else if (key == "Analyzer2D.AnalysisLimits") {
        // Paraver knows three limits; any other word drops the histogram (as a bad number does).
        ok = value == "Alltrace" || value == "Allwindow" || value == "Region";
        if (ok) h.limits = value;
        keyLines_[key] = r_.line();
    } else if (key == "Analyzer2D.ComputeYScale") {
        ok = flag(h.computeYScale);
    } else if (key == "Analyzer2D.Minimum") {
        if ((ok = finite(v))) h.minimum = v;
    } else if (key == "Analyzer2D.Maximum") {
        if ((ok = finite(v))) h.maximum = v;
    } else if (key == "Analyzer2D.Delta") {
        if ((ok = numeric(v))) {
            if (!(std::isfinite(v) && v > 0)) r_.badValue(key, "must be a finite number > 0", value);
            h.delta = v;
            keyLines_[key] = r_.line();
        }
    } else if (key == "Analyzer2D.NumColumns") {
        // Paraver stores it whatever ComputeYScale and UseFixedDelta say; whether it is used is decided with
        // the scale (Histogram.cpp).
        if ((ok = numeric(v))) {
            auto n = wholeAs<std::size_t>(v);
            if (!n || *n < 1 || *n > kMaxHistogramColumns)
                r_.badValue(key,
                            "must be a whole number from 1 to " + std::to_string(kMaxHistogramColumns) +
                                " (gpueff's limit)",
                            value);
            h.numColumns = *n;
        }
    } else if (key == "Analyzer2D.UseFixedDelta") {
        ok = flag(h.useFixedDelta);
    } else if (key == "Analyzer2D.ShortHeaderLabels") {
        ok = flag(h.shortLabels);
    } else if (key == "Analyzer2D.SortCols") {
        ok = flag(h.sortColumns);
    } else if (key == "Analyzer2D.SortReverse") {
        ok = flag(h.sortReverse);
    } else if (key == "Analyzer2D.SortCriteria") {
        // "Custom" is a user's own order of the columns, which a cfg cannot carry: Paraver then leaves them
        // unsorted.
        auto it = sortCriteria().find(value);
        if (value == "Custom")
            h.sortColumns = false;
        else if ((ok = it != sortCriteria().end()))
            h.sortCriterion = it->second;
    } else if (key == "Analyzer2D.3D_Minimum") {
        if ((ok = finite(v))) h.extraMinimum = v;
    } else if (key == "Analyzer2D.3D_Maximum") {
        if ((ok = finite(v))) h.extraMaximum = v;
    } else if (key == "Analyzer2D.3D_Delta") {
        if ((ok = finite(v)) && !(v > 0)) r_.badValue(key, "must be a finite number > 0", value);
        if (ok) h.extraDelta = v;
    } else if (key == "Analyzer2D.Accumulator") {
        if (value != "Semantic") r_.fail("only the Semantic accumulator is supported");
    } else if (key == "Analyzer3D.ComputeYScale") {
        ok = flag(h.extraComputeScale);
    } else if (key == "Analyzer2D.Objects") {
        h.objects = objectList(key, value);
    } else if (!isParaverCfgKey(key)) {
        r_.warn("unknown histogram key '" + key + "' ignored (Paraver ignores it too)");
    }
    // The other keys Paraver knows are display settings (position, colours, gradient) and change no number.
    if (ok) return true;
    return drop(key, "'" + value + "' is not a value Paraver reads there");
}

// Analyzer2D.Statistic's row of the catalogue. paraver-kernel looks the name up exactly and uses what it
// finds without checking it (api/histogram.cpp HistogramProxy::pushbackStatistic ->
// KHistogram::isCommunicationStat on FunctionManagement's getFunctionNoClone, null for an unknown name):
// paramedir crashes on any other name, so gpueff refuses it here, naming the ones it could be.
const HistogramStatistic* HistogramReader::statistic(const std::string& value) {
    if (const auto* row = findHistogramStatistic(value)) return row;
    std::string names, hint;
    for (const auto& row : histogramStatisticCatalogue()) {
        names += (names.empty() ? "'" : ", '") + std::string(row.name) + "'";
        if (sameIgnoringCase(row.name, value))
            hint = "; '" + std::string(row.name) + "' differs only in case";
    }
    r_.badValue("Analyzer2D.Statistic",
                "must be one of Paraver's statistics, spelt exactly" + hint +
                    " (paramedir crashes on any other name): " + names,
                "'" + value + "'");
}

// "All" or "1,3": 0-based rows of the control window's level (rows past the last are ignored later, as
// Paraver does, once the trace is known).
std::optional<std::vector<std::size_t>> HistogramReader::objectList(const std::string& key,
                                                                    const std::string& value) {
    if (value == "All") return std::nullopt;
    std::vector<std::size_t> rows;
    std::stringstream in(value);
    std::string word;
    while (std::getline(in, word, ','))
        rows.push_back(r_.wholeNumber(key, trim(word), 0, kMaxObjectIndex,
                                      "must be All or 0-based row numbers separated by commas"));
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

bool HistogramReader::drop(const std::string& key, const std::string& why) {
    r_.warn("histogram '" + histogram_->name + "' dropped: " + key + " " + why +
            " (paramedir drops it too and writes the last window's timeline)");
    histogram_.reset();
    return false;
}

void HistogramReader::finish(Cfg& cfg) {
    if (!histogram_) return;
    auto& h = *histogram_;
    if (h.control < 0)
        throw Error(r_.path() + ":" + std::to_string(h.line) + ": histogram '" + h.name +
                    "' has no ControlWindow");
    if (h.data < 0) h.data = h.control;
    // Without the line paraver-kernel's statistic is the empty name: paramedir crashes (see statistic()).
    if (!h.statistic) {
        h.statistic = findHistogramStatistic("Time");
        r_.warn("histogram '" + h.name +
                    "' has no Analyzer2D.Statistic line: Time used; paramedir crashes without one",
                h.line);
    }
    if (h.statistic->kind == StatisticKind::Communication && h.extra >= 0)
        throw Error(r_.path() + ":" + std::to_string(h.line) + ": histogram '" + h.name +
                    "': communication statistics of a 3D histogram are not implemented by gpueff");
    // paramedir sets the analysed range only from this line and leaves it unset without one (its result is
    // then undefined): gpueff analyses the whole trace, and says so.
    if (!keyLines_.count("Analyzer2D.AnalysisLimits"))
        r_.warn("histogram '" + h.name +
                    "' has no Analyzer2D.AnalysisLimits line: analysed over the whole trace (Alltrace); paramedir "
                    "leaves the range unset there",
                h.line);
    // Paraver's loader: a scale neither computed nor given a number of columns has fixed-width columns.
    if (!h.computeYScale && !h.numColumns) h.useFixedDelta = true;
    if (!h.computeYScale) checkFixedScale(h);
    cfg.histogram = h;
    histogram_.reset();
}

std::size_t HistogramReader::lineOf(const char* key, const HistogramSpec& h) const {
    auto it = keyLines_.find(key);
    return it == keyLines_.end() ? h.line : it->second;
}

// A fixed scale must be a range with a number of columns gpueff can allocate (ComputeYScale takes its range
// from the data and at most 10001 columns, or NumColumns, checked where it is read).
void HistogramReader::checkFixedScale(const HistogramSpec& h) {
    if (h.maximum < h.minimum)
        r_.badValue("Analyzer2D.Maximum",
                    "must not be below Analyzer2D.Minimum (" + CfgReader::shortNumber(h.minimum) + ")",
                    CfgReader::shortNumber(h.maximum), lineOf("Analyzer2D.Maximum", h));
    if (!h.useFixedDelta) return;
    double columns = std::ceil((h.maximum - h.minimum) / h.delta);
    if (!(columns <= static_cast<double>(kMaxHistogramColumns)))
        r_.badValue("Analyzer2D.Delta",
                    "(Maximum - Minimum) / Delta gives more columns than gpueff's limit of " +
                        std::to_string(kMaxHistogramColumns) + " (Minimum " + CfgReader::shortNumber(h.minimum) +
                        ", Maximum " + CfgReader::shortNumber(h.maximum) + ")",
                    CfgReader::shortNumber(h.delta), lineOf("Analyzer2D.Delta", h));
}

} // namespace gpueff::semantic
