#include "DashboardFixture.h"

#include "TestSupport.h"

#include <doctest/doctest.h>
#include <stdexcept>

namespace testsupport {

const std::filesystem::path& analyzedPair() {
    static const std::filesystem::path dir = [] {
        auto d = tempDir("dashboard_pair");
        for (const char* name : {"before", "after"}) {
            std::string sample =
                std::string("mfu_2gpu_h100_nccl") + (std::string(name) == "after" ? "_after" : "");
            auto r = run(quoted(gpueffBinary()) + " analyze " +
                         quoted(dataDir() / "nsys" / (sample + ".sqlite")) + " -q -o " + quoted(d / name));
            if (r.exitCode != 0) throw std::runtime_error("analyze failed: " + r.output);
        }
        return d;
    }();
    return dir;
}

nlohmann::json scriptData(const std::filesystem::path& file, const std::string& function) {
    auto text = readText(file);
    auto head = function + "(";
    if (text.rfind(head, 0) != 0 || text.size() < head.size() + 3 || text.substr(text.size() - 3) != ");\n")
        throw std::runtime_error(file.string() + ": not a call of " + function);
    return nlohmann::json::parse(text.substr(head.size(), text.size() - head.size() - 3));
}

UnitOracle unitOracle(const nlohmann::json& report) {
    UnitOracle o;
    double duration = 0;
    const double n = static_cast<double>(report["devices"].size());
    for (const char* c : {"nccl_as_communication", "nccl_as_useful"}) {
        double useful = 0, usefulMax = 0, activeMax = 0;
        duration = 0;
        o.steady = 0;
        for (const auto& it : report["iterations"]) {
            if (it["status"] != "steady") continue;
            ++o.steady;
            duration += it["duration_ns"].get<double>();
            const auto& e = it["efficiency"][c];
            useful += e["useful_sum_ns"].get<double>();
            usefulMax += e["useful_max_ns"].get<double>();
            activeMax += e["active_max_ns"].get<double>();
        }
        o.factors[c] = {{"parallel_efficiency", useful / (n * duration)},
                        {"load_balance", useful / (n * usefulMax)},
                        {"communication_efficiency", usefulMax / activeMax},
                        {"orchestration_efficiency", activeMax / duration}};
    }
    o.iterationNs = duration / static_cast<double>(o.steady);
    return o;
}

} // namespace testsupport
