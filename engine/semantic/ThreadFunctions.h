#pragma once
#include "engine/semantic/Filter.h"
#include "engine/semantic/Interval.h"

#include <string>
#include <vector>

namespace gpueff::semantic {

// Paraver's thread-level semantic functions: what records they see (a mask of record type bits), the
// value they give an interval from its begin record, their parameters' defaults.
struct ThreadFunction {
    enum class Id {
        StateAsIs,
        Useful,
        StateSign,
        GivenState,
        InState,
        NotInState,
        StateRecordDur,
        LastEvtType,
        LastEvtVal,
        LastEvtValNoBursts,
        NextEvtType,
        NextEvtVal,
        AvgNextEvtVal,
        AvgLastEvtVal,
        GivenEvtVal,
        InEvtVal,
        NotInEvtVal,
        InEvtRange,
        IntBetweenEvt,
        EventBytes,
        EventSentBytes,
        LastTag,
        CommSize,
        CommRecvPartner,
        CommPartner,
        LastSendDur,
        NextRecvDur,
        LastSendSize,
        SendBytesInTransit,
        SendMessagesInTransit,
        RecvBytesInTransit,
        RecvMessagesInTransit,
        SendBandWidth,
        RecvBandWidth,
        RecvNegativeMessages,
        RecvNegativeBytes,
        NumberSends,
        NumberSendBytes,
        NumberReceives,
        NumberReceiveBytes,
        ApplicationId,
        TaskId,
        ThreadId,
        NodeId,
        CpuId,
        InApplId,
        InTaskId,
        InThreadId,
        InNodeId,
        InCpuId
    };
    Id id;
    const char* name;
    std::uint16_t mask;
    bool stateFunction; // sees state ends too when the trace fills state gaps
    InfoType info;
    std::vector<std::vector<double>> defaults;
};

// Looks a function up by its cfg name; throws naming it when Paraver has no such thread function or we do
// not implement it.
const ThreadFunction& threadFunction(const std::string& name, const std::string& where);

// Walks one thread's RecordStream.
class ThreadInterval : public Interval {
public:
    ThreadInterval(const TraceContext& context, std::uint32_t thread, const ThreadFunction& function,
                   std::vector<std::vector<double>> params, const Filter& filter, Unit unit,
                   Level windowLevel);
    void init() override;
    void next() override;

    // For the CPU walk, which reads this thread's records in a CPU's list: whether a record passes the
    // window's filter and the function's record mask (Paraver's validRecord; the same-time state check is
    // the walker's, over its own list), and the CPU of the current interval's begin record.
    bool passesMask(std::size_t pos) const { return passFilter(pos) && validType(pos); }
    bool fillsStateGaps() const { return function_.stateFunction; }
    std::uint32_t beginCpu() const { return cpuOf(beginPos_); }

private:
    bool passFilter(std::size_t pos) const;
    bool validType(std::size_t pos) const;
    bool valid(std::size_t pos) const;
    std::size_t nextValid(std::size_t pos) const;
    std::size_t nextEvent(std::size_t pos) const;
    double evaluate(std::size_t pos) const;
    double evaluateState(std::size_t pos) const;
    double evaluateEvent(std::size_t pos) const;
    double evaluateCommunication(std::size_t pos) const;
    double bytesToNextEvent(std::size_t pos, bool sentOnly) const;
    double bandwidth(std::size_t pos) const;
    double evaluateObject(std::size_t pos) const;
    std::uint32_t cpuOf(std::size_t pos) const;
    std::uint32_t nodeOfCpu(std::uint32_t cpu) const;
    double toWindow(double t) const;
    double firstParameter(std::size_t i) const;

    const TraceContext& context_;
    const paraver::ThreadRecords& records_;
    const paraver::RecordStream& stream_;
    std::uint32_t thread_;
    const ThreadFunction& function_;
    std::vector<std::vector<double>> params_;
    const Filter& filter_;
    Unit unit_;
    Level level_;
    std::size_t beginPos_ = 0, endPos_ = 0;
    // Send/Recv BandWidth: the running sum of bytes/time x 1e12 of the messages in transit, as Paraver keeps
    // it (a 64-bit integer per row; the value is the sum x 1e-12).
    mutable std::int64_t bandwidth_ = 0;
};

} // namespace gpueff::semantic
