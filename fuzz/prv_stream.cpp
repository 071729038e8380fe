// Fuzzes the streaming Paraver importer and the cut and filter stages: text -> PrvSource -> FilterStage
// (types, rows, minimum duration) -> CutStage -> a sink checking what a writer relies on. gpueff::Error is a
// clean refusal; anything else escaping, or a broken invariant, aborts.
#include "engine/common/Error.h"
#include "engine/pipeline/CutStage.h"
#include "engine/pipeline/FilterStage.h"
#include "engine/pipeline/PrvSource.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace {

namespace pipeline = gpueff::pipeline;

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "prv_stream: invariant broken: %s\n", what);
    std::abort();
}

// Every record inside the cut window, on a declared row, with at most kMaxPairs pairs.
class Check : public pipeline::RecordSink {
public:
    void begin(const pipeline::StreamInfo& info) override {
        rows_ = info.rows.size();
        end_ = info.header.endTime;
        require(end_ >= 0, "end time >= 0");
    }
    void consume(const pipeline::TraceRecord& r) override {
        require(r.pairCount <= pipeline::TraceRecord::kMaxPairs, "pairs");
        require(r.row < rows_, "row declared");
        if (r.isCommunication) {
            const auto& c = r.comm;
            require(c.sendRow < rows_ && c.recvRow < rows_, "communication rows declared");
            for (auto t : {c.logicalSend, c.physicalSend, c.logicalRecv, c.physicalRecv})
                require(t >= 0 && t <= end_, "communication inside the window");
        } else {
            require(r.time >= 0 && r.time <= end_, "record inside the window");
            if (r.isState) require(r.state.end >= r.time && r.state.end <= end_, "state inside the window");
        }
    }
    void end(const pipeline::StreamLabels&) override {}

private:
    std::size_t rows_ = 0;
    std::int64_t end_ = 0;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    for (bool lenient : {false, true}) {
        try {
            Check check;
            pipeline::CutStage cut(check, 1, std::nullopt, "fuzz");
            pipeline::FilterOptions o;
            o.minDuration = 3;
            o.dropTypes = {{9200, 9200}};
            o.tasks = {{1, 1}};
            pipeline::FilterStage filter(cut, o);
            pipeline::PrvSourceOptions so;
            so.lenient = lenient;
            pipeline::streamPrvText(text, "fuzz.prv", filter, so);
            break;
        } catch (const gpueff::Error&) {
            // a clean refusal
        } catch (const std::exception& e) {
            std::fprintf(stderr, "prv_stream: %s escaped: %s\n", lenient ? "lenient" : "strict", e.what());
            std::abort();
        }
    }
    return 0;
}
