#include "engine/common/Error.h"
#include "engine/common/MemorySize.h"
#include "tools/gpueff/Commands.h"

#include <charconv>
#include <cstdint>

namespace gpueff::cli {

std::vector<reports::compare::Gate> parseGates(const std::vector<std::string>& texts) {
    std::vector<reports::compare::Gate> gates;
    for (const auto& g : texts) {
        try {
            gates.push_back(reports::compare::parseGate(g));
        } catch (const Error& e) {
            throw UsageError(e.what());
        }
    }
    return gates;
}

std::vector<std::string> labelList(const std::string& text) {
    std::vector<std::string> out;
    if (text.empty()) return out;
    std::size_t start = 0;
    while (true) {
        auto comma = text.find(',', start);
        out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].empty()) throw UsageError("--labels: label " + std::to_string(i + 1) + " is empty");
    return out;
}

std::set<std::string> splitList(const std::string& text) {
    std::set<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto comma = text.find(',', start);
        auto part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!part.empty()) out.insert(part);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

CLI::Validator fileNameValidator() {
    return CLI::Validator(
        [](std::string& name) -> std::string {
            if (name.empty()) return "must not be empty";
            if (name.find('/') != std::string::npos)
                return "must be a file name without '/', got '" + name + "'";
            if (name == "." || name == "..") return "must be a file name, got '" + name + "'";
            return "";
        },
        "NAME");
}

CLI::Validator nanosecondsValidator() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::int64_t value = 0;
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (ec == std::errc::result_out_of_range)
                return "must be an integer number of ns within int64, got '" + text + "'";
            if (ec != std::errc() || end != text.data() + text.size() || text.empty())
                return "must be a decimal integer number of ns, got '" + text + "'";
            return "";
        },
        "NS");
}

void addMemoryLimitOption(CLI::App* command, std::uint64_t& bytes, const std::string& what) {
    command
        ->add_option_function<std::string>(
            "--memory-limit", [&bytes](const std::string& text) { bytes = *parseMemorySize(text); }, what)
        ->type_name("SIZE")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                auto size = parseMemorySize(text);
                if (!size || *size == 0)
                    return "must be a size > 0 in bytes with an optional K, M, G or T suffix (e.g. 512M, "
                           "4G), "
                           "got '" +
                           text + "'";
                return "";
            },
            "SIZE"));
}

} // namespace gpueff::cli
