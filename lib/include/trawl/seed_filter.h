#pragma once
// SeedFilter: a pigeonhole filter that tells, before any bit-parallel scan, which scans of a
// pattern panel cannot have an end with cost <= k in a short DNA text. Cut a pattern into
// k + 1 pieces: an alignment with at most k edits leaves at least one piece aligned with
// none, so that piece occurs in the text exactly. A scan whose pieces (through their first
// kSeed bases) occur nowhere in the text has no end with cost <= k, and the search can skip
// it; the others are scanned as before, so results never change. Pure, thread safe once
// built.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "trawl/alphabet.h"
#include "trawl/kernel.h"
#include "trawl/pattern_set.h"

namespace trawl {

// One scan the filter answers for: a single-word profile (m <= 64) and whether it runs
// over the reversed text (the rc strand: complement(P) against reverse(T), SPEC §5).
struct SeedScan {
  StrandProfile profile;
  bool reversed = false;
};

class SeedFilter {
 public:
  // Bits of the answer: scan i is bit i.
  static constexpr std::size_t kMaxScans = 64;
  // Seeds are kSeed bases (a table of 4^kSeed words); pieces shorter than kSeed - 1 bases
  // would pass too often to pay for the look-ups, and make their scan unfiltered.
  static constexpr unsigned kSeed = 6;

  SeedFilter() = default;
  // Scans past kMaxScans, of patterns longer than 64, or whose pieces are too short or hold
  // positions matching other than exactly one of A, C, G, T (IUPAC codes), are never
  // filtered (always candidates). Alphabets other than dna and iupac filter nothing.
  SeedFilter(const AlphabetSpec& alphabet, int k, std::span<const SeedScan> scans);

  // Whether any scan can be filtered at all, and which.
  bool enabled() const { return filtered_ != 0; }
  std::uint64_t filtered() const { return filtered_; }
  // The scans that may have an end with cost <= k in the text given as class codes
  // (AlphabetSpec::text_class) in forward orientation: a superset of those that do. All
  // scans when the text holds a class that matches some but not all bases (an IUPAC code
  // such as N), or is shorter than kSeed. The seeds are looked up by `lookup` (a kernel's
  // KernelFns::seed_lookup: each gives the same answer).
  std::uint64_t candidates(const std::uint8_t* codes, std::size_t n, SeedLookupFn lookup) const;
  std::uint64_t all_scans() const { return all_; }

 private:
  // What a text class is to the filter: a base 0-3; one that matches no pattern byte (no
  // piece can cover it: read as base 0, see candidates()); or an ambiguous one
  // (kAmbiguousBase, kernel.h).
  static constexpr std::uint8_t kBreak = 0;
  std::array<std::uint8_t, 16> base_of_class_{};  // (at most 16 classes are filtered)
  std::vector<std::uint64_t> seeds_;  // [6-mer code]: scans with a piece starting so
  std::array<std::uint8_t, 512> seed_bits_{};  // which seeds_ are not 0 (SeedTable)
  std::vector<std::uint64_t> tails_;  // [5-mer code]: scans with a 5-base piece so (the end)
  std::uint64_t all_ = 0;             // every scan
  std::uint64_t filtered_ = 0;        // scans the filter can rule out
};

}  // namespace trawl
