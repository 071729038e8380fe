#include "metrics/NamePattern.h"

#include <regex>

namespace gpueff::metrics {

struct NamePattern::Compiled {
    std::regex regex;
};

NamePattern::NamePattern(std::string text)
    : text_(std::move(text)),
      compiled_(std::make_shared<const Compiled>(
          Compiled{std::regex(text_, std::regex::ECMAScript | std::regex::icase | std::regex::optimize)})) {}

bool NamePattern::foundIn(const std::string& name) const {
    return std::regex_search(name, compiled_->regex);
}

bool NamePattern::matchesWhole(const std::string& name) const {
    return std::regex_match(name, compiled_->regex);
}

} // namespace gpueff::metrics
