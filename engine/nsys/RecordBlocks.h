#pragma once
// Records with their merge keys packed into byte blocks: how a stream merged in one place travels to the
// place that merges it with others (ReportStreams' workers to the merging thread, an MPI rank to rank 0),
// so that the receiver merges exactly as if it had read the sources itself.
#include "engine/paraver/PrvWriter.h"
#include "engine/paraver/TraceRecord.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpueff::nsys {

// A record in a block: its merge key (sequence in its source, the source's origin), then the record's fields,
// its pairs, its communication when it is one. Copied field by field (no padding bytes are read): 40 to 100
// bytes for most records, never more than kMaxEncodedRecordBytes. Nsys translations write no states and no
// per-record CPUs, so neither travels.
inline constexpr std::size_t kMaxEncodedRecordBytes =
    8 + 8 + 8 + 4 + 3 + paraver::TraceRecord::kMaxPairs * (4 + 8) + sizeof(paraver::Communication);

std::size_t encodeRecord(const paraver::TraceRecord& record, std::uint64_t sequence, std::uint64_t origin,
                         unsigned char* out);
std::size_t decodeRecord(const unsigned char* in, paraver::TraceRecord& record, std::uint64_t& sequence,
                         std::uint64_t& origin);

// A record as its .prv line, formatted where it was merged (an MPI rank relaying to rank 0, which writes
// it as is: rank 0 does not format the others' records): the merge key, time, row and order; what the
// receiver's merge counts of it (a communication's tag, the first pair); then the line.
inline constexpr std::size_t kMaxFormattedRecordBytes =
    8 + 8 + 8 + 4 + 3 + 4 + 8 + 2 + paraver::kMaxRecordLine;

std::size_t encodeFormatted(const paraver::TraceRecord& record, std::uint64_t sequence, std::uint64_t origin,
                            const std::vector<paraver::RowAddress>& rows, unsigned char* out);
// `record.formatted` views the line inside `in`.
std::size_t decodeFormatted(const unsigned char* in, paraver::TraceRecord& record, std::uint64_t& sequence,
                            std::uint64_t& origin);

} // namespace gpueff::nsys
