// Sassy 0.2.6's examples: inputs with the output Sassy's library gave for them, collected by
// running it when trawl was begun (docs/architecture.md §5), checked against BOTH the naive
// oracle (tests/support/oracle.*) and the real Searcher with the scalar kernel. The rules
// they exercise are those of docs/semantics.md §1-§8; where trawl's answer differs on purpose
// the case says DIFFERENCE and names the item of docs/semantics.md §11 it follows. Cases are
// numbered #1 to #74 as in the table they were collected in.
//
// Mapping from the vector table: profile dna -> Alphabet::dna, iupac -> Alphabet::iupac,
// ascii -> ascii, asciii -> ascii + ignore_case; `rc` -> both_strands (otherwise false);
// α -> overhang; nfrac=x -> max_n_frac = x (else 1.0, Sassy's library default = off);
// `best` -> Selection::best; mode `all` -> Selection::all_ends.
// Expected lists are written in trawl's order (docs/semantics.md §9: start, then strand '+'
// first, then end), not Sassy's output order. "*" is an empty CIGAR (the table's ∅).
//
// Not included (no trawl equivalent at the library level):
// - `v2` (7) / `v2all` (1) rows: Sassy's batched v2 engine, whose '-' CIGARs are in text
//   direction and whose α = 1.0 means "no overhang"; trawl implements v1 semantics only.
// - `notrace` row (1): trawl's library always traces (docs/semantics.md §3); there is no
//   without_trace.
// - `pats` row: expressed as one PatternSet with two patterns (and as two single searches).
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/run_search.h"
#include "trawl/core/alphabet.h"
#include "trawl/core/hit.h"
#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"
#include "trawl/core/search_options.h"
#include "trawl/search/searcher.h"

