#pragma once
// Which event types cfgs can see: Paraver applies a window's event filter before any semantic function, so a
// trace loaded with only the types some window keeps evaluates to the same numbers, in a fraction of the
// memory when the cfgs read a few types of a large trace (gpueff histogram).
#include "engine/paraver/TraceLabels.h"
#include "engine/semantic/Cfg.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace gpueff::semantic {

using TypeRanges = std::vector<std::pair<std::uint32_t, std::uint32_t>>; // inclusive

// The event types the windows of `cfgs` can see, as ranges; nullopt when some window can see any type (a type
// test other than "=" or "[x,y]", or a type OR value test). Type labels are resolved through `labels` as the
// filter resolves them.
std::optional<TypeRanges> eventTypesSeen(const std::vector<Cfg>& cfgs, const paraver::TraceLabels& labels);

// The event types the windows of `cfgs` walk: as eventTypesSeen, but a window whose thread function reads no
// event record (a state or communication function: Paraver's record mask) walks none, whatever its filter
// keeps. A record stream without the other types' events evaluates these windows to the same values and
// the same intervals (paraver::buildRecordStreams' `walked`).
std::optional<TypeRanges> eventTypesWalked(const std::vector<Cfg>& cfgs, const paraver::TraceLabels& labels);

} // namespace gpueff::semantic
