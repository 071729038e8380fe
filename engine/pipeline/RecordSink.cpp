#include "engine/pipeline/RecordSink.h"

#include "engine/common/Error.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

namespace gpueff::pipeline {

namespace {

// Runs a label writer on a FILE* whose bytes go to `put` (glibc's fopencookie).
void writeThrough(const std::function<void(std::FILE*)>& write, void* cookie, cookie_write_function_t* put) {
    std::FILE* f = fopencookie(cookie, "w", cookie_io_functions_t{nullptr, put, nullptr, nullptr});
    if (!f) throw Error("out of memory for a trace's labels");
    try {
        write(f);
    } catch (...) {
        std::fclose(f);
        throw;
    }
    if (std::fclose(f) != 0) throw Error("out of memory for a trace's labels");
}

} // namespace

std::string labelText(const std::function<void(std::FILE*)>& write) {
    if (!write) return {};
    // Written twice, first to count its bytes, so that the text is held once at its size: a buffer grown as
    // it is written, then copied, held up to three times as much at once (800 MB for the .pcf of 4.7 M NVTX
    // ranges named each its own way, as PyTorch's op_ids name them).
    std::size_t size = 0;
    writeThrough(write, &size, [](void* cookie, const char*, std::size_t n) -> ssize_t {
        *static_cast<std::size_t*>(cookie) += n;
        return static_cast<ssize_t>(n);
    });
    std::string text;
    text.reserve(size);
    writeThrough(write, &text, [](void* cookie, const char* bytes, std::size_t n) -> ssize_t {
        static_cast<std::string*>(cookie)->append(bytes, n);
        return static_cast<ssize_t>(n);
    });
    if (text.size() != size) throw std::logic_error("labelText: a label writer wrote differently twice");
    return text;
}

void forEachLabelLine(const std::function<void(std::FILE*)>& write,
                      const std::function<void(std::string_view line)>& onLine) {
    if (!write) return;
    struct Lines {
        const std::function<void(std::string_view)>* onLine;
        std::string pending;       // the start of a line not yet ended
        std::exception_ptr thrown; // by onLine: not thrown through the C library's frames
    } lines{&onLine, {}, {}};
    auto put = [](void* cookie, const char* bytes, std::size_t n) -> ssize_t {
        auto& l = *static_cast<Lines*>(cookie);
        // 0, not -1: glibc takes a cookie writer's result as a count (a negative one made it read past the
        // caller's buffer); a short count marks the stream failed.
        if (l.thrown) return 0;
        try {
            std::string_view rest(bytes, n);
            for (auto eol = rest.find('\n'); eol != std::string_view::npos; eol = rest.find('\n')) {
                if (l.pending.empty()) {
                    (*l.onLine)(rest.substr(0, eol));
                } else {
                    l.pending.append(rest.substr(0, eol));
                    (*l.onLine)(l.pending);
                    l.pending.clear();
                }
                rest.remove_prefix(eol + 1);
            }
            l.pending.append(rest);
        } catch (...) {
            l.thrown = std::current_exception();
            return 0;
        }
        return static_cast<ssize_t>(n);
    };
    try {
        writeThrough(write, &lines, put);
    } catch (...) {
        if (!lines.thrown) throw;
    }
    if (lines.thrown) std::rethrow_exception(lines.thrown);
    if (!lines.pending.empty()) onLine(lines.pending);
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
