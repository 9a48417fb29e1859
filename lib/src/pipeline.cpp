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

std::uint32_t hit_count(StrandCounts c, bool best) {
  // --best keeps one hit per strand that has any.
  return best ? (c.fwd > 0) + (c.rc > 0) : c.fwd + c.rc;
}

// Runs the work the command needs on every (pattern, record) pair of the batch: full hits,
// counts without traceback, or contains with an early stop.
void search_batch(Searcher& searcher, const PatternSet& patterns, const PipelineOptions& opt,
                  Batch& b) {
  b.results.clear();
  const RecordBatch& rb = b.records;
  const ResultShape& shape = opt.shape;
  const auto npat = static_cast<std::uint32_t>(patterns.size());
  for (std::size_t r = 0; r < rb.size(); ++r) {
    const std::uint64_t text_idx = rb.first_record + r;
    // --paired: only pattern i in record i. A surplus record has no pattern; the count
    // mismatch is reported after the run.
    std::uint32_t first = 0, last = npat;
    if (opt.paired) {
      first = text_idx < npat ? static_cast<std::uint32_t>(text_idx) : npat;
      last = text_idx < npat ? first + 1 : npat;
    }
    searcher.set_text(rb.seq(r));
    switch (shape.command) {
      case Command::hits:
        for (std::uint32_t pi = first; pi < last; ++pi) searcher.find_hits(pi, text_idx, b.results.hits);
        break;
      case Command::count:
        for (std::uint32_t pi = first; pi < last; ++pi) {
          const std::uint32_t c = hit_count(searcher.count_hits(pi), opt.best);
          if (c > 0 || shape.zeros) b.results.pair_counts.push_back({text_idx, pi, c});
        }
        break;
      case Command::contains:
        if (shape.per_pair) {
          for (std::uint32_t pi = first; pi < last; ++pi)
            b.results.pair_counts.push_back({text_idx, pi, searcher.has_hit(pi) ? 1u : 0u});
        } else {
          bool any = false;
          for (std::uint32_t pi = first; pi < last && !any; ++pi) any = searcher.has_hit(pi);
          b.results.contains.push_back(any ? 1 : 0);
        }
        break;
    }
  }
}

std::uint64_t hits_in(const BatchResults& r, Command command) {
  std::uint64_t total = r.hits.hits.size();
  for (const PairCount& pc : r.pair_counts) total += pc.count;
  if (command == Command::contains)
    for (std::uint8_t f : r.contains) total += f;
  return total;
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
                stats.hits += hits_in(b->results, opt.shape.command);
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
