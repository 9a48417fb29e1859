// SeedFilter (trawl/seed_filter.h): it may let through scans without hits, but must never
// rule out one that has a hit. Checked against the naive oracle on panels whose hits are
// planted with up to k + 1 edits, forward and reverse complemented, next to text bytes that
// break seeds (N in dna, junk) or make them ambiguous (IUPAC codes in iupac), and at the
// text's ends.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "trawl/core/pattern_set.h"
#include "trawl/core/search_options.h"
#include "trawl/search/seed_filter.h"

using namespace trawl;
using trawl::test::random_text;

namespace {

// A copy of `s` with `edits` random substitutions, insertions and deletions.
std::string mutate(std::mt19937_64& rng, std::string s, int edits) {
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const std::size_t at = rng() % s.size();
    switch (rng() % 3) {
      case 0: s[at] = "ACGT"[rng() % 4]; break;
      case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), "ACGT"[rng() % 4]); break;
      default: s.erase(s.begin() + static_cast<std::ptrdiff_t>(at)); break;
    }
  }
  return s;
}

}  // namespace

TEST_CASE("seed filter never rules out a (pattern, strand) with a hit") {
  std::mt19937_64 rng(20261204);
  std::uint64_t ruled_out = 0, with_hits = 0, scans_checked = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 2 ? Alphabet::dna : Alphabet::iupac;
    opt.both_strands = iter % 5 != 0;
    opt.k = static_cast<int>(rng() % 5);
    const auto parts = static_cast<std::uint32_t>(opt.k) + 1;
    // Lengths around the shortest that are filtered (pieces of five bases), some shorter.
    std::vector<Pattern> patterns(1 + rng() % (opt.both_strands ? 32 : 64));
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const std::size_t m = 5 * parts - 2 + rng() % (iter % 3 ? 6 : 30);
      std::string seq = random_text(rng, m, rng() % 4 ? "ACGT" : "AC");
      if (rng() % 4 == 0) seq[rng() % m] = static_cast<char>(seq[rng() % m] | 0x20);  // lowercase
      if (opt.alphabet.alphabet == Alphabet::iupac && rng() % 10 == 0) seq[rng() % m] = 'N';
      patterns[i] = {"p" + std::to_string(i), seq};
    }
    const PatternSet ps(patterns, opt);
    const std::size_t npat = patterns.size();
    std::vector<std::uint64_t> scratch;
    std::vector<SeedScan> scans;
    for (Strand strand : {Strand::fwd, Strand::rc}) {
      if (strand == Strand::rc && !opt.searches_rc()) break;
      for (std::size_t i = 0; i < npat; ++i) scans.push_back({ps.profile(i, strand, scratch), strand == Strand::rc});
    }
    const SeedFilter filter(opt.alphabet, opt.k, scans);
    CAPTURE(iter);
    for (int t = 0; t < 8; ++t) {
      std::string text = random_text(rng, rng() % 200, "ACGTACGTacgt");
      // Planted copies with up to k + 1 edits, some reverse complemented, some at an end,
      // some right before a byte that breaks seeds.
      for (int planted = static_cast<int>(rng() % 4); planted > 0; --planted) {
        std::string copy = patterns[rng() % npat].seq;
        if (opt.searches_rc() && rng() % 2) copy = oracle::reverse_complement(opt.alphabet, copy);
        copy = mutate(rng, copy, static_cast<int>(rng() % (parts + 1)));
        const std::size_t at = rng() % 3 == 0 ? text.size() : rng() % (text.size() + 1);
        text.insert(at, copy);
        if (rng() % 3 == 0) text.insert(at + copy.size() - std::min<std::size_t>(copy.size(), rng() % 8), 1, rng() % 2 ? 'N' : '.');
      }
      if (rng() % 8 == 0 && !text.empty()) text[rng() % text.size()] = "NnRY.-"[rng() % 6];
      std::vector<std::uint8_t> codes(text.size());
      for (std::size_t i = 0; i < text.size(); ++i) codes[i] = opt.alphabet.text_class(static_cast<std::uint8_t>(text[i]));
      const std::uint64_t pass = filter.candidates(codes.data(), codes.size(), scalar_kernel().seed_lookup);
      CHECK((pass & ~filter.all_scans()) == 0);
      for (const KernelFns* kernel : available_kernels())
        CHECK_MESSAGE(filter.candidates(codes.data(), codes.size(), kernel->seed_lookup) == pass, kernel->name);
      for (std::size_t i = 0; i < npat; ++i) {
        bool fwd = false, rc = false;
        for (const oracle::OracleHit& h : oracle::search(patterns[i].seq, text, opt))
          (h.strand == Strand::fwd ? fwd : rc) = true;
        for (const auto& [has, bit] : {std::pair{fwd, i}, std::pair{rc, npat + i}}) {
          if (bit >= scans.size()) continue;
          ++scans_checked;
          with_hits += has;
          ruled_out += (pass >> bit & 1) == 0;
          if (has && (pass >> bit & 1) == 0)
            FAIL_CHECK("ruled out pattern " << i << " (" << patterns[i].seq << ", k=" << opt.k << ", "
                                            << (bit == i ? "+" : "-") << ") with a hit in " << text);
        }
      }
    }
  }
  MESSAGE("seed filter: " << scans_checked << " scans, " << with_hits << " with hits, " << ruled_out << " ruled out");
  CHECK(ruled_out > scans_checked / 4);  // the filter does filter
  CHECK(with_hits > scans_checked / 20);
}

