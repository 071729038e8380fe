#include "engine/common/Error.h"
#include "tools/gpueff/Commands.h"

#include <charconv>
#include <cstdint>

namespace gpueff::cli {

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

} // namespace gpueff::cli