namespace {

using trawl::Alphabet;
using trawl::SearchOptions;
using trawl::Selection;
using trawl::oracle::OracleHit;

enum class Mode { search, all, best };

SearchOptions make_options(std::string_view profile, int k, Mode mode, bool rc,
                           std::optional<float> alpha, float nfrac) {
  SearchOptions o;
  if (profile == "dna") {
    o.alphabet = {Alphabet::dna, false};
  } else if (profile == "iupac") {
    o.alphabet = {Alphabet::iupac, false};
  } else if (profile == "ascii") {
    o.alphabet = {Alphabet::ascii, false};
  } else if (profile == "asciii") {
    o.alphabet = {Alphabet::ascii, true};
  } else {
    FAIL("unknown profile " << profile);
  }
  o.k = k;
  o.both_strands = rc;
  o.overhang = alpha;
  o.max_n_frac = nfrac;
  o.selection = mode == Mode::all    ? Selection::all_ends
                : mode == Mode::best ? Selection::best
                                     : Selection::local_minima;
  return o;
}

std::vector<std::string> formatted(const std::vector<OracleHit>& hits) {
  std::vector<std::string> out;
  for (const OracleHit& h : hits) out.push_back(trawl::oracle::format_hit(h));
  return out;
}

// Hits of every pattern from the library, one list per pattern.
std::vector<std::vector<OracleHit>> library_hits(const std::vector<std::string>& patterns,
                                                 std::string_view text,
                                                 const SearchOptions& opt) {
  std::vector<trawl::Pattern> ps;
  for (std::size_t i = 0; i < patterns.size(); ++i)
    ps.push_back({"p" + std::to_string(i), patterns[i]});
  trawl::PatternSet set(std::move(ps), opt);
  const trawl::HitList list = trawl::test::reference_hits(set, opt, trawl::scalar_kernel(), text, 7);
  std::vector<std::vector<OracleHit>> out(patterns.size());
  for (const trawl::Hit& h : list.hits) {
    CHECK(h.text_idx == 7);
    REQUIRE(h.pattern_idx < patterns.size());
    out[h.pattern_idx].push_back(trawl::oracle::from_library(list, h));
  }
  return out;
}

void check_hits_valid(std::string_view pattern, std::string_view text, const SearchOptions& opt,
                      const std::vector<OracleHit>& hits, const char* who) {
  for (const OracleHit& h : hits) {
    const std::string problem = trawl::oracle::check_hit(pattern, text, opt, h);
    INFO(who << " hit " << trawl::oracle::format_hit(h));
    CHECK_MESSAGE(problem.empty(), problem);
  }
}

struct Vector {
  const char* note;  // where it is from / why trawl differs
  Mode mode;
  const char* profile;
  std::string pattern;
  std::string text;
  int k;
  bool rc;
  std::optional<float> alpha;
  float nfrac;
  std::vector<std::string> expected;  // trawl's expected result, in docs/semantics.md §9 order
};

// Checks one vector against the oracle and the library. Returns nothing; CHECKs inside.
void check_vector(const Vector& v) {
  const SearchOptions opt = make_options(v.profile, v.k, v.mode, v.rc, v.alpha, v.nfrac);
  INFO("vector: " << v.note << " | P=" << v.pattern
                  << " T=" << trawl::oracle::escape(v.text) << " | "
                  << trawl::oracle::describe(opt));
  const std::vector<OracleHit> oracle = trawl::oracle::search(v.pattern, v.text, opt);
  CHECK(formatted(oracle) == v.expected);
  check_hits_valid(v.pattern, v.text, opt, oracle, "oracle");

  std::vector<std::vector<OracleHit>> lib;
  REQUIRE_NOTHROW(lib = library_hits({v.pattern}, v.text, opt));
  CHECK(formatted(lib[0]) == v.expected);
  check_hits_valid(v.pattern, v.text, opt, lib[0], "library");
}

const std::optional<float> none;

// The table's rows whose mode is search / all (incl. rc, α, nfrac and best variants),
// in table order. Rows whose result trawl deliberately changes say so in `note`.
std::vector<Vector> table_vectors() {
  using M = Mode;
  return {
      {"#1", M::search, "iupac", "ATCG", "AAAATTGAAA", 1, false, none, 1.0f,
       {"+ [3,7) [0,4) c1 2=1X1="}},
      {"#2", M::search, "dna", "ATCG", "CCCATCACCC", 1, false, none, 1.0f,
       {"+ [3,7) [0,4) c1 3=1X"}},
      {"#3 rc", M::search, "dna", "ATCG", "CCCATCACCC", 1, true, none, 1.0f,
       {"- [1,5) [0,4) c1 2=1X1=", "+ [3,7) [0,4) c1 3=1X"}},
      {"#4 overhang", M::search, "iupac", "ACGT", "GTXXXNNN", 1, false, 0.5f, 1.0f,
       {"+ [0,2) [2,4) c1 2=", "+ [5,8) [0,3) c0 3="}},
      // #5/#6 (dna `ABC`) are below: trawl rejects B for dna; run with ascii instead.
      {"#7 rc", M::search, "dna", "ATCGATCG", "GGGGATCGATCGTTTT", 1, true, none, 1.0f,
       {"- [2,10) [0,8) c1 7=1X", "+ [4,12) [0,8) c0 8=", "- [6,14) [0,8) c1 1=1X6="}},
      {"#8 plateau", M::search, "dna", "AA", "AAAA", 0, false, none, 1.0f,
       {"+ [2,4) [0,2) c0 2="}},
      {"#9", M::all, "dna", "AA", "AAAA", 0, false, none, 1.0f,
       {"+ [0,2) [0,2) c0 2=", "+ [1,3) [0,2) c0 2=", "+ [2,4) [0,2) c0 2="}},
      {"#10 two valleys", M::search, "dna", "CCG", "ATCGCGA", 1, false, none, 1.0f,
       {"+ [1,4) [0,3) c1 1X2=", "+ [3,6) [0,3) c1 1X2="}},
      {"#11 not rev-invariant", M::search, "dna", "GCC", "AGCGCTA", 1, false, none, 1.0f,
       {"+ [3,6) [0,3) c1 2=1X"}},
      {"#12 plateau at text end", M::search, "dna", "AAAC", "AAAAC" + std::string(19, 'A'),
       1, false, none, 1.0f, {"+ [1,5) [0,4) c0 4=", "+ [20,24) [0,4) c1 3=1X"}},
      {"#13", M::search, "dna", "ACGT", "TTACGGTTT", 1, false, none, 1.0f,
       {"+ [2,7) [0,4) c1 2=1D2="}},
      {"#14", M::all, "dna", "ACGT", "TTACGGTTT", 1, false, none, 1.0f,
       {"+ [2,5) [0,4) c1 3=1I", "+ [2,6) [0,4) c1 3=1X", "+ [2,7) [0,4) c1 2=1D2="}},
      {"#15", M::search, "dna", "ACGGT", "TTACGTTT", 1, false, none, 1.0f,
       {"+ [2,7) [0,5) c1 3=1X1="}},
      {"#16", M::search, "dna", "AAAT", "CCAATCC", 1, false, none, 1.0f,
       {"+ [1,5) [0,4) c1 1X3="}},
      {"#17", M::search, "dna", "GATTACA", "CCGATACACC", 2, false, none, 1.0f,
       {"+ [2,8) [0,7) c1 2=1I4="}},
      {"#18", M::search, "dna", "ACGTTGCA", "TTTACGTGCATTT", 2, false, none, 1.0f,
       {"+ [3,10) [0,8) c1 3=1I4="}},
      {"#19", M::search, "dna", "ACGTGCA", "TTTACGTTGCATTT", 2, false, none, 1.0f,
       {"+ [3,11) [0,7) c1 3=1D4="}},
      {"#20", M::search, "dna", "AAAA", "CCCAAACCC", 1, false, none, 1.0f,
       {"+ [3,7) [0,4) c1 3=1X"}},
      {"#21", M::all, "dna", "AAAA", "CCCAAACCC", 1, false, none, 1.0f,
       {"+ [2,6) [0,4) c1 1X3=", "+ [3,7) [0,4) c1 3=1X"}},
      {"#22 rc plateau: leftmost start", M::search, "dna", "AAAA", "GGGTTTGGG", 1, true, none,
       1.0f, {"- [2,6) [0,4) c1 3=1X"}},
      {"#23 k >= m", M::search, "dna", "ACGT", "TTTT", 4, false, none, 1.0f,
       {"+ [0,4) [0,4) c3 3X1="}},
      {"#24 k >= m", M::all, "dna", "ACG", "TT", 4, false, none, 1.0f,
       {"+ [0,0) [0,3) c3 3I", "+ [0,1) [0,3) c3 2I1X", "+ [0,2) [0,3) c3 1I2X"}},
      {"#25 k >= m", M::all, "dna", "AC", "GGG", 2, false, none, 1.0f,
       {"+ [0,0) [0,2) c2 2I", "+ [0,1) [0,2) c2 1I1X", "+ [0,2) [0,2) c2 2X",
        "+ [1,3) [0,2) c2 2X"}},
      {"#26", M::search, "dna", "ATGC", "GGGGATGCGGG", 0, false, none, 1.0f,
       {"+ [4,8) [0,4) c0 4="}},
      {"#27", M::search, "dna", "ATGC", "GGGGATTGCGGG", 1, false, none, 1.0f,
       {"+ [5,9) [0,4) c1 1X3="}},
      {"#28 rc", M::search, "dna", "TCCGGAT", "GGGGGGGGATGCGGAAAA", 1, true, none, 1.0f,
       {"- [8,15) [0,7) c1 4=1X2="}},
      {"#29", M::search, "dna", "AAAAAAA", "GGGGAATAAAAGGG", 1, false, none, 1.0f,
       {"+ [4,11) [0,7) c1 2=1X4="}},
      {"#30 rc", M::search, "dna", "AAAAAAA", "CCCTTTTATTCCCC", 1, true, none, 1.0f,
       {"- [3,10) [0,7) c1 2=1X4="}},
      {"#31 rc", M::search, "dna", "ATCGATCA", "GGGGGGGGTGATCGATGGGGGGGG", 0, true, none,
       1.0f, {"- [8,16) [0,8) c0 8="}},
      {"#32 iupac pattern code", M::search, "iupac", "ACRT", "TTACGTTACATT", 0, false, none,
       1.0f, {"+ [2,6) [0,4) c0 4=", "+ [7,11) [0,4) c0 4="}},
      {"#33 iupac text code", M::search, "iupac", "ACGT", "TTACRTTT", 0, false, none, 1.0f,
       {"+ [2,6) [0,4) c0 4="}},
      {"#34 X matches nothing", M::search, "iupac", "ACNT", "TTACXTTT", 1, false, none, 1.0f,
       {"+ [2,7) [0,4) c1 2=1D2="}},
      {"#35 lowercase text", M::search, "iupac", "ACGT", "TTacgtTT", 0, false, none, 1.0f,
       {"+ [2,6) [0,4) c0 4="}},
      // DIFFERENCE (docs/semantics.md §11 item 2): Sassy treats the non-IUPAC text byte '.' as
      // N and reports [2,6) 4=; in trawl a non-IUPAC text byte matches nothing, so no hit.
      {"#36 DIFFERENCE non-IUPAC text bytes match nothing (Sassy: + [2,6) 4=)", M::search,
       "iupac", "ACGT", "AA....AA", 0, false, none, 1.0f, {}},
      {"#37", M::search, "iupac", "ACGT", "AAXXXXAA", 0, false, none, 1.0f, {}},
      {"#38 rc iupac complement", M::search, "iupac", "ACGR", "TTYCGTTT", 0, true, none, 1.0f,
       {"- [2,6) [0,4) c0 4="}},
      {"#39 rc mixed case", M::search, "iupac", "AACG", "ccCGTTcc", 0, true, none, 1.0f,
       {"- [2,6) [0,4) c0 4="}},
      {"#40 rc", M::search, "iupac", "GATTACA", "TTTGTAATCTTT", 1, true, none, 1.0f,
       {"- [2,9) [0,7) c0 7="}},
      {"#41 nfrac=1.0 is off", M::search, "iupac", "GATTACA", "TTNNNNNNNNTT", 0, true, none,
       1.0f, {"- [1,8) [0,7) c0 7=", "+ [3,10) [0,7) c0 7="}},
      {"#42 nfrac", M::search, "iupac", "GATTACA", "TTNNNNNNNNTT", 0, true, none, 0.2f, {}},
      {"#43", M::all, "iupac", "GATTACA", "TTNNNNNNNNTT", 0, true, none, 1.0f,
       {"- [1,8) [0,7) c0 7=", "+ [2,9) [0,7) c0 7=", "- [2,9) [0,7) c0 7=",
        "+ [3,10) [0,7) c0 7=", "- [3,10) [0,7) c0 7="}},
      {"#44 nfrac", M::search, "iupac", "ACGTACGTAC", "TTTACGTNCGTACTTT", 1, false, none,
       0.1f, {"+ [3,13) [0,10) c0 10="}},
      {"#45 nfrac (check 2 drops)", M::search, "iupac", "ACGTACGTAC", "TTTACGTNCGTACTTT", 1,
       false, none, 0.099f, {}},
      {"#46 nfrac", M::all, "iupac", "ACGTACGTACGT", "ACGTACNNNNNN", 0, false, none, 0.5f,
       {"+ [0,12) [0,12) c0 12="}},
      {"#47 nfrac", M::all, "iupac", "ACGTACGTACGT", "ACGTACNNNNNN", 0, false, none, 0.49f,
       {}},
      {"#48 overhang, empty cigar", M::search, "iupac", "ATC", "CGGGGGG", 3, false, 0.5f, 1.0f,
       {"+ [0,1) [2,3) c1 1=", "+ [7,7) [0,0) c1 *"}},
      {"#49 overhang all", M::all, "iupac", "ATC", "CGGGGGG", 3, false, 0.5f, 1.0f,
       {"+ [0,0) [3,3) c1 *", "+ [0,1) [2,3) c1 1=", "+ [0,2) [1,3) c2 2X",
        "+ [0,3) [0,3) c3 3X", "+ [1,4) [0,3) c3 3X", "+ [2,5) [0,3) c3 3X",
        "+ [3,6) [0,3) c3 3X", "+ [4,7) [0,3) c3 3X", "+ [5,7) [0,2) c2 2X",
        "+ [6,7) [0,1) c2 1X", "+ [7,7) [0,0) c1 *"}},
      {"#50 left overhang", M::search, "iupac", "ATCGATCG", "ATCGGGGGGGGGG", 2, false, 0.5f,
       1.0f, {"+ [0,4) [4,8) c2 4="}},
      {"#51 right overhang", M::search, "iupac", "ATCGATCG", "GGGGGGGATCG", 2, false, 0.5f,
       1.0f, {"+ [7,11) [0,4) c2 4="}},
      {"#52 overhang", M::search, "iupac", "GGGGAAAA", "TTTTTTTTTTTTTTTTGGGG", 4, false, 0.5f,
       1.0f, {"+ [0,1) [7,8) c4 1X", "+ [17,20) [0,3) c2 3="}},
      {"#53 alpha=1 is not off", M::search, "iupac", "ACGT", "GGGGGGAC", 2, false, 1.0f, 1.0f,
       {"+ [6,8) [0,2) c2 2="}},
      {"#54", M::search, "iupac", "ACGT", "GGGGGGAC", 2, false, none, 1.0f,
       {"+ [6,8) [0,4) c2 2=2I"}},
      // Both hits are [0,0) '+': equal sort keys, so the order is the end-position order.
      {"#55 empty text with overhang", M::search, "iupac", "ACGT", "", 1, false, 0.5f, 1.0f,
       {"+ [0,0) [3,3) c1 *", "+ [0,0) [1,1) c1 *"}},
      // DIFFERENCE (docs/semantics.md §11 item 4): α = 0 gives S = m in trawl (Sassy:
      // 0/0 = NaN -> S = 0 when k = 0, so Sassy reports only [0,0) [3,3)). With S = 3 the
      // end n+3 = 7 has cost D(0,4) + 0 = 0 and is a local minimum: the whole pattern hangs
      // past the end.
      {"#56 DIFFERENCE alpha=0 gives S=m (Sassy: only + [0,0) [3,3) c0)", M::search, "iupac",
       "ACG", "TTTT", 0, false, 0.0f, 1.0f, {"+ [0,0) [3,3) c0 *", "+ [4,4) [0,0) c0 *"}},
      {"#57 N filter ignores the overhang padding", M::all, "iupac", "AAAA", "GGGGGG", 2,
       false, 0.5f, 0.0f,
       {"+ [0,0) [4,4) c2 *", "+ [0,1) [3,4) c2 1X", "+ [5,6) [0,1) c2 1X", "+ [6,6) [0,0) c2 *"}},
      {"#58 rc + overhang", M::search, "iupac", "TTTTAAA", "GGGGGGGGGTTTTAAA", 1, true, 0.5f,
       1.0f, {"+ [9,16) [0,7) c0 7=", "- [10,16) [1,7) c0 6="}},
      {"#59 best", M::best, "dna", "ATCGATCG", "GGGGATCGATCGTTTT", 1, true, none, 1.0f,
       {"- [2,10) [0,8) c1 7=1X", "+ [4,12) [0,8) c0 8="}},
      // #60 (notrace) not included: see the file comment.
      {"#61 ascii", M::search, "ascii", "hello", "heeloo_world", 1, false, none, 1.0f,
       {"+ [0,5) [0,5) c1 2=1X2="}},
      {"#62 ascii is case-sensitive", M::search, "ascii", "acgt", "AAACGTTT", 0, false, none,
       1.0f, {}},
      {"#63 ascii ignore case", M::search, "asciii", "acgt", "AAACGTTT", 0, false, none, 1.0f,
       {"+ [2,6) [0,4) c0 4="}},
      // #64 (pats) below; #65-#67 v2 not included.
      {"#69 rc (v1 CIGAR in pattern direction)", M::search, "iupac", "ACGTTGCA",
       "GGGGTGCAACGAGGGG", 2, true, none, 1.0f, {"- [4,12) [0,8) c1 1X7="}},
      {"#71 rc", M::search, "iupac", "AACCGGTTT", "CCCAAACGGTTTCCC", 1, true, none, 1.0f,
       {"+ [3,12) [0,9) c1 2=1X6=", "- [3,11) [0,9) c1 4=1I4="}},
      // #68, #70, #72-#74 are v2 / v2all: not included.
  };
}

}  // namespace

