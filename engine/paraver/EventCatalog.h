#pragma once
#include "engine/common/NameDictionary.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <string_view>

namespace gpueff::paraver {

// Every event type a trace uses, with its label and value labels: the content of the .pcf file.
// Values derived from names are dense per family: a family is one type, or several types that share one value
// space because a view shows them together (kernels and NCCL kernels, the NVTX types of one domain, the MPI
// types). Names are collected first, then assignValues() numbers each family in the names' byte order.
class EventCatalog {
public:
    struct TypeInfo {
        std::string label;
        NameDictionary* names = nullptr;           // its family's names (kernels, API calls, ...)
        std::map<std::int64_t, std::string> fixed; // enumerations (memcpy kinds, sync types, ...)
        bool used = false;
    };

    void declare(std::uint32_t type, std::string label);
    // Puts `types` in one family whose values start at `firstValue` (above fixed values such as Extrae's).
    void shareNames(std::initializer_list<std::uint32_t> types, std::int64_t firstValue = 1);
    // Puts `type` in the family of `member` (created for `member` alone when it has none yet).
    void joinFamily(std::uint32_t type, std::uint32_t member);
    std::int64_t nameValue(std::uint32_t type, std::string_view name) { return names(type).valueOf(name); }
    // The dictionary of one type's family; the reference stays valid, so hot loops can keep it.
    NameDictionary& names(std::uint32_t type);
    // Ends the collecting phase: every family is numbered in its names' byte order.
    void assignValues();
    bool valuesAssigned() const { return assigned_; }
    void labelValue(std::uint32_t type, std::int64_t value, std::string label);
    // Called for every event pair written: a direct-mapped cache keeps the map lookup off the hot path.
    void markUsed(std::uint32_t type) {
        auto& slot = usedCache_[type % usedCache_.size()];
        if (slot == type) return;
        slot = type;
        at(type).used = true;
    }
    bool declared(std::uint32_t type) const { return types_.count(type) != 0; }
    const std::map<std::uint32_t, TypeInfo>& types() const { return types_; }
    void writePcf(std::FILE* f) const; // the .pcf content

private:
    struct Family {
        NameDictionary names;
        std::int64_t firstValue = 1;
    };
    TypeInfo& at(std::uint32_t type);
    Family& newFamily(std::int64_t firstValue);
    std::map<std::uint32_t, TypeInfo> types_;
    std::deque<Family> families_;                // stable addresses: TypeInfo::names points into it
    std::array<std::uint32_t, 256> usedCache_{}; // type 0 is never written
    bool assigned_ = false;
};

} // namespace gpueff::paraver
