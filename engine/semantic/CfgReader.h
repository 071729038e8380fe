#pragma once
// What the readers of a cfg's window lines and histogram lines share: where they are (file and line, for
// every message) and how a value is checked before it is used.
#include "engine/semantic/Cfg.h"

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace gpueff::semantic {

// A row index beyond any trace gpueff reads (the Paraver reader caps threads, tasks and CPUs at 1,000,000):
// the bound of every row number a cfg gives (Analyzer2D.Objects, window_zoom_objects).
inline constexpr std::size_t kMaxObjectIndex = 1'000'000'000;

class CfgReader {
public:
    CfgReader(std::string path, std::vector<std::string>& warnings) : path_(std::move(path)), warnings_(warnings) {}

    void at(std::size_t line, const std::string& text) {
        line_ = line;
        lineText_ = text;
    }
    const std::string& path() const { return path_; }
    std::size_t line() const { return line_; }

    // "a.cfg:12: why: <the line>"
    [[noreturn]] void fail(const std::string& why) const;
    // "a.cfg:12: Analyzer2D.Delta: must be a finite number > 0, got nan": the key, what it must be, and the
    // value as written.
    [[noreturn]] void badValue(const std::string& key, const std::string& what, const std::string& given,
                               std::size_t line = 0) const;
    // "a.cfg:12: what" among the cfg's warnings.
    void warn(const std::string& what, std::size_t line = 0) const;

    // `name` as it can go into text and JSON outputs: a name that is not UTF-8 gets its ill-formed bytes
    // replaced (U+FFFD), said in a warning ("window name ... is not UTF-8").
    std::string validName(const std::string& what, const std::string& name) const;

    double number(const std::string& key, const std::string& text) const;
    double finiteNumber(const std::string& key, const std::string& text) const;
    // A count or an index: a whole number in [lo, hi] (checked before any conversion to an integer).
    std::size_t wholeNumber(const std::string& key, const std::string& text, std::size_t lo, std::size_t hi,
                            const std::string& what) const;
    bool boolean(const std::string& text) const; // true/True, false/False

    static std::string shortNumber(double v);
    // Words left in `in`: a bound for counts a line announces (its values must follow on the same line).
    static std::size_t wordsLeft(std::istringstream& in);

protected:
    std::string path_;
    std::size_t line_ = 0;
    std::string lineText_;
    std::vector<std::string>& warnings_;
};

// Whether `key` is a cfg key Paraver 4.11 reads (CFGLoader's tags, the ConfigFile header keys and their old
// spellings, written without the ':' of the Analyzer2D keys). Anything else is ignored by Paraver, and named
// in a warning by gpueff.
bool isParaverCfgKey(const std::string& key);

} // namespace gpueff::semantic
