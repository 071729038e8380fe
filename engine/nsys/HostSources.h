#pragma once
#include "engine/nsys/ReportContext.h"

#include <memory>
#include <vector>

namespace gpueff::nsys {

// The largest of Extrae's pthread values (type 61000000): other pthread names are numbered after it.
std::int64_t largestExtraePthreadValue();

// CPU-side records: CUDA runtime/driver calls, OS runtime and pthread calls, CUDA synchronization, MPI
// calls (MPI_* tables), OpenACC; each on the row of its calling thread.
void discoverApi(const NsysExport&, ReportObjects&);
void openApi(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void discoverOsrt(const NsysExport&, ReportObjects&);
void openOsrt(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void discoverSync(const NsysExport&, ReportObjects&);
void openSync(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void discoverMpi(const NsysExport&, ReportObjects&);
void openMpi(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);
void discoverOpenAcc(const NsysExport&, ReportObjects&);
void openOpenAcc(ReportContext&, std::vector<std::unique_ptr<RecordSource>>&);

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"
std::string_view stripVersionSuffix(std::string_view name);

inline const char* const kMpiTables[] = {"MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS", "MPI_START_WAIT_EVENTS",
                                         "MPI_OTHER_EVENTS"};

} // namespace gpueff::nsys
