// Greedy traceback (docs/semantics.md §3): Tracer gives Sassy's start and CIGAR ('=' then
// 'X' then 'D' then 'I', indels pushed left) on Sassy 0.2.6's tie-breaking examples and
// vectors (docs/architecture.md §5), forward, reverse complement and with overhang; on
// seeded random cases it gives the DP oracle's hit for every end <= k (both the
// bit-parallel band, m <= 64, and the full band of longer patterns), every traced CIGAR
// re-scores to the reported cost, and a text slice that covers only the band gives the same
// result as the whole text.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "trawl/core/pattern_set.h"
#include "trawl/search/traceback.h"

using namespace trawl;

namespace {

struct Traced {
  TraceResult result;
  std::string cigar;
};

// Traces end position p (in the strand's text) of `pattern` on `strand` of `text`. `tight`
// hands the tracer only the band's slice of the text.
Traced trace(const std::string& pattern, const std::string& text, const SearchOptions& opt,
             Strand strand, std::uint64_t p, bool tight = false) {
  const PatternSet ps({{"p", pattern}}, opt);
  std::vector<std::uint64_t> scratch;
  const StrandProfile prof = ps.profile(0, strand, scratch);
  std::vector<std::uint8_t> codes;
  for (char c : text) codes.push_back(opt.alphabet.text_class(static_cast<std::uint8_t>(c)));
  if (strand == Strand::rc) std::reverse(codes.begin(), codes.end());
  const std::uint64_t n = codes.size();
  std::uint64_t begin = 0;
  if (tight) {
    const std::uint64_t band = pattern.size() + static_cast<std::uint64_t>(opt.k);
    begin = p > band ? p - band : 0;
    codes = std::vector<std::uint8_t>(codes.begin() + static_cast<std::ptrdiff_t>(begin),
                                      codes.begin() + static_cast<std::ptrdiff_t>(std::min(p, n)));
  }
  Tracer tracer;
  std::vector<CigarOp> ops = {{9, 'Z'}};  // appended to, never overwritten
  Traced t{tracer.trace(prof, codes, begin, n, p, opt, ops), {}};
  REQUIRE(ops.front().op == 'Z');
  append_cigar(t.cigar, std::span<const CigarOp>(ops).subspan(1));
  return t;
}

SearchOptions options(Alphabet a, int k, std::optional<float> alpha = std::nullopt) {
  SearchOptions o;
  o.alphabet.alphabet = a;
  o.k = k;
  o.overhang = alpha;
  return o;
}

// Expected: [start, end) in the strand's coordinates, pattern range, cost, CIGAR.
void expect(const Traced& t, std::uint64_t start, std::uint64_t end, std::uint32_t ps, std::uint32_t pe,
            std::int32_t cost, const std::string& cigar) {
  CHECK(t.result.start == start);
  CHECK(t.result.end == end);
  CHECK(t.result.pattern_start == ps);
  CHECK(t.result.pattern_end == pe);
  CHECK(t.result.cost == cost);
  CHECK(t.cigar == cigar);
}

}  // namespace

TEST_CASE("traceback: Sassy tie-breaking examples (forward)") {
  const auto dna = [](int k) { return options(Alphabet::dna, k); };
  const Strand f = Strand::fwd;
  SUBCASE("the extra G is placed left") { expect(trace("ACGT", "TTACGGTTT", dna(1), f, 7), 2, 7, 0, 4, 1, "2=1D2="); }
  SUBCASE("substitution at the plateau's right end") { expect(trace("ACGGT", "TTACGTTT", dna(1), f, 7), 2, 7, 0, 5, 1, "3=1X1="); }
  SUBCASE("substitution beats a leading insertion") { expect(trace("AAAT", "CCAATCC", dna(1), f, 5), 1, 5, 0, 4, 1, "1X3="); }
  SUBCASE("insertion pushed left") { expect(trace("GATTACA", "CCGATACACC", dna(2), f, 8), 2, 8, 0, 7, 1, "2=1I4="); }
  SUBCASE("insertion in a longer pattern") { expect(trace("ACGTTGCA", "TTTACGTGCATTT", dna(2), f, 10), 3, 10, 0, 8, 1, "3=1I4="); }
  SUBCASE("deletion") { expect(trace("ACGTGCA", "TTTACGTTGCATTT", dna(2), f, 11), 3, 11, 0, 7, 1, "3=1D4="); }
  SUBCASE("both ends of AAAA in CCCAAACCC") {
    expect(trace("AAAA", "CCCAAACCC", dna(1), f, 6), 2, 6, 0, 4, 1, "1X3=");
    expect(trace("AAAA", "CCCAAACCC", dna(1), f, 7), 3, 7, 0, 4, 1, "3=1X");
  }
}

