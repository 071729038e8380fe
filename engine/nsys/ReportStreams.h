#pragma once
#include "engine/common/Parallel.h"
#include "engine/common/SpillStore.h"
#include "engine/nsys/RecordSource.h"
#include "engine/pipeline/RecordSink.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpueff::nsys {

// Reports read by parallel workers: each report's sources are merged on a worker thread into fixed-size
// blocks of encoded records, handed to the merging thread through a queue of at most kBlocksPerReport
// blocks, so memory is bounded by reports x blocks, never by the trace. streams() gives one RecordSource per
// report that relays its records with the keys they had in their own sources (RecordSource::headBefore), so
// merging the report streams yields exactly the stream of merging all sources at once.
// A worker serves whichever report has the fewest blocks ready (first the one the merge waits for), so with
// more reports than workers each worker serves several. An error of a worker reaches the merging thread at
// the place of the stream where it happened, as it would have without workers.
class ReportStreams {
public:
    static constexpr std::size_t kBlockBytes = 32 * 1024, kBlocksPerReport = 3;

    // sources[r]: the opened sources of report r (their origins set); workers start at once. `inTurn`: the
    // streams are read one after the other, so workers read only the next `workers` reports and memory
    // does not grow with the number of reports.
    // `lanes`: a sink with lanes (pipeline::RecordSink::openLane) that gets report r's records on its
    // worker through lane r, closed at the report's end.
    // `spill`: each worker reads a report to its end, one report after the other, its blocks appended to
    // the store as they fill; the streams read them back from there. Memory is then the reports being read
    // (as many as workers) and one block per stream, however many reports are merged.
    ReportStreams(std::vector<std::vector<std::unique_ptr<RecordSource>>> sources, unsigned workers,
                  bool inTurn = false, pipeline::RecordSink* lanes = nullptr, SpillStore* spill = nullptr);
    ~ReportStreams(); // stops the workers (after their current block) and joins them
    ReportStreams(const ReportStreams&) = delete;
    ReportStreams& operator=(const ReportStreams&) = delete;

    // One stream per report, in report order; they refer to this object, which must outlive them.
    std::vector<std::unique_ptr<RecordSource>> streams();

private:
    struct Block {
        std::unique_ptr<unsigned char[]> bytes = std::make_unique<unsigned char[]>(kBlockBytes);
        std::size_t used = 0;
    };
    struct Report {
        // Touched only by the worker holding `busy` (and by nobody once `finished`).
        std::vector<std::unique_ptr<RecordSource>> sources;
        std::vector<std::size_t> heap;
        std::vector<std::uint64_t> written;
        std::int64_t lastTime = INT64_MIN;
        bool started = false;
        // What its sources counted, kept when they are closed at its end (their statements' memory freed).
        std::map<std::string, std::uint64_t> byKind;
        pipeline::RecordSink* lane = nullptr; // ReportStreams' `lanes`
        // Under mutex_.
        std::vector<SpillStore::Ref> spilled; // with `spill`: its blocks, of which `taken` were read back
        std::size_t taken = 0;
        std::deque<std::unique_ptr<Block>> ready;
        std::vector<std::unique_ptr<Block>> spare;
        bool busy = false, finished = false;
        std::exception_ptr error;
    };
    class Stream;

    void work();
    void spillWork();
    void finish(Report& report); // its counts kept, its sources closed, its lane closed
    void stopWorkers();
    Report* pick();
    bool produce(Report& report, Block& block);
    // Merging thread: the next block of report r (nullptr at its end), giving back `done`.
    std::unique_ptr<Block> next(std::size_t r, std::unique_ptr<Block> done);

    std::vector<Report> reports_;
    pipeline::RecordSink* lanes_ = nullptr;
    SpillStore* spill_ = nullptr;
    std::size_t nextReport_ = 0; // with `spill`: the next report a worker starts
    std::mutex mutex_;
    std::condition_variable work_, ready_;
    std::size_t waitingFor_ = SIZE_MAX;
    bool inTurn_ = false;
    std::size_t frontier_ = 0; // in turn: the first report whose stream has not ended
    std::size_t window_ = 1;   // in turn: how many reports from the frontier on are read at once
    bool stop_ = false;
    std::vector<std::thread> workers_;
};

} // namespace gpueff::nsys
