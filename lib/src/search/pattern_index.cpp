#include "trawl/search/pattern_index.h"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "seeds.h"

namespace trawl {

namespace {

// The 2-bit code of `count` bases, the first in the top bits.
std::uint32_t seed_code(const std::uint8_t* bases, unsigned count) {
  std::uint32_t code = 0;
  for (unsigned j = 0; j < count; ++j) code = code << 2 | bases[j];
  return code;
}

}  // namespace

std::shared_ptr<const PatternIndex> PatternIndex::build(const PatternSet& patterns, const SearchOptions& options,
                                                        bool force) {
  const std::size_t npat = patterns.size();
  if (npat == 0 || options.overhang || options.k < 0 || patterns.max_length() > 64) return nullptr;
  const unsigned strands = options.searches_rc() ? 2 : 1;
  if (!force && npat * strands <= SeedFilter::kMaxScans) return nullptr;  // (the filtered panel's)
  std::shared_ptr<PatternIndex> index(new PatternIndex());
  PatternIndex& x = *index;
  std::array<std::uint8_t, 16> unused{};
  std::array<std::uint8_t, 4> base_class{};
  std::array<std::array<std::uint8_t, 256>, 2> base_of_byte{};
  if (!seeds::seed_bases(options.alphabet, unused, base_class) ||
      !seeds::pattern_bases(options.alphabet, base_class, base_of_byte))
    return nullptr;
  // The bases of the patterns' positions (and their complements') a text class matches.
  const AlphabetSpec& alphabet = options.alphabet;
  for (unsigned c = 0; c < alphabet.class_count(); ++c)
    for (unsigned strand = 0; strand < 2; ++strand)
      for (unsigned p = 0; p < 256; ++p) {
        const std::uint8_t base = base_of_byte[strand][p];
        const auto byte = static_cast<std::uint8_t>(p);
        if (base != seeds::kNotBase && alphabet.matches_class(strand ? alphabet.complement(byte) : byte, static_cast<std::uint8_t>(c)))
          x.bases_of_class_[c] |= static_cast<std::uint8_t>(1u << base);
      }
  x.k_ = options.k;
  x.rc_ = strands == 2;
  const auto parts = static_cast<std::uint32_t>(options.k) + 1;
  std::size_t shortest = 64;
  for (std::size_t pi = 0; pi < npat; ++pi) shortest = std::min(shortest, patterns.seq(pi).size() / parts);
  if (shortest < kMinSeed) return nullptr;
  x.q_ = static_cast<unsigned>(std::min<std::size_t>(shortest, kMaxSeed));

  // Every piece's seed, then the entries sorted by seed (a counting sort).
  std::vector<std::uint32_t> keys;
  std::vector<Entry> unsorted;
  keys.reserve(npat * strands * parts);
  unsorted.reserve(keys.capacity());
  x.length_.resize(npat);
  x.profiles_.resize(2 * npat);
  std::uint8_t fwd[64], rev[64];  // the pattern's bases; its reverse complement's
  for (std::size_t pi = 0; pi < npat; ++pi) {
    const std::string_view seq = patterns.seq(pi);
    const auto m = static_cast<std::uint32_t>(seq.size());
    for (std::uint32_t j = 0; j < m; ++j) {
      fwd[j] = base_of_byte[0][static_cast<std::uint8_t>(seq[j])];
      if (fwd[j] == seeds::kNotBase) return nullptr;
    }
    for (std::uint32_t j = 0; j < m; ++j) rev[j] = static_cast<std::uint8_t>(3 - fwd[m - 1 - j]);
    x.length_[pi] = static_cast<std::uint8_t>(m);
    const auto scan = static_cast<std::uint32_t>(2 * pi);
    for (std::uint32_t j = 0; j < m; ++j) {
      x.profiles_[scan].peq[fwd[j]] |= std::uint64_t{1} << j;
      x.profiles_[scan + 1].peq[rev[j]] |= std::uint64_t{1} << j;
    }
    for (std::uint32_t t = 0; t < parts; ++t) {
      const std::uint32_t lo = t * m / parts, hi = (t + 1) * m / parts;
      keys.push_back(seed_code(fwd + lo, x.q_));
      unsorted.push_back({scan, lo});
      if (strands == 1) continue;
      // The rc scan's piece [lo, hi) of complement(P), as the forward text reads it:
      // reverse complement positions [m - hi, m - lo).
      keys.push_back(seed_code(rev + (m - hi), x.q_));
      unsorted.push_back({scan + 1, hi});
    }
  }
  x.offsets_.assign((std::size_t{1} << (2 * x.q_)) + 1, 0);
  for (const std::uint32_t key : keys) ++x.offsets_[key + 1];
  for (std::size_t i = 1; i < x.offsets_.size(); ++i) x.offsets_[i] += x.offsets_[i - 1];
  x.entries_.resize(unsorted.size());
  std::vector<std::uint32_t> fill(x.offsets_.begin(), x.offsets_.end() - 1);
  for (std::size_t e = 0; e < unsorted.size(); ++e) x.entries_[fill[keys[e]]++] = unsorted[e];
  x.present_.assign((x.offsets_.size() - 1 + 63) / 64, 0);
  for (const std::uint32_t key : keys) x.present_[key >> 6] |= std::uint64_t{1} << (key & 63);
  if (!force && !x.pays(npat * strands)) return nullptr;
  return index;
}

bool PatternIndex::pays(std::size_t scans) const {
  // Per text position, in the time of a lane step (the lanes scan every pair: `scans`
  // steps): a look-up, and for each piece found by chance (pieces / 4^q of them) its
  // cache misses and its check, which cost about kPerPiece steps (docs/performance.md,
  // "Pattern index": the constants are fitted there).
  constexpr double kLookup = 32, kPerPiece = 1100;
  const double found = static_cast<double>(entries_.size()) / static_cast<double>(offsets_.size() - 1);
  return kLookup + found * kPerPiece < static_cast<double>(scans);
}

bool PatternIndex::seeds_of(const std::uint8_t* codes, std::size_t n, std::vector<Seed>& seeds) const {
  const std::uint32_t mask = (std::uint32_t{1} << (2 * q_)) - 1;
  auto add = [&](std::uint32_t key, std::uint32_t f) {
    if ((present_[key >> 6] >> (key & 63) & 1) == 0) return;
    __builtin_prefetch(&offsets_[key]);
    seeds.push_back({key, f});
  };
  std::uint32_t key = 0;
  std::uint32_t ambiguous = 0;  // bit j: the code j before the current one matches several bases
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t bases = bases_of_class_[codes[i]];
    // A code that matches no pattern base (N in dna) reads as base 0: seeds across it can
    // only add candidates, never lose one. One that matches several (N in iupac) is each
    // of them in turn.
    const bool several = (bases & (bases - 1)) != 0;
    key = (key << 2 | (several || bases == 0 ? 0u : static_cast<std::uint32_t>(__builtin_ctz(bases)))) & mask;
    ambiguous = (ambiguous << 1 | several) & ((1u << q_) - 1);
    if (i + 1 < q_) continue;
    const auto f = static_cast<std::uint32_t>(i + 1 - q_);
    if (ambiguous == 0) {
      add(key, f);
      continue;
    }
    // Up to kMaxAmbiguous such codes in a seed: every base each can be; more: the index
    // cannot tell.
    if (__builtin_popcount(ambiguous) > kMaxAmbiguous) return false;
    const unsigned j1 = static_cast<unsigned>(__builtin_ctz(ambiguous));
    const std::uint32_t rest = ambiguous & (ambiguous - 1);
    const unsigned j2 = rest ? static_cast<unsigned>(__builtin_ctz(rest)) : j1;
    const std::uint8_t b1 = bases_of_class_[codes[i - j1]], b2 = rest ? bases_of_class_[codes[i - j2]] : 1;
    for (std::uint32_t x1 = 0; x1 < 4; ++x1)
      for (std::uint32_t x2 = 0; x2 < (rest ? 4u : 1u); ++x2)
        if ((b1 >> x1 & 1) && (b2 >> x2 & 1)) add(key | x1 << (2 * j1) | (rest ? x2 << (2 * j2) : 0), f);
  }
  return true;
}