TEST_CASE("traceback: Sassy vectors (forward, all ends, k >= m, ascii)") {
  const Strand f = Strand::fwd;
  const auto dna = [](int k) { return options(Alphabet::dna, k); };
  expect(trace("ACGT", "TTACGGTTT", dna(1), f, 5), 2, 5, 0, 4, 1, "3=1I");
  expect(trace("ACGT", "TTACGGTTT", dna(1), f, 6), 2, 6, 0, 4, 1, "3=1X");
  expect(trace("ACGT", "TTTT", dna(4), f, 4), 0, 4, 0, 4, 3, "3X1=");
  expect(trace("ACG", "TT", dna(4), f, 0), 0, 0, 0, 3, 3, "3I");
  expect(trace("ACG", "TT", dna(4), f, 1), 0, 1, 0, 3, 3, "2I1X");
  expect(trace("ACG", "TT", dna(4), f, 2), 0, 2, 0, 3, 3, "1I2X");
  expect(trace("AC", "GGG", dna(2), f, 0), 0, 0, 0, 2, 2, "2I");
  expect(trace("AC", "GGG", dna(2), f, 1), 0, 1, 0, 2, 2, "1I1X");
  expect(trace("AC", "GGG", dna(2), f, 2), 0, 2, 0, 2, 2, "2X");
  expect(trace("AC", "GGG", dna(2), f, 3), 1, 3, 0, 2, 2, "2X");
  expect(trace("ATGC", "GGGGATTGCGGG", dna(1), f, 9), 5, 9, 0, 4, 1, "1X3=");
  expect(trace("AAAAAAA", "GGGGAATAAAAGGG", dna(1), f, 11), 4, 11, 0, 7, 1, "2=1X4=");
  expect(trace("ATCG", "AAAATTGAAA", options(Alphabet::iupac, 1), f, 7), 3, 7, 0, 4, 1, "2=1X1=");
  expect(trace("ACNT", "TTACXTTT", options(Alphabet::iupac, 1), f, 7), 2, 7, 0, 4, 1, "2=1D2=");
  expect(trace("ACGT", "TTacgtTT", options(Alphabet::iupac, 0), f, 6), 2, 6, 0, 4, 0, "4=");
  expect(trace("hello", "heeloo_world", options(Alphabet::ascii, 1), f, 5), 0, 5, 0, 5, 1, "2=1X2=");
}

TEST_CASE("traceback: reverse complement vectors, in the reversed text's coordinates") {
  // A '-' hit [s, e) of a text of length n is traced at p = n - s in reverse(T); its start
  // there is n - e. CIGARs read in pattern direction.
  const auto dna = options(Alphabet::dna, 1);
  const Strand r = Strand::rc;
  expect(trace("ATCG", "CCCATCACCC", dna, r, 9), 5, 9, 0, 4, 1, "2=1X1=");              // - [1,5)
  expect(trace("ATCGATCG", "GGGGATCGATCGTTTT", dna, r, 10), 2, 10, 0, 8, 1, "1=1X6=");  // - [6,14)
  expect(trace("ATCGATCG", "GGGGATCGATCGTTTT", dna, r, 14), 6, 14, 0, 8, 1, "7=1X");    // - [2,10)
  expect(trace("TCCGGAT", "GGGGGGGGATGCGGAAAA", dna, r, 10), 3, 10, 0, 7, 1, "4=1X2=");  // - [8,15)
  expect(trace("AACCGGTTT", "CCCAAACGGTTTCCC", options(Alphabet::iupac, 1), r, 12), 4, 12, 0, 9, 1,
         "4=1I4=");                                                                      // - [3,11)
  expect(trace("ACGTTGCA", "GGGGTGCAACGAGGGG", options(Alphabet::iupac, 2), r, 12), 4, 12, 0, 8, 1,
         "1X7=");                                                                        // - [4,12)
}

TEST_CASE("traceback: overhang vectors (pattern range, empty CIGARs, right overhang p > n)") {
  const Strand f = Strand::fwd;
  const SearchOptions half3 = options(Alphabet::iupac, 3, 0.5f);
  expect(trace("ATC", "CGGGGGG", half3, f, 0), 0, 0, 3, 3, 1, "");
  expect(trace("ATC", "CGGGGGG", half3, f, 1), 0, 1, 2, 3, 1, "1=");
  expect(trace("ATC", "CGGGGGG", half3, f, 2), 0, 2, 1, 3, 2, "2X");
  expect(trace("ATC", "CGGGGGG", half3, f, 3), 0, 3, 0, 3, 3, "3X");
  expect(trace("ATC", "CGGGGGG", half3, f, 8), 5, 7, 0, 2, 2, "2X");   // one character hangs right
  expect(trace("ATC", "CGGGGGG", half3, f, 9), 6, 7, 0, 1, 2, "1X");
  expect(trace("ATC", "CGGGGGG", half3, f, 10), 7, 7, 0, 0, 1, "");   // all three hang right
  expect(trace("ATCGATCG", "ATCGGGGGGGGGG", options(Alphabet::iupac, 2, 0.5f), f, 4), 0, 4, 4, 8, 2, "4=");
  expect(trace("ATCGATCG", "GGGGGGGATCG", options(Alphabet::iupac, 2, 0.5f), f, 15), 7, 11, 0, 4, 2, "4=");
  expect(trace("ACGT", "GGGGGGAC", options(Alphabet::iupac, 2, 1.0f), f, 10), 6, 8, 0, 2, 2, "2=");
  expect(trace("ACGT", "GGGGGGAC", options(Alphabet::iupac, 2), f, 8), 6, 8, 0, 4, 2, "2=2I");
  expect(trace("ACGT", "", options(Alphabet::iupac, 1, 0.5f), f, 1), 0, 0, 3, 3, 1, "");
  expect(trace("ACGT", "", options(Alphabet::iupac, 1, 0.5f), f, 3), 0, 0, 1, 1, 1, "");
  // '-' with overhang: - [10,16) [1,7) is end 6 of the reversed text, one character hanging left.
  expect(trace("TTTTAAA", "GGGGGGGGGTTTTAAA", options(Alphabet::iupac, 1, 0.5f), Strand::rc, 6), 0, 6, 1, 7, 0,
         "6=");
}