TEST_CASE("every kernel's seed look-up ORs the seeds of every 6-mer") {
  // Random tables over random class codes: texts of every length around the SIMD blocks
  // (64 windows), with bases, breaks and now and then an ambiguous class.
  std::mt19937_64 rng(4096);
  std::vector<std::uint64_t> seeds(4096);
  std::vector<std::uint8_t> seed_bits(512);
  std::uint8_t base_of_class[16];
  std::uint64_t differ = 0, checked = 0, ambiguous = 0;
  for (int iter = 0; iter < 400; ++iter) {
    // Sparse bits, as real panels have (an answer of all ones would hide lost windows),
    // some tables sparser than others.
    const std::uint64_t density = 1 + rng() % 128;
    std::fill(seed_bits.begin(), seed_bits.end(), 0);
    for (std::uint32_t c = 0; c < 4096; ++c) {
      seeds[c] = rng() % density == 0 ? std::uint64_t{1} << (rng() % 64) : 0;
      if (seeds[c] != 0) seed_bits[(c & 8) * 32 + (c >> 4)] |= static_cast<std::uint8_t>(1u << (c & 7));
    }
    for (auto& b : base_of_class) b = static_cast<std::uint8_t>(rng() % 5 == 0 ? 0 : rng() % 4);
    base_of_class[15] = kAmbiguousBase;
    const SeedTable table{base_of_class, seeds.data(), seed_bits.data()};
    for (int t = 0; t < 10; ++t) {
      const std::size_t n = rng() % 300;
      std::vector<std::uint8_t> codes(n);
      for (auto& c : codes) c = static_cast<std::uint8_t>(rng() % 15);
      if (n > 0 && rng() % 10 == 0) codes[rng() % n] = 15;
      // The answer, window by window.
      std::uint64_t want = 0;
      for (std::size_t i = 0; i + 6 <= n; ++i) {
        std::uint32_t code = 0;
        for (std::size_t j = i; j < i + 6; ++j) code = code << 2 | base_of_class[codes[j]];
        want |= seeds[code & 0xFFF];  // (an ambiguous base overflows it: the answer is then all ones)
      }
      for (std::uint8_t c : codes)
        if (base_of_class[c] == kAmbiguousBase) want = ~std::uint64_t{0};
      ambiguous += want == ~std::uint64_t{0};
      for (const KernelFns* kernel : available_kernels()) {
        ++checked;
        const std::uint64_t got = kernel->seed_lookup(table, codes.data(), n);
        differ += got != want;
        if (got != want) FAIL_CHECK(kernel->name << " n=" << n << ": " << got << " != " << want);
      }
    }
  }
  MESSAGE("seed look-up: " << checked << " texts, " << ambiguous << " ambiguous, " << differ << " different");
  CHECK(ambiguous > 0);
}

