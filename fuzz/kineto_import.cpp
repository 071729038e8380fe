// Fuzzes the Kineto reader (Chrome-trace JSON: JsonCursor and simdjson's On-Demand parser) and the tables it
// builds (engine/kineto/KinetoTables) on bytes in memory. gpueff::Error is a clean refusal; anything else
// escaping aborts.
#include "engine/common/Error.h"
#include "engine/kineto/ChromeTrace.h"
#include "engine/kineto/KinetoTables.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        gpueff::kineto::TableBuilder builder;
        auto metadata = gpueff::kineto::readChromeTrace(
            "fuzz.json", in, [&](const gpueff::kineto::ChromeEvent& e) { builder.add(e); });
        builder.finish(metadata, "fuzz.json");
    } catch (const gpueff::Error&) {
        // a clean refusal
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kineto_import: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
