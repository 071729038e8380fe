// metrics/DurationModes: the modes of a kernel's duration distribution are the regimes it really has, not
// sampling noise (one tight kernel once showed 8 "modes" from histogram bins) and never outside the data.
#include "metrics/DurationModes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <doctest/doctest.h>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

using gpueff::metrics::DurationMode;
using gpueff::metrics::durationModes;

namespace {

using Durations = std::vector<std::int64_t>;

void addNormal(Durations& out, std::mt19937_64& rng, std::size_t count, double mean, double sd) {
    std::normal_distribution<double> normal(mean, sd);
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(static_cast<std::int64_t>(std::llround(normal(rng))));
}

std::uint64_t totalInstances(const std::vector<DurationMode>& modes) {
    return std::accumulate(modes.begin(), modes.end(), std::uint64_t{0},
                           [](std::uint64_t sum, const DurationMode& m) { return sum + m.instances; });
}

// What holds for every answer: ordered modes inside [min, max] of the data, sharing out all instances.
void checkWellFormed(const Durations& durations, const std::vector<DurationMode>& modes) {
    if (durations.empty()) {
        CHECK(modes.empty());
        return;
    }
    REQUIRE(!modes.empty());
    auto [lo, hi] = std::minmax_element(durations.begin(), durations.end());
    for (std::size_t i = 0; i < modes.size(); ++i) {
        CHECK(modes[i].at >= *lo);
        CHECK(modes[i].at <= *hi);
        CHECK(modes[i].instances > 0);
        if (i > 0) CHECK(modes[i - 1].at < modes[i].at);
    }
    CHECK(totalInstances(modes) == durations.size());
}

} // namespace

TEST_CASE("duration modes: a tight unimodal kernel has exactly one mode, near its mean") {
    std::mt19937_64 rng(20240611);
    Durations durations;
    addNormal(durations, rng, 2000, 100000, 1450);
    const Durations before = durations;
    auto modes = durationModes(durations);
    CHECK(durations == before); // input untouched
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(modes[0].at > 100000 - 2 * 1450);
    CHECK(modes[0].at < 100000 + 2 * 1450);
    CHECK(modes[0].instances == 2000);
}

TEST_CASE("duration modes: unimodal samples of several seeds, and a flat one, have one mode") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        std::mt19937_64 rng(seed);
        Durations normal;
        addNormal(normal, rng, 500 + 100 * seed, 100000, 1450);
        auto modes = durationModes(normal);
        checkWellFormed(normal, modes);
        CHECK(modes.size() == 1);

        Durations uniform;
        std::uniform_int_distribution<std::int64_t> flat(10000, 20000);
        for (int i = 0; i < 2000; ++i) uniform.push_back(flat(rng));
        modes = durationModes(uniform);
        checkWellFormed(uniform, modes);
        CHECK(modes.size() == 1);
    }
}

TEST_CASE("duration modes: two well separated regimes are two modes at their centres") {
    std::mt19937_64 rng(7);
    Durations durations;
    addNormal(durations, rng, 1000, 50000, 2000);
    addNormal(durations, rng, 600, 200000, 3000);
    std::shuffle(durations.begin(), durations.end(), rng);
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 2);
    CHECK(modes[0].at > 50000 - 2000);
    CHECK(modes[0].at < 50000 + 2000);
    CHECK(modes[1].at > 200000 - 3000);
    CHECK(modes[1].at < 200000 + 3000);
    CHECK(modes[0].instances >= 995);
    CHECK(modes[0].instances <= 1005);
    CHECK(modes[0].instances + modes[1].instances == 1600);
}

TEST_CASE("duration modes: a peak lands on its regime's centre to the ns, not on a grid point") {
    // The regimes' distance sets a bandwidth of about 100 us, so the grid cannot place a 10 ns wide peak.
    std::mt19937_64 rng(19);
    Durations durations;
    addNormal(durations, rng, 1000, 10000, 10);
    addNormal(durations, rng, 1000, 1000000, 10);
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 2);
    CHECK(std::abs(modes[0].at - 10000) <= 3);
    CHECK(std::abs(modes[1].at - 1000000) <= 3);
    CHECK(modes[0].instances == 1000);
}

TEST_CASE("duration modes: a few far outliers are no mode and do not blur the cluster's") {
    std::mt19937_64 rng(11);
    Durations durations;
    addNormal(durations, rng, 1000, 100000, 1000);
    durations.insert(durations.end(), {5000000, 20000000, 50000000});
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(modes[0].instances == 1003);
    // The outliers span 50 ms; the peak must still land on the 1 us wide cluster.
    CHECK(modes[0].at > 100000 - 3 * 1000);
    CHECK(modes[0].at < 100000 + 3 * 1000);
}