TEST_CASE("Sassy vectors: oracle and Searcher(scalar)") {
  const std::vector<Vector> vs = table_vectors();
  for (const Vector& v : vs) check_vector(v);
  // 62 table rows here + #5, #6, #64 (separate test cases below) = 65 of the 74 rows of
  // the table; the other 9 are v2 (7), v2all (1) and notrace (1), see the file comment.
  CHECK(vs.size() == 62);
}

TEST_CASE("Sassy vectors #5/#6: dna pattern ABC is a usage error in trawl; ascii gives Sassy's result") {
  // Sassy's Dna profile accepts any byte (and its results here equal byte equality);
  // docs/semantics.md §5 makes non-ACGT dna pattern bytes a usage error. The same rows with
  // the ascii alphabet reproduce Sassy's result.
  {
    const SearchOptions opt = make_options("dna", 1, Mode::all, false, none, 1.0f);
    CHECK_THROWS_AS(trawl::PatternSet({{"p", "ABC"}}, opt), std::invalid_argument);
  }
  check_vector({"#5 via ascii", Mode::all, "ascii", "ABC", "XXXABCXXX", 1, false, none, 1.0f,
                {"+ [3,5) [0,3) c1 2=1I", "+ [3,6) [0,3) c0 3=", "+ [3,7) [0,3) c1 3=1D"}});
  check_vector({"#6 via ascii", Mode::search, "ascii", "ABC", "XXXABCXXX", 1, false, none,
                1.0f, {"+ [3,6) [0,3) c0 3="}});
}

