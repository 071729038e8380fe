// Unit tests of engine pieces whose behaviour the end-to-end tests cannot pin down precisely.
#include "engine/common/Error.h"
#include "engine/common/NameDictionary.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/RecordSource.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <random>

using namespace gpueff;

TEST_CASE("name values are dense and follow the names' byte order, whatever order they were met in") {
    // Byte order of UTF-8: upper case before lower case, a prefix before its extensions, and a multi-byte
    // character (0xC3 0xA9, "é") after every ASCII one.
    const std::vector<std::string> sorted = {"", "Zeta", "alpha", "alphabet", "beta", "\xC3\xA9t\xC3\xA9"};
    std::vector<std::string> met = {"beta", "\xC3\xA9t\xC3\xA9", "alphabet", "Zeta", "", "alpha"};
    std::mt19937 shuffle(7);
    for (int round = 0; round < 4; ++round) {
        NameDictionary d;
        for (const auto& n : met) d.valueOf(n);
        d.valueOf("beta"); // met twice: still one name
        d.assignValues();
        for (std::size_t i = 0; i < sorted.size(); ++i) CHECK(d.valueOf(sorted[i]) == std::int64_t(i) + 1);
        std::vector<std::string> listed;
        d.forEachByValue([&](std::int64_t v, std::string_view name) {
            CHECK(v == std::int64_t(listed.size()) + 1);
            listed.emplace_back(name);
        });
        CHECK(listed == sorted);
        std::shuffle(met.begin(), met.end(), shuffle);
    }
}

TEST_CASE("a name dictionary numbers from a given first value, and refuses names it did not collect") {
    NameDictionary d;
    d.valueOf("MPI_Foo");
    d.valueOf("MPI_Bar");
    auto listed = [&] {
        std::vector<std::pair<std::int64_t, std::string>> out;
        d.forEachByValue([&](std::int64_t v, std::string_view name) { out.emplace_back(v, name); });
        return out;
    };
    // Before values are assigned: the names' order, which their values will follow (provisional values).
    auto before = listed();
    REQUIRE(before.size() == 2);
    CHECK(before[0].second == "MPI_Bar");
    CHECK(before[1].second == "MPI_Foo");
    d.assignValues(72);
    CHECK(d.valueOf("MPI_Bar") == 72);
    CHECK(d.valueOf("MPI_Foo") == 73);
    CHECK(listed() == std::vector<std::pair<std::int64_t, std::string>>{{72, "MPI_Bar"}, {73, "MPI_Foo"}});
    CHECK_THROWS_WITH_AS(d.valueOf("MPI_Baz"), doctest::Contains("was not collected"), Error);
}

TEST_CASE("a name dictionary gives each distinct name its own value, also past many names") {
    NameDictionary d;
    for (int i = 0; i < 50000; ++i) d.valueOf("range " + std::to_string(i));
    d.assignValues();
    // Independently: the names in sorted order are numbered 1..N.
    std::vector<std::string> names;
    for (int i = 0; i < 50000; ++i) names.push_back("range " + std::to_string(i));
    std::sort(names.begin(), names.end());
    std::map<std::int64_t, std::string> seen;
    for (std::size_t i = 0; i < names.size(); i += 97) CHECK(d.valueOf(names[i]) == std::int64_t(i) + 1);
    for (const auto& n : names) {
        auto [it, fresh] = seen.emplace(d.valueOf(n), n);
        if (!fresh) FAIL("value " << it->first << " given to " << it->second << " and " << n);
    }
    CHECK(d.size() == 50000);
    std::vector<std::int64_t> byValue;
    d.forEachByValue([&](std::int64_t v, std::string_view name) {
        byValue.push_back(v);
        CHECK(seen.at(v) == name);
    });
    CHECK(std::is_sorted(byValue.begin(), byValue.end()));
    CHECK(byValue.size() == 50000);
}

namespace {
// Emits the given times in the given order, as a table read in storage order would.
class ScriptedSource : public nsys::RecordSource {
public:
    explicit ScriptedSource(std::vector<std::int64_t> times) : times_(std::move(times)) {}
    std::string name() const override { return "scripted"; }

protected:
    bool fill(paraver::TraceRecord& out) override {
        if (next_ == times_.size()) return false;
        out = paraver::TraceRecord{};
        out.time = times_[next_];
        out.add(1, static_cast<std::int64_t>(next_) + 1);
        ++next_;
        return true;
    }

private:
    std::vector<std::int64_t> times_;
    std::size_t next_ = 0;
};
} // namespace

TEST_CASE("a reorder window turns a nearly sorted stream into a sorted one") {
    std::mt19937 rng(7);
    std::vector<std::int64_t> times;
    for (std::int64_t t = 0; t < 20000; t += 3) times.push_back(t);
    // Displace every element by at most 50 ns, by shuffling within short runs.
    for (std::size_t i = 0; i + 8 < times.size(); i += 8)
        std::shuffle(times.begin() + static_cast<long>(i), times.begin() + static_cast<long>(i) + 8, rng);
    std::int64_t lateness = 0, latest = INT64_MIN;
    for (auto t : times) {
        if (t < latest) lateness = std::max(lateness, latest - t);
        latest = std::max(latest, t);
    }
    REQUIRE(lateness > 0);
    REQUIRE(lateness <= 50);
    ScriptedSource s(times);
    s.setReorderWindow(lateness);
    std::vector<std::int64_t> out;
    for (s.advance(); s.peek(); s.advance()) out.push_back(s.peek()->time);
    auto sorted = times;
    std::sort(sorted.begin(), sorted.end());
    CHECK(out == sorted);
}

TEST_CASE("nsys' ABI suffix is stripped from API names, real name suffixes are kept") {
    CHECK(nsys::stripVersionSuffix("cudaLaunchKernel_v7000") == "cudaLaunchKernel");
    CHECK(nsys::stripVersionSuffix("cudaStreamGetCaptureInfo_v2_v11030") == "cudaStreamGetCaptureInfo_v2");
    CHECK(nsys::stripVersionSuffix("cuMemcpyHtoDAsync_v2") == "cuMemcpyHtoDAsync_v2");
    CHECK(nsys::stripVersionSuffix("cudaMalloc") == "cudaMalloc");
}
