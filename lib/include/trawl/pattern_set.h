#pragma once
// PatternSet: every pattern with its precomputed bit-parallel profile, per strand.
// Built once before the search, then shared read-only by all threads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/search_options.h"

namespace trawl {

struct Pattern {
  std::string id;   // as printed in pat_id
  std::string seq;  // the bytes as given
};

// The pattern as one strand searches it. The rc strand searches complement(P) (not
// reversed) against reverse(T), as Sassy does (SPEC §5).
struct StrandProfile {
  std::uint32_t m = 0;           // pattern length
  std::uint32_t words = 0;       // ceil(m / 64)
  std::string used;              // P, or complement(P) for rc
  // peq[c * words + w] bit i: pattern position 64w+i matches text class c
  // (AlphabetSpec::text_class).
  std::vector<std::uint64_t> peq;

  const std::uint64_t* peq_of(std::uint8_t text_class) const {
    return peq.data() + std::size_t{text_class} * words;
  }
  bool eq(std::uint32_t j, std::uint8_t text_class) const {
    return (peq_of(text_class)[j >> 6] >> (j & 63)) & 1u;
  }
};

class PatternSet {
 public:
  // Throws std::invalid_argument naming the pattern id and 0-based position of an invalid
  // byte, or an empty pattern.
  PatternSet(std::vector<Pattern> patterns, const SearchOptions& options);

  std::size_t size() const { return patterns_.size(); }
  const Pattern& pattern(std::size_t i) const { return patterns_[i]; }
  const StrandProfile& profile(std::size_t i, Strand s) const {
    return profiles_[2 * i + (s == Strand::rc ? 1 : 0)];
  }
  std::uint32_t max_length() const { return max_length_; }

 private:
  std::vector<Pattern> patterns_;
  std::vector<StrandProfile> profiles_;  // [2 * i] forward, [2 * i + 1] rc (empty if unused)
  std::uint32_t max_length_ = 0;
};

}  // namespace trawl
