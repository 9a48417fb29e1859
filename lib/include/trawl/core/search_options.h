#pragma once
// Options that decide *what* a search reports (docs/semantics.md §1–§8). Built once from
// the command line, validated, then read-only for every worker.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trawl/core/alphabet.h"

namespace trawl {

enum class Strand : std::uint8_t { fwd, rc };
inline char strand_char(Strand s) { return s == Strand::fwd ? '+' : '-'; }

// Which end positions become hits (docs/semantics.md §2).
enum class Selection : std::uint8_t {
  local_minima,  // Sassy `search`: rightmost end of every local minimum (default)
  all_ends,      // Sassy `search_all`: every end with cost <= k
  best,          // of the local-minimum hits that pass the N filter, one lowest-cost hit per
                 // (record, pattern, strand); ties -> largest end in the searched orientation
};

struct SearchOptions {
  AlphabetSpec alphabet;
  int k = 0;                          // inclusive maximum edit cost, >= 0
  bool both_strands = true;           // search the reverse complement too (never for ascii)
  std::optional<float> overhang;      // alpha in [0, 1]; nullopt = off (docs/semantics.md §7)
  float max_n_frac = 1.0f;            // N filter; exactly 1.0 = off (docs/semantics.md §8)
  Selection selection = Selection::local_minima;

  bool n_filter_on() const { return max_n_frac != 1.0f; }
  bool searches_rc() const { return both_strands && alphabet.has_complement(); }
};

// Checks the options on their own (not the patterns). Returns an error message, or empty.
std::string validate(const SearchOptions& options);
// The same checks, every failing one: a message each, in a fixed order.
std::vector<std::string> validate_all(const SearchOptions& options);

// Number of extra end positions past the text end allowed by the right overhang
// (docs/semantics.md §7): 0 without overhang, m for alpha = 0, else
// min(m, ceil((k + alpha) / alpha)) in float.
std::uint32_t right_overhang_steps(const SearchOptions& options, std::uint32_t m);

// Cost of `j` pattern characters hanging over a text end: floor(j * alpha) in float, or j
// without overhang.
std::int32_t overhang_cost(const SearchOptions& options, std::uint32_t j);

}  // namespace trawl
