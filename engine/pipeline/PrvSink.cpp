#include "engine/pipeline/PrvSink.h"

#include "engine/common/Error.h"
#include "engine/paraver/TraceWriter.h"

#include <cerrno>
#include <cstring>

namespace gpueff::pipeline {

std::filesystem::path withExtension(std::filesystem::path prefix, const char* ext) {
    prefix += ext;
    return prefix;
}

PrvSink::PrvSink(output::OutputFiles& files, std::filesystem::path prefix)
    : files_(files), prefix_(std::move(prefix)) {
    prv_ = files_.add(withExtension(prefix_, ".prv"));
    files_.add(withExtension(prefix_, ".pcf"));
    files_.add(withExtension(prefix_, ".row"));
}

PrvSink::~PrvSink() = default;

void PrvSink::begin(const StreamInfo& info) {
    writer_ = std::make_unique<paraver::PrvWriter>(files_.temporary(prv_), paraver::formatHeader(info.header),
                                                   info.rows);
    for (const auto& c : info.communicatorLines) writer_->writeLine(c);
    for (const auto& c : paraver::commentLines(info.provenance, info.comments)) writer_->writeLine(c);
}

void PrvSink::end(const StreamLabels& labels) {
    writer_->close();
    bytes_ = writer_->bytesWritten();
    writer_.reset();
    writeLabelFile(labels.writePcf, files_.temporary(prv_ + 1), files_.final(prv_ + 1));
    writeLabelFile(labels.writeRow, files_.temporary(prv_ + 2), files_.final(prv_ + 2));
}

void writeLabelFile(const std::function<void(std::FILE*)>& write, const std::filesystem::path& path,
                    const std::filesystem::path& shown) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw Error(shown.string() + ": cannot open for writing: " + std::strerror(errno));
    try {
        if (write) write(f);
    } catch (...) {
        std::fclose(f);
        throw;
    }
    bool failed = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || failed) throw Error(shown.string() + ": write failed");
}

} // namespace gpueff::pipeline
