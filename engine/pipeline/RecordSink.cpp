#include "engine/pipeline/RecordSink.h"

#include "engine/common/Error.h"
#include "engine/common/WriteThrough.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gpueff::pipeline {

std::string labelText(const std::function<void(std::FILE*)>& write) {
    if (!write) return {};
    // Written twice, first to count its bytes, so that the text is held once at its size: a buffer grown as
    // it is written, then copied, held up to three times as much at once (800 MB for the .pcf of 4.7 M NVTX
    // ranges named each its own way, as PyTorch's op_ids name them).
    std::size_t size = 0;
    writeThrough(write, [&](std::string_view bytes) { size += bytes.size(); });
    std::string text;
    text.reserve(size);
    writeThrough(write, [&](std::string_view bytes) { text.append(bytes); });
    if (text.size() != size) throw std::logic_error("labelText: a label writer wrote differently twice");
    return text;
}

void forEachLabelLine(const std::function<void(std::FILE*)>& write,
                      const std::function<void(std::string_view line)>& onLine) {
    if (!write) return;
    std::string pending; // the start of a line not yet ended
    writeThrough(write, [&](std::string_view rest) {
        for (auto eol = rest.find('\n'); eol != std::string_view::npos; eol = rest.find('\n')) {
            if (pending.empty()) {
                onLine(rest.substr(0, eol));
            } else {
                pending.append(rest.substr(0, eol));
                onLine(pending);
                pending.clear();
            }
            rest.remove_prefix(eol + 1);
        }
        pending.append(rest);
    });
    if (!pending.empty()) onLine(pending);
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
