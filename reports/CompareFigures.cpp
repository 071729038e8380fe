#include "reports/CompareFigures.h"

#include <cmath>

namespace gpueff::reports::compare {

namespace {

namespace pop = metrics::pop;

std::vector<double> finiteOnly(const std::vector<double>& values) {
    std::vector<double> out;
    for (double v : values)
        if (std::isfinite(v)) out.push_back(v);
    return out;
}

template <std::size_t Factor>
Value factor(const FigureContext& c) {
    return c.run.factors[c.convention][Factor];
}
template <std::size_t Factor>
std::vector<double> factorSamples(const FigureContext& c) {
    return finiteOnly(c.run.factorSamples[c.convention][Factor]);
}

// The reference's useful time per unit over the run's, scaled for weak scaling: the run's computational
// efficiency with `useful` as its useful time.
Value computational(const FigureContext& c, double useful) {
    const double reference = c.reference.usefulPerUnit(c.convention);
    if (!(useful > 0) || !(reference > 0) || c.reference.devices <= 0) return std::nullopt;
    double s = pop::computationScalability(reference, useful);
    return c.weak ? pop::weakComputationScalability(s, c.run.devices, c.reference.devices) : s;
}

Value computationalValue(const FigureContext& c) {
    return computational(c, c.run.usefulPerUnit(c.convention));
}
std::vector<double> computationalSamples(const FigureContext& c) {
    std::vector<double> out;
    for (double u : c.run.usefulSums[c.convention])
        if (auto v = computational(c, u)) out.push_back(*v);
    return out;
}

Value globalValue(const FigureContext& c) {
    auto parallel = factor<0>(c);
    auto comp = computationalValue(c);
    return parallel && comp ? Value(pop::globalEfficiency(*parallel, *comp)) : std::nullopt;
}
// Per steady iteration: its parallel efficiency times its computational efficiency (both need the
// iteration's values, which the unit keeps in step).
std::vector<double> globalSamples(const FigureContext& c) {
    std::vector<double> out;
    const auto& parallel = c.run.factorSamples[c.convention][0];
    const auto& useful = c.run.usefulSums[c.convention];
    for (std::size_t i = 0; i < parallel.size() && i < useful.size(); ++i)
        if (auto comp = computational(c, useful[i]); comp && std::isfinite(parallel[i]))
            out.push_back(pop::globalEfficiency(parallel[i], *comp));
    return out;
}

Value iterationTime(const FigureContext& c) {
    return c.run.timeNs;
}
std::vector<double> iterationTimes(const FigureContext& c) {
    return c.run.durations;
}

Value speedup(const FigureContext& c) {
    return c.run.timeNs > 0 ? Value(pop::speedup(c.reference.timeNs, c.run.timeNs)) : std::nullopt;
}
std::vector<double> speedups(const FigureContext& c) {
    std::vector<double> out;
    for (double d : c.run.durations)
        if (d > 0) out.push_back(pop::speedup(c.reference.timeNs, d));
    return out;
}

constexpr ComparedFigure kFigures[] = {
    {"iteration_time", "Time per unit", FigureKind::Time, false, false, iterationTime, iterationTimes},
    {"speedup", "Speedup T(ref) / T(run)", FigureKind::Ratio, true, false, speedup, speedups},
    {"global_efficiency", "Global efficiency", FigureKind::Fraction, true, true, globalValue, globalSamples},
    {"parallel_efficiency", "Parallel efficiency", FigureKind::Fraction, true, true, factor<0>,
     factorSamples<0>},
    {"load_balance", "Load balance", FigureKind::Fraction, true, true, factor<1>, factorSamples<1>},
    {"communication_efficiency", "Communication efficiency", FigureKind::Fraction, true, true, factor<2>,
     factorSamples<2>},
    {"orchestration_efficiency", "Orchestration efficiency", FigureKind::Fraction, true, true, factor<3>,
     factorSamples<3>},
    {"computational_efficiency", "Computational efficiency", FigureKind::Fraction, true, true,
     computationalValue, computationalSamples},
};

} // namespace

std::span<const ComparedFigure> comparedFigures() {
    return kFigures;
}

const ComparedFigure* comparedFigure(const std::string& key) {
    for (const auto& f : kFigures)
        if (key == f.key) return &f;
    return nullptr;
}

FigureComparison compareFigure(const ComparedFigure& figure, const RunUnit& run, const RunUnit& reference,
                               std::size_t convention, bool weak) {
    FigureComparison out;
    out.figure = &figure;
    const FigureContext self{reference, reference, convention, weak}, other{run, reference, convention, weak};
    out.reference = figure.value(self);
    out.run = figure.value(other);
    auto a = figure.samples(self), b = figure.samples(other);
    if (!a.empty() && !b.empty()) out.shift = metrics::locationShift(a, b);
    return out;
}

} // namespace gpueff::reports::compare
