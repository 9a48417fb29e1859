#pragma once
// The run: a oneTBB pipeline (the only code that includes TBB). A serial in-order reader
// stage fills batches of about `batch_bases` residues, a parallel stage searches them with
// one Searcher per thread and formats their output, and a serial in-order stage hands them
// to the sink. Output order is therefore independent of the thread count.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"
#include "trawl/core/region.h"
#include "trawl/core/shard.h"
#include "trawl/io/reader.h"
#include "trawl/core/results.h"
#include "trawl/core/search_options.h"
#include "trawl/search/pattern_index.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

struct PipelineOptions {
  int threads = 1;                    // worker threads (>= 1)
  std::uint64_t batch_bases = 1 << 20;  // residues per batch (whole records)
  bool paired = false;                // pattern i is searched only in record i
  ResultShape shape;
  bool best = false;  // --best (count keeps one hit per strand)
  std::optional<Region> region;  // --region: only this part of each record is searched
  RecordRange records;           // --shard: only these records are searched and written
  const PatternIndex* index = nullptr;  // the run's pattern index, if it has one
};

struct RunStats {
  std::uint64_t records = 0;
  std::uint64_t bases = 0;
  std::uint64_t hits = 0;  // hits found (for contains: records or pairs with a hit)
  // Progress: the input bytes read when the last batch written was cut (compressed bytes of
  // compressed input), and the inputs' size (0: unknown, e.g. stdin).
  std::uint64_t input_read = 0, input_size = 0;
};

// How many batches a run on `threads` threads has in flight at most (their memory is the
// run's, beyond the patterns and a long record).
inline std::size_t batches_in_flight(int threads) { return 2 * static_cast<std::size_t>(threads < 1 ? 1 : threads); }

// Where a run's time went, and what each input held (for -v).
struct PipelineReport {
  double read_seconds = 0;    // the serial input stage (cutting records into tasks)
  double search_seconds = 0;  // the parallel stage (parsing, searching, formatting), summed over threads
  double write_seconds = 0;   // the serial output stage (the sink's writes)
  std::vector<RunStats> inputs;  // records and bases of each of reader.inputs() (no hits)
};

// Runs the whole search. Exceptions from any stage (InputError, OutputError,
// DownstreamClosed) stop the pipeline and propagate. `progress` (optional) is called from
// the serial output stage after every batch. `report` (optional) is filled as the run goes.
RunStats run_pipeline(FastxReader& reader, const PatternSet& patterns,
                      const SearchOptions& options, const KernelFns& kernel, ResultSink& sink,
                      const PipelineOptions& pipeline,
                      const std::function<void(const RunStats&)>& progress = {},
                      PipelineReport* report = nullptr);

// Runs body(0), ..., body(count - 1) on up to `threads` threads and returns when all are
// done: work before the search that would otherwise be serial (loading millions of
// patterns, PatternSet::add_list). An exception from a body propagates. With one thread
// or one body, they run in order on the caller.
void for_each_in_parallel(std::size_t count, int threads, const std::function<void(std::size_t)>& body);

}  // namespace trawl
