#pragma once
#include "engine/common/NameDictionary.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace gpueff::paraver {

// Every event type a trace uses, with its label and value labels: the content of the .pcf file.
// Values derived from names are dense per family: a family is one type, or several types that share one value
// space because a view shows them together (kernels and NCCL kernels, the NVTX types of one domain, the MPI
// types). Names are collected first, then assignValues() numbers each family in the names' byte order.
//
// Reports are read by parallel workers that all write here, so every entry point that may change the
// catalogue takes its lock, and labels carry the rank of their writer (`from`: 0 for the translator itself, 1
// + the report's index for a report): when two reports label one type or value differently, the label kept is
// the same whichever worker got there first: a type keeps the label of its lowest writer (the first in report
// order), a value the label of its highest writer (the last in report order, as when reports were read one
// after the other). Within one writer the first declare and the last labelValue win, as before.
class EventCatalog {
public:
    static constexpr std::uint32_t kNoWriter = std::numeric_limits<std::uint32_t>::max();
    struct TypeInfo {
        std::string label;
        NameDictionary* names = nullptr;           // its family's names (kernels, API calls, ...)
        std::map<std::int64_t, std::string> fixed; // enumerations (memcpy kinds, sync types, ...)
        bool used = false;
        std::uint32_t labelFrom = kNoWriter;             // kNoWriter: "Event type N", never declared
        std::map<std::int64_t, std::uint32_t> fixedFrom; // writer of each label in `fixed`
    };

    // Which labels writePcf gives the names of a family marked by labelShort(): `short [full]` for Paraver
    // (the .pcf file), or the full names (what the analysis reads, so reports name kernels in full).
    enum class Names { ForParaver, Full };

    void declare(std::uint32_t type, std::string label, std::uint32_t from = 0);
    // Puts `types` in one family whose values start at `firstValue` (above fixed values such as Extrae's).
    void shareNames(std::initializer_list<std::uint32_t> types, std::int64_t firstValue = 1);
    // The names of `type`'s family (kernels) are labelled `short [full]` in the .pcf (ShortLabels.h).
    void labelShort(std::uint32_t type);
    // Puts `type` in the family of `member` (created for `member` alone when it has none yet).
    void joinFamily(std::uint32_t type, std::uint32_t member);
    std::int64_t nameValue(std::uint32_t type, std::string_view name) { return names(type).valueOf(name); }
    // The dictionary of one type's family; the reference stays valid, so hot loops can keep it.
    NameDictionary& names(std::uint32_t type);
    // Ends the collecting phase: every family is numbered in its names' byte order.
    void assignValues();
    bool valuesAssigned() const { return assigned_; }
    void labelValue(std::uint32_t type, std::int64_t value, std::string label, std::uint32_t from = 0);
    // Called for every event pair written, by the thread that merges or by the workers that read reports in
    // turn: a direct-mapped cache keeps the map lookup, and the lock, off the hot path. Its slots are only a
    // hint (relaxed atomics): a slot another thread overwrote costs one more locked marking.
    void markUsed(std::uint32_t type) {
        auto& slot = usedCache_[type % usedCache_.size()];
        if (slot.load(std::memory_order_relaxed) == type) return;
        slot.store(type, std::memory_order_relaxed);
        std::lock_guard lock(mutex_);
        at(type).used = true;
    }
    // Whether the type has a label of its own (not just "Event type N").
    bool declared(std::uint32_t type) const;
    // Only while no worker runs (after the merge).
    const std::map<std::uint32_t, TypeInfo>& types() const { return types_; }
    void writePcf(std::FILE* f, Names names = Names::ForParaver) const; // the .pcf content

private:
    struct Family {
        NameDictionary names;
        std::int64_t firstValue = 1;
    };
    TypeInfo& at(std::uint32_t type);
    Family& newFamily(std::int64_t firstValue);
    std::map<std::uint32_t, TypeInfo> types_;
    std::deque<Family> families_;                   // stable addresses: TypeInfo::names points into it
    std::set<const NameDictionary*> shortLabelled_; // the families labelShort() marked
    std::array<std::atomic<std::uint32_t>, 256> usedCache_{}; // type 0 is never written
    bool assigned_ = false;
    mutable std::recursive_mutex mutex_; // joinFamily calls names()
};

} // namespace gpueff::paraver
