// The figures of Meta's Holistic Trace Analysis (HTA) for each device, from report.json's hta, so a user
// who knows HTA's temporal breakdown and overlap can set them beside the POP model (docs/report.md).
#include "reports/HtaMarkdown.h"

#include "reports/JsonAccess.h"
#include "reports/MarkdownTable.h"
#include "reports/ReportMarkdown.h"

namespace gpueff::reports {

using namespace detail;

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
}

} // namespace gpueff::reports
