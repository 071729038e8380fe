#include "reports/SvgFrame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpueff::reports::svg {

namespace {

constexpr double kRightMargin = 24, kLegendRow = 18;
// Average advance of a character at font-size 11 in a sans-serif font: enough to lay out labels without
// measuring text (SVG cannot), erring wide.
constexpr double kCharWidth = 6.6;
constexpr std::size_t kLegendChars = 40;

// The key drawn before a legend label: a 12 px square for bars, a 28 px line (or a marker) otherwise.
double keyWidth(const LegendEntry& e) {
    return e.mark == Mark::Bar ? 18 : 34;
}

// Each line of a tick label below the first moves the x axis title and the legend down by this much.
constexpr double kTickLine = 12;

} // namespace

std::string escapeXml(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            // Control characters are not allowed in XML 1.0 at all.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
                out += ' ';
            else
                out += c;
        }
    }
    return out;
}

std::string shortLabel(const std::string& s, std::size_t max) {
    if (s.size() <= max || max < 2) return s;
    std::size_t cut = max - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut; // keep UTF-8 whole
    return s.substr(0, cut) + "\xE2\x80\xA6";
}

std::string coordinate(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", std::isfinite(v) ? v : 0.0);
    return b;
}

double roundStep(double span, int ticks) {
    if (!(span > 0) || !std::isfinite(span)) return 1;
    double raw = span / ticks, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * magnitude * (1 + 1e-9)) return m * magnitude;
    return 10 * magnitude;
}

std::string tickText(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", std::abs(v) < 1e-12 ? 0.0 : v);
    return b;
}

Figure::Figure(double plotWidth, double plotHeight, std::string title, std::string xTitle, std::string yTitle,
               double left)
    : left_(left), plotWidth_(plotWidth), plotHeight_(plotHeight), title_(std::move(title)),
      xTitle_(std::move(xTitle)), yTitle_(std::move(yTitle)) {
    // A clipped title is worse than a wider image.
    plotWidth_ = std::max(plotWidth_, 8.0 * static_cast<double>(title_.size()) + 40 - left_ - kRightMargin);
}

void Figure::yTicks(double lo, double hi, double step, const std::function<std::string(double)>& label) {
    // Reports are read tolerantly (compare runs on any document): an axis that overflowed to infinity
    // becomes [lo, lo + 1], and the ticks are counted, so that no value can make this loop endless.
    if (!std::isfinite(lo)) lo = 0;
    yLo_ = lo, yHi_ = hi > lo && std::isfinite(hi) ? hi : lo + 1;
    if (!(step > 0) || !std::isfinite(step)) step = yHi_ - yLo_;
    for (int i = 0; i <= 100; ++i) {
        double v = lo + step * i;
        if (v > yHi_ + step * 1e-6) break;
        double at = y(v);
        if (i > 0) line(left_, at, right(), at, "#dddddd");
        text(left_ - 6, at + 4, label(v), "end", 10);
    }
}

double Figure::leftFor(std::size_t chars) {
    // Labels at font-size 10 are about 0.9 of kCharWidth; 28 px for the y axis title and the gap.
    return std::max(kDefaultLeft, 0.9 * kCharWidth * static_cast<double>(chars) + 34);
}

void Figure::xTick(double x, const std::string& label, bool gridLine) {
    if (gridLine) line(x, top_, x, bottom(), "#eeeeee");
    line(x, bottom(), x, bottom() + 4, "#333333");
    int lines = 0;
    for (std::size_t from = 0; from <= label.size(); ++lines) {
        std::size_t end = std::min(label.find('\n', from), label.size());
        text(x, bottom() + 17 + kTickLine * lines, label.substr(from, end - from), "middle", 10);
        from = end + 1;
    }
    tickLines_ = std::max(tickLines_, lines);
}

void Figure::xTicks(double lo, double hi, double step, const std::function<std::string(double)>& label) {
    // As yTicks: a degenerate axis becomes [lo, lo + 1] and the ticks are counted.
    if (!std::isfinite(lo)) lo = 0;
    xLo_ = lo, xHi_ = hi > lo && std::isfinite(hi) ? hi : lo + 1;
    if (!(step > 0) || !std::isfinite(step)) step = xHi_ - xLo_;
    for (int i = 0; i <= 100; ++i) {
        double v = lo + step * i;
        if (v > xHi_ + step * 1e-6) break;
        xTick(x(v), label(v), i > 0);
    }
}

void Figure::yTick(double y, const std::string& label) {
    text(left_ - 6, y + 4, label, "end", 10);
}

void Figure::rect(double x, double y, double w, double h, const std::string& fill, double opacity) {
    body_ += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" width=\"" +
             coordinate(std::max(w, 0.0)) + "\" height=\"" + coordinate(std::max(h, 0.0)) + "\" fill=\"" +
             fill + "\"" + (opacity < 1 ? " fill-opacity=\"" + coordinate(opacity) + "\"" : "") + "/>\n";
}

void Figure::line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
                  bool dashed) {
    body_ += "<line x1=\"" + coordinate(x1) + "\" y1=\"" + coordinate(y1) + "\" x2=\"" + coordinate(x2) +
             "\" y2=\"" + coordinate(y2) + "\" stroke=\"" + stroke + "\" stroke-width=\"" +
             coordinate(width) + "\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
}