TEST_CASE("traceback: a band slice that does not cover p - (m + k) up to min(p, n) is refused") {
  const SearchOptions opt = options(Alphabet::dna, 1);
  const PatternSet ps({{"p", "ACGT"}}, opt);
  std::vector<std::uint64_t> scratch;
  const StrandProfile prof = ps.profile(0, Strand::fwd, scratch);
  const std::vector<std::uint8_t> codes(5, 0);  // positions [5, 10) of a text of 20
  Tracer tracer;
  std::vector<CigarOp> ops;
  CHECK_THROWS_AS(tracer.trace(prof, codes, 5, 20, 12, opt, ops), std::logic_error);  // needs [7, 12)
  CHECK_THROWS_AS(tracer.trace(prof, codes, 5, 20, 9, opt, ops), std::logic_error);   // needs [4, 9)
  CHECK_NOTHROW(tracer.trace(prof, codes, 5, 20, 10, opt, ops));                       // needs [5, 10)
}

TEST_CASE("traceback: random cases give the oracle's hit at every end <= k, and re-score to its cost") {
  const std::uint64_t seed = 1206;
  std::mt19937_64 rng(seed);
  int traced = 0;
  for (int iter = 0; iter < 400; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 4 == 3 ? Alphabet::ascii : iter % 2 ? Alphabet::dna : Alphabet::iupac;
    const bool ascii = opt.alphabet.alphabet == Alphabet::ascii;
    opt.both_strands = !ascii;
    opt.selection = Selection::all_ends;
    if (!ascii && iter % 5 == 0) opt.overhang = static_cast<float>(rng() % 5) / 4.0f;
    const std::size_t m = iter % 7 == 6 ? 65 + rng() % 40 : 1 + rng() % 20;
    const std::string pattern = trawl::test::random_text(
        rng, m, ascii ? "abc" : opt.alphabet.alphabet == Alphabet::iupac ? "ACGTRN" : "ACGT");
    std::string text = trawl::test::random_text(rng, rng() % (m + 60), ascii ? "abcd" : "ACGTN");
    if (text.size() > m && rng() % 2) text.replace(rng() % (text.size() - m), m, pattern);
    opt.k = static_cast<int>(rng() % (m < 6 ? m + 2 : 6));
    const std::vector<trawl::oracle::OracleHit> want = trawl::oracle::search(pattern, text, opt);
    const std::uint64_t n = text.size();
    for (const trawl::oracle::OracleHit& h : want) {
      // The end position in the strand's text: the hit's end (forward) or n - start ('-'),
      // plus the characters hanging past the strand text's end.
      const bool rc = h.strand == Strand::rc;
      const std::uint64_t p = (rc ? n - h.start : h.end) + (m - h.pattern_end);
      const bool tight = rng() % 2;
      INFO("seed " << seed << " iter " << iter << " " << trawl::oracle::describe(opt) << " P "
                   << trawl::oracle::escape(pattern) << " T " << trawl::oracle::escape(text) << " p " << p
                   << " want " << trawl::oracle::format_hit(h) << " tight " << tight);
      const Traced t = trace(pattern, text, opt, h.strand, p, tight);
      trawl::oracle::OracleHit got{h.strand, t.result.cost,
                                   rc ? n - t.result.end : t.result.start,
                                   rc ? n - t.result.start : t.result.end,
                                   t.result.pattern_start, t.result.pattern_end, t.cigar};
      CHECK(trawl::oracle::format_hit(got) == trawl::oracle::format_hit(h));
      CHECK(trawl::oracle::check_hit(pattern, text, opt, got) == "");
      ++traced;
    }
  }
  MESSAGE("traced ends: " << traced);
  CHECK(traced > 1000);
}
