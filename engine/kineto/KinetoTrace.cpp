#include "engine/kineto/KinetoTrace.h"

#include "engine/common/Error.h"

namespace gpueff::kineto {

KinetoTrace readKinetoTrace(const std::filesystem::path& input,
                            const std::function<void(std::uint64_t)>& progress) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(input, ec)) throw Error(input.string() + ": no such file");
    TableBuilder builder(input);
    KinetoTrace trace;
    trace.metadata = readChromeTrace(
        input, [&](const ChromeEvent& e) { builder.add(e); }, progress);
    trace.tables = std::make_shared<const KinetoTables>(builder.finish(trace.metadata));
    return trace;
}

} // namespace gpueff::kineto
