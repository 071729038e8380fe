// The figures of Meta's Holistic Trace Analysis (HTA) for each device, from report.json's hta, so a user
// who knows HTA's temporal breakdown and overlap can set them beside the POP model (docs/report.md).
#include "reports/HtaMarkdown.h"

#include "reports/JsonAccess.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"

namespace gpueff::reports {

using namespace detail;

namespace {

// "12.345 ms (4.56 % of the span)".
std::string idleCell(std::optional<double> idle, std::optional<double> span) {
    std::string cell = formatDuration(idle);
    if (idle && span && *span > 0) cell += " (" + formatPercent(*idle / *span) + " of the span)";
    return cell;
}

std::string plural(std::optional<double> n, const std::string& what) {
    return formatCount(n) + " " + what + (n && *n == 1 ? "" : "s");
}

// What one of HTA's rules would show instead of gpueff's figures of a device (`theirs`: the rule's reading).
std::string htaWouldShow(const json& ours, const json& theirs) {
    // Figures shown alike (a few ns apart) are left out, but idle always stays.
    auto span = number(ours, "kernel_time_ns"), spanThen = number(theirs, "kernel_time_ns");
    std::string out;
    if (formatDuration(span) != formatDuration(spanThen))
        out += "a span of " + formatDuration(spanThen) + " instead of " + formatDuration(span) + ", ";
    out += "idle " + idleCell(number(theirs, "idle_ns"), spanThen) + " instead of " +
           idleCell(number(ours, "idle_ns"), span);
    auto compute = formatDuration(number(ours, "compute_ns")),
         computeThen = formatDuration(number(theirs, "compute_ns"));
    if (compute != computeThen) out += ", compute " + computeThen + " instead of " + compute;
    return out;
}

} // namespace

std::vector<std::string> htaNotes(const json& report) {
    std::vector<std::string> out;
    for (const auto& d : array(sub(report, "hta"), "devices")) {
        const std::string device = "HTA on " + text(d, "device") + " ";
        const json& rules = sub(d, "rules");
        if (const json& r = sub(rules, "last_profiler_step"); r.is_object())
            out.push_back(device + "keeps only the GPU work launched before the last ProfilerStep began (" +
                          formatDuration(number(r, "step_begin_ns")) + " into the trace) and drops " +
                          plural(number(r, "operations_dropped"), "operation") +
                          " launched later or without a launch call (" +
                          formatDuration(number(r, "dropped_ns")) + " of GPU time): it would show " +
                          htaWouldShow(d, r));
        if (const json& r = sub(rules, "whole_microseconds"); r.is_object())
            out.push_back(device +
                          "rounds every start up and every end down to a whole microsecond: it would show " +
                          htaWouldShow(d, r));
        if (const json& r = sub(rules, "host_events_with_stream"); r.is_object())
            out.push_back(device + "counts " + plural(number(r, "events"), "host event") +
                          " with a CUDA stream argument (cuda_sync, Triton operators) as GPU work (" +
                          formatDuration(number(r, "time_ns")) + " in all): it would show " +
                          htaWouldShow(d, r));
    }
    return out;
}

void htaSection(std::string& md, const json& report) {
    const json& hta = sub(report, "hta");
    if (!hta.is_object()) return;
    MarkdownTable breakdown({"Device", "Span", "Idle", "Compute", "Non-compute", "Comm-comp overlap"},
                            "lrrrrr");
    MarkdownTable causes({"Device", "Host wait", "Kernel wait", "Other"}, "lrrr");
    for (const auto& d : array(hta, "devices")) {
        auto span = number(d, "kernel_time_ns");
        auto share = [&](const char* key) {
            auto v = number(d, key);
            std::string cell = formatDuration(v);
            if (v && span && *span > 0) cell += " (" + formatPercent(*v / *span) + ")";
            return cell;
        };
        breakdown.row({escapeMarkdown(text(d, "device")), formatDuration(span), share("idle_ns"),
                       share("compute_ns"), share("non_compute_ns"),
                       formatPercent(number(d, "comm_comp_overlap"))});
        const json& c = sub(d, "idle_by_cause");
        causes.row({escapeMarkdown(text(d, "device")), formatDuration(number(c, "host_wait_ns")),
                    formatDuration(number(c, "kernel_wait_ns")), formatDuration(number(c, "other_ns"))});
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
          formatDuration(number(hta, "consecutive_kernel_delay_ns")) +
          " (HTA's consecutive_kernel_delay of 30, compared with gaps in microseconds); "
          "other = the rest.\n\n" +
          causes.str() + "\n";
    auto notes = htaNotes(report);
    if (notes.empty()) return;
    md += "HTA itself would show other figures for this trace, by rules of its own that gpueff does not "
          "follow (each alone):\n\n";
    for (const auto& n : notes) md += "- " + escapeMarkdown(n) + "\n";
    md += "\n";
}

} // namespace gpueff::reports
