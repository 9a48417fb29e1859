#include "trawl/seed_filter.h"

#include <algorithm>

namespace trawl {
namespace {

constexpr std::uint32_t kSeedMask = (1u << (2 * SeedFilter::kSeed)) - 1;
constexpr std::uint32_t kTailMask = kSeedMask >> 2;

}  // namespace

SeedFilter::SeedFilter(const AlphabetSpec& alphabet, int k, std::span<const SeedScan> scans) {
  base_of_class_.fill(kAmbiguousBase);
  all_ = scans.size() >= kMaxScans ? ~std::uint64_t{0} : (std::uint64_t{1} << scans.size()) - 1;
  const unsigned classes = alphabet.class_count();
  if (alphabet.alphabet == Alphabet::ascii || classes > 16 || k < 0) return;
  // The classes of the four bases, and those no pattern byte matches (a text byte such as N
  // in dna, or a non-IUPAC byte: no piece can lie across one). Any other class (IUPAC
  // codes in the text) matches some pattern bases: a text with one is not filtered.
  std::array<std::uint8_t, 4> base_class{};
  for (unsigned b = 0; b < 4; ++b) base_class[b] = alphabet.text_class(static_cast<std::uint8_t>("ACGT"[b]));
  for (unsigned c = 0; c < classes; ++c) {
    bool matched = false;
    for (unsigned p = 0; p < 256 && !matched; ++p) {
      const char byte = static_cast<char>(p);
      matched = !find_invalid_pattern_byte(alphabet.alphabet, std::string_view(&byte, 1)) &&
                alphabet.matches_class(static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(c));
    }
    if (!matched) base_of_class_[c] = kBreak;
  }
  for (unsigned b = 0; b < 4; ++b) {
    if (std::count(base_class.begin(), base_class.end(), base_class[b]) != 1) return;  // (never)
    base_of_class_[base_class[b]] = static_cast<std::uint8_t>(b);
  }

  seeds_.assign(std::size_t{kSeedMask} + 1, 0);
  tails_.assign(std::size_t{kTailMask} + 1, 0);
  const auto parts = static_cast<std::uint32_t>(k) + 1;
  std::vector<std::uint8_t> bases;
  for (std::size_t i = 0; i < scans.size() && i < kMaxScans; ++i) {
    const StrandProfile& prof = scans[i].profile;
    if (prof.words != 1 || prof.m / parts < kSeed - 1) continue;
    // The base each pattern position matches: exactly one of the four, else the scan is
    // not filtered (a text base then matches the position iff it is that base).
    bases.clear();
    for (std::uint32_t j = 0; j < prof.m; ++j) {
      unsigned count = 0, base = 0;
      for (unsigned b = 0; b < 4; ++b)
        if (base_class[b] < prof.classes_hint && prof.eq(j, base_class[b])) {
          ++count;
          base = b;
        }
      if (count != 1) break;
      bases.push_back(static_cast<std::uint8_t>(base));
    }
    if (bases.size() != prof.m) continue;
    // A reversed scan's pieces occur in reverse(T) iff their reverses occur in T: the
    // pieces are cut from the pattern as T reads it.
    if (scans[i].reversed) std::reverse(bases.begin(), bases.end());
    const std::uint64_t bit = std::uint64_t{1} << i;
    for (std::uint32_t t = 0; t < parts; ++t) {
      const std::uint32_t lo = t * prof.m / parts, hi = (t + 1) * prof.m / parts;
      std::uint32_t code = 0;
      for (std::uint32_t j = lo; j < lo + std::min(hi - lo, kSeed); ++j) code = code << 2 | bases[j];
      if (hi - lo >= kSeed) {
        seeds_[code] |= bit;
      } else {
        // Five bases: every seed that starts with them (a break after them reads as a
        // base, see candidates()), and at the text's end, where no seed starts, the last
        // five bases.
        for (std::uint32_t x = 0; x < 4; ++x) seeds_[code << 2 | x] |= bit;
        tails_[code] |= bit;
      }
    }
    filtered_ |= bit;
  }
  for (std::uint32_t code = 0; code <= kSeedMask; ++code)
    if (seeds_[code] != 0) seed_bits_[(code & 8) * 32 + (code >> 4)] |= static_cast<std::uint8_t>(1u << (code & 7));
}

std::uint64_t SeedFilter::candidates(const std::uint8_t* codes, std::size_t n, SeedLookupFn lookup) const {
  if (filtered_ == 0 || n < kSeed) return all_;
  // A break reads as base 0 (base_of_class_): seeds across one can only add scans, never
  // lose one; and a five-base piece right before a break is found, as every seed that
  // starts with it is one. An ambiguous class makes the look-up all ones.
  const SeedTable table{base_of_class_.data(), seeds_.data(), seed_bits_.data()};
  std::uint64_t found = lookup(table, codes, n);
  // At the text's end, where no seed starts: the last five bases.
  std::uint32_t tail = 0;
  for (std::size_t i = n - (kSeed - 1); i < n; ++i) tail = tail << 2 | base_of_class_[codes[i]];
  found |= tails_[tail & kTailMask];
  return all_ & (found | ~filtered_);
}

}  // namespace trawl
