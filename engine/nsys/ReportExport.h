#pragma once
#include <filesystem>

namespace gpueff::nsys {

// INPUT itself, or the .sqlite exported from a .nsys-rep beside it (running `nsys export` when nsys is on
// PATH and the .sqlite does not exist yet). Throws gpueff::Error saying how to export it otherwise.
std::filesystem::path exportedSqlite(const std::filesystem::path& input);

} // namespace gpueff::nsys
