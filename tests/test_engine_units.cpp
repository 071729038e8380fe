// Unit tests of engine pieces whose behaviour the end-to-end tests cannot pin down precisely.
#include "engine/common/StableValues.h"
#include "engine/nsys/HostSources.h"
#include "engine/nsys/RecordSource.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <random>

using namespace gpueff;

TEST_CASE("stable name values do not depend on the run and never use 0") {
    // FNV-1a 64 of "cudaLaunchKernel", folded as documented in docs/events.md: computed independently here.
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : std::string("cudaLaunchKernel")) h = (h ^ c) * 1099511628211ULL;
    auto expected = static_cast<std::int64_t>((h ^ (h >> 31)) % ((1ULL << 31) - 1)) + 1;
    CHECK(stableNameValue("cudaLaunchKernel") == expected);
    NameDictionary a, b;
    CHECK(a.valueOf("cudaLaunchKernel") == expected);
    b.valueOf("something else first");
    CHECK(b.valueOf("cudaLaunchKernel") == expected);
    CHECK(stableNameValue("") >= 1);
}

TEST_CASE("a name dictionary gives each distinct name its own value, also past many names") {
    NameDictionary d;
    std::map<std::int64_t, std::string> seen;
    for (int i = 0; i < 50000; ++i) {
        std::string name = "range " + std::to_string(i);
        auto v = d.valueOf(name);
        CHECK(v >= 1);
        CHECK(v < (1LL << 31));
        auto [it, fresh] = seen.emplace(v, name);
        if (!fresh) FAIL("value " << v << " given to " << it->second << " and " << name);
    }
    // Asking again returns the same values (and the table survived its growth).
    for (int i = 0; i < 50000; i += 997) {
        std::string name = "range " + std::to_string(i);
        CHECK(seen.at(d.valueOf(name)) == name);
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
