#pragma once
// The one plot frame of every chart of report.md and compare.md: a <title>, a title line, axis titles, ticks
// at round values, the legend below the x axis inside the image, the Okabe-Ito palette, long names
// shortened. Plain SVG elements only (no scripts, no CSS), so that GitHub shows the file as an image.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::reports::svg {

// Okabe-Ito: told apart with the common colour-vision deficiencies. Run colours, in this order.
inline constexpr const char* kRunColours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                              "#56B4E9", "#D55E00", "#F0E442", "#000000"};
inline constexpr std::size_t kRunColourCount = std::size(kRunColours);
// The device model's factors (parallel efficiency, load balance, communication, orchestration), alike in the
// report's iteration chart and the comparison's scaling chart.
inline constexpr const char* kFactorColours[] = {"#000000", "#0072B2", "#E69F00", "#009E73"};

// Escapes text for XML content and attribute values (kernel names hold < > & and quotes).
std::string escapeXml(std::string_view text);
// `s` cut to `max` bytes, the last character "…", UTF-8 sequences kept whole.
std::string shortLabel(const std::string& s, std::size_t max);

// "%.1f": coordinates to a tenth of a pixel.
std::string coordinate(double v);
// A round step (1, 2 or 5 x 10^k) giving about `ticks` ticks over [0, span].
double roundStep(double span, int ticks);
// A tick value without trailing zeros ("0.5", "25", "1200").
std::string tickText(double v);

enum class Mark { Bar, Line, DashedLine, Point };

struct LegendEntry {
    std::string label, colour;
    Mark mark = Mark::Bar;
    int shape = -1; // a point marker drawn on the line (marker()), or none
    double opacity = 1;
};

class Figure {
public:
    // The plot area is plotWidth x plotHeight; margins hold the title, tick labels, axis titles and legend.
    // `left` is the margin for the y tick labels and the y axis title (wider for category labels).
    Figure(double plotWidth, double plotHeight, std::string title, std::string xTitle, std::string yTitle,
           double left = kDefaultLeft);
    static constexpr double kDefaultLeft = 72;
    // The left margin that holds category labels of up to `chars` characters at font-size 10.
    static double leftFor(std::size_t chars);

    double left() const { return left_; }
    double top() const { return top_; }
    double plotWidth() const { return plotWidth_; }
    double plotHeight() const { return plotHeight_; }
    double bottom() const { return top_ + plotHeight_; }
    double right() const { return left_ + plotWidth_; }

    // A horizontal grid line and label at each tick lo, lo + step, ... <= hi; y maps [lo, hi] to the area.
    void yTicks(double lo, double hi, double step, const std::function<std::string(double)>& label);
    double y(double value) const { return bottom() - plotHeight_ * (value - yLo_) / (yHi_ - yLo_); }
    // A tick under the x axis; a label with '\n' is drawn on two or more lines (the axis title and the
    // legend move down to make room).
    void xTick(double x, const std::string& label, bool gridLine = false);
    // A value axis along x (horizontal bars): a vertical grid line and a label under the axis at each tick.
    void xTicks(double lo, double hi, double step, const std::function<std::string(double)>& label);
    double x(double value) const { return left_ + plotWidth_ * (value - xLo_) / (xHi_ - xLo_); }
    // A category label left of the plot area, its middle at y.
    void yTick(double y, const std::string& label);

    void rect(double x, double y, double w, double h, const std::string& fill, double opacity = 1);
    void line(double x1, double y1, double x2, double y2, const std::string& stroke, double width = 1,
              bool dashed = false);
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke,
                  double width, bool dashed);
    // Shapes 0..5: circle, square, diamond, triangle up, triangle down, plus; filled or hollow.
    void marker(double x, double y, int shape, const std::string& colour, bool filled = true);
    void text(double x, double y, const std::string& s, const char* anchor, int size = 11,
              const std::string& fill = "");

    std::string str(const std::vector<LegendEntry>& legend) const;

private:
    double left_, top_ = 44, plotWidth_, plotHeight_, yLo_ = 0, yHi_ = 1, xLo_ = 0, xHi_ = 1;
    int tickLines_ = 1; // lines of the tallest x tick label
    std::string title_, xTitle_, yTitle_, body_;
};

} // namespace gpueff::reports::svg
