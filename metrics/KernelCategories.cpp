#include "metrics/KernelCategories.h"

#include <regex>

namespace gpueff::metrics {

namespace {

struct Category {
    const char* name;
    const char* pattern; // ECMAScript, case-insensitive, searched in the kernel name
};

// Order matters: NCCL first (its kernels' names hold "reduce"), attention before GEMM (flash kernels call
// cutlass), reductions before elementwise (a reduce kernel is launched through elementwise helpers).
const Category kCategories[] = {
    {"NCCL", "nccl|rccl"},
    {"attention", "flash|attention|attn|fmha|sdpa|mha_"},
    {"GEMM", "gemm|nvjet|cutlass|xmma|cublas|s16816|h884|hmma|wgmma|matmul|gemv|splitkreduce"},
    {"reduction", "reduce|reduction|softmax|norm|argmax|argmin|cub::|scan|sort"},
    {"elementwise",
     "elementwise|vectorized|unrolled|fill|copy|cast|add|mul|div|sub|pow|sqrt|exp|relu|gelu|silu"},
};

const std::regex& regexOf(std::size_t i) {
    static const std::vector<std::regex> compiled = [] {
        std::vector<std::regex> out;
        for (const auto& c : kCategories)
            out.emplace_back(c.pattern, std::regex::ECMAScript | std::regex::icase);
        return out;
    }();
    return compiled[i];
}

} // namespace

std::string categoryOf(const std::string& name) {
    for (std::size_t i = 0; i < std::size(kCategories); ++i)
        if (std::regex_search(name, regexOf(i))) return kCategories[i].name;
    return "other kernels";
}

std::vector<CategoryTime> kernelCategories(const Analysis& a) {
    std::vector<CategoryTime> out;
    for (const auto& c : kCategories) out.push_back({c.name, 0, 0});
    out.push_back({"other kernels", 0, 0});
    for (const auto& k : a.kernelSummary) {
        auto name = categoryOf(k.name);
        for (auto& c : out)
            if (c.category == name) c.time += k.total, c.instances += k.instances;
    }
    CategoryTime memory{"memory", 0, 0};
    for (const auto& t : a.times) memory.time += t.memory, memory.instances += t.memoryOperations;
    out.push_back(memory);
    std::erase_if(out, [](const CategoryTime& c) { return c.time == 0; });
    return out;
}

} // namespace gpueff::metrics
