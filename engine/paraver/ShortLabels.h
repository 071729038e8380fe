#pragma once
// Value labels Paraver can show in a histogram header: `short [full]` (docs/events.md, "Kernel labels").
// wxparaver sizes a histogram column to its header, and a kernel's demangled name runs to a thousand
// characters; with `Analyzer2D.ShortHeaderLabels: True` paraver-kernel (LabelConstructor::transformToShort)
// erases from the first '[' to the last ']' of an event-value label, so a label `short [full]` heads its
// column with the short name while the timeline's info panel still gives the full one.
#include <string>
#include <string_view>
#include <vector>

namespace gpueff::paraver {

struct TraceLabels;

// A kernel's short name, from its demangled name alone: the function's name without return type,
// namespaces, template arguments and parameters, followed by `<hint>` when it is a template whose first
// argument names a function or type (`vectorized_elementwise_kernel<FillFunctor>`,
// `par_ranged2d_kernel<advec_mom_kernel>`), at most kMaxShortName bytes, without '[' or ']'. A name that
// cannot be read as C++ is cut at its first '[' and at that length.
inline constexpr std::size_t kMaxShortName = 64;
std::string shortKernelName(std::string_view full);

// The .pcf labels of one value family's names (in value order): `short [full]`, where short names that
// repeat get " #1", " #2", ... in value order (skipping any label another name already has), so every
// column header differs; a name that is its own unique short name stays as it is.
std::vector<std::string> shortLabels(const std::vector<std::string>& fullNames);

// The full name a label written by shortLabels() stands for, or the label itself when it is not of that form
// (nsys2prv's and older gpueff's plain names): `S [F]` is read as F only when S is shortKernelName(F),
// possibly followed by " #<number>".
std::string fullNameOf(std::string_view label);

// The kernel labels (types 63000006 to 63000008) of a .pcf read from a file, back to full names: a trace
// gpueff wrote is analysed with the names the export has, as when it is translated and analysed at once.
void useFullKernelNames(TraceLabels& labels);

} // namespace gpueff::paraver
