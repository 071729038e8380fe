#pragma once
#include "engine/paraver/TraceHeader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpueff::paraver {

enum class RowKind { CpuThread, CudaStream, GpuMetrics };

struct ThreadRow {
    RowKind kind = RowKind::CpuThread;
    std::uint32_t task = 0;  // 0-based task index
    std::uint32_t local = 0; // 0-based index within its task
    std::string label;       // written to the .row file
    // CudaStream rows: the CUDA device and stream; GpuMetrics rows: the GPU of the metrics (-1: none).
    std::int64_t device = -1, stream = -1;
};

struct Task {
    std::string label;
    std::uint32_t node = 0; // 0-based node index
    std::vector<std::uint32_t> rows;
    std::string host;      // empty when unknown
    std::int64_t pid = -1; // -1 when unknown
    // The input it was read from (its index among the exports merged; 0 for a trace read from a file): a
    // distributed run reads each input on one process.
    std::uint32_t input = 0;
};

// Paraver's resource and process model of one trace: one application whose tasks are processes, each with
// its CPU threads, CUDA streams and GPU-metrics rows; nodes are hosts. Every thread gets a CPU of its own so
// CPU-level views show one line per thread.
struct TraceLayout {
    std::vector<std::string> nodes;
    std::vector<Task> tasks;
    std::vector<ThreadRow> rows;

    std::uint32_t addTask(std::string label, std::uint32_t node);
    std::uint32_t addRow(std::uint32_t task, RowKind kind, std::string label, std::int64_t device = -1,
                         std::int64_t stream = -1);
    std::vector<std::uint32_t> cpusPerNode() const;
    // 1-based CPU of each row: CPUs are numbered in node order, one per row.
    std::vector<std::uint32_t> cpuOfRows() const;
    // Paraver's header of this model (one application, a node per host, a CPU per row), timed in ns.
    TraceHeader header(std::int64_t endTimeNs, const std::string& date) const;
};

// The date of a Paraver header, "dd/mm/yyyy at hh:mm" (UTC), from ns since the UNIX epoch.
std::string headerDate(std::int64_t utcNs);

} // namespace gpueff::paraver
