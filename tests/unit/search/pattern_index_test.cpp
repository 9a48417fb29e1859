// The pattern index (PatternIndex, Strategy::indexed) must give exactly the full scan's
// results: hits, counts and contains flags equal to the one-record-at-a-time reference
// (itself checked against the DP oracle by the differential tests) on seeded random panels,
// for every kernel, alphabet, strand setting, selection and N filter, with texts holding N
// runs and IUPAC codes.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "support/run_search.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/pattern_index.h"
#include "trawl/search/searcher.h"

using namespace trawl;

using trawl::test::every_pair;
using trawl::test::random_text;
using trawl::test::search_texts;

namespace {

std::string rows_of(const BatchResults& res) {
  std::string s;
  for (const Hit& h : res.hits.hits) {
    s += std::to_string(h.text_idx) + " " + std::to_string(h.pattern_idx) + " " + std::to_string(h.start) + "-" +
         std::to_string(h.end) + " " + std::to_string(h.pattern_start) + "-" + std::to_string(h.pattern_end) + " " +
         std::to_string(h.cost) + (h.strand == Strand::fwd ? "+ " : "- ");
    append_cigar(s, res.hits.cigar(h));
    s += "\n";
  }
  for (const PairCount& c : res.pair_counts)
    s += std::to_string(c.text_idx) + " " + std::to_string(c.pattern_idx) + " " + std::to_string(c.count) + "\n";
  for (const std::uint8_t c : res.contains) s += c ? "1" : "0";
  return s;
}

// Texts with planted copies of patterns (as they are, reverse complemented, with an edit or
// two), N runs and IUPAC codes; with `long_reads`, every third text is thousands of bases
// long (past the lanes' kMaxText, as Nanopore reads are).
std::vector<std::string> planted_texts(std::mt19937_64& rng, const std::vector<Pattern>& patterns,
                                       const SearchOptions& opt, std::size_t count, bool long_reads = false) {
  std::vector<std::string> texts(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::string& t = texts[i];
    const bool long_read = long_reads && i % 3 == 0;
    t = random_text(rng, long_read ? 4000 + rng() % 16000 : rng() % 300, "ACGT");
    for (int planted = static_cast<int>(rng() % 4) + (long_read ? 8 : 0); planted > 0 && !t.empty(); --planted) {
      std::string p = patterns[rng() % patterns.size()].seq;
      if (rng() % 2) p = oracle::reverse_complement(opt.alphabet, p);
      for (int e = static_cast<int>(rng() % 3); e > 0 && p.size() > 1; --e) {
        const std::size_t at = rng() % p.size();
        if (rng() % 3 == 0) p.erase(at, 1);
        else if (rng() % 2) p.insert(at, 1, "ACGT"[rng() % 4]);
        else p[at] = "ACGT"[rng() % 4];
      }
      const std::size_t at = rng() % t.size();
      t.replace(at, std::min(p.size(), t.size() - at), p.substr(0, std::min(p.size(), t.size() - at)));
    }
    if (!t.empty() && rng() % 6 == 0) t.replace(rng() % t.size(), 1, rng() % 2 ? "NNN" : "N");
    if (!t.empty() && rng() % 8 == 0) t[rng() % t.size()] = "RYKMSWBDHVn"[rng() % 11];
  }
  return texts;
}

}  // namespace

