#pragma once
// The patterns of names a user gives the analysis (--gemm-pattern: kernel names; --iterations: NVTX range
// names): one dialect for all of them, ECMAScript (std::regex's default grammar, JavaScript's: \d, \b, (?:),
// lookahead), case-insensitive. Compiled once, where the request is read, so that a bad pattern is refused
// before any work; the metrics receive it compiled.
#include <memory>
#include <string>

namespace gpueff::metrics {

class NamePattern {
public:
    // Throws std::regex_error when `text` is not an ECMAScript regular expression (the caller that read it
    // names the option).
    explicit NamePattern(std::string text);

    const std::string& text() const { return text_; } // as given, for the report to quote
    bool foundIn(const std::string& name) const;      // matches some part of the name
    bool matchesWhole(const std::string& name) const; // matches the whole name

private:
    struct Compiled;
    std::string text_;
    std::shared_ptr<const Compiled> compiled_; // shared by copies: std::regex is costly to copy
};

} // namespace gpueff::metrics
