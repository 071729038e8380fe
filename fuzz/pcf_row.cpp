// Fuzzes the .pcf and .row readers. The input is "<pcf>\0<row>" (no 0 byte: all .pcf). When the .row part
// starts with a "#Paraver" line, that header decides the SIZE each level must have, as LoadedTrace does;
// otherwise a fixed 2-thread, 1-task layout does. Every label must come out valid UTF-8 (nlohmann::json
// refuses to dump anything else, which is how `histogram --json` used to die).
#include "engine/common/Error.h"
#include "engine/paraver/TraceHeader.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/semantic/LoadedTrace.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

namespace paraver = gpueff::paraver;

std::map<std::string, std::size_t> expectedSizes(std::string& row) {
    if (row.rfind("#Paraver", 0) == 0) {
        auto nl = row.find('\n');
        auto header = paraver::parseHeader(row.substr(0, nl), "fuzz.prv", 512);
        row = nl == std::string::npos ? "" : row.substr(nl + 1);
        return gpueff::semantic::expectedRowSizes(header);
    }
    return {{"THREAD", 2}, {"TASK", 1}, {"APPL", 1}};
}

void parse(const std::string& input) {
    auto zero = input.find('\0');
    std::string pcf = input.substr(0, zero);
    std::string row = zero == std::string::npos ? "" : input.substr(zero + 1);
    paraver::TraceLabels labels;
    std::istringstream pcfIn(pcf);
    paraver::readPcf(pcfIn, "fuzz.pcf", labels);
    auto expected = expectedSizes(row);
    std::istringstream rowIn(row);
    paraver::readRow(rowIn, "fuzz.row", labels, expected);
    nlohmann::json j;
    for (const auto& [state, name] : labels.states) j["states"][std::to_string(state)] = name;
    for (const auto& [type, name] : labels.eventTypes) {
        j["types"][std::to_string(type)] = name;
        (void)labels.typesLabelled(name);
    }
    for (const auto& [type, values] : labels.eventValues)
        for (const auto& [value, name] : values)
            j["values"][std::to_string(type)][std::to_string(value)] = name;
    for (const auto& [level, names] : labels.rows) {
        for (std::size_t i = 0; i < names.size(); ++i) j["rows"][level].push_back(labels.rowName(level, i));
        auto want = expected.find(level);
        if (want != expected.end() && want->second != names.size()) {
            std::fprintf(stderr, "pcf_row: level %s has %zu names, the header says %zu\n", level.c_str(),
                         names.size(), want->second);
            std::abort();
        }
    }
    (void)j.dump(); // throws nlohmann::json::type_error on invalid UTF-8
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        parse(std::string(reinterpret_cast<const char*>(data), size));
    } catch (const gpueff::Error&) {
        // a clean refusal
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pcf_row: escaped: %s\n", e.what());
        std::abort();
    }
    return 0;
}