bool PatternIndex::candidates(const std::uint8_t* codes, std::size_t n, Scratch& s,
                              std::vector<Candidate>& out) const {
  // In passes, each prefetching what the next reads: the tables are large and a record's
  // look-ups land anywhere in them, so their cache misses must overlap.
  out.clear();
  s.seeds.clear();
  if (!seeds_of(codes, n, s.seeds)) return false;
  for (Seed& seed : s.seeds) {
    const std::uint32_t first = offsets_[seed.key], last = offsets_[seed.key + 1];
    seed.key = first;  // (now where its entries start)
    seed.count = last - first;
    __builtin_prefetch(&entries_[first]);
  }
  // Each piece found as (scan, diagonal), diagonals biased to stay unsigned, sorted.
  const auto sn = static_cast<std::int64_t>(n);
  constexpr std::int64_t kBias = std::int64_t{1} << 31;
  s.found.clear();
  for (const Seed& seed : s.seeds)
    for (std::uint32_t e = seed.key; e < seed.key + seed.count; ++e) {
      const Entry entry = entries_[e];
      // d: where the piece starts in its strand's text minus where it starts in the pattern.
      const std::int64_t d = (entry.scan & 1) == 0 ? std::int64_t{seed.at} - entry.at : sn - seed.at - entry.at;
      s.found.push_back(std::uint64_t{entry.scan} << 32 | static_cast<std::uint64_t>(d + kBias));
      __builtin_prefetch(&profiles_[entry.scan]);
    }
  std::sort(s.found.begin(), s.found.end());
  for (std::size_t i = 0; i < s.found.size();) {
    const auto scan = static_cast<std::uint32_t>(s.found[i] >> 32);
    const std::int64_t d_min = static_cast<std::int64_t>(s.found[i] & 0xFFFFFFFF) - kBias;
    while (i + 1 < s.found.size() && s.found[i + 1] >> 32 == scan) ++i;
    const std::int64_t d_max = static_cast<std::int64_t>(s.found[i++] & 0xFFFFFFFF) - kBias;
    const StrandRange range = seeds::strand_range(d_min, d_max, length_[scan >> 1], k_, sn);
    // (A reverse strand's range [begin, end) is forward text [n - end, n - begin).)
    const bool rc = (scan & 1) != 0;
    const auto un = static_cast<std::uint32_t>(n);
    if (range.live && occurs(scan, codes, rc ? un - range.end : range.begin, rc ? un - range.begin : range.end))
      out.push_back({scan >> 1, rc, range});
  }
  return true;
}

