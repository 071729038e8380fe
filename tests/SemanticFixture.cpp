#include "SemanticFixture.h"

#include "TestSupport.h"

#include <fstream>

namespace testsupport {

SemanticFixture::SemanticFixture(const std::string& name, const std::string& header,
                                 const std::string& prvBody, const std::string& pcf, const std::string& row) {
    auto d = tempDir("semantic_" + name);
    dir = d.string();
    std::ofstream(d / "t.prv") << header << "\n" << prvBody;
    if (!pcf.empty()) std::ofstream(d / "t.pcf") << pcf;
    if (!row.empty()) std::ofstream(d / "t.row") << row;
    trace = gpueff::semantic::LoadedTrace::load(d / "t.prv");
}

std::string singleWindowCfg(const std::string& level, const std::string& functions,
                            const std::string& extra) {
    return "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n\n"
           "< NEW DISPLAYING WINDOW w >\nwindow_name w\nwindow_type single\nwindow_id 1\n"
           "window_units Nanoseconds\nwindow_level " +
           level + "\nwindow_selected_functions { 1, { " + functions + " } }\n" + extra;
}

IntervalList intervals(const SemanticFixture& f, const std::string& cfgText, std::size_t window,
                       std::size_t row) {
    auto cfg = gpueff::semantic::parseCfgText(cfgText, "test.cfg");
    gpueff::semantic::WindowSet windows(cfg, f.trace->context());
    auto i = windows.makeRow(window, row);
    i->init();
    IntervalList out;
    auto end = f.trace->context().endTime;
    out.emplace_back(i->begin, i->end, i->value);
    while (i->begin < end) {
        i->next();
        out.emplace_back(i->begin, i->end, i->value);
    }
    return out;
}

} // namespace testsupport
