#pragma once
// A tiny hand-written Paraver trace and cfgs written as text, for semantic-function tests whose expected
// intervals are worked out by hand in the tests.
#include "engine/semantic/Cfg.h"
#include "engine/semantic/LoadedTrace.h"
#include "engine/semantic/Window.h"

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace testsupport {

using IntervalList = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;

struct SemanticFixture {
    // `prvBody`: records after the header; `header` the first line.
    SemanticFixture(const std::string& name, const std::string& header, const std::string& prvBody,
                    const std::string& pcf = "", const std::string& row = "");
    std::unique_ptr<gpueff::semantic::LoadedTrace> trace;
    std::string dir;
};

// A cfg with one single window: `functions` are window_selected_functions entries ("{thread, Useful}"),
// `extra` more window_ lines (filters, semantic modules, units).
std::string singleWindowCfg(const std::string& level, const std::string& functions,
                            const std::string& extra = "");

// All intervals of row `row` of the cfg's window `window` (0-based), from the trace start to the end.
IntervalList intervals(const SemanticFixture& f, const std::string& cfgText, std::size_t window,
                       std::size_t row);

} // namespace testsupport
