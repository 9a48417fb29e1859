#pragma once
// Tests reach the searcher through its one public call, Searcher::search, as the pipeline
// does: these helpers build the mode and collect the results.
#include <span>
#include <string_view>
#include <vector>

#include "trawl/core/results.h"
#include "trawl/search/searcher.h"

namespace trawl::test {

// A mode whose rows cover every (record, pattern) pair: count with --zeros, contains by
// pattern, so that results line up pair by pair (record-major, then pattern).
inline SearchMode every_pair(Command command, bool paired = false, bool record_by_record = false) {
  SearchMode mode;
  mode.shape.command = command;
  mode.shape.zeros = true;
  mode.shape.per_pair = true;
  mode.paired = paired;
  mode.record_by_record = record_by_record;
  return mode;
}

inline BatchResults search_texts(const PatternSet& patterns, const SearchOptions& options,
                                 const KernelFns& kernel, const SearchMode& mode,
                                 std::span<const std::string_view> texts,
                                 std::uint64_t first_index = 0) {
  Searcher searcher(patterns, options, kernel, mode);
  BatchResults out;
  searcher.search(texts, first_index, out);
  return out;
}

// The hits of every pattern in one text (record `text_idx`), one record at a time: the
// reference path, no job lanes.
inline HitList reference_hits(const PatternSet& patterns, const SearchOptions& options,
                              const KernelFns& kernel, std::string_view text,
                              std::uint64_t text_idx = 0) {
  const std::string_view one[] = {text};
  return search_texts(patterns, options, kernel, every_pair(Command::hits, false, true), one,
                      text_idx).hits;
}

}  // namespace trawl::test
