// The per-device charts of report.md: grouped bars (SvgBars.h) of histograms over counts and of the device
// model's factors, stacked rows of the device states.
#include "reports/SvgPlot.h"

#include "reports/CountBins.h"
#include "reports/SvgBars.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gpueff::reports::svg {

using namespace detail;

namespace {

// Per device (by label), the shares of a histogram over counts; devices without any are left out.
using DeviceShares = std::vector<std::pair<std::string, std::map<long long, double>>>;

// The time at each count as shares of `total`, or of the histogram's own total when `total` is not positive;
// none when neither is.
std::map<long long, double> sharesOf(const model::NsByCount& times, double total = 0) {
    std::map<long long, double> shares;
    double sum = 0;
    for (const auto& [k, v] : times) sum += static_cast<double>(v);
    if (total > 0) sum = total;
    if (sum <= 0) return shares;
    for (const auto& [k, v] : times) shares[k] = static_cast<double>(v) / sum;
    return shares;
}

// Per device: a histogram over counts as fractions of its total, in the bins of report.md's tables.
// `maxBins`: as the table of the same figure in report.md.
std::string histogramChart(const DeviceShares& devices, std::size_t maxBins, std::string title,
                           std::string xTitle, std::string yTitle) {
    std::set<long long> keys;
    for (const auto& [name, fractions] : devices)
        for (const auto& kv : fractions) keys.insert(kv.first);
    const auto bins = countBins(keys, maxBins);
    if (devices.empty() || bins.empty()) return "";
    std::vector<std::string> categories;
    for (const auto& b : bins) categories.push_back(b.label());
    std::vector<Series> series;
    for (const auto& [name, fractions] : devices) {
        Series s{name, {}};
        for (const auto& b : bins) {
            double in = 0;
            for (auto [k, v] : fractions)
                if (b.contains(k)) in += v;
            s.values.push_back(in);
        }
        series.push_back(std::move(s));
    }
    return barChart(percentBars(std::move(title), std::move(xTitle), std::move(yTitle), std::move(categories),
                                condense(std::move(series), bins.size())));
}

// "rank 0 / GPU 0" on two lines under a bar group: a group is then as wide as its bars, not its name.
std::string twoLines(std::string label) {
    if (auto at = label.find(" / "); at != std::string::npos) label.replace(at, 3, "\n");
    return label;
}

} // namespace

std::string kernelsInFlightChart(const model::Report& report) {
    DeviceShares devices;
    for (const auto& e : report.kernelsInFlight)
        if (auto shares = sharesOf(e.timeNsByCount); !shares.empty())
            devices.emplace_back(report.deviceLabel(e.device), std::move(shares));
    return histogramChart(devices, kMaxCountBins, "Kernels in flight: time at each count",
                          "Kernels executing at once", "Share of the window");
}

std::string deviceStateChart(const model::Report& report) {
    auto window = static_cast<double>(report.window.durationNs);
    StackedBarChart c{"Device time (NCCL as communication)",
                      "Share of the window",
                      "Device",
                      {"useful", "communication", "idle"},
                      {kRunColours[0], kRunColours[1], "#d3d3d3"}, // as the state timeline
                      {}};
    for (const auto& d : report.devices) {
        auto u = static_cast<double>(d.usefulNs), m = static_cast<double>(d.communicationNs),
             idle = static_cast<double>(d.idleNs);
        double total = window > 0 ? window : u + m + idle;
        if (total <= 0) continue;
        c.rows.push_back({report.deviceLabel(d.id), {u / total, m / total, std::max(idle, 0.0) / total}});
    }
    return c.rows.empty() ? "" : stackedBarChart(c);
}

// Per device, the parts of the device model (docs/report.md, "device_efficiency.svg"): U/T, U/max U, U/A and
// A/T, A = U + D. Their means over the devices are the parallel efficiency (U/T) and the load balance; the
// run's communication and orchestration efficiencies are those of the busiest device, and these show where
// the others lose.
std::string deviceEfficiencyChart(const model::Report& report) {
    struct Times {
        std::string label;
        double useful, active, window;
    };
    auto window = static_cast<double>(report.window.durationNs);
    std::vector<Times> devices;
    double maxUseful = 0;
    for (const auto& d : report.devices) {
        auto u = static_cast<double>(d.usefulNs), m = static_cast<double>(d.communicationNs);
        double t = window > 0 ? window : u + m + static_cast<double>(d.idleNs);
        if (!(t > 0)) continue;
        devices.push_back({report.deviceLabel(d.id), u, u + m, t});
        maxUseful = std::max(maxUseful, u);
    }
    if (devices.empty()) return "";
    auto ratio = [](double a, double b) { return b > 0 ? a / b : NAN; };
    const char* names[] = {"Useful fraction (U/T)", "Load balance (U/max U)", "Communication-free (U/A)",
                           "Active fraction (A/T)"};
    std::vector<Series> perDevice;
    std::vector<std::string> categories;
    for (const auto& d : devices) {
        perDevice.push_back({d.label,
                             {ratio(d.useful, d.window), ratio(d.useful, maxUseful),
                              ratio(d.useful, d.active), ratio(d.active, d.window)}});
        categories.push_back(twoLines(d.label));
    }
    std::string title = "Efficiency factors per device (NCCL as communication)";
    if (perDevice.size() > kMaxDeviceSeries) {
        // Too many groups for the page: the factors' spread over the devices instead.
        auto spread = condense(perDevice, std::size(names)); // mean, minimum, maximum
        perDevice = {spread[1], spread[0], spread[2]};
        categories.clear();
        for (const auto& s : perDevice) categories.push_back(s.label);
        title += ", over " + std::to_string(devices.size()) + " devices";
    }
    // Categories are devices and series the factors: transpose.
    std::vector<Series> factors;
    for (std::size_t f = 0; f < std::size(names); ++f) {
        Series s{names[f], {}};
        for (const auto& d : perDevice) s.values.push_back(d.values[f]);
        factors.push_back(std::move(s));
    }
    BarChart b = percentBars(title, "Device", "Efficiency", categories, factors);
    b.colours.assign(std::begin(kFactorColours), std::end(kFactorColours));
    b.markUnknown = true;
    return barChart(b);
}

// Shares of communication time: the report's fractions where it gives them (null ones left out), else the
// times over the device's communication time.
std::string overlapChart(const model::Report& report) {
    DeviceShares devices;
    for (const auto& e : report.overlap) {
        std::map<long long, double> shares;
        for (const auto& [k, v] : e.fractionOfCommunication)
            if (std::isfinite(v)) shares[k] = v;
        if (shares.empty()) shares = sharesOf(e.timeNsByConcurrency, static_cast<double>(e.communicationNs));
        if (!shares.empty()) devices.emplace_back(report.deviceLabel(e.device), std::move(shares));
    }
    return histogramChart(devices, SIZE_MAX, "Overlap: communication time at each concurrency",
                          "Activities running at once (1 = communication alone)",
                          "Share of communication time");
}

} // namespace gpueff::reports::svg
