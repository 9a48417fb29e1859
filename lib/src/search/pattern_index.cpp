#include "trawl/search/pattern_index.h"

#include <algorithm>
#include <climits>
#include <cmath>
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

namespace {

// The seeds that an occurrence of the piece `r` (its `len` bases as the forward text reads
// them) with at most `edits` (0 or 1) edits starts with, q bases each: the piece's first q
// bases, and with one edit each substitution, deletion (a piece of exactly q bases: its
// deleted base's place taken by any base) and insertion among them. An insertion before
// the piece's first base is not needed: the pigeonhole counts an insertion between two
// pieces against the earlier one, and one before the pattern's first is never in a
// cheapest alignment. Sorted, each once.
void piece_seeds(const std::uint8_t* r, unsigned len, unsigned q, unsigned edits, std::vector<std::uint32_t>& out) {
  out.clear();
  out.push_back(seed_code(r, q));
  if (edits == 0) return;
  std::uint8_t v[PatternIndex::kMaxSeed + 1];
  for (unsigned j = 0; j < q; ++j) {
    for (std::uint8_t c = 0; c < 4; ++c) {
      std::copy(r, r + q, v);
      v[j] = c;  // substitution
      out.push_back(seed_code(v, q));
      if (j == 0) continue;
      std::copy(r, r + j, v);  // insertion of c before base j
      v[j] = c;
      std::copy(r + j, r + q - 1, v + j + 1);
      out.push_back(seed_code(v, q));
    }
    std::copy(r, r + j, v);  // deletion of base j
    std::copy(r + j + 1, r + std::min(q + 1, len), v + j);
    if (q < len) {
      out.push_back(seed_code(v, q));
      continue;
    }
    for (std::uint8_t c = 0; c < 4; ++c) {
      v[q - 1] = c;
      out.push_back(seed_code(v, q));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// Seeds per piece (an upper bound) of a piece scheme.
double seeds_per_piece(unsigned q, unsigned edits) { return edits == 0 ? 1.0 : 1.0 + 11.0 * q; }

}  // namespace

PatternIndex::Scheme PatternIndex::scheme_of(const PatternSet& patterns, int k, unsigned strands, Pieces pieces) {
  // Exact pieces: k + 1 of them, one occurs exactly. Pieces with one edit: k / 2 + 1 of
  // them (twice as long, so their seeds can be longer), one occurs with at most one edit
  // (floor(k / pieces) <= 1). The one whose seeds a text finds fewer of by chance.
  Scheme best;
  for (const unsigned edits : {0u, 1u}) {
    // (At k = 0 the two are one: a single exact piece.)
    if (edits == 1 ? pieces == Pieces::exact || k == 0 : pieces == Pieces::one_edit && k > 0) continue;
    const unsigned parts = edits == 0 ? static_cast<unsigned>(k) + 1 : static_cast<unsigned>(k) / 2 + 1;
    std::size_t shortest = 64;
    for (std::size_t pi = 0; pi < patterns.size(); ++pi) shortest = std::min(shortest, patterns.seq(pi).size() / parts);
    if (shortest < kMinSeed) continue;
    const auto q = static_cast<unsigned>(std::min<std::size_t>(shortest, kMaxSeed));
    const double seeds = static_cast<double>(patterns.size() * strands * parts) * seeds_per_piece(q, edits);
    if (seeds > kMaxSeeds) continue;
    const double found = seeds / static_cast<double>(std::size_t{1} << (2 * q));
    if (best.parts == 0 || found < best.found) best = {parts, edits, q, found};
  }
  return best;
}

std::shared_ptr<const PatternIndex> PatternIndex::build(const PatternSet& patterns, const SearchOptions& options,
                                                        bool force, Pieces pieces) {
  const std::size_t npat = patterns.size();
  if (npat == 0 || npat >= (std::size_t{1} << (31 - kAtBits)) || options.overhang || options.k < 0 ||
      patterns.max_length() > 64)
    return nullptr;
  const unsigned strands = options.searches_rc() ? 2 : 1;
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
  for (unsigned c = 0; c < 16; ++c) {
    const std::uint8_t b = x.bases_of_class_[c];
    x.base_of_code_[c] = (b & (b - 1)) != 0 ? kAmbiguousBase : b == 0 ? 0 : static_cast<std::uint8_t>(__builtin_ctz(b));
  }
  x.k_ = options.k;
  x.rc_ = strands == 2;
  x.scheme_ = scheme_of(patterns, options.k, strands, pieces);
  if (x.scheme_.parts == 0) return nullptr;
  // Without force, a panel whose look-ups and candidates cost about what scanning every
  // pair does is not indexed.
  if (!force && !pays(x.scheme_.found, npat * strands)) return nullptr;
  x.q_ = x.scheme_.q;
  // A random text base matches a pattern position on one of 2k + 1 diagonals with
  // probability 1 - (3/4)^(2k + 1): the screen rules out most chance seeds only where the
  // positions it leaves unmatched are well above k.
  std::size_t shortest = 64;
  for (std::size_t pi = 0; pi < npat; ++pi) shortest = std::min(shortest, patterns.seq(pi).size());
  const double unmatched = static_cast<double>(shortest) * std::pow(0.75, 2 * options.k + 1);
  x.screen_ = unmatched >= 2.0 * (options.k + 1);
  if (!x.add_pieces(patterns, base_of_byte[0])) return nullptr;
  return index;
}

bool PatternIndex::add_pieces(const PatternSet& patterns, const std::array<std::uint8_t, 256>& base_of_byte) {
  // Every piece's seeds, generated twice (counted, then placed: a counting sort with no
  // copy of the entries, so that building takes little more memory than the table).
  const std::size_t npat = patterns.size();
  const unsigned parts = scheme_.parts;
  std::vector<std::uint32_t> piece;
  length_.resize(npat);
  profiles_.resize(2 * npat);
  std::uint8_t fwd[64], rev[64];  // the pattern's bases; its reverse complement's
  for (std::size_t pi = 0; pi < npat; ++pi) {
    const std::string_view seq = patterns.seq(pi);
    const auto m = static_cast<std::uint32_t>(seq.size());
    for (std::uint32_t j = 0; j < m; ++j) {
      fwd[j] = base_of_byte[static_cast<std::uint8_t>(seq[j])];
      if (fwd[j] == seeds::kNotBase) return false;
      profiles_[2 * pi].peq[fwd[j]] |= std::uint64_t{1} << j;
      profiles_[2 * pi + 1].peq[3 - fwd[j]] |= std::uint64_t{1} << (m - 1 - j);
      profiles_[2 * pi].packed[j / 32] |= std::uint64_t{fwd[j]} << (2 * (j % 32));
      profiles_[2 * pi + 1].packed[(m - 1 - j) / 32] |= std::uint64_t{3u - fwd[j]} << (2 * ((m - 1 - j) % 32));
    }
    length_[pi] = static_cast<std::uint8_t>(m);
  }
  auto for_each_seed = [&](auto&& use) {
    for (std::size_t pi = 0; pi < npat; ++pi) {
      const std::string_view seq = patterns.seq(pi);
      const auto m = static_cast<std::uint32_t>(seq.size());
      for (std::uint32_t j = 0; j < m; ++j) fwd[j] = base_of_byte[static_cast<std::uint8_t>(seq[j])];
      for (std::uint32_t j = 0; j < m; ++j) rev[j] = static_cast<std::uint8_t>(3 - fwd[m - 1 - j]);
      const auto scan = static_cast<std::uint32_t>(2 * pi);
      for (std::uint32_t t = 0; t < parts; ++t) {
        const std::uint32_t lo = t * m / parts, hi = (t + 1) * m / parts;
        piece_seeds(fwd + lo, hi - lo, q_, scheme_.edits, piece);
        for (const std::uint32_t key : piece) use(key, entry_of(scan, lo));
        if (!rc_) continue;
        // The rc scan's piece [lo, hi) of complement(P), as the forward text reads it:
        // reverse complement positions [m - hi, m - lo).
        piece_seeds(rev + (m - hi), hi - lo, q_, scheme_.edits, piece);
        for (const std::uint32_t key : piece) use(key, entry_of(scan + 1, hi));
      }
    }
  };
  // The keys that have entries are marked first, and only they get an offset (at their
  // rank among the marked): a table of all 4^q keys would be 16 MB at q = 11, most of it
  // empty for a panel of a few thousand pieces, and first-touched memory.
  const std::size_t keys = std::size_t{1} << (2 * q_);
  present_.assign((keys + 63) / 64, 0);
  for_each_seed([&](std::uint32_t key, Entry) { present_[key >> 6] |= std::uint64_t{1} << (key & 63); });
  rank_.resize(present_.size());
  std::uint32_t marked = 0;
  for (std::size_t w = 0; w < present_.size(); ++w) {
    rank_[w] = marked;
    marked += static_cast<std::uint32_t>(__builtin_popcountll(present_[w]));
  }
  // offsets_[rank] counts its key's entries, then (summed) is where they end, then (each
  // placed one before it) where they start.
  offsets_.assign(std::size_t{marked} + 1, 0);
  for_each_seed([&](std::uint32_t key, Entry) { ++offsets_[rank_of(key)]; });
  for (std::size_t i = 1; i < offsets_.size(); ++i) offsets_[i] += offsets_[i - 1];
  entries_.resize(offsets_.back());
  for_each_seed([&](std::uint32_t key, Entry entry) { entries_[--offsets_[rank_of(key)]] = entry; });
  return true;
}

bool PatternIndex::pays(double found, std::size_t scans) {
  // Per text position, in the time of a lane step (the lanes scan every pair: `scans`
  // steps): a look-up, and for each piece found by chance (pieces / 4^q of them) its
  // cache misses and its check, which cost about kPerPiece steps (docs/performance.md:
  // fitted in "Pattern index", kLookup refit on 2026-12-08 for the kernel's look-up).
  constexpr double kLookup = 28, kPerPiece = 1100;
  return kLookup + found * kPerPiece < static_cast<double>(scans);
}

bool PatternIndex::seeds_of(const std::uint8_t* codes, std::size_t n, SeedKeysFn seed_keys, Scratch& s) const {
  // Most texts have no code that matches several bases: the kernel finds their seeds that
  // have entries, and the few texts with such a code take the general loop.
  s.keys.resize(std::max(s.keys.size(), n));
  s.at.resize(std::max(s.at.size(), n));
  const SeedKeyQuery query{base_of_code_.data(), present_.data(), q_};
  const std::size_t found = seed_keys(query, codes, n, s.keys.data(), s.at.data());
  if (found == kSeedKeysAmbiguous) return seeds_of_any(codes, n, s.seeds);
  s.seeds.resize(std::max(s.seeds.size(), found + 4));  // (four past the end, below)
  Seed* out = s.seeds.data();
  for (std::size_t i = 0; i < found; ++i) *out++ = {s.keys[i], s.at[i], 0};
  // With pieces that may lose a base, a piece of exactly q bases may be the text's last
  // q - 1: one more position past the end, matching every base, finds it.
  if (scheme_.edits != 0 && n + 1 >= q_) {
    const std::uint32_t mask = (std::uint32_t{1} << (2 * q_)) - 1;
    std::uint32_t key = 0;
    for (std::size_t i = n + 1 - q_; i < n; ++i) key = key << 2 | base_of_code_[codes[i]];
    key = key << 2 & mask;
    for (std::uint32_t x = 0; x < 4; ++x) {
      *out = {key | x, static_cast<std::uint32_t>(n + 1 - q_), 0};
      out += has_entries(key | x);
    }
  }
  s.seeds.resize(static_cast<std::size_t>(out - s.seeds.data()));
  return true;
}

bool PatternIndex::seeds_of_any(const std::uint8_t* codes, std::size_t n, UninitializedVector<Seed>& seeds) const {
  seeds.clear();
  const std::uint32_t mask = (std::uint32_t{1} << (2 * q_)) - 1;
  auto add = [&](std::uint32_t key, std::uint32_t f) {
    if (!has_entries(key)) return;
    seeds.push_back({key, f, 0});
  };
  // With pieces that may lose a base, a piece of exactly q bases may be the text's last
  // q - 1: one more position past the end, matching every base, finds it.
  const std::size_t end = scheme_.edits == 0 ? n : n + 1;
  auto bases_at = [&](std::size_t i) { return i < n ? bases_of_class_[codes[i]] : std::uint8_t{15}; };
  std::uint32_t key = 0;
  std::uint32_t ambiguous = 0;  // bit j: the code j before the current one matches several bases
  for (std::size_t i = 0; i < end; ++i) {
    const std::uint8_t bases = bases_at(i);
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
    const std::uint8_t b1 = bases_at(i - j1), b2 = rest ? bases_at(i - j2) : 1;
    for (std::uint32_t x1 = 0; x1 < 4; ++x1)
      for (std::uint32_t x2 = 0; x2 < (rest ? 4u : 1u); ++x2)
        if ((b1 >> x1 & 1) && (b2 >> x2 & 1)) add(key | x1 << (2 * j1) | (rest ? x2 << (2 * j2) : 0), f);
  }
  return true;
}

bool PatternIndex::candidates(const std::uint8_t* codes, std::size_t n, SeedKeysFn seed_keys, Scratch& s,
                              std::vector<Candidate>& out) const {
  // In passes, each prefetching what the next reads: the tables are large and a record's
  // look-ups land anywhere in them, so their cache misses must overlap.
  out.clear();
  if (!seeds_of(codes, n, seed_keys, s)) return false;
  for (Seed& seed : s.seeds) {
    seed.key = rank_of(seed.key);
    __builtin_prefetch(&offsets_[seed.key]);
  }
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
      const std::uint32_t scan = entries_[e] >> kAtBits, at = entries_[e] & kAtMask;
      // d: where the piece starts in its strand's text minus where it starts in the pattern.
      const std::int64_t d = (scan & 1) == 0 ? std::int64_t{seed.at} - at : sn - seed.at - at;
      s.found.push_back(std::uint64_t{scan} << 32 | static_cast<std::uint64_t>(d + kBias));
      __builtin_prefetch(&profiles_[scan]);
    }
  std::sort(s.found.begin(), s.found.end());
  if (screen_ && !s.found.empty()) pack(codes, n, s);
  for (std::size_t i = 0; i < s.found.size();) {
    const auto scan = static_cast<std::uint32_t>(s.found[i] >> 32);
    const std::int64_t d_min = static_cast<std::int64_t>(s.found[i] & 0xFFFFFFFF) - kBias;
    while (i + 1 < s.found.size() && s.found[i + 1] >> 32 == scan) ++i;
    const std::int64_t d_max = static_cast<std::int64_t>(s.found[i++] & 0xFFFFFFFF) - kBias;
    const StrandRange range = seeds::strand_range(d_min, d_max, length_[scan >> 1], k_, sn);
    // (A reverse strand's range [begin, end) is forward text [n - end, n - begin).)
    const bool rc = (scan & 1) != 0;
    const auto un = static_cast<std::uint32_t>(n);
    const std::int64_t m = length_[scan >> 1];
    // (Forward diagonals: a reverse strand's d is n - m - d forward.)
    const std::int64_t lo = (rc ? sn - m - d_max : d_min) - k_, hi = (rc ? sn - m - d_min : d_max) + k_;
    if (range.live && (!screen_ || plausible(scan, s, lo, hi, sn)) &&
        occurs(scan, codes, rc ? un - range.end : range.begin, rc ? un - range.begin : range.end))
      out.push_back({scan >> 1, rc, range});
  }
  return true;
}

void PatternIndex::pack(const std::uint8_t* codes, std::size_t n, Scratch& s) const {
  const std::size_t words = static_cast<std::size_t>(2 * kPad + 1) + (n + 31) / 32;
  s.bases.assign(words, 0);
  s.wild.assign(words, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t b = bases_of_class_[codes[i]];
    const std::size_t w = static_cast<std::size_t>(kPad) + i / 32;
    const unsigned shift = 2 * (i % 32);
    if ((b & (b - 1)) != 0 || b == 0) s.wild[w] |= std::uint64_t{3} << shift;
    else s.bases[w] |= std::uint64_t(__builtin_ctz(b)) << shift;
  }
}

bool PatternIndex::plausible(std::uint32_t scan, const Scratch& s, std::int64_t lo, std::int64_t hi,
                             std::int64_t n) const {
  const ScanProfile& prof = profiles_[scan];
  const std::int64_t m = length_[scan >> 1];
  constexpr std::uint64_t kLow = 0x5555555555555555ULL;  // the low bit of every position
  // 64 bits of the packed text from base `pos` on (pos >= -32 * kPad).
  auto bits_at = [](const std::vector<std::uint64_t>& a, std::int64_t pos) {
    const auto bit = static_cast<std::uint64_t>(2 * (pos + 32 * kPad));
    const std::uint64_t w = bit >> 6, sh = bit & 63;
    return sh == 0 ? a[w] : a[w] >> sh | a[w + 1] << (64 - sh);
  };
  std::uint64_t matched[2] = {0, 0};
  lo = std::max(lo, -m);
  hi = std::min(hi, n);
  for (std::int64_t e = lo; e <= hi; ++e)
    for (std::int64_t h = 0; h < (m + 31) / 32; ++h) {
      const std::int64_t at = e + 32 * h;  // text position of pattern position 32 h
      const std::uint64_t x = bits_at(s.bases, at) ^ prof.packed[h];
      std::uint64_t same = (~(x | x >> 1) | bits_at(s.wild, at)) & kLow;
      // Only positions inside the text: [max(0, -at), n - at).
      const std::int64_t from = std::clamp<std::int64_t>(-at, 0, 32), to = std::clamp<std::int64_t>(n - at, 0, 32);
      const std::uint64_t inside = (to >= 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * to)) - 1) &
                                   ~(from >= 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * from)) - 1);
      matched[h] |= same & inside;
    }
  int unmatched = 0;
  for (std::int64_t h = 0; h < (m + 31) / 32; ++h) {
    const std::int64_t here = std::min<std::int64_t>(32, m - 32 * h);
    const std::uint64_t positions = (here >= 32 ? ~std::uint64_t{0} : (std::uint64_t{1} << (2 * here)) - 1) & kLow;
    unmatched += __builtin_popcountll(positions & ~matched[h]);
  }
  return unmatched <= k_;
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
  std::snprintf(line, sizeof line, "%u %s per pattern strand, %zu seeds of %u bases, %.1f MB", scheme_.parts,
                scheme_.edits == 0 ? "exact pieces" : "pieces with up to one edit", entries_.size(), q_,
                static_cast<double>(bytes()) / 1e6);
  return line;
}

}  // namespace trawl
