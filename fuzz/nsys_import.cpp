// libFuzzer harness: the Nsight Systems importer on mutated SQLite images. The input is a whole database
// file, opened in memory with sqlite3_deserialize and translated into a scratch prefix; a gpueff::Error is
// a clean refusal, anything else escaping (or a sanitizer report) is a finding.
#include "engine/common/Error.h"
#include "engine/output/OutputFiles.h"
#include "fuzz/support/Scratch.h"
#include "jobs/Pipeline.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        gpueff::jobs::PipelineRequest request;
        request.import.inputs = {"fuzz.sqlite"};
        request.import.images.emplace_back(data, data + size);
        request.chain.prefix = fuzzsupport::scratch("nsys") / "trace";
        request.sidecar = true;
        // One thread: a finding replays the same way (the parallel path is tested by test_parallel_reports).
        request.import.jobs = 1;
        gpueff::output::OutputFiles files;
        gpueff::jobs::runPipeline(request, files, {});
        files.commit();
    } catch (const gpueff::Error& e) {
        // A refusal with a message is the expected outcome for most mutations; an input must never reach
        // an invariant check of the importer (those say "internal error").
        if (std::string(e.what()).find("internal error") != std::string::npos) {
            std::fprintf(stderr, "nsys_import: %s\n", e.what());
            std::abort();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nsys_import: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
