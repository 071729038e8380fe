#include "tools/gpueff/StreamOptions.h"

#include "tools/gpueff/Commands.h"

#include <charconv>

namespace gpueff::cli {

void addStreamInputs(CLI::App* cmd, jobs::TraceStreamRequest& job) {
    cmd->add_option("inputs", job.inputs,
                    "nsys SQLite exports or PyTorch profiler (Kineto) traces (several: one run, merged like "
                    "`translate`), or one Paraver trace (.prv/.prv.gz) with its .pcf and .row beside it")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", job.prefix, "output prefix: writes PREFIX.prv, PREFIX.pcf, PREFIX.row")
        ->required();
    addUnalignedOption(cmd, job.unaligned);
}

void addKindOptions(CLI::App* cmd, std::string& only, std::string& skip) {
    cmd->add_option("--only", only,
                    "nsys exports: translate only these record kinds (comma-separated; `gpueff translate "
                    "--help` lists them)");
    cmd->add_option("--skip", skip, "nsys exports: do not translate these record kinds");
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> parseRanges(const std::string& text,
                                                                 const std::string& what) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    auto number = [&](std::string_view s, std::uint32_t& v) {
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || s.empty())
            throw UsageError(what + ": '" + std::string(s) + "' is not a number in 0.." +
                             std::to_string(UINT32_MAX) + " (expected a list like 1,3-4)");
    };
    for (const auto& part : splitList(text)) {
        auto dash = part.find('-');
        std::uint32_t lo = 0, hi = 0;
        if (dash == std::string::npos) {
            number(part, lo);
            hi = lo;
        } else {
            number(std::string_view(part).substr(0, dash), lo);
            number(std::string_view(part).substr(dash + 1), hi);
            if (hi < lo) throw UsageError(what + ": range '" + part + "' ends before it begins");
        }
        out.push_back({lo, hi});
    }
    if (out.empty()) throw UsageError(what + ": empty list (expected a list like 1,3-4)");
    return out;
}

} // namespace gpueff::cli
