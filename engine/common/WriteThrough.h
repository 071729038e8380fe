#pragma once
// Text that a writer prints to a FILE* (the .pcf and .row writers), taken as it is written: counted, kept,
// split into lines or put on a temporary file, without a file of its own in between.
#include <cstdio>
#include <functional>
#include <string_view>

namespace gpueff {

// Runs `write` on a FILE* whose bytes go to `put`, in the order written, a buffer at a time (glibc's
// fopencookie). An exception thrown by `put` ends the writing and is rethrown here, never through the C
// library's frames; an exception of `write` is rethrown as it is, unless `put` failed first.
void writeThrough(const std::function<void(std::FILE*)>& write,
                  const std::function<void(std::string_view)>& put);

} // namespace gpueff
