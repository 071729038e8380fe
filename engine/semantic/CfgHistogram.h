#pragma once
// The histogram lines of a cfg ("< NEW ANALYZER2D >" and the Analyzer2D./Analyzer3D. keys after it), read as
// paraver-kernel's CFGLoader reads them.
#include "engine/semantic/CfgReader.h"

#include <map>
#include <optional>

namespace gpueff::semantic {

class HistogramReader {
public:
    explicit HistogramReader(CfgReader& reader) : r_(reader) {}

    // "< NEW ANALYZER2D >": the histogram before it, if any, is finished into `cfg`.
    void start(Cfg& cfg);
    // One "Analyzer2D.Key: value" line. Returns false when paramedir would drop the histogram and stop reading
    // the cfg there (a value it cannot parse): then the cfg is read no further.
    bool line(const std::string& text, std::size_t windowCount);
    // At the end of the cfg: the histogram being read, if any, checked and stored in `cfg`.
    void finish(Cfg& cfg);
    bool open() const { return histogram_.has_value(); }

private:
    bool drop(const std::string& key, const std::string& why);
    const HistogramStatistic* statistic(const std::string& value);
    std::optional<std::vector<std::size_t>> objectList(const std::string& key, const std::string& value);
    void checkFixedScale(const HistogramSpec& h);
    std::size_t lineOf(const char* key, const HistogramSpec& h) const;

    CfgReader& r_;
    std::optional<HistogramSpec> histogram_;
    std::map<std::string, std::size_t> keyLines_; // line of each numeric key, for checks at the end
};

} // namespace gpueff::semantic
