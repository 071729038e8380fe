#pragma once
#include "engine/nsys/NsysExport.h"
#include "engine/nsys/ReportContext.h"
#include "engine/nsys/Translator.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace gpueff::nsys {

// PREFIX.json beside the trace: inputs with versions and clock offsets, kinds translated, counts, and
// everything skipped with the reason (docs/events.md). `path` is where to write, `finalPath` names it in
// errors.
void writeSidecar(const std::filesystem::path& path, const std::filesystem::path& finalPath,
                  const std::string& prvName, const std::vector<std::unique_ptr<NsysExport>>& reports,
                  const std::vector<const SourceKind*>& kinds, const TranslateSummary& summary);

} // namespace gpueff::nsys
