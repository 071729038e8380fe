// libFuzzer harness: Kineto traces through the whole importer. The input is a Chrome-trace JSON file, written
// to a scratch file and translated into a scratch prefix: the reader (JsonCursor, simdjson's On-Demand
// parser), the tables it builds (engine/kineto/KinetoTables) and the rows the record sources read of them
// (engine/nsys/KinetoRows). A gpueff::Error is a clean refusal; an "internal error", anything else escaping
// or a sanitizer report is a finding.
#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "fuzz/support/Scratch.h"
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto input = fuzzsupport::scratch("kineto") / "fuzz.json";
    std::ofstream(input, std::ios::binary)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    try {
        gpueff::jobs::PipelineRequest request;
        request.import.inputs = {input};
        request.chain.prefix = fuzzsupport::scratch("kineto") / "trace";
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