TEST_CASE("Sassy vector #64 (pats ACGT,TTTT): two patterns in one PatternSet") {
  const SearchOptions opt = make_options("iupac", 1, Mode::search, false, none, 1.0f);
  const std::string text = "AAACGTTTTT";
  const std::vector<std::string> pats = {"ACGT", "TTTT"};
  const std::vector<std::vector<std::string>> expected = {{"+ [2,6) [0,4) c0 4="},
                                                          {"+ [6,10) [0,4) c0 4="}};
  const auto lib = library_hits(pats, text, opt);
  for (std::size_t i = 0; i < pats.size(); ++i) {
    INFO("pattern " << pats[i]);
    CHECK(formatted(lib[i]) == expected[i]);
    CHECK(formatted(trawl::oracle::search(pats[i], text, opt)) == expected[i]);
    CHECK(formatted(library_hits({pats[i]}, text, opt)[0]) == expected[i]);
  }
}

TEST_CASE("Sassy vectors that panic in Sassy, under trawl's rules") {
  // Empty pattern and invalid IUPAC / dna pattern bytes: usage errors, not crashes.
  for (const char* profile : {"iupac", "dna", "ascii"}) {
    const SearchOptions opt = make_options(profile, 0, Mode::search, false, none, 1.0f);
    INFO(profile);
    CHECK_THROWS_AS(trawl::PatternSet({{"p", ""}}, opt), std::invalid_argument);
  }
  CHECK_THROWS_AS(trawl::PatternSet({{"p", "AEGT"}}, make_options("iupac", 0, Mode::search, false,
                                                                 none, 1.0f)),
                  std::invalid_argument);
  CHECK_THROWS_AS(trawl::PatternSet({{"p", "ACNT"}}, make_options("dna", 1, Mode::search, false,
                                                                 none, 1.0f)),
                  std::invalid_argument);
  // Sassy asserts on more than 16 symbol slots; trawl has no such limit.
  check_vector({"panic row: ACURYSWKMBDHVXN accepted", Mode::search, "iupac", "ACURYSWKMBDHVXN",
                "GGACTAGCGATGCGAAGGG", 1, false, none, 1.0f,
                formatted(trawl::oracle::search(
                    "ACURYSWKMBDHVXN", "GGACTAGCGATGCGAAGGG",
                    make_options("iupac", 1, Mode::search, false, none, 1.0f)))});
  // Sassy's Dna traceback panics on a text N; in trawl N matches nothing for dna.
  check_vector({"panic row: dna text N matches nothing", Mode::search, "dna", "ACGT", "AAACNTTT",
                0, false, none, 1.0f, {}});
  check_vector({"dna text N costs a substitution", Mode::search, "dna", "ACGT", "AAACNTTT", 1,
                false, none, 1.0f, {"+ [2,6) [0,4) c1 2=1X1="}});
  // Sassy's CaseInsensitiveAscii mis-compares '@'; trawl folds ASCII letters only.
  check_vector({"panic row: asciii a@c", Mode::search, "asciii", "a@c", "aA`cA@C", 0, false, none,
                1.0f, {"+ [4,7) [0,3) c0 3="}});
  // Sassy's Dna profile cannot search several patterns at once; trawl can.
  {
    const SearchOptions opt = make_options("dna", 0, Mode::search, true, none, 1.0f);
    const auto lib = library_hits({"ACGT", "TTTT"}, "AAACGTTTTT", opt);
    CHECK(formatted(lib[0]) == std::vector<std::string>{"+ [2,6) [0,4) c0 4=",
                                                         "- [2,6) [0,4) c0 4="});
    CHECK(formatted(lib[1]) == std::vector<std::string>{"+ [6,10) [0,4) c0 4="});
  }
}