TEST_CASE("seed filter: what it leaves alone") {
  std::vector<std::uint64_t> scratch;
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  opt.k = 1;
  const PatternSet ps({{"short", "ACGTACGTA"}, {"long", "ACGTTGCAACGTTGCA"}}, opt);
  const std::vector<SeedScan> scans = {{ps.profile(0, Strand::fwd, scratch), false},
                                       {ps.profile(1, Strand::fwd, scratch), false}};
  const SeedFilter filter(opt.alphabet, opt.k, scans);
  // Pieces of four bases (m = 9, k = 1) are too short: that scan always passes.
  CHECK(filter.filtered() == 0b10);
  auto codes = [&](std::string_view text) {
    std::vector<std::uint8_t> c;
    for (char b : text) c.push_back(opt.alphabet.text_class(static_cast<std::uint8_t>(b)));
    return c;
  };
  const SeedLookupFn scalar = scalar_kernel().seed_lookup;
  const auto none = codes("TTTTTTTTTTTTTTTTTTTT");
  CHECK(filter.candidates(none.data(), none.size(), scalar) == 0b01);
  const auto piece = codes("TTTTTTTTACGTTGCTTTTTT");  // the first piece, ACGTTGCA's seed ACGTTG
  CHECK(filter.candidates(piece.data(), piece.size(), scalar) == 0b11);
  const auto broken = codes("TTTTTTTTACGNTGCTTTTTT");  // N matches nothing in dna: no seed
  CHECK(filter.candidates(broken.data(), broken.size(), scalar) == 0b01);
  const auto tiny = codes("TTTT");  // shorter than a seed: cannot tell
  CHECK(filter.candidates(tiny.data(), tiny.size(), scalar) == 0b11);
  // ascii: nothing is filtered.
  SearchOptions ascii = opt;
  ascii.alphabet.alphabet = Alphabet::ascii;
  const PatternSet pa({{"long", "ACGTTGCAACGTTGCA"}}, ascii);
  const std::vector<SeedScan> ascii_scans = {{pa.profile(0, Strand::fwd, scratch), false}};
  CHECK_FALSE(SeedFilter(ascii.alphabet, 1, ascii_scans).enabled());
}

namespace {

std::vector<std::uint8_t> class_codes(const AlphabetSpec& alphabet, std::string_view text) {
  std::vector<std::uint8_t> codes(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) codes[i] = alphabet.text_class(static_cast<std::uint8_t>(text[i]));
  return codes;
}

// A random --paired case the filter can answer for most of the time: a pattern with pieces
// around the shortest seed, and a text with copies of it planted with up to k + 1 edits,
// forward or reverse complemented, at the ends or inside, next to bytes that break seeds
// (N in dna, junk) or make them ambiguous (IUPAC codes in iupac).
struct PairedCase {
  SearchOptions opt;
  std::string pattern, text;
};

PairedCase paired_case(std::mt19937_64& rng, int iter) {
  PairedCase c;
  c.opt.alphabet.alphabet = iter % 2 ? Alphabet::dna : Alphabet::iupac;
  c.opt.both_strands = iter % 5 != 0;
  c.opt.k = static_cast<int>(rng() % 6);
  const auto parts = static_cast<std::size_t>(c.opt.k) + 1;
  const std::size_t m = std::min<std::size_t>(64, PairedSeedFilter::kMinSeed * parts - 1 + rng() % (iter % 3 ? 8 : 40));
  c.pattern = random_text(rng, m, rng() % 4 ? "ACGT" : "AC");
  if (rng() % 4 == 0) c.pattern[rng() % m] = static_cast<char>(c.pattern[rng() % m] | 0x20);  // lowercase
  if (c.opt.alphabet.alphabet == Alphabet::iupac && rng() % 20 == 0) c.pattern[rng() % m] = 'N';
  c.text = random_text(rng, rng() % 300, rng() % 8 ? "ACGTACGTacgt" : "AAAAAAAC");
  for (int planted = static_cast<int>(rng() % 4); planted > 0; --planted) {
    std::string copy = c.pattern;
    if (c.opt.searches_rc() && rng() % 2) copy = oracle::reverse_complement(c.opt.alphabet, copy);
    copy = mutate(rng, copy, static_cast<int>(rng() % (parts + 1)));
    const std::size_t at = rng() % 4 == 0 ? (rng() % 2 ? 0 : c.text.size()) : rng() % (c.text.size() + 1);
    c.text.insert(at, copy);
    if (rng() % 3 == 0) c.text.insert(at + copy.size() - std::min<std::size_t>(copy.size(), rng() % 8), 1, rng() % 2 ? 'N' : '.');
  }
  if (rng() % 8 == 0 && !c.text.empty()) c.text[rng() % c.text.size()] = "NnRY.-"[rng() % 6];
  return c;
}

}  // namespace