TEST_CASE("duration modes: cold-start outliers 100x away do not blur regimes 15 us apart") {
    std::mt19937_64 rng(13);
    Durations durations;
    addNormal(durations, rng, 3000, 20000, 500);
    addNormal(durations, rng, 1500, 35000, 800);
    addNormal(durations, rng, 400, 90000, 3000);
    for (std::int64_t i = 0; i < 10; ++i) durations.push_back(5000000 + i * 100000);
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 3);
    CHECK(std::abs(modes[0].at - 20000) < 500);
    CHECK(std::abs(modes[1].at - 35000) < 800);
    CHECK(std::abs(modes[2].at - 90000) < 3000);
    CHECK(modes[0].instances == 3000);
    CHECK(modes[1].instances == 1500);
    CHECK(modes[2].instances == 410); // the outliers join the nearest regime's basin
}

TEST_CASE("duration modes: a few-ns jitter on whole-ns durations is one mode, not one per ns value") {
    std::mt19937_64 rng(17);
    Durations durations;
    addNormal(durations, rng, 20000, 2000, 3); // Silverman would give 0.4 ns here
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(std::abs(modes[0].at - 2000) <= 2);
}

TEST_CASE("duration modes: a long sparse tail (too many grid points) still leaves the cluster's mode") {
    // 3 % of the instances spread over 4 decades: the grid must coarsen, the mode must stay on the cluster.
    std::mt19937_64 rng(23);
    Durations durations;
    addNormal(durations, rng, 100000, 10000, 100);
    std::uniform_real_distribution<double> logDuration(std::log(1e5), std::log(1e9));
    for (int i = 0; i < 3000; ++i) durations.push_back(std::llround(std::exp(logDuration(rng))));
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(std::abs(modes[0].at - 10000) < 100);
}

TEST_CASE("duration modes: over half the instances at one duration (IQR 0) plus outliers") {
    Durations durations(100, 5000);
    durations.insert(durations.end(), {5001, 4990, 1000000, 2000000, 3000000});
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(modes[0].at > 4900);
    CHECK(modes[0].at < 5100);
}

TEST_CASE("duration modes: two regimes closer than their spread are one mode") {
    std::mt19937_64 rng(3);
    Durations durations;
    addNormal(durations, rng, 1000, 100000, 2000);
    addNormal(durations, rng, 1000, 102000, 2000);
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(modes[0].at > 98000);
    CHECK(modes[0].at < 104000);
}

TEST_CASE("duration modes: degenerate inputs") {
    CHECK(durationModes({}).empty());

    auto one = durationModes({42});
    REQUIRE(one.size() == 1);
    CHECK(one[0].at == 42);
    CHECK(one[0].instances == 1);

    auto equal = durationModes(Durations(10, 7));
    REQUIRE(equal.size() == 1);
    CHECK(equal[0].at == 7);
    CHECK(equal[0].instances == 10);

    const Durations two{200, 100};
    auto modes = durationModes(two);
    checkWellFormed(two, modes);
    CHECK(modes.size() == 1); // 1 instance each: neither is supported alone

    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    for (const Durations& extreme :
         {Durations{0, kMax / 2, kMax}, Durations{kMin, kMax}, Durations{kMin, 0, kMax},
          Durations{kMax, kMax - 1, kMax}, Durations{kMin, kMin + 1}}) {
        modes = durationModes(extreme);
        checkWellFormed(extreme, modes);
        CHECK(modes.size() == 1);
    }

    std::mt19937_64 rng(5);
    // A cluster 1e18 ns from the minimum, where double offsets are 128 ns coarse: no crash, one mode.
    Durations apart{0};
    addNormal(apart, rng, 1000, 1e18, 20);
    modes = durationModes(apart);
    checkWellFormed(apart, modes);
    REQUIRE(modes.size() == 1);
    CHECK(modes[0].instances == 1001);
    CHECK(std::abs(modes[0].at - 1000000000000000000) < 1000);

    // Two regimes at 1e18 ns: offsets from the minimum keep the precision double would lose on the values.
    Durations far;
    addNormal(far, rng, 500, 1000, 20);
    addNormal(far, rng, 500, 5000, 20);
    for (auto& d : far) d += 1000000000000000000;
    modes = durationModes(far);
    checkWellFormed(far, modes);
    REQUIRE(modes.size() == 2);
    CHECK(modes[0].at - 1000000000000000000 > 1000 - 60);
    CHECK(modes[0].at - 1000000000000000000 < 1000 + 60);
    CHECK(modes[1].at - 1000000000000000000 > 5000 - 60);
    CHECK(modes[1].at - 1000000000000000000 < 5000 + 60);
}

TEST_CASE("duration modes: a million instances") {
    std::mt19937_64 rng(1000000);
    Durations durations;
    addNormal(durations, rng, 1000000, 100000, 1450);
    auto modes = durationModes(durations);
    checkWellFormed(durations, modes);
    REQUIRE(modes.size() == 1);
    CHECK(modes[0].at > 100000 - 200);
    CHECK(modes[0].at < 100000 + 200);
}