TEST_CASE("pattern index: built only where it can answer exactly, and only where it pays unless forced") {
  SearchOptions opt;
  opt.alphabet.alphabet = Alphabet::dna;
  opt.k = 1;
  std::mt19937_64 rng(11);
  std::vector<Pattern> many(1000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = {"g" + std::to_string(i), random_text(rng, 20, "ACGT")};
  const PatternSet panel(many, opt);
  const auto index = PatternIndex::build(panel, opt);
  REQUIRE(index != nullptr);
  CHECK(index->pieces() == 2);
  CHECK(index->piece_edits() == 0);
  CHECK(index->seeds() == 1000 * 2 * 2);
  CHECK(index->seed_length() == 10);
  // 23 bases at k = 3: four exact pieces would have seeds of 5 bases; two pieces with up to
  // one edit have seeds of 11, each piece a few dozen of them (every single edit).
  SearchOptions k3 = opt;
  k3.k = 3;
  for (Pattern& p : many) p.seq = random_text(rng, 23, "ACGT");
  const PatternSet panel23(many, k3);
  const auto one_edit = PatternIndex::build(panel23, k3);
  REQUIRE(one_edit != nullptr);
  CHECK(one_edit->pieces() == 2);
  CHECK(one_edit->piece_edits() == 1);
  CHECK(one_edit->seed_length() == 11);
  CHECK(one_edit->seeds() > 1000 * 2 * 2 * 60);
  CHECK(one_edit->seeds() < 1000 * 2 * 2 * 130);
  CHECK(PatternIndex::build(panel23, k3, true, PatternIndex::Pieces::exact) == nullptr);
  CHECK(index->bytes() < std::size_t{100} << 20);
  const PatternSet few({{"a", "ACGTACGTTGCAAGCT"}, {"b", "TTTTGGGGCCCCAAAA"}}, opt);
  CHECK(PatternIndex::build(few, opt) == nullptr);
  CHECK(PatternIndex::build(few, opt, true) != nullptr);
  // A panel of 20 (40 pattern strands, which the lanes' seed filter would cover too) pays;
  // 2 patterns do not.
  const PatternSet twenty(std::vector<Pattern>(many.begin(), many.begin() + 20), opt);
  CHECK(PatternIndex::build(twenty, opt) != nullptr);
  // Pieces shorter than kMinSeed, a degenerate position, overhang, ascii: no index.
  const PatternSet short_pieces({{"a", "ACGTACGTTGC"}}, k3);
  CHECK(PatternIndex::build(short_pieces, k3, true) == nullptr);
  SearchOptions iupac = opt;
  iupac.alphabet.alphabet = Alphabet::iupac;
  const PatternSet degenerate({{"a", "ACGTACGTNGCAAGCT"}}, iupac);
  CHECK(PatternIndex::build(degenerate, iupac, true) == nullptr);
  SearchOptions overhang = opt;
  overhang.overhang = 0.5f;
  CHECK(PatternIndex::build(few, overhang, true) == nullptr);
  SearchOptions ascii = opt;
  ascii.alphabet.alphabet = Alphabet::ascii;
  const PatternSet words({{"a", "ACGTACGTTGCAAGCT"}}, ascii);
  CHECK(PatternIndex::build(words, ascii, true) == nullptr);
  // The plan takes it whenever the run has one.
  SearchMode mode = every_pair(Command::hits);
  mode.index = index.get();
  CHECK(Searcher(panel, opt, scalar_kernel(), mode).plan().strategy == Strategy::indexed);
  mode.paired = true;
  CHECK(Searcher(panel, opt, scalar_kernel(), mode).plan().strategy == Strategy::paired);
}

TEST_CASE("pattern index: results equal the full scan's on random panels, for every kernel") {
  const int cases = std::getenv("TRAWL_CMD_CASES") ? std::max(40, std::atoi(std::getenv("TRAWL_CMD_CASES")) / 50) : 160;
  std::mt19937_64 rng(20261207);
  int indexed = 0;
  for (int iter = 0; iter < cases; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 2 ? Alphabet::dna : Alphabet::iupac;
    opt.both_strands = iter % 5 != 0;
    opt.selection = iter % 4 == 1 ? Selection::all_ends : iter % 4 == 3 ? Selection::best : Selection::local_minima;
    if (opt.alphabet.alphabet == Alphabet::iupac && iter % 3 != 0) opt.max_n_frac = iter % 3 == 1 ? 0.2f : 0.05f;
    opt.k = static_cast<int>(rng() % 5);
    // Either way of cutting, with pieces as short as it allows.
    const auto pieces = iter % 3 == 0 ? PatternIndex::Pieces::exact : PatternIndex::Pieces::one_edit;
    const auto parts = static_cast<std::size_t>(pieces == PatternIndex::Pieces::exact ? opt.k + 1 : opt.k / 2 + 1);
    const std::size_t shortest = 6 * parts;
    std::vector<Pattern> patterns(iter % 10 == 0 ? 300 + rng() % 1700 : 1 + rng() % 120);
    for (std::size_t i = 0; i < patterns.size(); ++i)
      patterns[i] = {"p" + std::to_string(i), random_text(rng, shortest + rng() % (65 - shortest), "ACGT")};
    const bool long_reads = patterns.size() <= 120 && iter % 4 == 2;
    const std::vector<std::string> texts = planted_texts(rng, patterns, opt, long_reads ? 1 + rng() % 6 : 1 + rng() % 60, long_reads);
    const std::vector<std::string_view> views(texts.begin(), texts.end());
    const PatternSet ps(patterns, opt);
    const auto index = PatternIndex::build(ps, opt, true, pieces);
    REQUIRE(index != nullptr);
    CHECK(index->pieces() == parts);
    for (Command command : {Command::hits, Command::count, Command::contains}) {
      for (const bool every : {true, false}) {
        SearchMode want_mode = every_pair(command, false, true);
        want_mode.shape.zeros = want_mode.shape.per_pair = every;
        const std::string want = rows_of(search_texts(ps, opt, scalar_kernel(), want_mode, views));
        for (const KernelFns* kernel : available_kernels()) {
          SearchMode mode = want_mode;
          mode.record_by_record = false;
          mode.index = index.get();
          CAPTURE(iter);
          CAPTURE(kernel->name);
          CAPTURE(every);
          CHECK(Searcher(ps, opt, *kernel, mode).plan().strategy == Strategy::indexed);
          CHECK(rows_of(search_texts(ps, opt, *kernel, mode, views)) == want);
          ++indexed;
        }
      }
    }
  }
  CHECK(indexed > 0);
}
