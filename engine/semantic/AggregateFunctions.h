#pragma once
#include "engine/semantic/Interval.h"

#include <string>
#include <tuple>
#include <vector>

namespace gpueff::semantic {

// Functions that combine the children of an object (task, application, workload, node, system) and the
// CPU-level functions that read the thread running on a CPU.
struct AggregateFunction {
    enum class Id {
        Adding,
        AddingSign,
        Average,
        Maximum,
        Minimum,
        Activity,
        InActivity,
        Mode,
        ObjectI,
        AddObjects,
        ChangedValue,
        ActiveThread,
        ActiveThreadSign,
        ActiveThreadValues,
        ActiveThreadValuesSign
    };
    Id id;
    const char* name;
    InfoType info;
    std::vector<std::vector<double>> defaults;
};

const AggregateFunction& aggregateFunction(const std::string& name, const std::string& where);
double aggregate(const AggregateFunction& f, const std::vector<std::vector<double>>& params,
                 const std::vector<double>& values, std::size_t lastChanged);

// An object's interval from its children's: it begins at the latest child begin and ends at the earliest
// child end; its value is the function of the children's current values.
class AggregateInterval : public Interval {
public:
    AggregateInterval(std::vector<IntervalPtr> children, const AggregateFunction& function,
                      std::vector<std::vector<double>> params);
    void init() override;
    void next() override;

private:
    void push(std::size_t child);
    std::size_t pop();

    std::vector<IntervalPtr> children_;
    const AggregateFunction& function_;
    std::vector<std::vector<double>> params_;
    std::vector<double> values_;
    // (end, insertion sequence, child): earliest end first and, among equal ends, the child re-inserted
    // longest ago first, as Paraver's multimap keeps them.
    std::vector<std::tuple<std::int64_t, std::uint64_t, std::size_t>> heap_;
    std::uint64_t sequence_ = 0;
    std::size_t lastChanged_ = 0;
};

} // namespace gpueff::semantic
