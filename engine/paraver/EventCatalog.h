#pragma once
#include "engine/common/StableValues.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace gpueff::paraver {

// Every event type a trace uses, with its label and value labels: the content of the .pcf file.
class EventCatalog {
public:
    struct TypeInfo {
        std::string label;
        NameDictionary names;                      // values derived from names (kernels, API calls, ...)
        std::map<std::int64_t, std::string> fixed; // enumerations (memcpy kinds, sync types, ...)
        bool used = false;
    };

    void declare(std::uint32_t type, std::string label);
    std::int64_t nameValue(std::uint32_t type, std::string_view name) { return at(type).names.valueOf(name); }
    // The dictionary of one type; the reference stays valid, so hot loops can keep it.
    NameDictionary& names(std::uint32_t type) { return at(type).names; }
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
    std::size_t collisions() const;
    void writePcf(const std::string& path) const;

private:
    TypeInfo& at(std::uint32_t type);
    std::map<std::uint32_t, TypeInfo> types_;
    std::array<std::uint32_t, 256> usedCache_{}; // type 0 is never written
};

} // namespace gpueff::paraver