void Figure::polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke,
                      double width, bool dashed) {
    if (points.size() < 2) return;
    body_ += "<polyline fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + coordinate(width) + "\"" +
             (dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"";
    for (std::size_t i = 0; i < points.size(); ++i)
        body_ += (i ? " " : "") + coordinate(points[i].first) + "," + coordinate(points[i].second);
    body_ += "\"/>\n";
}

void Figure::marker(double x, double y, int shape, const std::string& colour, bool filled) {
    const std::string paint = filled ? "fill=\"" + colour + "\" stroke=\"" + colour + "\""
                                     : "fill=\"#ffffff\" stroke=\"" + colour + "\" stroke-width=\"1.5\"";
    auto polygon = [&](std::initializer_list<std::pair<double, double>> offsets) {
        std::string points;
        for (auto [dx, dy] : offsets) points += coordinate(x + dx) + "," + coordinate(y + dy) + " ";
        points.pop_back();
        body_ += "<polygon points=\"" + points + "\" " + paint + "/>\n";
    };
    switch (shape % 6) {
    case 0:
        body_ +=
            "<circle cx=\"" + coordinate(x) + "\" cy=\"" + coordinate(y) + "\" r=\"4\" " + paint + "/>\n";
        break;
    case 1:
        polygon({{-3.5, -3.5}, {3.5, -3.5}, {3.5, 3.5}, {-3.5, 3.5}});
        break;
    case 2:
        polygon({{0, -5}, {5, 0}, {0, 5}, {-5, 0}});
        break;
    case 3:
        polygon({{0, -5}, {4.5, 3.5}, {-4.5, 3.5}});
        break;
    case 4:
        polygon({{0, 5}, {4.5, -3.5}, {-4.5, -3.5}});
        break;
    default:
        polygon({{-1.5, -5},
                 {1.5, -5},
                 {1.5, -1.5},
                 {5, -1.5},
                 {5, 1.5},
                 {1.5, 1.5},
                 {1.5, 5},
                 {-1.5, 5},
                 {-1.5, 1.5},
                 {-5, 1.5},
                 {-5, -1.5},
                 {-1.5, -1.5}});
    }
}

void Figure::text(double x, double y, const std::string& s, const char* anchor, int size,
                  const std::string& fill) {
    body_ += "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" + anchor +
             "\" font-size=\"" + std::to_string(size) + "\"" +
             (fill.empty() ? "" : " fill=\"" + fill + "\"") + ">" + escapeXml(s) + "</text>\n";
}

std::string Figure::str(const std::vector<LegendEntry>& legend) const {
    const double width = left_ + plotWidth_ + kRightMargin;
    // Legend entries flow left to right below the x axis title, wrapping at the plot's right edge.
    struct Placed {
        double x, y;
        const LegendEntry* entry;
        std::string label;
    };
    std::vector<Placed> placed;
    const double below = kTickLine * (tickLines_ - 1); // the x tick labels' extra lines
    double lx = left_, ly = bottom() + 62 + below;
    for (const auto& e : legend) {
        std::string label = shortLabel(e.label, kLegendChars);
        double w = keyWidth(e) + kCharWidth * static_cast<double>(label.size()) + 16;
        if (lx > left_ && lx + w > right()) lx = left_, ly += kLegendRow;
        placed.push_back({lx, ly, &e, label});
        lx += w;
    }
    const double height = (placed.empty() ? bottom() + 46 + below : ly + 12);
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coordinate(width) +
                    "\" height=\"" + coordinate(height) + "\" viewBox=\"0 0 " + coordinate(width) + " " +
                    coordinate(height) + "\" font-family=\"sans-serif\">\n<title>" + escapeXml(title_) +
                    "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    s += "<text x=\"" + coordinate(width / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">" +
         escapeXml(title_) + "</text>\n";
    s += body_;
    s += "<rect x=\"" + coordinate(left_) + "\" y=\"" + coordinate(top_) + "\" width=\"" +
         coordinate(plotWidth_) + "\" height=\"" + coordinate(plotHeight_) +
         "\" fill=\"none\" stroke=\"#333333\"/>\n";
    s += "<text x=\"" + coordinate(left_ + plotWidth_ / 2) + "\" y=\"" + coordinate(bottom() + 38 + below) +
         "\" text-anchor=\"middle\" font-size=\"12\">" + escapeXml(xTitle_) + "</text>\n";
    const std::string mid = coordinate(top_ + plotHeight_ / 2);
    s += "<text x=\"18\" y=\"" + mid +
         "\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 " + mid + ")\">" +
         escapeXml(yTitle_) + "</text>\n";
    Figure keys(*this);
    keys.body_.clear();
    for (const auto& p : placed) {
        const auto& e = *p.entry;
        if (e.mark == Mark::Bar)
            keys.rect(p.x, p.y - 9, 12, 12, e.colour, e.opacity);
        else if (e.mark != Mark::Point)
            keys.line(p.x, p.y - 3, p.x + 28, p.y - 3, e.colour, 2, e.mark == Mark::DashedLine);
        if (e.shape >= 0) keys.marker(p.x + 14, p.y - 3, e.shape, e.colour);
        keys.text(p.x + keyWidth(e), p.y + 1, p.label, "start", 11);
    }
    return s + keys.body_ + "</svg>\n";
}

} // namespace gpueff::reports::svg
