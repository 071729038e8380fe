// A trace's provenance (engine/paraver/Provenance.h): gpueff's own comment lines read as data and written
// back as the same lines; other writers' lines kept verbatim.
#include "engine/paraver/Provenance.h"

#include <doctest/doctest.h>

using gpueff::paraver::commentLines;
using gpueff::paraver::readProvenance;

TEST_CASE("provenance: a translation, other comments and two cuts read as data and written back alike") {
    std::vector<std::string> lines = {
        "# gpueff 0.1.0 translate: time 0 = 1779782390288182771 ns since the UNIX epoch (UTC); see run.json",
        "# a line of another writer", "# gpueff cut: time 0 = 5000 ns of run.sqlite",
        "# gpueff cut: time 0 = 250 ns of cut.prv"};
    std::vector<std::string> others;
    auto p = readProvenance(lines, &others);
    REQUIRE(p.translation);
    CHECK(p.translation->version == "0.1.0");
    CHECK(p.translation->originUtcNs == 1779782390288182771);
    CHECK(p.translation->sidecar == "run.json");
    REQUIRE(p.cuts.size() == 2);
    CHECK(p.cuts[1].shift == 250);
    CHECK(others == std::vector<std::string>{"# a line of another writer"});
    auto origin = p.cutOrigin();
    REQUIRE(origin);
    CHECK(origin->shift == 5250); // 5000 + 250: the shifts of successive cuts add up
    CHECK(origin->source == "run.sqlite");
    CHECK(origin->cuts == 2);
    CHECK(commentLines(p, others) == lines);

    // Without a sidecar the line names none; a trace written without one drops the reference.
    p.translation->sidecar.clear();
    CHECK(commentLines(p, {}).front() ==
          "# gpueff 0.1.0 translate: time 0 = 1779782390288182771 ns since the "
          "UNIX epoch (UTC)");
}

TEST_CASE("provenance: lines that only look like gpueff's are other comments, claiming nothing") {
    std::vector<std::string> others;
    auto p = readProvenance({"# gpueff 0.1.0 translate: something else", "# gpueff cut: time 0 = x ns of a"},
                            &others);
    CHECK_FALSE(p.translation);
    CHECK_FALSE(p.cutsReadable);
    CHECK_FALSE(p.cutOrigin());
    CHECK(others.size() == 2);
    CHECK(readProvenance({}).cuts.empty());
}
