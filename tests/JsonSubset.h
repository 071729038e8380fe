#pragma once
// An expected JSON *subset* against an actual document (tests/cases/README.md "expected.json"): every key the
// expected value gives must be in the actual one with that value; arrays are compared by index (as many
// elements as given), or by a key field, or element by element with a matcher. Each difference is one line
// naming the JSON pointer and both values, so that a failing case says where it failed without a debugger.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace testsupport {

// Tolerance of numbers without a matcher of their own: |actual - expected| <= max(absolute,
// relative * |expected|). Both 0 (the default): equal, integers compared as integers.
struct NumberTolerance {
    double relative = 0, absolute = 0;
};

// The differences of `actual` from the subset `expected`, one line each ("/devices/0/kernels: expected 2,
// got 3"); empty when it matches. A malformed matcher is a difference too (a case that cannot be read must
// not pass).
std::vector<std::string> subsetDifferences(const nlohmann::json& expected, const nlohmann::json& actual,
                                           const NumberTolerance& tolerance = {});

} // namespace testsupport
