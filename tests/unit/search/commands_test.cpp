// count and contains must mean exactly what hits means (issue: dedicated result paths):
// a pair's count == its number of hits rows, contains == (count > 0), for every alphabet,
// strand setting, N filter, overhang and selection, on seeded random inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "support/run_search.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/searcher.h"

using namespace trawl;

using trawl::test::every_pair;
using trawl::test::random_text;
using trawl::test::reference_hits;
using trawl::test::search_texts;

TEST_CASE("count and contains agree with hits on random inputs") {
  const std::uint64_t seed = std::getenv("TRAWL_CMD_SEED") ? std::strtoull(std::getenv("TRAWL_CMD_SEED"), nullptr, 10) : 7;
  // TRAWL_CMD_CASES: fewer under the sanitizers (scripts/test.sh), the same seeded cases first.
  const int iters = std::getenv("TRAWL_CMD_CASES") ? std::atoi(std::getenv("TRAWL_CMD_CASES")) : 20000;
  std::mt19937_64 rng(seed);
  int cases = 0;
  for (int iter = 0; iter < iters; ++iter) {
    SearchOptions opt;
    const int alpha = static_cast<int>(rng() % 3);
    opt.alphabet.alphabet = alpha == 0 ? Alphabet::iupac : alpha == 1 ? Alphabet::dna : Alphabet::ascii;
    opt.alphabet.ignore_case = opt.alphabet.alphabet == Alphabet::ascii && rng() % 2;
    opt.both_strands = rng() % 2;
    const int sel = static_cast<int>(rng() % 3);
    opt.selection = sel == 0 ? Selection::local_minima : sel == 1 ? Selection::all_ends : Selection::best;
    if (opt.alphabet.alphabet != Alphabet::ascii && rng() % 3 == 0)
      opt.overhang = std::vector<float>{0.0f, 0.3f, 0.5f, 1.0f}[rng() % 4];
    if (rng() % 2) opt.max_n_frac = std::vector<float>{0.0f, 0.1f, 0.2f, 0.5f}[rng() % 4];
    const std::string letters = opt.alphabet.alphabet == Alphabet::ascii ? "abAB" : "ACGTNNacgtR";
    const std::string pat_letters = opt.alphabet.alphabet == Alphabet::ascii ? "abAB"
                                    : opt.alphabet.alphabet == Alphabet::dna ? "ACGT" : "ACGTN";
    const std::size_t m = 1 + rng() % 20;
    std::string pattern = random_text(rng, m, pat_letters);
    std::string text = random_text(rng, rng() % 200, letters);
    if (!text.empty() && rng() % 2) {
      const std::size_t at = rng() % text.size();
      text.replace(at, std::min(m, text.size() - at), pattern.substr(0, std::min(m, text.size() - at)));
    }
    opt.k = static_cast<int>(rng() % (m + 2));
    CAPTURE(seed);
    CAPTURE(iter);
    CAPTURE(pattern);
    CAPTURE(text);
    CAPTURE(opt.k);
    PatternSet ps({{"p", pattern}}, opt);
    const HitList hits = reference_hits(ps, opt, scalar_kernel(), text);
    // Profiles built on demand (huge pattern sets) must give the very same hits.
    PatternSet ps_lazy({{"p", pattern}}, opt, /*precompute_limit=*/0);
    const HitList lazy_hits = reference_hits(ps_lazy, opt, scalar_kernel(), text);
    REQUIRE(lazy_hits.hits.size() == hits.hits.size());
    for (std::size_t h = 0; h < hits.hits.size(); ++h) {
      REQUIRE(lazy_hits.hits[h].start == hits.hits[h].start);
      REQUIRE(lazy_hits.hits[h].end == hits.hits[h].end);
      REQUIRE(lazy_hits.hits[h].cost == hits.hits[h].cost);
    }
    const std::string_view one[] = {text};
    const std::uint32_t count =
        search_texts(ps, opt, scalar_kernel(), every_pair(Command::count, false, true), one).pair_counts.at(0).count;
    const bool contains =
        search_texts(ps, opt, scalar_kernel(), every_pair(Command::contains, false, true), one).pair_counts.at(0).count != 0;
    REQUIRE(count == hits.hits.size());
    REQUIRE(contains == (count > 0));
    ++cases;
  }
  MESSAGE("count/contains equivalence cases: " << cases);
}

