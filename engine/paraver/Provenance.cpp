#include "engine/paraver/Provenance.h"

#include <charconv>
#include <string_view>

namespace gpueff::paraver {

namespace {

constexpr std::string_view kGpueff = "# gpueff ";
constexpr std::string_view kTranslate = " translate: time 0 = ";
constexpr std::string_view kSinceEpoch = " ns since the UNIX epoch (UTC)";
constexpr std::string_view kSee = "; see ";
constexpr std::string_view kCutLine = "# gpueff cut: time 0 = ";

bool consume(std::string_view& line, std::string_view prefix) {
    if (line.substr(0, prefix.size()) != prefix) return false;
    line.remove_prefix(prefix.size());
    return true;
}

bool consumeInteger(std::string_view& line, std::int64_t& value) {
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
    if (ec != std::errc()) return false;
    line.remove_prefix(static_cast<std::size_t>(end - line.data()));
    return true;
}

std::optional<Translation> parseTranslation(std::string_view line) {
    Translation t;
    if (!consume(line, kGpueff)) return std::nullopt;
    auto space = line.find(' ');
    if (space == 0 || space == std::string_view::npos) return std::nullopt;
    t.version = std::string(line.substr(0, space));
    line.remove_prefix(space);
    if (!consume(line, kTranslate) || !consumeInteger(line, t.originUtcNs) || !consume(line, kSinceEpoch))
        return std::nullopt;
    if (line.empty()) return t;
    if (!consume(line, kSee) || line.empty()) return std::nullopt;
    t.sidecar = std::string(line);
    return t;
}

std::optional<Cut> parseCut(std::string_view line) {
    Cut cut;
    if (!consume(line, kCutLine) || !consumeInteger(line, cut.shift) || cut.shift < 0) return std::nullopt;
    auto of = line.find(" of ");
    if (line.empty() || line.front() != ' ' || of == std::string_view::npos || of < 2) return std::nullopt;
    cut.unit = std::string(line.substr(1, of - 1));
    cut.source = std::string(line.substr(of + 4));
    return cut;
}

} // namespace

std::optional<CutOrigin> Provenance::cutOrigin() const {
    if (cuts.empty() || !cutsReadable) return std::nullopt;
    CutOrigin origin;
    origin.unit = cuts.front().unit;
    origin.source = cuts.front().source;
    for (const auto& cut : cuts) {
        if (cut.unit != origin.unit) return std::nullopt;
        if (__builtin_add_overflow(origin.shift, cut.shift, &origin.shift)) return std::nullopt;
    }
    origin.cuts = cuts.size();
    return origin;
}

Provenance readProvenance(const std::vector<std::string>& comments, std::vector<std::string>* others) {
    Provenance p;
    for (const auto& c : comments) {
        if (c.starts_with(kCutLine)) {
            if (auto cut = parseCut(c)) {
                p.cuts.push_back(std::move(*cut));
                continue;
            }
            p.cutsReadable = false;
        } else if (!p.translation) {
            if (auto t = parseTranslation(c)) {
                p.translation = std::move(*t);
                continue;
            }
        }
        if (others) others->push_back(c);
    }
    return p;
}

std::vector<std::string> commentLines(const Provenance& provenance, const std::vector<std::string>& others) {
    std::vector<std::string> lines;
    if (const auto& t = provenance.translation) {
        std::string line = std::string(kGpueff) + t->version + std::string(kTranslate) +
                           std::to_string(t->originUtcNs) + std::string(kSinceEpoch);
        if (!t->sidecar.empty()) line += std::string(kSee) + t->sidecar;
        lines.push_back(std::move(line));
    }
    lines.insert(lines.end(), others.begin(), others.end());
    for (const auto& cut : provenance.cuts)
        lines.push_back(std::string(kCutLine) + std::to_string(cut.shift) + " " + cut.unit + " of " +
                        cut.source);
    return lines;
}

} // namespace gpueff::paraver
