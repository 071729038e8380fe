// The communication thread functions of ThreadInterval (comm size, partners, messages and bytes in transit,
// negative receives, bandwidth) and the bytes functions of events, which read a thread's communication
// records.
#include "engine/common/Error.h"
#include "engine/semantic/ThreadFunctions.h"

#include <cmath>

namespace gpueff::semantic {

using namespace paraver::RecordBits;
using Id = ThreadFunction::Id;

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

} // namespace gpueff::semantic