// The same through the prescan (records in groups, a job per SIMD lane, contains stopping
// each forward strand at its first end and carrying on past its head only where it found
// none there, reverse strands only where the forward one found nothing), for every kernel:
// records up to 600 long with the pattern planted anywhere, so first ends come before,
// at and after the head.
TEST_CASE("prescanned count and contains agree with hits, for every kernel") {
  std::mt19937_64 rng(20261203);
  int cases = 0;
  for (int iter = 0; iter < 300; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 3 == 2 ? Alphabet::ascii : iter % 2 ? Alphabet::dna : Alphabet::iupac;
    opt.both_strands = iter % 4 != 0;
    opt.selection = iter % 5 == 1 ? Selection::all_ends : Selection::local_minima;
    const std::string letters = opt.alphabet.alphabet == Alphabet::ascii ? "ab" : "ACGT";
    const std::size_t m = 8 + rng() % 40;  // narrow (<= 32) and wide lanes
    const std::string pattern = random_text(rng, m, letters);
    opt.k = static_cast<int>(rng() % 4);
    std::vector<std::string> texts(1 + rng() % 40);
    for (std::string& t : texts) {
      t = random_text(rng, rng() % 600, letters);
      if (!t.empty() && rng() % 3) {
        const std::size_t at = rng() % t.size();
        t.replace(at, std::min(m, t.size() - at), pattern.substr(0, std::min(m, t.size() - at)));
      }
    }
    const std::vector<std::string_view> views(texts.begin(), texts.end());
    const PatternSet ps({{"p", pattern}}, opt, iter % 2 ? 0 : PatternSet::kPrecomputeLimit);
    // Reference: one record at a time, no prescan.
    std::vector<std::size_t> expected;
    for (const std::string& t : texts) expected.push_back(reference_hits(ps, opt, scalar_kernel(), t).hits.size());
    for (const KernelFns* kernel : available_kernels()) {
      CAPTURE(iter);
      CAPTURE(kernel->name);
      for (Command command : {Command::count, Command::contains}) {
        const BatchResults got = search_texts(ps, opt, *kernel, every_pair(command), views);
        REQUIRE(got.pair_counts.size() == views.size());
        for (std::size_t r = 0; r < views.size(); ++r) {
          CAPTURE(texts[r]);
          if (command == Command::count) CHECK(got.pair_counts[r].count == expected[r]);
          else CHECK((got.pair_counts[r].count != 0) == (expected[r] > 0));
        }
      }
      ++cases;
    }
  }
  MESSAGE("prescanned count/contains cases: " << cases);
}

// A seed-filtered panel counts a reverse strand by rescanning the reverse job where its
// probe found an end; with m <= k that job's end at position 0 (its start column, not the
// kernel's) must count too (TRAWL_DIFF_SEED=8390876220821229392, case 35128, shrunk).
TEST_CASE("seed-filtered count includes the reverse strand's position-0 end (m <= k)") {
  SearchOptions opt;
  opt.k = 1;
  opt.selection = Selection::all_ends;
  std::vector<Pattern> patterns;
  for (const std::size_t m : {1, 1, 1, 10, 1, 1, 10, 1, 1, 1, 1, 1, 10, 1, 10})
    patterns.push_back({"p" + std::to_string(patterns.size()), std::string(m, 'A')});
  const PatternSet ps(patterns, opt);
  const std::string_view texts[] = {"A"};
  for (const KernelFns* kernel : available_kernels()) {
    CAPTURE(kernel->name);
    for (const bool record_by_record : {false, true}) {
      const BatchResults got = search_texts(ps, opt, *kernel, every_pair(Command::count, false, record_by_record), texts);
      REQUIRE(got.pair_counts.size() == patterns.size());
      for (std::size_t pi = 0; pi < patterns.size(); ++pi)
        CHECK(got.pair_counts[pi].count == (patterns[pi].seq.size() == 1 ? 4u : 0u));
    }
  }
}

