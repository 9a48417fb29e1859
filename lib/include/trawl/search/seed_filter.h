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
#include <string_view>
#include <vector>

#include "trawl/core/alphabet.h"
#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"

namespace trawl {

// What a strand needs scanned: nothing (live false: it has no end with cost <= k), or its
// codes [begin, end) in the strand's own order (reversed for rc, as the rc scan reads
// them). Every end p with cost <= k lies in [begin + m + k, end] (in [1, end] where begin
// is 0), so a scan of that range from a fresh start column reports exactly the strand's
// ends with cost <= k, at the same costs (docs/semantics.md §10; at 0 the fresh column is
// the text's own).
struct StrandRange {
  bool live = false;
  std::uint32_t begin = 0, end = 0;
};

// One scan the filter answers for: a single-word profile (m <= 64) and whether it runs
// over the reversed text (rc: complement(P) against reverse(T), docs/semantics.md §4).
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
  std::array<std::uint8_t, 16> base_of_class_{};  // (at most 16 classes are filtered)
  std::vector<std::uint64_t> seeds_;  // [6-mer code]: scans with a piece starting so
  std::array<std::uint8_t, 512> seed_bits_{};  // which seeds_ are not 0 (SeedTable)
  std::vector<std::uint64_t> tails_;  // [5-mer code]: scans with a 5-base piece so (the end)
  std::uint64_t all_ = 0;             // every scan
  std::uint64_t filtered_ = 0;        // scans the filter can rule out
};

// PairedSeedFilter: the same pigeonhole argument for one pattern against one short text
// (--paired), told per strand and with where: an end p with cost <= k has an alignment
// whose piece t (pattern positions [o, o + L)) occurs exactly at some text position s, and
// the rest of the pattern then ends within k of where it would without edits:
// s - o + m - k <= p <= s - o + m + k. So the ends of a strand lie in a range that the
// occurrences of its pieces' seeds (their first few bases) bound, and a scan from m + k
// before that range finds all of them exactly (docs/semantics.md §10, warm-up). Results
// never change: a strand with no seed has no end with cost <= k, and the scanned range
// holds every end that has. Pure, thread safe once built.
class PairedSeedFilter {
 public:
  // Seeds are at most 8 bases (SeedSpanQuery), and at least kMinSeed: shorter ones would
  // match by chance in most texts of a few hundred bases.
  static constexpr unsigned kMinSeed = 6;

  PairedSeedFilter() = default;
  // Disabled (ranges() always false) for alphabets other than dna and iupac, k < 0, and
  // with overhang (ends past the text need no piece inside it): give overhang as set.
  PairedSeedFilter(const AlphabetSpec& alphabet, int k, bool rc, bool overhang);
  bool enabled() const { return enabled_; }

  using StrandRange = trawl::StrandRange;
  // The ranges of the forward strand and (rc) the reverse one, for `pattern` against a text
  // of n class codes in forward order. False where the filter cannot tell (the ranges are
  // then unset: scan everything): a pattern longer than 64, in more than 8 pieces (k > 7),
  // with pieces shorter than kMinSeed, or with a position that is not exactly one of A, C,
  // G, T; a text with an ambiguous class (an IUPAC code in iupac).
  bool ranges(std::string_view pattern, const std::uint8_t* codes, std::size_t n, SeedSpansFn spans,
              StrandRange out[2]) const;

 private:
  bool enabled_ = false;
  bool rc_ = false;
  int k_ = 0;
  std::array<std::uint8_t, 16> base_of_class_{};
  std::array<std::uint8_t, 256> pattern_base_{};
  // [m][t]: where piece t of a pattern of length m starts (t * m / (k + 1); [m][k + 1] = m).
  std::array<std::array<std::uint8_t, SeedSpanQuery::kMaxSeeds / 2 + 1>, 65> piece_begin_{};
};

}  // namespace trawl
