// libFuzzer harness: the runs file of `gpueff dashboard --runs` (jobs/DashboardInputs.h), the same bytes
// read as CSV and as JSON. gpueff::Error is a clean refusal; any other exception is a finding.
#include "engine/common/Error.h"
#include "jobs/DashboardInputs.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    for (bool csv : {true, false}) {
        try {
            auto runs = gpueff::jobs::parseRunsFile(text, "runs", csv);
            for (const auto& [key, a] : runs)
                if (key.empty() || (a.gpus && *a.gpus <= 0)) std::abort(); // both refused as faults
        } catch (const gpueff::Error&) {
        } catch (const std::exception& e) {
            std::fprintf(stderr, "unexpected exception: %s\n", e.what());
            std::abort();
        }
    }
    return 0;
}
