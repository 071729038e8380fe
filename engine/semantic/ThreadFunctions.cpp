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
    : context_(context), records_(context.trace.threads[thread]), stream_(records_.stream), thread_(thread),
      function_(function), params_(std::move(params)), filter_(filter), unit_(unit), level_(windowLevel) {
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
    for (++pos; pos < last; ++pos)
        if (passFilter(pos) && valid(pos)) return pos;
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

// paraver-kernel's getTotalCommSize / getTotalSentCommSize: the bytes of the messages this thread sends at
// the event's time (the sends just before it at that time included), and, up to the next event that passes
// the filter, the messages sent (Event Sent Bytes) or sent and received (Event Bytes; a receive at the next
// event's time counts when it is the communication's last receive record). 0 without a next event.
double ThreadInterval::bytesToNextEvent(std::size_t pos, bool sentOnly) const {
    auto last = stream_.size() - 1; // the empty record at the trace end
    std::size_t next = pos + 1;
    while (next < last && !((stream_.type[next] & Event) && passFilter(next))) ++next;
    if (next >= last) return 0;
    const auto& trace = context_.trace;
    bool logical = filter_.logical(), physical = filter_.physical();
    auto sizeOf = [&](std::size_t p) {
        return static_cast<double>(trace.communications[stream_.index[p]].size);
    };
    auto t0 = stream_.time[pos], tEnd = stream_.time[next];
    double bytes = 0;
    for (std::size_t p = pos; p-- > 1 && stream_.time[p] == t0;) {
        auto ty = stream_.type[p];
        if (ty == Empty) break;
        bool sendOfKind = (ty & Comm) && (ty & Send) &&
                          ((physical && !logical && (ty & Physical)) || (logical && (ty & Logical)));
        if (sendOfKind && passFilter(p)) bytes += sizeOf(p);
    }
    for (std::size_t p = pos + 1; p < last; ++p) {
        auto ty = stream_.type[p];
        auto t = stream_.time[p];
        if (sentOnly) {
            if (t >= tEnd) break;
            if ((ty & Comm) && (ty & Send) && passFilter(p)) bytes += sizeOf(p);
            continue;
        }
        if (t > tEnd) break;
        if (t == t0) {
            if ((ty & Comm) && (ty & Send) && passFilter(p)) bytes += sizeOf(p);
        } else if (physical && !logical && (ty & Physical) && (ty & Comm)) {
            if ((t < tEnd || (ty & Recv)) && passFilter(p)) bytes += sizeOf(p);
        } else if (((ty & Comm) && logical && (ty & Logical)) || ((ty & Physical) && (ty & Recv))) {
            const auto& c = trace.communications[stream_.index[p]];
            bool logicalRecvFirst = (ty & Logical) && (ty & Recv) && c.physicalRecv >= c.logicalRecv;
            if ((logical && physical) && logicalRecvFirst) continue;
            if (t < tEnd) {
                if (passFilter(p)) bytes += sizeOf(p);
            } else if (ty & Recv) {
                bool lastReceive = ((ty & Logical) && c.logicalRecv > c.physicalRecv) ||
                                   ((ty & Physical) && c.physicalRecv >= c.logicalRecv);
                if (lastReceive && passFilter(p)) bytes += sizeOf(p);
            }
        }
    }
    return bytes;
}

// SendBandWidth / RecvBandWidth of paraver-kernel: at a message's send (receive), + its bytes (divided by the
// Byte Factor parameter) over its duration in window units, at its receive (send) the same taken off;
// messages received before they are sent are left out.
double ThreadInterval::bandwidth(std::size_t pos) const {
    auto type = stream_.type[pos];
    const auto& c = context_.trace.communications[stream_.index[pos]];
    bool logical = filter_.logical(), physical = filter_.physical();
    std::int64_t duration = 0;
    if (logical && c.logicalRecv > c.physicalRecv)
        duration = c.logicalRecv - c.logicalSend;
    else
        duration = physical ? c.physicalRecv - c.physicalSend : c.physicalRecv - c.logicalSend;
    auto current = static_cast<double>(bandwidth_) * 1E-12;
    if (duration == 0) return current;
    double time = toWindow(static_cast<double>(duration < 0 ? -duration : duration));
    double bytes = static_cast<double>(c.size) / firstParameter(0);
    bool send = function_.id == Id::SendBandWidth;
    auto own = static_cast<std::uint16_t>(send ? Send : Recv);
    auto remote = static_cast<std::uint16_t>(send ? RemoteRecv : RemoteSend);
    // The record that opens a message's transit on this row, and the one that closes it.
    auto opens = static_cast<std::uint16_t>(send ? own : remote);
    auto closes = static_cast<std::uint16_t>(send ? remote : own);
    int sign = 0;
    if (logical) {
        bool negative = (c.logicalRecv > c.physicalRecv && c.logicalRecv <= c.logicalSend) ||
                        (c.logicalRecv <= c.physicalRecv && c.physicalRecv <= c.logicalSend);
        if (negative) return current;
        bool lastReceive = ((type & Logical) && c.logicalRecv > c.physicalRecv) ||
                           ((type & Physical) && c.physicalRecv >= c.logicalRecv);
        if ((type & Logical) && (type & opens))
            sign = 1;
        else if ((type & closes) && lastReceive)
            sign = -1;
    } else {
        if (c.physicalRecv <= c.physicalSend) return current;
        if ((type & Physical) && (type & opens))
            sign = 1;
        else if ((type & Physical) && (type & closes))
            sign = -1;
    }
    if (sign == 0) return current;
    double step = bytes / time * 1E12;
    // Paraver converts to a 64-bit integer: a step it cannot hold has no value to give.
    if (!(std::fabs(step) < 9.2e18))
        throw Error("thread function '" + std::string(function_.name) + "': a message of " +
                    std::to_string(c.size) + " bytes over " + std::to_string(duration) +
                    " trace units gives a bandwidth Paraver's 64-bit sum cannot hold");
    auto delta = static_cast<std::int64_t>(step);
    if (__builtin_add_overflow(bandwidth_, sign * delta, &bandwidth_))
        throw Error("thread function '" + std::string(function_.name) +
                    "': the bandwidth sum overflows Paraver's "
                    "64-bit integer");
    return static_cast<double>(bandwidth_) * 1E-12;
}

double ThreadInterval::evaluateCommunication(std::size_t pos) const {
    auto type = stream_.type[pos];
    if (type == Empty) return 0;
    const auto& trace = context_.trace;
    const auto& c = trace.communications[stream_.index[pos]];
    double size = static_cast<double>(c.size);
    auto partner = [&](std::uint32_t thread) {
        return static_cast<double>(context_.objects.ownerOfThread(level_, thread) + 1);
    };
    bool logical = filter_.logical(), physical = filter_.physical();
    // A message whose receive is not after its send ("negative") is left out of in-transit counts.
    auto negative = [&] {
        if (logical)
            return (c.logicalRecv > c.physicalRecv && c.logicalRecv <= c.logicalSend) ||
                   (c.logicalRecv <= c.physicalRecv && c.physicalRecv <= c.logicalSend);
        return c.physicalRecv <= c.physicalSend;
    };
    bool lastReceive = ((type & Logical) && (type & (Recv | RemoteRecv)) && c.logicalRecv > c.physicalRecv) ||
                       ((type & Physical) && (type & (Recv | RemoteRecv)) && c.physicalRecv >= c.logicalRecv);
    switch (function_.id) {
    case Id::LastTag:
        return static_cast<double>(c.tag);
    case Id::CommSize:
        return (type & Comm) ? size : 0;
    case Id::CommRecvPartner: {
        for (std::size_t p = pos + 1; p < stream_.size(); ++p) {
            auto ty = stream_.type[p];
            if (ty == Empty || !(ty & Recv)) continue;
            const auto& m = trace.communications[stream_.index[p]];
            if (((ty & Logical) && m.logicalRecv >= m.physicalRecv) ||
                ((ty & Physical) && m.physicalRecv > m.logicalRecv))
                return partner(m.sendThread);
        }
        return 0;
    }
    case Id::CommPartner:
        return partner(c.recvThread);
    case Id::LastSendDur:
        return toWindow(static_cast<double>(std::max(c.logicalRecv, c.physicalRecv) - stream_.time[pos]));
    case Id::NextRecvDur: {
        for (std::size_t p = pos + 1; p < stream_.size(); ++p) {
            auto ty = stream_.type[p];
            if (ty != Empty && (ty & Comm) && (ty & Recv))
                return toWindow(static_cast<double>(trace.communications[stream_.index[p]].logicalSend -
                                                    stream_.time[pos]));
        }
        return 0;
    }
    case Id::LastSendSize:
        return size;
    case Id::SendBytesInTransit:
    case Id::SendMessagesInTransit: {
        double unit = function_.id == Id::SendBytesInTransit ? size : 1.0;
        if (negative()) return value;
        if (logical) {
            if ((type & Logical) && (type & Send)) return value + unit;
            if ((type & RemoteRecv) && lastReceive) return value - unit;
        } else {
            if ((type & Physical) && (type & Send)) return value + unit;
            if ((type & Physical) && (type & RemoteRecv)) return value - unit;
        }
        return value;
    }
    case Id::RecvBytesInTransit:
    case Id::RecvMessagesInTransit: {
        double unit = function_.id == Id::RecvBytesInTransit ? size : 1.0;
        if (negative()) return value;
        if (logical) {
            if ((type & Logical) && (type & RemoteSend)) return value + unit;
            if ((type & Recv) && lastReceive) return value - unit;
        } else {
            if ((type & Physical) && (type & RemoteSend)) return value + unit;
            if ((type & Physical) && (type & Recv)) return value - unit;
        }
        return value;
    }
    case Id::SendBandWidth:
    case Id::RecvBandWidth:
        return bandwidth(pos);
    case Id::RecvNegativeMessages:
    case Id::RecvNegativeBytes: {
        // Receives that happen before their send: +1 at the receive, -1 at the (remote) send.
        double unit = function_.id == Id::RecvNegativeBytes ? size : 1.0;
        if (!negative()) return value;
        if (logical) {
            if ((type & Logical) && (type & RemoteSend)) return value - unit;
            if ((type & Recv) && lastReceive) return value + unit;
        } else {
            if ((type & Physical) && (type & RemoteSend)) return value - unit;
            if ((type & Physical) && (type & Recv)) return value + unit;
        }
        return value;
    }
    case Id::NumberSends:
    case Id::NumberSendBytes: {
        double unit = function_.id == Id::NumberSendBytes ? size : 1.0;
        if (physical && (type & Physical) && (type & Send)) return value + unit;
        if (logical && (type & Logical) && (type & Send)) return value + unit;
        return value;
    }
    case Id::NumberReceives:
    case Id::NumberReceiveBytes: {
        double unit = function_.id == Id::NumberReceiveBytes ? size : 1.0;
        if (physical && (type & Physical) && (type & Recv)) return value + unit;
        if (!(physical && (type & Physical) && (type & Recv)) && logical && (type & Recv) && lastReceive)
            return value + unit;
        return value;
    }
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