TEST_CASE("Sassy vectors with the chunking artefact: trawl gives the single-pass result") {
  // DIFFERENCE (docs/semantics.md §11 item 1): Sassy v1 adds an extra hit at the end of a
  // long plateau when it splits the text into SIMD chunks; trawl never does.
  check_vector({"chunking 1 DIFFERENCE (Sassy adds + [304,309) 1X4=)", Mode::search, "dna",
                "CAAAA", "GGGGCAAAA" + std::string(300, 'A'), 1, false, none, 1.0f,
                {"+ [4,9) [0,5) c0 5="}});
  check_vector({"chunking 2 DIFFERENCE (Sassy adds + [300,302) 2X c2)", Mode::search, "dna",
                "AC", "AC" + std::string(300, 'G'), 2, false, none, 1.0f,
                {"+ [0,2) [0,2) c0 2="}});
}

TEST_CASE("other verified examples of Sassy 0.2.6, and differences from it") {
  // docs/semantics.md §1: a cost row.
  {
    const SearchOptions opt = make_options("dna", 1, Mode::search, false, none, 1.0f);
    CHECK(trawl::oracle::cost_row("ACGT", "TTACGGTTT", opt) ==
          std::vector<std::int32_t>{4, 3, 3, 3, 2, 1, 1, 1, 2, 3});
  }
  // docs/semantics.md §2: cost rows.
  {
    const SearchOptions opt = make_options("dna", 1, Mode::search, false, none, 1.0f);
    CHECK(trawl::oracle::cost_row("CCG", "ATCGCGA", opt) ==
          std::vector<std::int32_t>{3, 3, 3, 2, 1, 2, 1, 2});
    CHECK(trawl::oracle::cost_row("AA", "AAAA", opt) == std::vector<std::int32_t>{2, 1, 0, 0, 0});
  }
  // docs/semantics.md §7: a cost row with overhang.
  {
    const SearchOptions opt = make_options("iupac", 1, Mode::search, false, 0.5f, 1.0f);
    CHECK(trawl::oracle::cost_row("ACGT", "GTXXXNNN", opt) ==
          std::vector<std::int32_t>{2, 2, 1, 2, 3, 4, 3, 2, 1, 0, 1, 1});
  }
  // docs/semantics.md §8: N-rich text, search_all gives ends 11..14, 43, 44; with f = 0.5
  // only 44 remains.
  {
    const std::string text = std::string(13, 'N') + std::string(18, 'A') + std::string(7, 'N') +
                             "GTACGT";
    const SearchOptions all = make_options("iupac", 1, Mode::all, false, none, 1.0f);
    std::vector<std::uint64_t> ends;
    for (const OracleHit& h : trawl::oracle::search("ACGTACGTACGT", text, all))
      ends.push_back(h.end);
    std::sort(ends.begin(), ends.end());
    CHECK(ends == std::vector<std::uint64_t>{11, 12, 13, 14, 43, 44});
    const SearchOptions f = make_options("iupac", 1, Mode::all, false, none, 0.5f);
    const auto hits = trawl::oracle::search("ACGTACGTACGT", text, f);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].end == 44);
    const auto lib = library_hits({"ACGTACGTACGT"}, text, f)[0];
    CHECK(formatted(lib) == formatted(hits));
    CHECK(formatted(library_hits({"ACGTACGTACGT"}, text, all)[0]) ==
          formatted(trawl::oracle::search("ACGTACGTACGT", text, all)));
  }
  // DIFFERENCE (docs/semantics.md §11 item 3): Sassy's Dna misses rc hits of a lowercase
  // pattern; trawl finds them.
  check_vector({"DIFFERENCE 3 dna rc lowercase pattern (Sassy: none)", Mode::search, "dna",
                "aacg", "GGGGCGTTGGGG", 0, true, none, 1.0f, {"- [4,8) [0,4) c0 4="}});
  check_vector({"iupac rc lowercase pattern", Mode::search, "iupac", "aacg", "GGGGCGTTGGGG",
                0, true, none, 1.0f, {"- [4,8) [0,4) c0 4="}});
  // AAEEEEAA gives cost 0 in Sassy (E acts as N); DIFFERENCE (docs/semantics.md §11 item 2):
  // nothing in trawl.
  check_vector({"DIFFERENCE 2 junk text bytes (Sassy: + [2,6) 4=)", Mode::search, "iupac",
                "ACGT", "AAEEEEAA", 0, false, none, 1.0f, {}});
  // docs/semantics.md §4: the reverse strand.
  check_vector({"iupac rc", Mode::search, "iupac", "GATTACA", "TTTGTAATCTTT", 1, true, none,
                1.0f, {"- [2,9) [0,7) c0 7="}});
  check_vector({"rc plateau mirrored", Mode::search, "dna", "AAAA", "CCCAAACCC", 1, true,
                none, 1.0f, {"+ [3,7) [0,4) c1 3=1X"}});
  // DIFFERENCE (docs/semantics.md §11 item 4): Sassy pads with N, which does not match a
  // pattern X, and emits a spurious X; trawl computes C[n+o] = D(m-o, n) + floor(α·o) as
  // docs/semantics.md §7 says.
  check_vector({"DIFFERENCE 4 pattern X in the overhang (Sassy: c1 2=1X)", Mode::all, "iupac",
                "ACGX", "TTTACG", 1, false, 0.5f, 1.0f,
                formatted(trawl::oracle::search("ACGX", "TTTACG",
                                                make_options("iupac", 1, Mode::all, false, 0.5f,
                                                             1.0f)))});
  {
    const auto hits = trawl::oracle::search(
        "ACGX", "TTTACG", make_options("iupac", 1, Mode::all, false, 0.5f, 1.0f));
    bool found = false;
    for (const OracleHit& h : hits)
      found |= trawl::oracle::format_hit(h) == "+ [3,6) [0,3) c0 3=";
    CHECK(found);
  }
}

