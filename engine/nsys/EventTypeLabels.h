#pragma once
#include "engine/paraver/EventCatalog.h"

namespace gpueff::nsys {

// Labels of the event types gpueff translate writes (docs/events.md), nsys2prv's wording where it had them.
void declareEventTypes(paraver::EventCatalog& catalog);

} // namespace gpueff::nsys
