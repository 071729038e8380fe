#pragma once
#include <stdexcept>
#include <string>

namespace gpueff {

// Raised for every user-facing failure (bad input, unwritable output); the CLI prints what() and exits 1.
// Messages name the file, table or line at fault so the user can act without a debugger.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace gpueff
