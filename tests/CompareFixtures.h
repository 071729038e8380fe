#pragma once
// Hand-made report.json documents for the compare tests, valid against docs/report.schema.json, with the
// numbers the tests choose: each test computes what compare must print from these numbers itself.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace comparefixtures {

using nlohmann::json;

struct Kernel {
    std::string name;
    std::int64_t total, instances;
    double avg;
};
struct Gap {
    std::int64_t count, total, hostCount, hostNs, kernelCount, kernelNs;
};
struct Offload {
    int task;
    std::optional<double> efficiency;
};

struct Run {
    int devices = 1;
    std::int64_t window = 1000000;
    // [convention][parallel, load balance, communication, orchestration]
    std::array<std::array<double, 4>, 2> factors{{{0.8, 0.9, 0.95, 0.94}, {0.85, 0.9, 0.97, 0.97}}};
    std::array<std::int64_t, 2> usefulSum{800000, 850000};
    std::vector<Kernel> kernels;
    std::vector<Gap> gaps; // one per device (or none)
    std::vector<Offload> offload;
    std::optional<std::array<double, 3>> mpi; // parallel, load balance, communication
};

inline json convention(const Run& r, std::size_t c) {
    json devices = json::array();
    for (int d = 0; d < r.devices; ++d)
        devices.push_back({{"id", "h:1:" + std::to_string(d)},
                           {"useful_ns", r.usefulSum[c] / r.devices},
                           {"communication_ns", 0},
                           {"idle_ns", r.window - r.usefulSum[c] / r.devices}});
    const auto& f = r.factors[c];
    return {{"parallel_efficiency", f[0]},
            {"load_balance", f[1]},
            {"communication_efficiency", f[2]},
            {"orchestration_efficiency", f[3]},
            {"useful_sum_ns", r.usefulSum[c]},
            {"useful_max_ns", r.usefulSum[c] / r.devices},
            {"active_max_ns", r.usefulSum[c] / r.devices},
            {"devices", devices}};
}

inline json report(const Run& r) {
    json devices = json::array();
    for (int d = 0; d < r.devices; ++d)
        devices.push_back({{"id", "h:1:" + std::to_string(d)},
                           {"task", 1},
                           {"gpu", d},
                           {"name", "GPU " + std::to_string(d)},
                           {"rows", 1},
                           {"useful_ns", r.usefulSum[0] / r.devices},
                           {"communication_ns", 0},
                           {"idle_ns", r.window - r.usefulSum[0] / r.devices},
                           {"compute_ns", r.usefulSum[0] / r.devices},
                           {"nccl_ns", 0},
                           {"memory_ns", 0},
                           {"kernels", 1},
                           {"memory_operations", 0}});
    json kernels = json::array();
    for (const auto& k : r.kernels)
        kernels.push_back({{"name", k.name},
                           {"time_percent", 10.0},
                           {"total_ns", k.total},
                           {"instances", k.instances},
                           {"avg_ns", k.avg},
                           {"med_ns", k.avg},
                           {"min_ns", 1},
                           {"max_ns", k.total},
                           {"stddev_ns", 0.0}});
    json gaps = json::array();
    for (std::size_t d = 0; d < r.gaps.size(); ++d) {
        const auto& g = r.gaps[d];
        gaps.push_back({{"device", "h:1:" + std::to_string(d)},
                        {"count", g.count},
                        {"total_ns", g.total},
                        {"host_wait_count", g.hostCount},
                        {"host_wait_ns", g.hostNs},
                        {"kernel_wait_count", g.kernelCount},
                        {"kernel_wait_ns", g.kernelNs}});
    }
    json offload = json::array();
    for (const auto& o : r.offload)
        offload.push_back({{"task", o.task},
                           {"name", "python3 " + std::to_string(o.task) + "@h"},
                           {"blocking_ns", 0},
                           {"offload_efficiency", o.efficiency ? json(*o.efficiency) : json(nullptr)}});
    json mpi = nullptr;
    if (r.mpi)
        mpi = {{"parallel_efficiency", (*r.mpi)[0]},
               {"load_balance", (*r.mpi)[1]},
               {"communication_efficiency", (*r.mpi)[2]},
               {"tasks", json::array()}};
    return {
        {"schema", "gpueff-report/1"},
        {"tool", {{"name", "gpueff"}, {"version", "0.1.0"}}},
        {"trace", {{"prv", "t.prv"}, {"tasks", 1}, {"threads", 1}}},
        {"inputs", json::array()},
        {"window",
         {{"begin_ns", 0}, {"end_ns", r.window}, {"duration_ns", r.window}, {"source", "gpu-activity"}}},
        {"devices", devices},
        {"efficiency", {{"nccl_as_communication", convention(r, 0)}, {"nccl_as_useful", convention(r, 1)}}},
        {"host", {{"offload", offload}, {"mpi", mpi}}},
        {"kernels_in_flight", json::array()},
        {"overlap", json::array()},
        {"kernel_summary", {{"overall", kernels}, {"devices", json::array()}}},
        {"gaps", gaps},
        {"tensor_core", {{"available", false}, {"reason", "no GPU metrics"}}},
        {"notes", json::array()}};
}

// Tags balanced and properly nested, attributes quoted, one root <svg>: what an XML parser needs of the
// plain SVG gpueff writes (no comments, CDATA or processing instructions). Returns "" or what is wrong.
inline std::string xmlProblem(const std::string& s) {
    std::vector<std::string> open;
    std::size_t roots = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '&') {
            auto end = s.find(';', i);
            auto entity = s.substr(i, end == std::string::npos ? 0 : end - i + 1);
            if (entity != "&lt;" && entity != "&gt;" && entity != "&amp;" && entity != "&quot;" &&
                entity != "&apos;")
                return "bad entity at " + std::to_string(i);
            continue;
        }
        if (s[i] == '>') return "stray > at " + std::to_string(i);
        if (s[i] != '<') continue;
        if (open.empty() && roots > 0) return "content after the root element";
        auto end = i + 1;
        char quote = 0;
        for (; end < s.size(); ++end) {
            if (quote) {
                if (s[end] == quote)
                    quote = 0;
                else if (s[end] == '<')
                    return "< inside an attribute at " + std::to_string(end);
            } else if (s[end] == '"' || s[end] == '\'') {
                quote = s[end];
            } else if (s[end] == '>') {
                break;
            }
        }
        if (end >= s.size()) return "unterminated tag at " + std::to_string(i);
        std::string tag = s.substr(i + 1, end - i - 1);
        i = end;
        if (tag.empty()) return "empty tag";
        if (tag[0] == '/') {
            std::string name = tag.substr(1);
            if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
            open.pop_back();
            continue;
        }
        bool selfClosing = tag.back() == '/';
        std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
        if (open.empty()) {
            if (name != "svg") return "root is <" + name + ">";
            ++roots;
        }
        if (!selfClosing) open.push_back(name);
    }
    if (!open.empty()) return "<" + open.back() + "> not closed";
    if (roots != 1) return "no root element";
    return "";
}

} // namespace comparefixtures
