#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/common/StableValues.h"

namespace gpueff::paraver {

// Every event type a trace uses, with its label and value labels: the content of the .pcf file.
class EventCatalog {
public:
    struct TypeInfo {
        std::string label;
        NameDictionary names;                    // values derived from names (kernels, API calls, ...)
        std::map<std::int64_t, std::string> fixed; // enumerations (memcpy kinds, sync types, ...)
        bool used = false;
    };

    void declare(std::uint32_t type, std::string label);
    std::int64_t nameValue(std::uint32_t type, std::string_view name) { return at(type).names.valueOf(name); }
    void labelValue(std::uint32_t type, std::int64_t value, std::string label);
    void markUsed(std::uint32_t type) { at(type).used = true; }
    bool declared(std::uint32_t type) const { return types_.count(type) != 0; }
    const std::map<std::uint32_t, TypeInfo>& types() const { return types_; }
    std::size_t collisions() const;
    void writePcf(const std::string& path) const;

private:
    TypeInfo& at(std::uint32_t type);
    std::map<std::uint32_t, TypeInfo> types_;
};

} // namespace gpueff::paraver
