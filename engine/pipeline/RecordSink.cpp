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

std::vector<std::uint32_t> threadOfRows(const StreamInfo& info) {
    const auto firstThread = paraver::firstThreadOfTasks(info.header);
    const auto& apps = info.header.applications;
    std::vector<std::uint32_t> out;
    out.reserve(info.rows.size());
    for (const auto& a : info.rows) {
        if (a.appl == 0 || a.appl > apps.size() || a.task == 0 || a.task > apps[a.appl - 1].size() ||
            a.thread == 0 || a.thread > apps[a.appl - 1][a.task - 1].threads)
            throw Error("internal error: " + info.source + ": a row's thread is not in the stream's header");
        out.push_back(firstThread[a.appl - 1][a.task - 1] + a.thread - 1);
    }
    return out;
}

paraver::TraceLayout layoutInThreadOrder(const StreamInfo& info,
                                         const std::vector<std::uint32_t>& threadOfRow) {
    auto layout = info.layout;
    if (layout.rows.size() != threadOfRow.size()) return layout;
    std::vector<paraver::ThreadRow> rows(layout.rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) rows[threadOfRow[r]] = layout.rows[r];
    layout.rows = std::move(rows);
    for (auto& t : layout.tasks)
        for (auto& r : t.rows) r = threadOfRow[r];
    return layout;
}

} // namespace gpueff::pipeline
