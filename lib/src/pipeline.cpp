#include "trawl/pipeline.h"

#include <tbb/concurrent_queue.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_pipeline.h>

#include <memory>
#include <string>
#include <vector>

#include "trawl/errors.h"
#include "trawl/searcher.h"

namespace trawl {
namespace {

// Everything one batch needs on its way through the pipeline; recycled, never freed
// during the run.
struct Batch {
  RecordBatch records;
  BatchResults results;
  std::string formatted;
};

void search_batch(Searcher& searcher, const PatternSet& patterns, const PipelineOptions& opt,
                  Batch& b) {
  b.results.clear();
  const RecordBatch& rb = b.records;
  for (std::size_t r = 0; r < rb.size(); ++r) {
    const std::uint64_t text_idx = rb.first_record + r;
    if (opt.paired) {
      // A surplus record has no pattern; the count mismatch is reported after the run.
      if (text_idx < patterns.size())
        searcher.search_pattern(static_cast<std::uint32_t>(text_idx), text_idx, rb.seq(r),
                                b.results.hits);
    } else {
      searcher.search_record(text_idx, rb.seq(r), b.results.hits);
    }
  }
}

}  // namespace

RunStats run_pipeline(FastxReader& reader, const PatternSet& patterns,
                      const SearchOptions& options, const KernelFns& kernel, ResultSink& sink,
                      const PipelineOptions& opt,
                      const std::function<void(const RunStats&)>& progress) {
  const int threads = opt.threads < 1 ? 1 : opt.threads;
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(threads));
  // About four batches per thread in flight keeps every thread busy while the serial
  // stages work, and bounds memory to that many batches.
  const std::size_t tokens = 4 * static_cast<std::size_t>(threads);
  std::vector<std::unique_ptr<Batch>> pool;
  tbb::concurrent_queue<Batch*> free_batches;
  for (std::size_t i = 0; i < tokens; ++i) {
    pool.push_back(std::make_unique<Batch>());
    free_batches.push(pool.back().get());
  }
  tbb::enumerable_thread_specific<Searcher> searchers(
      [&] { return Searcher(patterns, options, kernel); });

  RunStats stats;
  std::uint64_t next_record = 0;
  bool input_done = false;

  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, Batch*>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& fc) -> Batch* {
            Batch* b = nullptr;
            if (input_done || !free_batches.try_pop(b)) {
              fc.stop();
              return nullptr;
            }
            b->records.clear();
            b->records.first_record = next_record;
            if (!reader.fill(b->records, opt.batch_bases)) {
              input_done = true;
              free_batches.push(b);
              fc.stop();
              return nullptr;
            }
            next_record += b->records.size();
            return b;
          }) &
          tbb::make_filter<Batch*, Batch*>(
              tbb::filter_mode::parallel,
              [&](Batch* b) {
                search_batch(searchers.local(), patterns, opt, *b);
                b->formatted.clear();
                sink.format(b->records, b->results, b->formatted);
                return b;
              }) &
          tbb::make_filter<Batch*, void>(
              tbb::filter_mode::serial_in_order, [&](Batch* b) {
                sink.write(b->records, b->results, b->formatted);
                stats.records += b->records.size();
                stats.bases += b->records.bases();
                stats.hits += b->results.hits.hits.size();
                free_batches.push(b);
                if (progress) progress(stats);
              }));

  sink.close();
  if (opt.paired && stats.records != patterns.size())
    throw InputError("--paired needs one pattern per record, but there are " +
                     std::to_string(patterns.size()) + " patterns and " +
                     std::to_string(stats.records) + " records");
  return stats;
}

}  // namespace trawl
