#pragma once
#include <cstdint>
#include <string_view>

namespace gpueff::nsys {

// Extrae's event type (50000001 point-to-point ... 50000005 I/O) for an MPI call name.
std::uint32_t mpiEventType(std::string_view function);
// Extrae's value for the common MPI calls, so MPI cfgs written for Extrae traces apply; 0 when unknown.
std::int64_t extraeMpiValue(std::string_view function);
// The largest of those values: MPI names Extrae has no value for are numbered after it (docs/events.md).
std::int64_t maxExtraeMpiValue();
bool isMpiReceive(std::string_view function);
// Point-to-point calls that carry a message (matched into communication records).
bool sendsMessage(std::string_view function);
bool receivesMessage(std::string_view function);

} // namespace gpueff::nsys
