#include "engine/pipeline/RecordSink.h"

#include "engine/common/Error.h"

#include <cstdlib>

namespace gpueff::pipeline {

std::string labelText(const std::function<void(std::FILE*)>& write) {
    // The writers take a FILE* (they also write the files): open_memstream gives one over memory.
    char* buffer = nullptr;
    std::size_t size = 0;
    std::FILE* f = open_memstream(&buffer, &size);
    if (!f) throw Error("out of memory for a trace's labels");
    try {
        if (write) write(f);
    } catch (...) {
        std::fclose(f);
        std::free(buffer);
        throw;
    }
    std::fclose(f);
    std::string text(buffer, size);
    std::free(buffer);
    return text;
}

} // namespace gpueff::pipeline
