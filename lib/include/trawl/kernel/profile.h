#pragma once
// A pattern's bit profile as the kernels read it: one word per text class (and per 64
// pattern positions), and the class planes that the fast profile builders take.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace trawl {

// The pattern as one strand searches it (a view; cheap to copy). The rc strand searches
// complement(P) (not reversed) against reverse(T), as Sassy does (docs/semantics.md §4).
struct StrandProfile {
  std::uint32_t m = 0;             // pattern length
  std::uint32_t words = 0;         // ceil(m / 64)
  std::uint32_t classes_hint = 0;  // number of text classes (rows of peq)
  // peq[c * words + w] bit i: pattern position 64w+i matches text class c
  // (AlphabetSpec::text_class).
  const std::uint64_t* peq = nullptr;

  const std::uint64_t* peq_of(std::uint8_t text_class) const {
    return peq + std::size_t{text_class} * words;
  }
  bool eq(std::uint32_t j, std::uint8_t text_class) const {
    return (peq_of(text_class)[j >> 6] >> (j & 63)) & 1u;
  }
};

// Bits 0-7 ([0]) and 8-15 ([1]) of the text classes each pattern byte matches, for
// alphabets of at most 16 classes (dna, iupac): the input of the fast profile builders.
using ClassPlanes = std::array<std::array<std::uint8_t, 256>, 2>;

// Builds the profile of `seq` (peq: classes x ceil(|seq| / 64) words, overwritten) from
// `planes` with SSE2 where available: the builder every kernel can use (KernelFns::build_peq),
// and PatternSet's own (defined with PatternSet, in pattern_set.cpp).
void build_peq_from_planes(const ClassPlanes& planes, unsigned classes, std::string_view seq,
                           std::uint64_t* peq);

}  // namespace trawl