// Pattern panels through the prescan: a record's jobs go strand by strand, so the jobs of a
// strand share its text and the SIMD kernels scan them with the shared-text lane layout
// (whole batches, part batches, leftovers, work chunks cut between them); strands whose
// scan found no end are skipped without any set-up. Hits (with CIGARs), counts and
// contains must equal those of one record at a time on the scalar kernel, for every
// kernel, alphabet, strand setting, selection, N filter and overhang.
TEST_CASE("pattern panels through the prescan give the hits of one record at a time, for every kernel") {
  std::mt19937_64 rng(20261205);
  int cases = 0;
  auto row = [](const HitList& list, const Hit& h) {
    std::string s = std::to_string(h.text_idx) + " " + std::to_string(h.pattern_idx) + " " +
                    std::to_string(h.start) + "-" + std::to_string(h.end) + " " +
                    std::to_string(h.pattern_start) + "-" + std::to_string(h.pattern_end) + " " +
                    std::to_string(h.cost) + (h.strand == Strand::fwd ? "+ " : "- ");
    append_cigar(s, list.cigar(h));
    return s;
  };
  for (int iter = 0; iter < 64; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 3 == 2 ? Alphabet::ascii : iter % 2 ? Alphabet::dna : Alphabet::iupac;
    const bool ascii = opt.alphabet.alphabet == Alphabet::ascii;
    // Every fourth case a few patterns of 16 or more characters, which the AVX-512 kernel
    // screens (Searcher::screens_: k <= 4, no seed filter), in texts of either case with
    // other bytes now and then; iupac patterns with an N there (the screen's piece avoids it).
    const bool screened = iter % 4 == 2;
    opt.both_strands = iter % 5 != 0;
    opt.selection = iter % 4 == 1 ? Selection::all_ends : iter % 4 == 3 ? Selection::best : Selection::local_minima;
    if (opt.alphabet.alphabet == Alphabet::iupac && iter % 8 < 4) opt.max_n_frac = 0.2f;
    if (!ascii && iter % 7 == 3) opt.overhang = 0.5f;
    opt.k = static_cast<int>(rng() % 6);  // k >= m for the shortest patterns now and then
    const std::string letters = ascii ? "abc" : "ACGT";
    if (screened) opt.k = static_cast<int>(rng() % 5);
    std::vector<Pattern> patterns(screened ? 1 + rng() % 3 : 1 + rng() % 70);
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const std::size_t m = screened ? 16 + rng() % 49 : 4 + rng() % (iter % 3 ? 29 : 61);
      patterns[i] = {"p" + std::to_string(i), random_text(rng, m, letters)};
      if (screened && opt.alphabet.alphabet == Alphabet::iupac && rng() % 2) patterns[i].seq[rng() % m] = 'N';
    }
    const std::string text_letters = ascii ? letters : screened ? "ACGTACGTNacgtn-*" : "ACGTACGTN";
    std::vector<std::string> texts(1 + rng() % (screened ? 300 : 30));
    for (std::string& t : texts) {
      t = random_text(rng, rng() % 400, text_letters);
      for (int planted = static_cast<int>(rng() % 3); planted > 0 && !t.empty(); --planted) {
        // Copies as they are, reverse complemented, or with a substitution, so that the
        // seed filter of a panel (SeedFilter) has hits on either strand to keep.
        std::string p = patterns[rng() % patterns.size()].seq;
        if (!ascii && rng() % 2) p = oracle::reverse_complement(opt.alphabet, p);
        if (rng() % 3 == 0) p[rng() % p.size()] = letters[rng() % letters.size()];
        const std::size_t at = rng() % t.size();
        t.replace(at, std::min(p.size(), t.size() - at), p.substr(0, std::min(p.size(), t.size() - at)));
      }
    }
    const std::vector<std::string_view> views(texts.begin(), texts.end());
    const PatternSet ps(patterns, opt);
    // Reference: one record at a time, no prescan, scalar kernel.
    std::vector<std::string> want;
    std::vector<std::size_t> want_count;
    for (std::size_t r = 0; r < texts.size(); ++r) {
      const HitList hits = reference_hits(ps, opt, scalar_kernel(), texts[r], r);
      for (const Hit& h : hits.hits) want.push_back(row(hits, h));
      for (std::uint32_t pi = 0; pi < patterns.size(); ++pi)
        want_count.push_back(static_cast<std::size_t>(
            std::count_if(hits.hits.begin(), hits.hits.end(), [pi](const Hit& h) { return h.pattern_idx == pi; })));
    }
    for (const KernelFns* kernel : available_kernels()) {
      const std::string name = kernel->name;
      CAPTURE(iter);
      CAPTURE(name);
      for (Command command : {Command::hits, Command::count, Command::contains}) {
        const BatchResults res = search_texts(ps, opt, *kernel, every_pair(command), views);
        if (command == Command::hits) {
          std::vector<std::string> got;
          for (const Hit& h : res.hits.hits) got.push_back(row(res.hits, h));
          CHECK(got == want);
          continue;
        }
        REQUIRE(res.pair_counts.size() == want_count.size());
        for (std::size_t pair = 0; pair < want_count.size(); ++pair) {
          CAPTURE(pair);
          if (command == Command::count) CHECK(res.pair_counts[pair].count == want_count[pair]);
          else CHECK((res.pair_counts[pair].count != 0) == (want_count[pair] > 0));
        }
      }
      ++cases;
    }
  }
  MESSAGE("pattern panel cases: " << cases);
}
