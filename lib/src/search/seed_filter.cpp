#include "trawl/search/seed_filter.h"

#include <algorithm>

#include "seeds.h"

namespace trawl {
namespace {

constexpr std::uint32_t kSeedMask = (1u << (2 * SeedFilter::kSeed)) - 1;
constexpr std::uint32_t kTailMask = kSeedMask >> 2;

}  // namespace

namespace seeds {

bool seed_bases(const AlphabetSpec& alphabet, std::array<std::uint8_t, 16>& base_of_class,
                std::array<std::uint8_t, 4>& base_class) {
  base_of_class.fill(kAmbiguousBase);
  const unsigned classes = alphabet.class_count();
  if (alphabet.alphabet == Alphabet::ascii || classes > 16) return false;
  for (unsigned b = 0; b < 4; ++b) base_class[b] = alphabet.text_class(static_cast<std::uint8_t>("ACGT"[b]));
  for (unsigned c = 0; c < classes; ++c) {
    bool matched = false;
    for (unsigned p = 0; p < 256 && !matched; ++p) {
      const char byte = static_cast<char>(p);
      matched = !find_invalid_pattern_byte(alphabet.alphabet, std::string_view(&byte, 1)) &&
                alphabet.matches_class(static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(c));
    }
    if (!matched) base_of_class[c] = 0;
  }
  for (unsigned b = 0; b < 4; ++b) {
    if (std::count(base_class.begin(), base_class.end(), base_class[b]) != 1) return false;  // (never)
    base_of_class[base_class[b]] = static_cast<std::uint8_t>(b);
  }
  return true;
}

bool pattern_bases(const AlphabetSpec& alphabet, const std::array<std::uint8_t, 4>& base_class,
                   std::array<std::array<std::uint8_t, 256>, 2>& base_of_byte) {
  for (unsigned strand = 0; strand < 2; ++strand)
    for (unsigned p = 0; p < 256; ++p) {
      const char byte = static_cast<char>(p);
      std::uint8_t base = kNotBase;
      if (!find_invalid_pattern_byte(alphabet.alphabet, std::string_view(&byte, 1))) {
        const std::uint8_t used = strand ? alphabet.complement(static_cast<std::uint8_t>(p)) : static_cast<std::uint8_t>(p);
        unsigned count = 0;
        for (unsigned b = 0; b < 4; ++b)
          if (alphabet.matches_class(used, base_class[b])) {
            ++count;
            base = static_cast<std::uint8_t>(b);
          }
        if (count != 1) base = kNotBase;
      }
      base_of_byte[strand][p] = base;
    }
  for (unsigned p = 0; p < 256; ++p) {
    const std::uint8_t base = base_of_byte[0][p];
    if (base != kNotBase && base_of_byte[1][p] != 3 - base) return false;  // (never for dna, iupac)
  }
  return true;
}

StrandRange strand_range(std::int64_t d_min, std::int64_t d_max, std::int64_t m, std::int64_t k, std::int64_t n) {
  const std::int64_t ends_from = std::max<std::int64_t>(0, d_min + m - k);
  const std::int64_t ends_to = std::min<std::int64_t>(n, d_max + m + k);
  if (ends_to < 1 || ends_from > ends_to) return {};
  // From m + k before the first end on (or the text's start), the ends are exact.
  const std::int64_t warm = m + k;
  return {true, static_cast<std::uint32_t>(ends_from > warm ? ends_from - warm : 0), static_cast<std::uint32_t>(ends_to)};
}

}  // namespace seeds

using seeds::seed_bases;

SeedFilter::SeedFilter(const AlphabetSpec& alphabet, int k, std::span<const SeedScan> scans) {
  all_ = scans.size() >= kMaxScans ? ~std::uint64_t{0} : (std::uint64_t{1} << scans.size()) - 1;
  std::array<std::uint8_t, 4> base_class{};
  if (!seed_bases(alphabet, base_of_class_, base_class) || k < 0) return;

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

PairedSeedFilter::PairedSeedFilter(const AlphabetSpec& alphabet, int k, bool rc, bool overhang)
    : rc_(rc), k_(k) {
  std::array<std::uint8_t, 4> base_class{};
  if (!seed_bases(alphabet, base_of_class_, base_class) || k < 0 || overhang) return;
  // The base a pattern byte matches, and that of its complement, which the rc scan matches
  // (PatternSet's rc profile), as ranges() takes them.
  std::array<std::array<std::uint8_t, 256>, 2> base_of_byte{};
  if (!seeds::pattern_bases(alphabet, base_class, base_of_byte)) return;
  pattern_base_ = base_of_byte[0];
  // Where each piece starts, for every pattern length (no division per record).
  const std::size_t parts = static_cast<std::size_t>(k) + 1;
  if (parts <= SeedSpanQuery::kMaxSeeds / 2)
    for (std::size_t m = 0; m <= 64; ++m)
      for (std::size_t t = 0; t <= parts; ++t) piece_begin_[m][t] = static_cast<std::uint8_t>(t * m / parts);
  enabled_ = true;
}

bool PairedSeedFilter::ranges(std::string_view pattern, const std::uint8_t* codes, std::size_t n,
                              SeedSpansFn spans, StrandRange out[2]) const {
  const std::size_t m = pattern.size();
  const std::size_t parts = static_cast<std::size_t>(k_) + 1;
  if (!enabled_ || m > 64 || parts > SeedSpanQuery::kMaxSeeds / 2) return false;
  const std::uint8_t* const piece_begin = piece_begin_[m].data();
  const std::uint32_t shortest = piece_begin[1];  // m / parts
  if (shortest < kMinSeed) return false;
  const unsigned strands = rc_ ? 2 : 1;
  SeedSpanQuery query{base_of_class_.data(), std::min<std::uint32_t>(8, shortest),
                      static_cast<std::uint32_t>(strands * parts), {}};
  // The pattern's bases, two bits each (position i at bits 2i, as seeds hold them), eight
  // at a time; a position that is not exactly one base leaves no answer.
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(pattern.data());
  std::uint64_t half[2] = {0, 0};  // positions 0-31, 32-63
  unsigned seen = 0;
  for (std::size_t i = 0; i < m; i += 8) {
    std::uint64_t eight = 0;
    const std::size_t count = std::min<std::size_t>(8, m - i);
    for (std::size_t j = 0; j < count; ++j) {
      const std::uint8_t base = pattern_base_[bytes[i + j]];
      seen |= base;
      eight |= std::uint64_t{base} << (2 * j);
    }
    half[i >> 5] |= eight << (2 * (i & 31));
  }
  if (seen > 3) return false;  // (seeds::kNotBase has every bit)
  // The reverse complement's bases the same way: base j of it is 3 - base (m - 1 - j).
  auto reverse_pairs = [](std::uint64_t x) {  // the 32 two-bit fields of x in reverse order
    x = __builtin_bswap64(x);
    x = (x >> 4 & 0x0F0F0F0F0F0F0F0FULL) | (x & 0x0F0F0F0F0F0F0F0FULL) << 4;
    return (x >> 2 & 0x3333333333333333ULL) | (x & 0x3333333333333333ULL) << 2;
  };
  __extension__ using Bases = unsigned __int128;  // (GCC and Clang; m <= 64 bases)
  const Bases fwd = Bases{half[1]} << 64 | half[0];
  const Bases rev = ~(Bases{reverse_pairs(half[0])} << 64 | reverse_pairs(half[1])) >> (128 - 2 * m);
  const std::uint32_t seed_mask = (std::uint32_t{1} << (2 * query.length)) - 1;
  for (std::size_t t = 0; t < parts; ++t) {
    // The forward seed: the piece's first bases. The reverse one: the first bases of the
    // piece's reverse complement, which is what the rc scan's piece is in the forward text
    // (the rc scan matches complement(P) against reverse(T)).
    const std::size_t lo = piece_begin[t], hi = piece_begin[t + 1];
    query.seeds[t] = static_cast<std::uint16_t>(static_cast<std::uint32_t>(fwd >> (2 * lo)) & seed_mask);
    if (strands == 2)
      query.seeds[parts + t] = static_cast<std::uint16_t>(static_cast<std::uint32_t>(rev >> (2 * (m - hi))) & seed_mask);
  }
  std::uint32_t first[SeedSpanQuery::kMaxSeeds], last[SeedSpanQuery::kMaxSeeds];
  if (!spans(query, codes, n, first, last)) return false;
  const auto sn = static_cast<std::int64_t>(n), sm = static_cast<std::int64_t>(m);
  for (unsigned s = 0; s < 2; ++s) {
    out[s] = {};
    if (s >= strands) continue;
    // d = (where piece t starts in the strand's text) - (where it starts in the pattern).
    std::int64_t d_min = INT64_MAX, d_max = INT64_MIN;
    for (std::size_t t = 0; t < parts; ++t) {
      const std::size_t i = s * parts + t;
      if (first[i] == UINT32_MAX) continue;
      const auto lo = static_cast<std::int64_t>(piece_begin[t]);
      const auto len = static_cast<std::int64_t>(piece_begin[t + 1]) - lo;
      // Reversed, a piece found at forward position f starts at n - f - len.
      const std::int64_t a = s == 0 ? std::int64_t{first[i]} : sn - std::int64_t{last[i]} - len;
      const std::int64_t b = s == 0 ? std::int64_t{last[i]} : sn - std::int64_t{first[i]} - len;
      d_min = std::min(d_min, a - lo);
      d_max = std::max(d_max, b - lo);
    }
    if (d_min == INT64_MAX) continue;  // no piece occurs: no end with cost <= k
    out[s] = seeds::strand_range(d_min, d_max, sm, k_, sn);
  }
  return true;
}

}  // namespace trawl