TEST_CASE("paired seed filter: every end with cost <= k lies in its strand's range") {
  std::mt19937_64 rng(20261205);
  std::uint64_t answered = 0, live = 0, dead = 0, ends = 0, steps = 0, whole = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    const PairedCase c = paired_case(rng, iter);
    CAPTURE(iter);
    CAPTURE(c.pattern);
    CAPTURE(c.text);
    CAPTURE(c.opt.k);
    const PairedSeedFilter filter(c.opt.alphabet, c.opt.k, c.opt.searches_rc(), false);
    const std::vector<std::uint8_t> codes = class_codes(c.opt.alphabet, c.text);
    PairedSeedFilter::StrandRange ranges[2];
    if (!filter.ranges(c.pattern, codes.data(), codes.size(), scalar_kernel().seed_spans, ranges)) continue;
    ++answered;
    // Every kernel's look-up gives the same ranges.
    for (const KernelFns* kernel : available_kernels()) {
      PairedSeedFilter::StrandRange again[2];
      REQUIRE(filter.ranges(c.pattern, codes.data(), codes.size(), kernel->seed_spans, again));
      for (int s = 0; s < 2; ++s)
        CHECK_MESSAGE((again[s].live == ranges[s].live && again[s].begin == ranges[s].begin && again[s].end == ranges[s].end),
                      kernel->name);
    }
    const std::string reversed(c.text.rbegin(), c.text.rend());
    for (int s = 0; s < (c.opt.searches_rc() ? 2 : 1); ++s) {
      // The strand's cost row as its scan sees it: the rc scan matches complement(P)
      // against reverse(T).
      const std::vector<std::int32_t> row =
          s == 0 ? oracle::cost_row(c.pattern, c.text, c.opt)
                 : oracle::cost_row(oracle::complement(c.opt.alphabet, c.pattern), reversed, c.opt);
      const PairedSeedFilter::StrandRange& r = ranges[s];
      (r.live ? live : dead) += 1;
      if (r.live) {
        CHECK(r.begin < r.end);
        CHECK(r.end <= c.text.size());
        steps += r.end - r.begin;
        whole += c.text.size();
      }
      // Ends are exact from m + k past the range's start (from its start when that is the
      // text's): every end with cost <= k must lie there.
      const std::uint64_t exact_from = r.begin == 0 ? 1 : r.begin + c.pattern.size() + static_cast<std::size_t>(c.opt.k);
      for (std::size_t p = 0; p < row.size(); ++p) {
        if (row[p] > c.opt.k) continue;
        ++ends;
        if (!r.live || p < exact_from || p > r.end)
          FAIL_CHECK("strand " << s << ": end " << p << " (cost " << row[p] << ") outside "
                               << (r.live ? "[" + std::to_string(exact_from) + ", " + std::to_string(r.end) + "]" : "a dead strand"));
      }
    }
  }
  MESSAGE("paired seed filter: " << answered << " answered, " << live << " strands live, " << dead
                                 << " ruled out, " << ends << " ends checked, ranges " << steps << " of "
                                 << whole << " positions");
  // The filter does filter: it answers for most cases, rules strands out, and the ranges of
  // live strands are a small part of their texts.
  CHECK(answered > 3000);
  CHECK(dead > live / 4);
  CHECK(ends > 1000);
  CHECK(steps < whole / 2);
}

TEST_CASE("paired seed filter: what it answers for") {
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  opt.k = 2;
  const PairedSeedFilter filter(opt.alphabet, opt.k, true, false);
  // The shape of the benchmark workload W4 (docs/performance.md, "Workloads"): a 23-mer
  // from offset 64 of a 256-base record. Pieces of 7, 8 and 8 bases (the seed picks a text
  // where none of their seeds also occurs by chance).
  std::mt19937_64 rng(65);
  const std::string text = random_text(rng, 256, "ACGT");
  const std::string pattern = text.substr(64, 23);
  const std::vector<std::uint8_t> codes = class_codes(opt.alphabet, text);
  PairedSeedFilter::StrandRange r[2];
  for (const KernelFns* kernel : available_kernels()) {
    CAPTURE(kernel->name);
    REQUIRE(filter.ranges(pattern, codes.data(), codes.size(), kernel->seed_spans, r));
    // The exact copy ends at 87: ends within k of it, from m + k before the first.
    CHECK(r[0].live);
    CHECK(r[0].begin == 87 - 2 - 25);
    CHECK(r[0].end == 87 + 2);
    CHECK_FALSE(r[1].live);  // (no piece of the reverse complement in this text)
  }
  // Not answered: pieces shorter than kMinSeed, patterns longer than 64 or with an IUPAC
  // code, texts with an ambiguous class, overhang, ascii.
  const KernelFns& scalar = scalar_kernel();
  CHECK_FALSE(filter.ranges(pattern.substr(0, 17), codes.data(), codes.size(), scalar.seed_spans, r));
  CHECK_FALSE(filter.ranges(text.substr(0, 65), codes.data(), codes.size(), scalar.seed_spans, r));
  SearchOptions iupac = opt;
  iupac.alphabet.alphabet = Alphabet::iupac;
  const PairedSeedFilter iupac_filter(iupac.alphabet, 2, true, false);
  std::string coded = pattern;
  coded[5] = 'R';
  const std::vector<std::uint8_t> iupac_codes = class_codes(iupac.alphabet, text);
  CHECK_FALSE(iupac_filter.ranges(coded, iupac_codes.data(), iupac_codes.size(), scalar.seed_spans, r));
  CHECK(iupac_filter.ranges(pattern, iupac_codes.data(), iupac_codes.size(), scalar.seed_spans, r));
  std::string with_n = text;
  with_n[200] = 'N';  // N matches every base in iupac
  const std::vector<std::uint8_t> n_codes = class_codes(iupac.alphabet, with_n);
  CHECK_FALSE(iupac_filter.ranges(pattern, n_codes.data(), n_codes.size(), scalar.seed_spans, r));
  // In dna, N matches nothing: the text is answered for.
  const std::vector<std::uint8_t> dna_n_codes = class_codes(opt.alphabet, with_n);
  CHECK(filter.ranges(pattern, dna_n_codes.data(), dna_n_codes.size(), scalar.seed_spans, r));
  CHECK_FALSE(PairedSeedFilter(opt.alphabet, 2, true, true).enabled());
  SearchOptions ascii = opt;
  ascii.alphabet.alphabet = Alphabet::ascii;
  CHECK_FALSE(PairedSeedFilter(ascii.alphabet, 2, false, false).enabled());
}