TEST_CASE("best with the N filter picks among the local-minimum hits") {
  // P = ACGTACGT, T = TTTACGTACGNTTT, k = 1, max_n_frac = 0.1, forward only.
  // C[10..12] = 1, 0, 1: the only local minimum is end 11 ([3,11) 8=, 1 N in 8 > 0.1), which
  // the N filter drops. Reading "the lowest-cost hit among those that the N filter keeps" with
  // hit = a local-minimum hit (Sassy search + only_best_match; docs/semantics.md §2 and §8:
  // "A dropped hit is not replaced by a neighbouring end"), nothing is reported. Picking
  // among all ends instead would report the non-minimal neighbour end 10:
  // + [3,10) [0,8) c1 7=1I.
  const SearchOptions opt = make_options("iupac", 1, Mode::best, false, none, 0.1f);
  const std::string P = "ACGTACGT", T = "TTTACGTACGNTTT";
  CHECK(formatted(trawl::oracle::search(P, T, opt)).empty());
  CHECK(formatted(trawl::oracle::search(P, T, opt, trawl::oracle::BestFrom::all_ends)) ==
        std::vector<std::string>{"+ [3,10) [0,8) c1 7=1I"});
  CHECK(formatted(library_hits({P}, T, opt)[0]).empty());
  // Without the filter both readings agree.
  const SearchOptions nofilter = make_options("iupac", 1, Mode::best, false, none, 1.0f);
  CHECK(formatted(library_hits({P}, T, nofilter)[0]) ==
        std::vector<std::string>{"+ [3,11) [0,8) c0 8="});
}

