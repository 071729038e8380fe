// Fuzzes the Kineto reader (Chrome-trace JSON: JsonCursor and simdjson's On-Demand parser) and its staging
// into the CUPTI tables (an SQLite database in memory) on bytes in memory. gpueff::Error is a clean refusal; anything else escaping aborts.
#include "engine/common/Error.h"
#include "engine/kineto/ChromeTrace.h"
#include "engine/kineto/CuptiStaging.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        gpueff::kineto::CuptiStaging staging(":memory:");
        auto metadata = gpueff::kineto::readChromeTrace(
            "fuzz.json", in, [&](const gpueff::kineto::ChromeEvent& e) { staging.add(e); });
        staging.finish(metadata, "fuzz.json");
    } catch (const gpueff::Error&) {
        // a clean refusal
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kineto_import: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
