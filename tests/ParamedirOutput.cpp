#include "ParamedirOutput.h"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

namespace testsupport {

std::vector<std::string> fileLines(const std::filesystem::path& p) {
    std::ifstream in(p);
    REQUIRE_MESSAGE(in.good(), p.string());
    std::vector<std::string> out;
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

std::vector<std::string> tabFields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    std::string f;
    while (std::getline(s, f, '\t')) out.push_back(f);
    return out;
}

namespace {

bool number(const std::string& text, double& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end && *end == '\0';
}

// Two lines of the same layout: every field equal, numbers within `relative` of paramedir's.
bool sameLine(const std::string& ours, const std::string& theirs, double relative) {
    if (relative == 0.0) return ours == theirs;
    auto a = tabFields(ours), b = tabFields(theirs);
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        double x = 0, y = 0;
        if (number(a[i], x) && number(b[i], y) && !std::isnan(x) && !std::isnan(y)) {
            if (std::fabs(x - y) > relative * std::fabs(y)) return false;
        } else if (a[i] != b[i]) {
            return false;
        }
    }
    return true;
}

} // namespace

void compareHistogram(const std::filesystem::path& ours, const std::filesystem::path& expected,
                      double relative, bool stdevFromRows) {
    auto a = fileLines(ours), b = fileLines(expected);
    REQUIRE_MESSAGE(a.size() == b.size(), ours.string());
    std::vector<std::vector<double>> columns; // row values per column, for the independent StDev
    std::vector<double> averages;
    for (std::size_t i = 0; i < a.size(); ++i) {
        auto fa = tabFields(a[i]);
        if (i == 0) { // the column labels, as paramedir writes them
            CHECK_MESSAGE(a[0] == b[0], ours.string() << " column labels\n  ours:   " << a[0].substr(0, 300)
                                                      << "\n  theirs: " << b[0].substr(0, 300));
            continue;
        }
        if (fa.empty() || fa[0] != "StDev") {
            CHECK_MESSAGE(sameLine(a[i], b[i], relative),
                          ours.string() << " line " << i + 1 << "\n  ours:   " << a[i].substr(0, 200)
                                        << "\n  theirs: " << b[i].substr(0, 200));
            // Rows are the lines between the header and the blank line before the totals.
            bool row = i > 0 && !fa.empty() && fa[0] != "Total" && fa[0] != "Average" && fa[0] != "Maximum" &&
                       fa[0] != "Minimum" && fa[0] != "Avg/Max";
            if (row)
                for (std::size_t c = 1; c < fa.size(); ++c) {
                    if (columns.size() < c) columns.resize(c);
                    double v = 0;
                    if (number(fa[c], v)) columns[c - 1].push_back(v);
                }
            if (!fa.empty() && fa[0] == "Average")
                for (std::size_t c = 1; c < fa.size(); ++c) averages.push_back(std::stod(fa[c]));
            continue;
        }
        auto fb = tabFields(b[i]);
        REQUIRE(fa.size() == fb.size());
        for (std::size_t c = 1; c < fa.size(); ++c) {
            double ours_ = std::stod(fa[c]), theirs = std::stod(fb[c]);
            if (std::isnan(ours_) || std::isnan(theirs)) {
                CHECK_MESSAGE(fa[c] == fb[c], ours.string() << " StDev column " << c);
                continue;
            }
            double scale = std::fabs(averages.at(c - 1));
            CHECK_MESSAGE(std::fabs(ours_ - theirs) <= 1e-9 * scale + 1e-6, ours.string());
            if (!stdevFromRows) continue;
            const auto& v = columns.at(c - 1);
            // Paramedir's totals skip empty cells; a row printed with 0 may be one, so judge ours against
            // the deviation of the non-zero rows or of all rows, whichever the Average matches.
            std::vector<double> nonZero;
            for (auto x : v)
                if (x != 0) nonZero.push_back(x);
            auto deviation = [](const std::vector<double>& xs) {
                double mean = 0, dev = 0;
                for (auto x : xs) mean += x / static_cast<double>(xs.size());
                for (auto x : xs) dev += (x - mean) * (x - mean) / static_cast<double>(xs.size());
                return std::sqrt(dev);
            };
            double all = v.empty() ? 0 : deviation(v), some = nonZero.empty() ? 0 : deviation(nonZero);
            double tolerance = 1e-9 * scale + 1e-6;
            CHECK_MESSAGE((std::fabs(ours_ - all) <= tolerance || std::fabs(ours_ - some) <= tolerance),
                          ours.string() << " StDev column " << c);
        }
    }
}

void compareTimeline(const std::filesystem::path& ours, const std::filesystem::path& expected,
                     double relative) {
    auto a = fileLines(ours), b = fileLines(expected);
    REQUIRE_MESSAGE(a.size() == b.size(), ours.string());
    for (std::size_t i = 0; i < a.size(); ++i)
        CHECK_MESSAGE(sameLine(a[i], b[i], relative), ours.string() << " line " << i + 1);
}

} // namespace testsupport
