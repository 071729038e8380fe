// The least-squares line of compare's scaling fits (reports/ScalingFit.cpp, Eigen's QR) against the closed
// form of simple linear regression written here: b = Sxy / Sxx, a = mean(y) - b mean(x).
#include "reports/ScalingFit.h"

#include <cmath>
#include <doctest/doctest.h>
#include <vector>

using gpueff::reports::fitLine;

namespace {

struct ClosedForm {
    double a, b, rms;
};

ClosedForm closedForm(const std::vector<double>& x, const std::vector<double>& y) {
    double n = static_cast<double>(x.size()), mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
    double b = sxy / sxx, a = my - b * mx, ssr = 0;
    for (std::size_t i = 0; i < x.size(); ++i) ssr += (y[i] - a - b * x[i]) * (y[i] - a - b * x[i]);
    return {a, b, std::sqrt(ssr / n)};
}

} // namespace

TEST_CASE("scaling fit: points on a line give its coefficients and no residual") {
    // y = 0.95 - 0.05 x at x = log2 of 1, 2, 4, 8, 16 devices.
    std::vector<double> x{0, 1, 2, 3, 4}, y;
    for (double v : x) y.push_back(0.95 - 0.05 * v);
    auto fit = fitLine(x, y);
    REQUIRE(fit);
    CHECK(fit->intercept == doctest::Approx(0.95).epsilon(1e-14));
    CHECK(fit->slope == doctest::Approx(-0.05).epsilon(1e-13));
    CHECK(fit->rmsResidual < 1e-15);
    CHECK(fit->points == 5);
    CHECK(fit->at(5) == doctest::Approx(0.70).epsilon(1e-13));
    // Two points: the line through them.
    auto two = fitLine({1, 3}, {2, 8});
    REQUIRE(two);
    CHECK(two->slope == doctest::Approx(3));
    CHECK(two->intercept == doctest::Approx(-1));
}

TEST_CASE("scaling fit: noisy points give the closed-form least-squares line and residual") {
    std::vector<double> x{0, 1, 2, 3, 5, 5}, y{0.97, 0.91, 0.88, 0.80, 0.71, 0.74};
    auto expected = closedForm(x, y);
    auto fit = fitLine(x, y);
    REQUIRE(fit);
    CHECK(fit->intercept == doctest::Approx(expected.a).epsilon(1e-12));
    CHECK(fit->slope == doctest::Approx(expected.b).epsilon(1e-12));
    CHECK(fit->rmsResidual == doctest::Approx(expected.rms).epsilon(1e-10));
    CHECK(fit->rmsResidual > 0.005); // really noisy: the residual is not zero
    // Far from 0 (log2 of large counts): the QR keeps the precision the normal equations would lose.
    std::vector<double> far{20, 21, 22, 23};
    std::vector<double> yf{0.5, 0.47, 0.45, 0.41};
    auto e = closedForm(far, yf);
    auto f = fitLine(far, yf);
    REQUIRE(f);
    CHECK(f->slope == doctest::Approx(e.b).epsilon(1e-9));
    CHECK(f->intercept == doctest::Approx(e.a).epsilon(1e-9));
}

TEST_CASE("scaling fit: undetermined or bad input gives no line") {
    CHECK_FALSE(fitLine({}, {}));
    CHECK_FALSE(fitLine({1}, {0.5}));
    CHECK_FALSE(fitLine({2, 2, 2}, {0.5, 0.6, 0.7})); // one distinct x: no slope
    CHECK_FALSE(fitLine({1, 2}, {0.5}));
    CHECK_FALSE(fitLine({1, 2, 3}, {0.5, NAN, 0.7}));
    CHECK_FALSE(fitLine({1, INFINITY, 3}, {0.5, 0.6, 0.7}));
}
