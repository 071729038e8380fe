#include "engine/semantic/ThreadFunctions.h"

#include "engine/common/Error.h"
#include "engine/semantic/CpuRecords.h"

#include <cmath>
#include <set>

namespace gpueff::semantic {

using namespace paraver::RecordBits;
using Id = ThreadFunction::Id;

namespace {

constexpr std::uint16_t kStateMask = State | Begin; // without filling gaps; with it, every state record

const std::vector<ThreadFunction>& catalogue() {
    static const std::vector<ThreadFunction> functions = {
        {Id::StateAsIs, "State As Is", kStateMask, true, InfoType::State, {}},
        {Id::Useful, "Useful", kStateMask, true, InfoType::State, {}},
        {Id::StateSign, "State Sign", kStateMask, true, InfoType::None, {}},
        {Id::GivenState, "Given State", kStateMask, true, InfoType::State, {{1}}},
        {Id::InState, "In State", kStateMask, true, InfoType::None, {{1}}},
        {Id::NotInState, "Not In State", kStateMask, true, InfoType::None, {{1}}},
        {Id::StateRecordDur, "State Record Dur.", kStateMask, true, InfoType::Time, {{1}}},
        {Id::LastEvtType, "Last Evt Type", Event, false, InfoType::EventType, {}},
        {Id::LastEvtVal, "Last Evt Val", Event, false, InfoType::EventValue, {}},
        {Id::LastEvtValNoBursts, "Last Evt Val w/o Bursts", Event, false, InfoType::EventValue, {}},
        {Id::NextEvtType, "Next Evt Type", Event, false, InfoType::EventType, {}},
        {Id::NextEvtVal, "Next Evt Val", Event, false, InfoType::EventValue, {}},
        {Id::AvgNextEvtVal, "Avg Next Evt Val", Event, false, InfoType::None, {{1}}},
        {Id::AvgLastEvtVal, "Avg Last Evt Val", Event, false, InfoType::None, {{1}}},
        {Id::GivenEvtVal, "Given Evt Val", Event, false, InfoType::EventValue, {{1}}},
        {Id::InEvtVal, "In Evt Val", Event, false, InfoType::None, {{1}}},
        {Id::NotInEvtVal, "Not In Evt Val", Event, false, InfoType::None, {{1}}},
        {Id::InEvtRange, "In Evt Range", Event, false, InfoType::None, {{0}, {1}}},
        {Id::IntBetweenEvt, "Int. Between Evt", Event, false, InfoType::Time, {}},
        {Id::EventBytes, "Event Bytes", Event, false, InfoType::CommSize, {}},
        {Id::EventSentBytes, "Event Sent Bytes", Event, false, InfoType::CommSize, {}},
        {Id::LastTag, "Last Tag", Comm | Physical | Recv, false, InfoType::CommTag, {}},
        {Id::CommSize, "Comm Size", Comm, false, InfoType::CommSize, {}},
        {Id::CommRecvPartner, "Comm Recv. Partner", Comm | Recv, false, InfoType::Object, {}},
        {Id::CommPartner, "Comm Partner", Comm | Send, false, InfoType::Object, {}},
        {Id::LastSendDur, "Last Send Dur.", Comm | Logical | Send, false, InfoType::Time, {}},
        {Id::NextRecvDur, "Next Recv Dur.", Comm | Logical | Recv, false, InfoType::Time, {}},
        {Id::LastSendSize, "Last Send Size", Comm | Logical | Send, false, InfoType::CommSize, {}},
        {Id::SendBytesInTransit,
         "Send Bytes in Transit",
         Comm | Send | RemoteRecv,
         false,
         InfoType::CommSize,
         {}},
        {Id::SendMessagesInTransit,
         "Send Messages in Transit",
         Comm | Send | RemoteRecv,
         false,
         InfoType::None,
         {}},
        {Id::RecvBytesInTransit,
         "Recv Bytes in Transit",
         Comm | Recv | RemoteSend,
         false,
         InfoType::CommSize,
         {}},
        {Id::RecvMessagesInTransit,
         "Recv Messages in Transit",
         Comm | Recv | RemoteSend,
         false,
         InfoType::None,
         {}},
        {Id::SendBandWidth, "Send BandWidth", Comm | Send | RemoteRecv, false, InfoType::Bandwidth, {{1}}},
        {Id::RecvBandWidth, "Recv BandWidth", Comm | Recv | RemoteSend, false, InfoType::Bandwidth, {{1}}},
        {Id::RecvNegativeMessages,
         "Recv Negative Messages",
         Comm | Recv | RemoteSend,
         false,
         InfoType::None,
         {}},
        {Id::RecvNegativeBytes,
         "Recv Negative Bytes",
         Comm | Recv | RemoteSend,
         false,
         InfoType::CommSize,
         {}},
        {Id::NumberSends, "Number Of Sends", Comm | Send, false, InfoType::None, {}},
        {Id::NumberSendBytes, "Number Of Send Bytes", Comm | Send, false, InfoType::CommSize, {}},
        {Id::NumberReceives, "Number Of Receives", Comm | Recv, false, InfoType::None, {}},
        {Id::NumberReceiveBytes, "Number Of Receive Bytes", Comm | Recv, false, InfoType::CommSize, {}},
        {Id::ApplicationId, "Application ID", State | Event, false, InfoType::Application, {}},
        {Id::TaskId, "TaskID", State | Event, false, InfoType::Task, {}},
        {Id::ThreadId, "Thread ID", State | Event, false, InfoType::Thread, {}},
        {Id::NodeId, "Node ID", State | Event, false, InfoType::Node, {}},
        {Id::CpuId, "Cpu ID", State | Event, false, InfoType::Cpu, {}},
        {Id::InApplId, "In Appl ID", State | Event, false, InfoType::None, {{1}}},
        {Id::InTaskId, "In Task ID", State | Event, false, InfoType::None, {{1}}},
        {Id::InThreadId, "In Thread ID", State | Event, false, InfoType::None, {{1}}},
        {Id::InNodeId, "In Node ID", State | Event, false, InfoType::None, {{1}}},
        {Id::InCpuId, "In Cpu ID", State | Event, false, InfoType::None, {{1}}},
    };
    return functions;
}

bool contains(const std::vector<double>& list, double v) {
    for (auto x : list)
        if (x == v) return true;
    return false;
}

} // namespace

const ThreadFunction& threadFunction(const std::string& name, const std::string& where) {
    for (const auto& f : catalogue())
        if (name == f.name) return f;
    throw Error(where + ": unknown thread function '" + name + "'");
}

ThreadInterval::ThreadInterval(const TraceContext& context, std::uint32_t thread,
                               const ThreadFunction& function, std::vector<std::vector<double>> params,
                               const Filter& filter, Unit unit, Level windowLevel)
    : context_(context), records_(context.trace.threads[thread]), stream_(context.trace.walkingOrder(thread)),
      thread_(thread), function_(function), params_(std::move(params)), filter_(filter), unit_(unit),
      level_(windowLevel) {
    for (std::size_t i = params_.size(); i < function_.defaults.size(); ++i)
        params_.push_back(function_.defaults[i]);
}

// The first value of parameter `i`; a cfg may give an empty list ("{ 1, { 0 } }"), which means the
// function's default.
double ThreadInterval::firstParameter(std::size_t i) const {
    if (i < params_.size() && !params_[i].empty()) return params_[i][0];
    const auto& d = function_.defaults;
    return i < d.size() && !d[i].empty() ? d[i][0] : 0.0;
}

double ThreadInterval::toWindow(double t) const {
    return toWindowUnits(t, context_.trace.header.unit, unit_);
}

bool ThreadInterval::passFilter(std::size_t pos) const {
    auto type = stream_.type[pos];
    if (type & Event) {
        if (type == Empty) return filter_.passEvent(0, 0);
        auto i = stream_.index[pos];
        return filter_.passEvent(records_.eventType[i], records_.eventValue[i]);
    }
    if (type & (Comm | RemoteSend | RemoteRecv))
        return filter_.passCommunication(context_.trace, stream_.index[pos], type, context_.objects, level_,
                                         toWindow(1.0));
    return true;
}

// Paraver's SemanticThread::validRecord: the record's type against the function's mask.
bool ThreadInterval::validType(std::size_t pos) const {
    auto type = stream_.type[pos];
    if (type == Empty) return true;
    std::uint16_t mask = function_.mask;
    if (function_.stateFunction) mask = State; // the trace fills state gaps (Paraver's default)
    if (mask == (State | Event) && (type & (State | Event))) return true;
    if (mask & RemoteSend) {
        if (type & RemoteSend) return true;
        mask &= static_cast<std::uint16_t>(~RemoteSend);
    } else if (mask & RemoteRecv) {
        if (type & RemoteRecv) return true;
        mask &= static_cast<std::uint16_t>(~RemoteRecv);
    }
    return (mask & type) == mask;
}

// Plus fill-state-gaps: a state end counts only when no state begins at the same time after it (an idle
// gap opens there).
bool ThreadInterval::valid(std::size_t pos) const {
    if (!validType(pos)) return false;
    auto type = stream_.type[pos];
    if (type != Empty && fillsStateGaps() && (type & State) && (type & End)) {
        auto t = stream_.time[pos];
        for (std::size_t p = pos + 1; p < stream_.size() && stream_.time[p] == t; ++p)
            if ((stream_.type[p] & State) && (stream_.type[p] & Begin) && stream_.type[p] != Empty)
                return false;
    }
    return true;
}

std::size_t ThreadInterval::nextValid(std::size_t pos) const {
    auto last = stream_.size() - 1;
    // Both tests are pure: the record type's test first, as it is the cheaper and drops most records (a
    // line's filter reads the line itself, a load from another array).
    for (++pos; pos < last; ++pos)
        if (valid(pos) && passFilter(pos)) return pos;
    return last; // the empty record at the trace end
}

// The next event after `pos` that passes the filter (the trailing empty record counts as an event with
// type and value 0, as in Paraver), or size() when there is none.
std::size_t ThreadInterval::nextEvent(std::size_t pos) const {
    for (++pos; pos < stream_.size(); ++pos)
        if ((stream_.type[pos] & Event) && passFilter(pos)) return pos;
    return stream_.size();
}

void ThreadInterval::init() {
    value = 0.0;
    bandwidth_ = 0;
    beginPos_ = 0;
    endPos_ = nextValid(0);
    begin = stream_.time[beginPos_];
    end = stream_.time[endPos_];
    value = evaluate(beginPos_);
}

void ThreadInterval::next() {
    auto last = stream_.size() - 1;
    beginPos_ = endPos_;
    endPos_ = beginPos_ >= last ? last : nextValid(beginPos_);
    begin = stream_.time[beginPos_];
    end = stream_.time[endPos_];
    value = evaluate(beginPos_);
}

std::uint32_t ThreadInterval::cpuOf(std::size_t pos) const {
    return recordCpu(context_.trace, records_, pos);
}

std::uint32_t ThreadInterval::nodeOfCpu(std::uint32_t cpu) const {
    const auto& nodes = context_.objects.cpuNode;
    if (cpu == 0 || cpu > nodes.size()) return 0;
    return nodes[cpu - 1] + 1;
}

double ThreadInterval::evaluate(std::size_t pos) const {
    switch (function_.id) {
    case Id::StateAsIs:
    case Id::Useful:
    case Id::StateSign:
    case Id::GivenState:
    case Id::InState:
    case Id::NotInState:
    case Id::StateRecordDur:
        return evaluateState(pos);
    case Id::LastEvtType:
    case Id::LastEvtVal:
    case Id::LastEvtValNoBursts:
    case Id::NextEvtType:
    case Id::NextEvtVal:
    case Id::AvgNextEvtVal:
    case Id::AvgLastEvtVal:
    case Id::GivenEvtVal:
    case Id::InEvtVal:
    case Id::NotInEvtVal:
    case Id::InEvtRange:
    case Id::IntBetweenEvt:
    case Id::EventBytes:
    case Id::EventSentBytes:
        return evaluateEvent(pos);
    case Id::ApplicationId:
    case Id::TaskId:
    case Id::ThreadId:
    case Id::NodeId:
    case Id::CpuId:
    case Id::InApplId:
    case Id::InTaskId:
    case Id::InThreadId:
    case Id::InNodeId:
    case Id::InCpuId:
        return evaluateObject(pos);
    default:
        return evaluateCommunication(pos);
    }
}

double ThreadInterval::evaluateState(std::size_t pos) const {
    auto type = stream_.type[pos];
    if (type == Empty) return 0;
    bool isEnd = (type & End) != 0;
    double state = isEnd ? 0 : records_.stateValue[stream_.index[pos]];
    const auto& values = params_.empty() ? std::vector<double>{} : params_[0];
    switch (function_.id) {
    case Id::StateAsIs:
        return state;
    case Id::Useful:
        return !isEnd && state == 1 ? 1 : 0;
    case Id::StateSign:
        return !isEnd && state != 0 ? 1 : 0;
    case Id::GivenState:
        return !isEnd && contains(values, state) ? state : 0;
    case Id::InState:
        return contains(values, state) ? 1 : 0;
    case Id::NotInState:
        return contains(values, state) ? 0 : 1;
    case Id::StateRecordDur: {
        if (!contains(values, state)) return 0;
        double duration = 0;
        if (isEnd) {
            // time to the next state begin
            auto t = stream_.time[pos];
            duration = static_cast<double>(t);
            for (std::size_t p = pos + 1; p < stream_.size(); ++p)
                if ((stream_.type[p] & State) && (stream_.type[p] & Begin) && stream_.type[p] != Empty) {
                    duration = static_cast<double>(stream_.time[p] - t);
                    break;
                }
        } else {
            auto i = stream_.index[pos];
            duration = static_cast<double>(records_.stateEnd[i] - records_.stateBegin[i]);
        }
        return toWindow(duration);
    }
    default:
        return 0;
    }
}

double ThreadInterval::evaluateEvent(std::size_t pos) const {
    auto type = stream_.type[pos];
    bool empty = type == Empty;
    auto eventType = [&](std::size_t p) -> double {
        return stream_.type[p] == Empty ? 0.0 : records_.eventType[stream_.index[p]];
    };
    auto eventValue = [&](std::size_t p) -> double {
        return stream_.type[p] == Empty ? 0.0 : static_cast<double>(records_.eventValue[stream_.index[p]]);
    };
    const auto& values = params_.empty() ? std::vector<double>{} : params_[0];
    switch (function_.id) {
    case Id::LastEvtType:
        return empty ? 0 : eventType(pos);
    case Id::LastEvtVal:
        return empty ? 0 : eventValue(pos);
    case Id::LastEvtValNoBursts: {
        if (empty) return 0;
        double v = eventValue(pos);
        return v == 0 ? value : v;
    }
    case Id::NextEvtType:
    case Id::NextEvtVal: {
        auto n = nextEvent(pos);
        if (n >= stream_.size()) return 0;
        return function_.id == Id::NextEvtType ? eventType(n) : eventValue(n);
    }
    case Id::AvgNextEvtVal:
    case Id::AvgLastEvtVal: {
        if (empty && function_.id == Id::AvgLastEvtVal) return 0;
        auto n = nextEvent(pos);
        if (n >= stream_.size()) return 0;
        double dt = static_cast<double>(stream_.time[n] - stream_.time[pos]);
        if (dt == 0) return 0;
        dt = toWindow(dt);
        double v = function_.id == Id::AvgNextEvtVal ? eventValue(n) : eventValue(pos);
        return v * firstParameter(0) / dt;
    }
    case Id::GivenEvtVal:
        return !empty && contains(values, eventValue(pos)) ? eventValue(pos) : 0;
    case Id::InEvtVal:
        return !empty && contains(values, eventValue(pos)) ? 1 : 0;
    case Id::NotInEvtVal:
        return empty ? 0 : (contains(values, eventValue(pos)) ? 0 : 1);
    case Id::InEvtRange: {
        if (empty) return 0;
        double v = eventValue(pos);
        return v >= firstParameter(0) && v <= firstParameter(1) ? 1 : 0;
    }
    case Id::IntBetweenEvt: {
        if (empty) return 0;
        auto n = nextEvent(pos);
        if (n >= stream_.size()) return 0;
        return toWindow(static_cast<double>(stream_.time[n] - stream_.time[pos]));
    }
    case Id::EventBytes:
    case Id::EventSentBytes:
        return empty ? 0 : bytesToNextEvent(pos, function_.id == Id::EventSentBytes);
    default:
        return 0;
    }
}

double ThreadInterval::evaluateObject(std::size_t pos) const {
    const auto& o = context_.objects;
    bool empty = stream_.type[pos] == Empty;
    const auto& list = params_.empty() ? std::vector<double>{} : params_[0];
    auto in = [&](double v) { return contains(list, v) ? v : 0.0; };
    switch (function_.id) {
    case Id::ApplicationId:
        return o.threadApplication[thread_] + 1.0;
    case Id::TaskId:
        return o.threadTask[thread_] + 1.0;
    case Id::ThreadId:
        return thread_ + 1.0;
    case Id::NodeId:
        return empty ? 0 : nodeOfCpu(cpuOf(pos));
    case Id::CpuId:
        return empty ? 0 : cpuOf(pos);
    case Id::InApplId:
        return empty ? 0 : in(o.threadApplication[thread_] + 1.0);
    case Id::InTaskId:
        return empty ? 0 : in(o.threadTask[thread_] + 1.0);
    case Id::InThreadId:
        return empty ? 0 : in(thread_ + 1.0);
    case Id::InNodeId:
        return empty ? 0 : in(nodeOfCpu(cpuOf(pos)) == 0 ? 0 : nodeOfCpu(cpuOf(pos)) - 1.0);
    case Id::InCpuId:
        return empty ? 0 : in(cpuOf(pos));
    default:
        return 0;
    }
}

} // namespace gpueff::semantic
