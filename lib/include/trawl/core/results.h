#pragma once
// What the search stage produces for one batch, for every command. Reused between
// batches; only the fields the command needs are filled.
#include <cstdint>
#include <vector>

#include "trawl/core/hit.h"

namespace trawl {

enum class Command : std::uint8_t { hits, count, contains };

// Which rows a command produces (docs/semantics.md §9).
struct ResultShape {
  Command command = Command::hits;
  bool zeros = false;               // count: also pairs with 0 hits
  bool per_pattern_totals = false;  // count --by pattern: one row per pattern
  bool per_pair = false;            // contains --by pair: one row per (pattern, record)
  // Paired input: rows of a record have a `mate` column (1 or 2) after text_id; the pattern
  // totals of count --by pattern have none.
  bool mate = false;
};

// Number of reported hits of one (pattern, record) pair.
struct PairCount {
  std::uint64_t text_idx;
  std::uint32_t pattern_idx;
  std::uint32_t count;
};

// Hits per strand of one (pattern, record or window), as count needs them.
struct StrandCounts {
  std::uint32_t fwd = 0;
  std::uint32_t rc = 0;
};

// The count a row reports for a pair: --best keeps one hit per strand that has any.
inline std::uint32_t reported_count(StrandCounts c, bool best) {
  return best ? (c.fwd > 0) + (c.rc > 0) : c.fwd + c.rc;
}

struct BatchResults {
  HitList hits;                        // hits: every hit, in output order
  std::vector<PairCount> pair_counts;  // count / contains --by pair: in output order
  std::vector<std::uint8_t> contains;  // contains: one flag per record of the batch

  void clear() {
    hits.clear();
    pair_counts.clear();
    contains.clear();
  }
};

// The hits a batch's results stand for, as the run's summary counts them (for contains:
// records or pairs with a hit).
inline std::uint64_t hits_in(const BatchResults& r, Command command) {
  std::uint64_t total = r.hits.hits.size();
  for (const PairCount& pc : r.pair_counts) total += pc.count;
  if (command == Command::contains)
    for (const std::uint8_t f : r.contains) total += f;
  return total;
}

}  // namespace trawl
