// The figures of Meta's Holistic Trace Analysis (HTA) for each device, from the report's hta, so a user
// who knows HTA's temporal breakdown and overlap can set them beside the POP model (docs/report.md).
#include "reports/HtaMarkdown.h"

#include "reports/MarkdownCells.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"

namespace gpueff::reports {

using namespace detail;
using cells::value;

namespace {

// " (4.56 %)": the share of `part` in `whole`; "" when `whole` is empty.
std::string share(std::int64_t part, std::int64_t whole, const char* of = "") {
    if (whole <= 0) return "";
    return " (" + formatPercent(static_cast<double>(part) / static_cast<double>(whole)) + of + ")";
}

// "12.345 ms (4.56 % of the span)".
std::string idleCell(std::int64_t idle, std::int64_t span) {
    return formatDuration(value(idle)) + share(idle, span, " of the span");
}

std::string plural(std::int64_t n, const std::string& what) {
    return formatCount(value(n)) + " " + what + (n == 1 ? "" : "s");
}

// What one of HTA's rules would show instead of gpueff's figures of a device (`theirs`: the rule's reading).
std::string htaWouldShow(const model::HtaReading& ours, const model::HtaReading& theirs) {
    // Figures shown alike (a few ns apart) are left out, but idle always stays.
    auto span = formatDuration(value(ours.kernelTimeNs)), spanThen = formatDuration(value(theirs.kernelTimeNs));
    std::string out;
    if (span != spanThen) out += "a span of " + spanThen + " instead of " + span + ", ";
    out += "idle " + idleCell(theirs.idleNs, theirs.kernelTimeNs) + " instead of " +
           idleCell(ours.idleNs, ours.kernelTimeNs);
    auto compute = formatDuration(value(ours.computeNs)), computeThen = formatDuration(value(theirs.computeNs));
    if (compute != computeThen) out += ", compute " + computeThen + " instead of " + compute;
    return out;
}

} // namespace

std::vector<std::string> htaNotes(const model::Report& report, HtaDeviceNames names) {
    std::vector<std::string> out;
    if (!report.hta) return out;
    for (const auto& d : report.hta->devices) {
        const std::string device =
            "HTA on " + (names == HtaDeviceNames::labels ? report.deviceLabel(d.device) : d.device) + " ";
        const auto& rules = d.rules;
        if (const auto& r = rules.lastProfilerStep)
            out.push_back(device + "keeps only the GPU work launched before the last ProfilerStep began (" +
                          formatDuration(value(r->stepBeginNs)) + " into the trace) and drops " +
                          plural(r->operationsDropped, "operation") +
                          " launched later or without a launch call (" + formatDuration(value(r->droppedNs)) +
                          " of GPU time): it would show " + htaWouldShow(d, *r));
        if (const auto& r = rules.wholeMicroseconds)
            out.push_back(device +
                          "rounds every start up and every end down to a whole microsecond: it would show " +
                          htaWouldShow(d, *r));
        if (const auto& r = rules.hostEventsWithStream)
            out.push_back(device + "counts " + plural(r->events, "host event") +
                          " with a CUDA stream argument (cuda_sync, Triton operators) as GPU work (" +
                          formatDuration(value(r->timeNs)) + " in all): it would show " + htaWouldShow(d, *r));
    }
    return out;
}

void htaSection(std::string& md, const model::Report& report) {
    if (!report.hta) return;
    const model::Hta& hta = *report.hta;
    MarkdownTable breakdown({"Device", "Span", "Idle", "Compute", "Non-compute", "Comm-comp overlap"},
                            "lrrrrr");
    MarkdownTable causes({"Device", "Host wait", "Kernel wait", "Other"}, "lrrr");
    for (const auto& d : hta.devices) {
        auto withShare = [&](std::int64_t v) { return formatDuration(value(v)) + share(v, d.kernelTimeNs); };
        const std::string label = escapeMarkdown(report.deviceLabel(d.device));
        breakdown.row({label, formatDuration(value(d.kernelTimeNs)), withShare(d.idleNs), withShare(d.computeNs),
                       withShare(d.nonComputeNs), formatPercent(d.commCompOverlap)});
        const auto& c = d.idleByCause;
        causes.row({label, formatDuration(value(c.hostWaitNs)), formatDuration(value(c.kernelWaitNs)),
                    formatDuration(value(c.otherNs))});
    }
    if (breakdown.empty()) return;
    md += "## HTA's definitions\n\n"
          "The same devices as Holistic Trace Analysis (Meta) defines its figures, for comparison with HTA: "
          "over "
          "each device's own span (its first start to its last end), idle = no kernel or memory operation "
          "runs, "
          "compute = compute kernels run, non-compute = only NCCL kernels or memory operations run; "
          "comm-comp overlap = time compute kernels run during NCCL kernels / NCCL time.\n\n" +
          breakdown.str() +
          "\nIdle time between consecutive operations of each stream (summed over the device's streams, so "
          "it can exceed the device's idle time): host wait = the launch call of the next operation started "
          "after the previous one ended; kernel wait = a gap under " +
          formatDuration(value(hta.consecutiveKernelDelayNs)) +
          " (HTA's consecutive_kernel_delay of 30, compared with gaps in microseconds); "
          "other = the rest.\n\n" +
          causes.str() + "\n";
    auto notes = htaNotes(report, HtaDeviceNames::labels);
    if (notes.empty()) return;
    md += "HTA itself would show other figures for this trace, by rules of its own that gpueff does not "
          "follow (each alone):\n\n";
    for (const auto& n : notes) md += "- " + escapeMarkdown(n) + "\n";
    md += "\n";
}

} // namespace gpueff::reports
