#pragma once
// One row of a duration summary in the form of `nsys stats -r cuda_gpu_kern_sum` (report.schema.json
// $defs/kernelRow): the kernel summary and nsys_stats' cuda_api_sum and gpu_mem_time_sum rows.
#include "reports/model/Fields.h"

#include <cstdint>
#include <string>

namespace gpueff::reports::model {

struct KernelRow {
    std::string name;
    double timePercent = 0; // of the summary's total time, in percent as nsys prints it
    std::int64_t totalNs = 0, instances = 0;
    double avgNs = 0, medNs = 0;
    std::int64_t minNs = 0, maxNs = 0;
    double stddevNs = 0;
    static void fields(auto& s, auto&& f) {
        f("name", s.name);
        f("time_percent", s.timePercent);
        f("total_ns", s.totalNs);
        f("instances", s.instances);
        f("avg_ns", s.avgNs);
        f("med_ns", s.medNs);
        f("min_ns", s.minNs);
        f("max_ns", s.maxNs);
        f("stddev_ns", s.stddevNs);
    }
};

} // namespace gpueff::reports::model
