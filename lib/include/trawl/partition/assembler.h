#pragma once
// The stitching of a long record's window tasks back into rows, on the run's serial output
// stage, in output order (docs/semantics.md §9).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "trawl/core/pattern_set.h"
#include "trawl/core/results.h"
#include "trawl/io/record_batch.h"
#include "trawl/kernel/kernel.h"
#include "trawl/partition/long_record.h"
#include "trawl/search/searcher.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

// Hits are released as soon as no later window can produce a hit before them: every hit of
// a later window starts at or after window.end - (m + k) (see trawl::Window). A window whose
// text was too short (the record was still being read) is searched again here once a task
// of the same (record, pattern) brings the whole record, which the last window of the pair
// always does; hits after its start wait for that.
class LongRecordAssembler {
 public:
  LongRecordAssembler(const PatternSet& patterns, const SearchOptions& options,
                      const KernelFns& kernel, const SearchMode& mode, ResultSink& sink)
      : patterns_(patterns), options_(options), kernel_(kernel), mode_(mode), sink_(sink),
        best_(options.selection == Selection::best) {}

  // Takes one window task's results (its hits, or its count or contains answer), in task
  // order, and writes the rows they complete. Returns the hits it emitted (records or pairs
  // with hits, for contains).
  std::uint64_t add(const WindowTask& t, const BatchResults& results, const WindowAnswer& answer);

 private:
  void add_answer(const WindowTask& t, const WindowAnswer& answer);
  void write(const WindowTask& t);
  void search_again(std::string_view text);
  void take_hits(const HitList& in, std::uint64_t offset);
  void add_hits(const WindowTask& t, const BatchResults& results);
  void keep_best();

  const PatternSet& patterns_;
  const SearchOptions& options_;
  const KernelFns& kernel_;
  const SearchMode mode_;
  ResultSink& sink_;
  const bool best_;
  std::vector<WindowTask> again_;   // windows to search again in the whole record
  std::optional<Searcher> searcher_;
  BatchResults again_results_;
  HitList pending_;  // hits not yet released, with their CIGAR runs
  StrandCounts counts_;
  bool pair_contains_ = false, record_contains_ = false;
  BatchResults out_;
  RecordBatch view_;
  FormattedBatch formatted_;
};

}  // namespace trawl
