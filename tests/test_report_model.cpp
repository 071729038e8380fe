// The report model (reports/model/): report.json read back through the one reader and written again by the
// one writer is the same document, and report.md rendered from a saved report.json is the report.md written
// by the analysis, on real traces of every input format that carries the families (NCCL and levels, MPI,
// HTA's figures of a Kineto trace) and on a Paraver trace without GPU rows.
#include "jobs/AnalyzeJob.h"
#include "metrics/Analysis.h"
#include "reports/ReportMarkdown.h"
#include "reports/model/ReportIo.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path analyzed(const fs::path& input) {
    auto out = testsupport::tempDir("report-model") / input.stem().stem();
    gpueff::jobs::AnalyzeRequest r;
    r.inputs = {input.string()};
    r.outDir = out.string();
    r.gemm = gpueff::metrics::kDefaultGemmPattern;
    r.quiet = true;
    r.writeTrace = false;
    gpueff::jobs::analyzeToDirectory(r);
    return out;
}

} // namespace

TEST_CASE(
    "report model: report.json round-trips through the reader and writer, report.md renders again alike") {
    auto data = testsupport::dataDir();
    for (const auto& input :
         {data / "nsys" / "mfu_2gpu_h100_nccl.sqlite", data / "nsys" / "saxpy_mpi_a100_rank0.sqlite",
          data / "kineto" / "trace_filter_sampled_rank-1.json.gz",
          // A trace without GPU rows: a report with no device at all reads back too (the
          // schema once required a device, so compare refused such reports).
          data / "paraver" / "epoch" / "epoch_2proc.prv.gz"}) {
        CAPTURE(input);
        auto dir = analyzed(input);
        json written = json::parse(slurp(dir / "report.json"));
        auto model = gpueff::reports::model::readReport(written, "report.json");
        CHECK(gpueff::reports::model::writeReport(model).dump(1) == written.dump(1)); // number types too
        gpueff::reports::model::Report::fields(model, [&](const char* key, auto&) {
            CAPTURE(key);
            CHECK(written.contains(key));
        });
        CHECK(gpueff::reports::renderMarkdownReport(model).markdown == slurp(dir / "report.md"));
    }
}
