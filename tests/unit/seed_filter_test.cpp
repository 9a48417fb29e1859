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
#include "trawl/pattern_set.h"
#include "trawl/search_options.h"
#include "trawl/seed_filter.h"

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