bool PatternIndex::occurs(std::uint32_t scan, const std::uint8_t* codes, std::uint32_t a, std::uint32_t b) const {
  const std::uint64_t* peq = profiles_[scan].peq;
  const std::uint32_t m = length_[scan >> 1];
  const std::uint64_t high = std::uint64_t{1} << (m - 1);
  std::uint64_t pv = ~std::uint64_t{0}, mv = 0;
  std::int32_t score = static_cast<std::int32_t>(m);
  for (std::uint32_t i = a; i < b; ++i) {
    const std::uint8_t bases = bases_of_class_[codes[i]];
    const std::uint64_t eq = (peq[0] & -std::uint64_t(bases & 1)) | (peq[1] & -std::uint64_t(bases >> 1 & 1)) |
                             (peq[2] & -std::uint64_t(bases >> 2 & 1)) | (peq[3] & -std::uint64_t(bases >> 3 & 1));
    const std::uint64_t xv = eq | mv;
    const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
    std::uint64_t ph = mv | ~(xh | pv);
    std::uint64_t mh = pv & xh;
    score += (ph & high) != 0;
    score -= (mh & high) != 0;
    // (A fresh start anywhere: row 0 stays 0, so nothing enters at the bottom.)
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (score <= k_) return true;
  }
  return false;
}

std::string PatternIndex::describe() const {
  char line[160];
  std::snprintf(line, sizeof line, "pattern index of %zu pieces, seeds of %u bases, %.1f MB", entries_.size(), q_,
                static_cast<double>(bytes()) / 1e6);
  return line;
}

}  // namespace trawl
