#include "tools/gpueff/TraceStream.h"

#include "engine/common/Error.h"
#include "engine/nsys/Translator.h"
#include "engine/paraver/OutputFiles.h"
#include "engine/pipeline/PrvSink.h"
#include "engine/pipeline/PrvSource.h"
#include "engine/semantic/LoadedTrace.h"
#include "tools/gpueff/Commands.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace gpueff::cli {

bool paraverInput(const TraceStreamJob& job) {
    if (job.inputs.empty()) throw UsageError(job.command + ": no input given");
    bool prv = semantic::isParaverTrace(job.inputs.front());
    for (const auto& in : job.inputs)
        if (semantic::isParaverTrace(in) != prv)
            throw UsageError(job.command + ": " + in + ": a Paraver trace cannot be mixed with nsys exports");
    if (prv && job.inputs.size() > 1)
        throw UsageError(job.command + " takes one Paraver trace (or several nsys exports)");
    if (prv && (!job.only.empty() || !job.skip.empty()))
        throw UsageError(job.command +
                         ": --only/--skip select record kinds of nsys exports; for a Paraver trace "
                         "use --types/--drop-types");
    return prv;
}

std::uint64_t streamTrace(const TraceStreamJob& job, const std::vector<StageFactory>& stages,
                          pipeline::RecordSink* sink) {
    bool prv = paraverInput(job);
    auto start = std::chrono::steady_clock::now();
    OutputFiles files;
    std::unique_ptr<pipeline::PrvSink> prvSink;
    if (!job.prefix.empty()) prvSink = std::make_unique<pipeline::PrvSink>(files, job.prefix);
    std::vector<pipeline::RecordSink*> sinks;
    if (prvSink) sinks.push_back(prvSink.get());
    if (sink) sinks.push_back(sink);
    pipeline::Tee tee(sinks);
    bool tty = !job.quiet && ::isatty(STDERR_FILENO);
    std::uint64_t bytes = 0, records = 0;
    if (prv) {
        std::vector<std::unique_ptr<pipeline::RecordSink>> made(stages.size());
        pipeline::RecordSink* head = &tee;
        for (std::size_t i = stages.size(); i-- > 0;) {
            made[i] = stages[i](*head);
            head = made[i].get();
        }
        pipeline::PrvSourceOptions o;
        if (tty)
            o.progress = [&job](std::uint64_t done, std::uint64_t total) {
                if (total > 0)
                    std::fprintf(stderr, "\r%s: %.0f%% of %s (%.0f MB)\x1b[K", job.command.c_str(),
                                 100.0 * static_cast<double>(done) / static_cast<double>(total),
                                 job.inputs.front().c_str(), static_cast<double>(total) / 1e6);
            };
        auto s = pipeline::streamPrv(job.inputs.front(), *head, o);
        if (tty) std::fputs("\r\x1b[K", stderr);
        std::error_code ec;
        bytes = std::filesystem::file_size(job.inputs.front(), ec);
        records = s.records;
        if (s.recordsAfterEnd && !job.quiet)
            std::fprintf(stderr, "gpueff: warning: %s: %llu records after the header's end time\n",
                         job.inputs.front().c_str(), static_cast<unsigned long long>(s.recordsAfterEnd));
    } else {
        nsys::TranslateOptions o;
        for (const auto& in : job.inputs) o.inputs.push_back(exportedSqlite(in));
        o.only = job.only;
        o.skip = job.skip;
        o.progress = !job.quiet;
        o.stages = stages;
        o.warn = [](const std::string& line) { std::fprintf(stderr, "gpueff: warning: %s\n", line.c_str()); };
        auto log = [quiet = job.quiet](const std::string& line) {
            if (!quiet) std::fprintf(stderr, "gpueff: %s\n", line.c_str());
        };
        auto s = nsys::translate(o, log, files, &tee);
        records = s.records;
    }
    if (prvSink) files.commit();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (prvSink && !job.quiet)
        std::fprintf(stderr, "gpueff: wrote %s.prv (%.1f MB), .pcf and .row in %.2f s\n", job.prefix.c_str(),
                     static_cast<double>(prvSink->bytes()) / 1e6, secs);
    if (job.stats && prvSink)
        std::printf("records_in=%llu bytes_in=%llu bytes_out=%llu seconds=%.4f MB_per_s=%.1f\n",
                    static_cast<unsigned long long>(records), static_cast<unsigned long long>(bytes),
                    static_cast<unsigned long long>(prvSink->bytes()), secs,
                    static_cast<double>(bytes) / 1e6 / secs);
    return bytes;
}

void addStreamInputs(CLI::App* cmd, TraceStreamJob& job) {
    cmd->add_option("inputs", job.inputs,
                    "nsys SQLite exports (several: one run, merged like `translate`), or one Paraver trace "
                    "(.prv/.prv.gz) with its .pcf and .row beside it")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", job.prefix, "output prefix: writes PREFIX.prv, PREFIX.pcf, PREFIX.row")
        ->required();
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
