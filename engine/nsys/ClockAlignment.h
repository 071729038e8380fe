#pragma once
// How the clocks of several exports are put on one trace clock (docs/events.md "Time"): by their UTC session
// starts, refined by a moment every rank reaches together (the end of MPI_Init, else of the first MPI
// collective), or by that moment alone for an export without a session start. The decision is a function of
// the evidence read from each export, so every process of a distributed run makes the same one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpueff::nsys {

class NsysExport;

// The first MPI collectives of an export, in start order, compared across exports for the alignment's
// uncertainty: this many at most.
constexpr std::size_t kAlignmentCollectives = 16;
// Clocks of one job's nodes agree within milliseconds after NTP; a larger sync correction is suspicious.
constexpr std::int64_t kMaxSyncCorrectionNs = 10'000'000'000;

struct CollectiveEnd {
    std::string name; // "MPI_Allreduce"
    std::int64_t end = 0;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("end", s.end);
    }
};

// What one export says about its clock, in its own clock (ns since its session start).
struct ClockEvidence {
    std::optional<std::int64_t> utcStartNs; // TARGET_INFO_SESSION_START_TIME
    std::optional<std::int64_t> mpiInitEnd; // latest end of MPI_Init/MPI_Init_thread (MPI tables or NVTX)
    std::vector<CollectiveEnd> collectives; // the first kAlignmentCollectives MPI collectives with an end
    static void fields(auto& s, auto&& f) {
        f("utcStartNs", s.utcStartNs);
        f("mpiInitEnd", s.mpiInitEnd);
        f("collectives", s.collectives);
    }
};

// `syncPoints` false: the session start only (a single input needs nothing else).
ClockEvidence readClockEvidence(const NsysExport& report, bool syncPoints);

// How an input's clock was placed: "single input", "utc", "utc+MPI_Init", "utc+first collective",
// "MPI_Init", "first collective" (no session start: placed by the sync point alone) or "none".
struct InputAlignment {
    std::string method;
    std::int64_t utcShiftNs = 0;  // its session start minus the earliest one
    std::int64_t syncShiftNs = 0; // added by the sync point (the whole shift without a session start)
    std::string syncPoint;        // "MPI_Init end", "end of the first MPI_Allreduce"; empty when unused
    // Where a sync point was used: the largest distance between this input's end of a shared call and
    // another input's end of it after alignment, over `evidence` collectives; with no collective beyond the
    // sync point (evidence 0), how far its sync point was from another's after UTC alignment alone (the
    // corrections' disagreement), absent without a session start. docs/events.md "Time".
    std::optional<std::int64_t> uncertaintyNs;
    std::size_t evidence = 0;
    std::int64_t shiftNs() const { return utcShiftNs + syncShiftNs; }
};

// "utc+MPI_Init (UTC start +3000 ns, MPI_Init end +1500 ns; uncertainty 1000 ns over 1 collective)".
std::string describe(const InputAlignment& alignment);

struct ClockAlignment {
    std::vector<InputAlignment> inputs;
    std::optional<std::int64_t> originUtcNs; // wall clock of shift 0 (the earliest session start), if any
    std::vector<std::string> warnings;       // naming the inputs concerned; for stderr and the report's notes
    std::vector<std::string> remarks;        // what was done instead of a refinement, for the log
};

// Decides each input's method and shift. An input that can be placed neither by its session start nor by a
// sync point every input shares gets "none" (shift 0: its session start taken as the earliest one) with a
// warning when it is the only one, or when `unaligned` says to merge such inputs anyway; several are refused
// (gpueff::Error naming them). `names` name the inputs in messages.
ClockAlignment alignClocks(const std::vector<ClockEvidence>& evidence, const std::vector<std::string>& names,
                           bool unaligned, std::int64_t limitNs = kMaxSyncCorrectionNs);

} // namespace gpueff::nsys
