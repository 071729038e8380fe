// The communication thread functions of ThreadInterval (comm size, partners, messages and bytes in transit,
// negative receives, bandwidth) and the bytes functions of events, which read a thread's communication
// records.
#include "engine/common/Error.h"
#include "engine/semantic/ThreadFunctions.h"

#include <cmath>

namespace gpueff::semantic {

using namespace paraver::RecordBits;
using Id = ThreadFunction::Id;

namespace {

// Whether a receive-side record is the one Paraver counts for its message: the logical receive when it comes
// after the physical one, else the physical receive.
bool lastReceive(std::uint16_t type, const paraver::CommunicationRecord& c) {
    return ((type & Logical) && c.logicalRecv > c.physicalRecv) ||
           ((type & Physical) && c.physicalRecv >= c.logicalRecv);
}

// A message received no later than it is sent ("negative"), as the window's logical/physical selection sees
// it.
bool negativeMessage(const paraver::CommunicationRecord& c, bool logical) {
    if (logical)
        return (c.logicalRecv > c.physicalRecv && c.logicalRecv <= c.logicalSend) ||
               (c.logicalRecv <= c.physicalRecv && c.physicalRecv <= c.logicalSend);
    return c.physicalRecv <= c.physicalSend;
}

// The in-transit functions' step on this row: +1 at the record that opens a message's transit (`opens`: Send,
// or RemoteSend on the receiver), -1 at the one that closes it (`closes`), 0 elsewhere.
int transitStep(std::uint16_t type, const paraver::CommunicationRecord& c, bool logical, std::uint16_t opens,
                std::uint16_t closes) {
    if (logical) {
        if ((type & Logical) && (type & opens)) return 1;
        if ((type & closes) && lastReceive(type, c)) return -1;
    } else {
        if ((type & Physical) && (type & opens)) return 1;
        if ((type & Physical) && (type & closes)) return -1;
    }
    return 0;
}

} // namespace

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
                if (lastReceive(ty, c) && passFilter(p)) bytes += sizeOf(p);
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
    if (negativeMessage(c, logical)) return current;
    bool send = function_.id == Id::SendBandWidth;
    int sign = send ? transitStep(type, c, logical, Send, RemoteRecv)
                    : transitStep(type, c, logical, RemoteSend, Recv);
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
    bool negative = negativeMessage(c, logical);
    bool lastRecv = (type & (Recv | RemoteRecv)) && lastReceive(type, c);
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
        int step = negative ? 0 : transitStep(type, c, logical, Send, RemoteRecv);
        return step == 0 ? value : value + step * unit;
    }
    case Id::RecvBytesInTransit:
    case Id::RecvMessagesInTransit: {
        double unit = function_.id == Id::RecvBytesInTransit ? size : 1.0;
        int step = negative ? 0 : transitStep(type, c, logical, RemoteSend, Recv);
        return step == 0 ? value : value + step * unit;
    }
    case Id::SendBandWidth:
    case Id::RecvBandWidth:
        return bandwidth(pos);
    case Id::RecvNegativeMessages:
    case Id::RecvNegativeBytes: {
        // Receives that happen before their send: +1 at the receive, -1 at the (remote) send, the reverse of
        // the receive side's transit.
        double unit = function_.id == Id::RecvNegativeBytes ? size : 1.0;
        int step = negative ? transitStep(type, c, logical, RemoteSend, Recv) : 0;
        return step == 0 ? value : value - step * unit;
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
        if (!(physical && (type & Physical) && (type & Recv)) && logical && (type & Recv) && lastRecv)
            return value + unit;
        return value;
    }
    default:
        return 0;
    }
}

} // namespace gpueff::semantic
