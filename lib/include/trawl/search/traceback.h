#pragma once
// Greedy traceback (docs/semantics.md §3): start and CIGAR of a selected end, recomputed
// on the band text[p - (m + k), p). Owns a reusable DP buffer: one Tracer per thread.
#include <cstdint>
#include <span>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/core/pattern_set.h"

namespace trawl {

struct TraceResult {
  std::uint64_t start;          // in the coordinates of `text` (the strand's text)
  std::uint64_t end;            // min(p, n)
  std::uint32_t pattern_start;
  std::uint32_t pattern_end;
  std::int32_t cost;            // cost of the traced alignment incl. overhang
};

class Tracer {
 public:
  // Traces the alignment ending at end position p (0 <= p <= n + S) of the profile's pattern
  // against a strand text of length n (class-encoded, the strand's orientation), of which
  // `codes` holds positions [codes_begin, codes_begin + codes.size()); it must cover
  // [p - (m + k), min(p, n)). Appends the CIGAR runs, in pattern direction, to `ops`.
  TraceResult trace(const StrandProfile& profile, std::span<const std::uint8_t> codes,
                    std::uint64_t codes_begin, std::uint64_t n, std::uint64_t p,
                    const SearchOptions& options, std::vector<CigarOp>& ops);

 private:
  std::vector<std::int32_t> dp_;             // full band matrix, patterns over 64
  std::vector<std::uint64_t> col_pv_, col_mv_;  // bit-parallel band columns, m <= 64
  std::vector<char> rev_ops_;
};

}  // namespace trawl