// The oracle re-derives the alphabet and overhang rules itself; these check that the
// library's helpers agree with that reading of docs/semantics.md, so a disagreement is
// reported here by name instead of as a random differential failure.
TEST_CASE("oracle alphabet and overhang helpers agree with the library's") {
  const trawl::AlphabetSpec specs[] = {
      {Alphabet::iupac, false}, {Alphabet::dna, false}, {Alphabet::ascii, false},
      {Alphabet::ascii, true}};
  for (const auto& spec : specs) {
    int mismatches = 0;
    for (int p = 0; p < 256; ++p) {
      const auto pb = static_cast<std::uint8_t>(p);
      const bool valid = trawl::oracle::valid_pattern_byte(spec.alphabet, pb);
      const std::string one(1, static_cast<char>(pb));
      const bool lib_valid = !trawl::find_invalid_pattern_byte(spec.alphabet, one).has_value();
      if (valid != lib_valid) {
        ++mismatches;
        if (mismatches < 10)
          FAIL_CHECK("validity of pattern byte " << p << " alphabet " << int(spec.alphabet));
      }
      if (!valid) continue;
      for (int t = 0; t < 256; ++t) {
        const auto tb = static_cast<std::uint8_t>(t);
        if (trawl::oracle::eq(spec, pb, tb) != spec.matches(pb, tb)) {
          ++mismatches;
          if (mismatches < 10)
            FAIL_CHECK("eq(" << p << ", " << t << ") alphabet " << int(spec.alphabet)
                             << " ignore_case " << spec.ignore_case << ": oracle "
                             << trawl::oracle::eq(spec, pb, tb) << " library "
                             << spec.matches(pb, tb));
        }
      }
      if (spec.has_complement() && trawl::oracle::complement(spec, pb) != spec.complement(pb)) {
        ++mismatches;
        if (mismatches < 10)
          FAIL_CHECK("complement(" << one << ") alphabet " << int(spec.alphabet) << ": oracle "
                                   << char(trawl::oracle::complement(spec, pb)) << " library "
                                   << char(spec.complement(pb)));
      }
    }
    CHECK(mismatches == 0);
  }
  const float alphas[] = {0.0f, 0.1f, 0.2f, 0.25f, 0.3f, 1.0f / 3.0f, 0.5f, 0.7f, 0.9f, 1.0f};
  for (const float a : alphas) {
    for (int k = 0; k <= 40; ++k) {
      for (std::uint32_t m = 1; m <= 130; m += (m < 20 ? 1 : 7)) {
        SearchOptions o;
        o.k = k;
        o.overhang = a;
        CHECK(trawl::right_overhang_steps(o, m) == trawl::oracle::overhang_steps(o, m));
        CHECK(trawl::overhang_cost(o, m) == trawl::oracle::hang_cost(o, m));
      }
    }
  }
  SearchOptions off;
  CHECK(trawl::right_overhang_steps(off, 10) == 0);
  CHECK(trawl::overhang_cost(off, 7) == 7);
}

TEST_CASE("rescore_cigar") {
  const trawl::AlphabetSpec dna{Alphabet::dna, false};
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGT", "4=", dna) == 0);
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGGT", "2=1D2=", dna) == 1);
  CHECK(trawl::oracle::rescore_cigar("ACGGT", "ACGT", "3=1X1=", dna) == -1);  // wrong length
  CHECK(trawl::oracle::rescore_cigar("ACGGT", "ACGTT", "3=1X1=", dna) == 1);
  CHECK(trawl::oracle::rescore_cigar("ACG", "", "3I", dna) == 3);
  CHECK(trawl::oracle::rescore_cigar("", "", "", dna) == 0);
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGT", "3=", dna) == -1);       // too short
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGA", "4=", dna) == -1);       // '=' on mismatch
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGT", "3=1X", dna) == -1);     // 'X' on match
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGT", "=", dna) == -1);        // no count
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGT", "4M", dna) == -1);       // no M
  CHECK(trawl::oracle::rescore_cigar("ACGT", "ACGT", "0=4=", dna) == -1);     // zero run
}