TEST_CASE("every kernel's seed spans equal the scalar reference") {
  // Random seeds over random class codes of every length around the SIMD blocks, with
  // bases, breaks and now and then an ambiguous class; seeds planted so they occur.
  std::mt19937_64 rng(8192);
  std::uint64_t checked = 0, found = 0, ambiguous = 0;
  std::uint8_t base_of_class[16];
  for (int iter = 0; iter < 3000; ++iter) {
    for (auto& b : base_of_class) b = static_cast<std::uint8_t>(rng() % 5 == 0 ? 0 : rng() % 4);
    base_of_class[15] = kAmbiguousBase;
    SeedSpanQuery query{base_of_class, static_cast<std::uint32_t>(4 + rng() % 5),
                        static_cast<std::uint32_t>(1 + rng() % SeedSpanQuery::kMaxSeeds), {}};
    const std::size_t n = rng() % 4 == 0 ? rng() % 12 : rng() % 300;
    std::vector<std::uint8_t> codes(n);
    for (auto& c : codes) c = static_cast<std::uint8_t>(rng() % 15);
    if (n > 0 && rng() % 10 == 0) codes[rng() % n] = 15;
    for (std::uint32_t s = 0; s < query.count; ++s) {
      std::uint32_t value = 0;
      if (n >= query.length && rng() % 2) {  // planted: the value at some position
        const std::size_t at = rng() % (n - query.length + 1);
        for (unsigned j = 0; j < query.length; ++j) value |= std::uint32_t{base_of_class[codes[at + j]] & 3u} << seed_base_shift(j);
      } else {
        value = static_cast<std::uint32_t>(rng()) & ((1u << (2 * query.length)) - 1);
      }
      query.seeds[s] = static_cast<std::uint16_t>(value);
    }
    std::uint32_t want_first[SeedSpanQuery::kMaxSeeds], want_last[SeedSpanQuery::kMaxSeeds];
    const bool want = scalar_kernel().seed_spans(query, codes.data(), n, want_first, want_last);
    ambiguous += !want;
    for (std::uint32_t s = 0; want && s < query.count; ++s) found += want_first[s] != UINT32_MAX;
    for (const KernelFns* kernel : available_kernels()) {
      ++checked;
      std::uint32_t first[SeedSpanQuery::kMaxSeeds], last[SeedSpanQuery::kMaxSeeds];
      const bool got = kernel->seed_spans(query, codes.data(), n, first, last);
      CAPTURE(kernel->name);
      CAPTURE(n);
      CAPTURE(query.length);
      REQUIRE(got == want);
      if (!want) continue;
      for (std::uint32_t s = 0; s < query.count; ++s) {
        CHECK(first[s] == want_first[s]);
        if (want_first[s] != UINT32_MAX) CHECK(last[s] == want_last[s]);
      }
    }
  }
  MESSAGE("seed spans: " << checked << " texts, " << ambiguous << " ambiguous, " << found << " seeds found");
  CHECK(ambiguous > 0);
  CHECK(found > 1000);
}
