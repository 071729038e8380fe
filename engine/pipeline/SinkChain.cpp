#include "engine/pipeline/SinkChain.h"

#include "engine/common/Error.h"

namespace gpueff::pipeline {

SinkChain::SinkChain(output::OutputFiles& files, ChainRequest request) {
    std::vector<RecordSink*> sinks;
    if (!request.prefix.empty()) {
        prv_ = std::make_unique<PrvSink>(files, request.prefix);
        RecordSink* trace = prv_.get();
        if (request.traceEdit) {
            traceEdit_ = request.traceEdit(*prv_);
            trace = traceEdit_.get();
        }
        sinks.push_back(trace);
    }
    for (auto* s : request.sinks)
        if (s) sinks.push_back(s);
    if (sinks.empty()) throw Error("internal error: a pipeline without an output");
    tee_ = std::make_unique<Tee>(std::move(sinks));
    head_ = tee_.get();
    stages_.resize(request.stages.size());
    for (std::size_t i = request.stages.size(); i-- > 0;) {
        stages_[i] = request.stages[i](*head_);
        head_ = stages_[i].get();
    }
}

} // namespace gpueff::pipeline
