// libFuzzer harness: Kineto traces through the whole importer. The input is a Chrome-trace JSON file, written
// to a scratch file and translated into a scratch prefix: the reader (JsonCursor, simdjson's On-Demand
// parser), the tables it builds (engine/kineto/KinetoTables) and the rows the record sources read of them
// (engine/nsys/KinetoRows). A gpueff::Error is a clean refusal; an "internal error", anything else escaping
// or a sanitizer report is a finding.
#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "jobs/Pipeline.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace {

// One scratch directory per process, removed at exit: every input overwrites the same files.
const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        auto d =
            std::filesystem::temp_directory_path() / ("gpueff-fuzz-kineto-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(scratch(), ec);
        });
        return d;
    }();
    return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto input = scratch() / "fuzz.json";
    std::ofstream(input, std::ios::binary)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    try {
        gpueff::jobs::PipelineRequest request;
        request.import.inputs = {input};
        request.chain.prefix = scratch() / "trace";
        request.sidecar = true;
        request.import.jobs = 1; // a finding replays the same way
        gpueff::output::OutputFiles files;
        gpueff::jobs::runPipeline(request, files, {});
        files.commit();
    } catch (const gpueff::Error& e) {
        // An invariant check says so at the start (a message may quote the input, which may say anything).
        if (std::string_view(e.what()).starts_with("internal error")) {
            std::fprintf(stderr, "kineto_import: %s\n", e.what());
            std::abort();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kineto_import: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
