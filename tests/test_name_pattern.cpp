// The one dialect of the patterns a user gives analyze (metrics/NamePattern.h: ECMAScript, case-insensitive):
// what docs/report.md and `gpueff analyze --help` say of it, and that the default --gemm-pattern, once a
// POSIX extended expression, selects the same names in the new dialect.
#include "metrics/Analysis.h"
#include "metrics/NamePattern.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <regex>

using namespace testsupport;
using gpueff::metrics::NamePattern;

TEST_CASE("name patterns: ECMAScript, any case, found in a name or matching it whole") {
    NamePattern step("step\\d+");
    CHECK(step.matchesWhole("STEP12"));
    CHECK(step.foundIn("train Step7 of 9"));
    CHECK_FALSE(step.matchesWhole("train Step7 of 9"));
    CHECK_FALSE(step.foundIn("steps"));
    // What POSIX extended expressions lack: non-capturing groups, lookahead, \b, \d.
    NamePattern notVoid("^(?!void\\b).*(?:gemm|cutlass)");
    CHECK(notVoid.foundIn("ampere_sgemm_128x64_nn"));
    CHECK(notVoid.foundIn("voidGEMM"));
    CHECK_FALSE(notVoid.foundIn("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm>"));
    CHECK(NamePattern("iter(ation)?[-_ #]?\\d+").matchesWhole("Iteration_3"));
    CHECK(NamePattern("").foundIn("anything")); // an empty pattern is found in every name
    CHECK_THROWS_AS(NamePattern("("), std::regex_error);
    CHECK_THROWS_AS(NamePattern("gemm[0-9"), std::regex_error);
    // Copies share the compiled expression and keep the text.
    NamePattern copy = step;
    CHECK(copy.text() == "step\\d+");
    CHECK(copy.matchesWhole("step3"));
}

// Every string of every real export (kernel names among them): the default GEMM pattern, a plain alternation
// of words, finds a GEMM in the same names as the POSIX extended expression it was read as before.
TEST_CASE(
    "name patterns: the default --gemm-pattern selects what it selected as a POSIX extended expression") {
    NamePattern gemm(gpueff::metrics::kDefaultGemmPattern);
    std::regex posix(gpueff::metrics::kDefaultGemmPattern, std::regex::extended | std::regex::icase);
    std::size_t names = 0, gemms = 0;
    for (const auto& db : realExports())
        for (const auto& row : query(db, "SELECT value FROM StringIds")) {
            const auto& name = row[0];
            bool was = std::regex_search(name, posix);
            CHECK_MESSAGE(gemm.foundIn(name) == was, name);
            ++names;
            gemms += was;
        }
    CHECK(names > 1000);
    CHECK(gemms > 0);
}
