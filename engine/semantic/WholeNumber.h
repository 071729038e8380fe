#pragma once
#include <cmath>
#include <limits>
#include <optional>

namespace gpueff::semantic {

// `v` as an integer of type T when it is a whole number T can hold, else nothing. Window values are doubles
// that a cfg can make anything (nan, 1e300, -3.5); converting one that T cannot hold is undefined behaviour,
// so every double used as a state, type, value, object index or count goes through here first.
template <typename T>
std::optional<T> wholeAs(double v) {
    // Both bounds are exact in double: 0 or -2^k below, 2^k above (max() + 1 rounds to 2^k for 64 bits).
    constexpr double lowest = static_cast<double>(std::numeric_limits<T>::lowest());
    constexpr double above = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    if (!(v >= lowest && v < above) || std::trunc(v) != v) return std::nullopt;
    return static_cast<T>(v);
}

} // namespace gpueff::semantic
