#pragma once
// Private to the searcher's source files: what the pigeonhole filters (SeedFilter,
// PairedSeedFilter, PatternIndex) share. A pattern cut into k + 1 pieces has, in any
// alignment with at most k edits, a piece aligned with none, which occurs in the text
// exactly; where it occurs bounds where the alignment can end.
#include <array>
#include <cstdint>

#include "trawl/core/alphabet.h"
#include "trawl/search/seed_filter.h"

namespace trawl::seeds {

// A pattern byte that matches other than exactly one of A, C, G, T.
constexpr std::uint8_t kNotBase = 0xFF;

// What a text class is to a seed: a base 0-3 (as "ACGT"); 0 for a class that no pattern
// byte matches (a text byte such as N in dna, or a non-IUPAC byte: no piece can lie across
// one, so reading it as a base can only add seeds, never lose one); or kAmbiguousBase for
// any other class (IUPAC codes in the text match some pattern bases: a text with one cannot
// be told). Also the classes of the four bases. False where nothing can be filtered.
bool seed_bases(const AlphabetSpec& alphabet, std::array<std::uint8_t, 16>& base_of_class,
                std::array<std::uint8_t, 4>& base_class);

// The base (0-3) each pattern byte matches, and only that, else kNotBase; [1] the base its
// complement matches (what the rc scan's profile matches). False unless that is always the
// complementary base (3 - base, in "ACGT" order).
bool pattern_bases(const AlphabetSpec& alphabet, const std::array<std::uint8_t, 4>& base_class,
                   std::array<std::array<std::uint8_t, 256>, 2>& base_of_byte);

// What a strand of n codes needs scanned when its pieces occur at diagonals d (the piece's
// start in the strand's text minus its start in the pattern) from d_min to d_max: an end
// p with cost <= k lies in [d + m - k, d + m + k].
StrandRange strand_range(std::int64_t d_min, std::int64_t d_max, std::int64_t m, std::int64_t k, std::int64_t n);

}  // namespace trawl::seeds
