#pragma once
// SearchPlan: how a run searches its records, chosen once from the options, the pattern set,
// the kernel and the command, before the first record. Workers follow it and never branch on
// command-line state in their inner loops.
#include <cstdint>
#include <string>

#include "trawl/core/results.h"
#include "trawl/core/search_options.h"

namespace trawl {

// How short records are grouped into the kernel's job lanes (a lane is one (record,
// pattern, strand) job). Records too long for a lane and patterns longer than 64 always go
// one record at a time, whatever the strategy.
enum class Strategy : std::uint8_t {
  record_by_record,  // no lanes: each record's patterns searched in turn (the reference)
  lanes,             // a job per (record, pattern, strand), profiles made per group
  panel,             // lanes from ready-made panel jobs (precomputed profiles), copied in blocks
  filtered_panel,    // a panel whose jobs SeedFilter rules out first; reverse jobs probed on
                     // the forward text
  screened,          // a few patterns: records screened on their bytes, coded only if passed
  paired,            // --paired: pattern i in record i, only the strand parts
                     // PairedSeedFilter keeps
  indexed,           // a large DNA panel: only the (pattern, strand) pairs, and the strand
                     // parts, that PatternIndex finds a piece of
};

struct SearchPlan {
  Strategy strategy = Strategy::lanes;
  // contains without the N filter: each strand stops at its first end, forward strands are
  // scanned over their head first, reverse strands only where the forward one found none.
  bool first_end_decides = false;
  // count without the N filter and overhang: ends are counted as the kernel yields them
  // and never stored.
  bool counted = false;
  // indexed: the index's size, for the log.
  std::string index;

  // One line for the log (-v): the strategy and the two flags.
  std::string describe() const;
};

const char* strategy_name(Strategy s);

// SearchPlan::first_end_decides for a run of `command` with `options`: contains without the
// N filter.
bool first_end_decides(Command command, const SearchOptions& options);
// SearchPlan::counted: count without the N filter and overhang.
bool counts_as_scanned(Command command, const SearchOptions& options);

}  // namespace trawl
