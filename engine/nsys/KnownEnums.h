#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

namespace gpueff::nsys {

// Labels of the CUPTI enumerations gpueff shows, for exports made before nsys wrote ENUM_* tables (2022
// and older). Exports that have the tables are always read through them.
inline std::unordered_map<std::int64_t, std::string> knownEnum(const std::string& table) {
    if (table == "ENUM_CUDA_MEMCPY_OPER")
        return {{0, "Unknown"},
                {1, "Host-to-Device"},
                {2, "Device-to-Host"},
                {3, "Host-to-Array"},
                {4, "Array-to-Host"},
                {5, "Array-to-Array"},
                {6, "Array-to-Device"},
                {7, "Device-to-Array"},
                {8, "Device-to-Device"},
                {9, "Host-to-Host"},
                {10, "Peer-to-Peer"},
                {11, "Unified Host-to-Device"},
                {12, "Unified Device-to-Host"},
                {13, "Unified Device-to-Device"}};
    if (table == "ENUM_CUDA_MEM_KIND")
        return {{0, "Pageable"}, {1, "Pinned"},        {2, "Device"},         {3, "Array"},
                {4, "Managed"},  {5, "Device Static"}, {6, "Managed Static"}, {7, "Unknown"}};
    if (table == "ENUM_CUPTI_SYNC_TYPE")
        return {{0, "Unknown"},
                {1, "Event sync"},
                {2, "Stream wait sync"},
                {3, "Stream sync"},
                {4, "Context sync"}};
    return {};
}

} // namespace gpueff::nsys
