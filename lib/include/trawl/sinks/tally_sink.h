#pragma once
// Per-pattern totals of a run, for its JSON summary (--json): a sink that passes every call on
// to the run's own sink and counts, in write(), what each pattern found.
#include <cstdint>
#include <memory>
#include <vector>

#include "trawl/sinks/sinks.h"

namespace trawl {

// Hits and records with a hit, per pattern index, as far as the command's results say: hits
// (every hit) and count (pair counts) know both; contains --by pair knows the records only;
// contains per record (and filter) names no pattern, so neither is known.
struct PatternTallies {
  bool hits_known = false, records_known = false;
  std::vector<std::uint64_t> hits, records;
};

// `tallies` is sized for `patterns` patterns here and filled as batches are written; `inner`
// and `tallies` must outlive the returned sink.
std::unique_ptr<ResultSink> make_tally_sink(ResultSink& inner, std::size_t patterns, const ResultShape& shape,
                                            PatternTallies& tallies);

}  // namespace trawl
