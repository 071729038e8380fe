#pragma once
// Where a trace comes from, as typed data: which gpueff translation wrote it (its records then in one time
// order), the sidecar JSON beside it, and the cuts it went through with the time shift of each. It travels
// with the record stream (pipeline::StreamInfo::provenance) and with a trace read whole
// (paraver::Trace::provenance); the .prv carries it as gpueff's own comment lines, which are parsed here
// once when a trace is read and written here once when a trace is written. Nothing else reads those lines.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::paraver {

// "# gpueff <version> translate: time 0 = <ns> ns since the UNIX epoch (UTC)[; see <sidecar>]"
struct Translation {
    std::string version;
    std::int64_t originUtcNs = 0; // wall clock of time 0 (0 when the inputs had none)
    std::string sidecar;          // the sidecar's file name; empty: the line names none
};

// "# gpueff cut: time 0 = <shift> <unit> of <source>", one per cut, in the order they were made.
struct Cut {
    std::int64_t shift = 0;
    std::string unit; // "ns", "us", "ms", "s"
    std::string source;
};

// What the cut lines say together: the trace is a cut (or a cut of a cut) and its time 0 is `shift` (in the
// unit of the cut lines) of the time of `source`, the first trace or run cut; the shifts of successive cuts
// add up. For a trace whose time is an export's own (nsys2prv's), an export's time = trace time + shift.
struct CutOrigin {
    std::int64_t shift = 0;
    std::string unit;
    std::string source; // as the first cut line names it
    std::size_t cuts = 0;
};

struct Provenance {
    std::optional<Translation> translation;
    std::vector<Cut> cuts;
    bool cutsReadable = true; // false when a line started like a cut line but did not parse

    // Absent when the trace is not a cut, or when its cut lines do not parse, disagree on the unit, or add up
    // beyond int64 (edited by hand: nothing is claimed then).
    std::optional<CutOrigin> cutOrigin() const;
};

// A trace's comment lines split into gpueff's own, typed, and the others (into `others`, verbatim, in
// order). A line that starts like gpueff's but does not parse is another comment.
Provenance readProvenance(const std::vector<std::string>& comments,
                          std::vector<std::string>* others = nullptr);

// The comment lines of a trace with this provenance: the translation's line, the other comments, the cut
// lines (the order gpueff writes them in, so that reading and writing a trace gives the same lines).
std::vector<std::string> commentLines(const Provenance& provenance, const std::vector<std::string>& others);

} // namespace gpueff::paraver
