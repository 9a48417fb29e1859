// Searcher's own contract, beside the differential test's comparison with the oracle:
// search() appends (earlier hits and their CIGARs stay valid) and orders a record's rows by
// pattern, start, strand ('+' first), end (docs/semantics.md); one Searcher reused across
// calls answers each as a fresh one would, record by record or in job lanes, one record at
// a time or all at once; every hit re-scores.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "support/run_search.h"
#include "trawl/core/pattern_set.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/searcher.h"

using namespace trawl;

namespace {

std::vector<std::string> rows(const HitList& list, std::size_t from = 0) {
  std::vector<std::string> out;
  for (std::size_t i = from; i < list.hits.size(); ++i) {
    const Hit& h = list.hits[i];
    out.push_back(std::to_string(h.text_idx) + " p" + std::to_string(h.pattern_idx) + " " +
                  trawl::oracle::format_hit(trawl::oracle::from_library(list, h)));
  }
  return out;
}

}  // namespace

TEST_CASE("searcher: appends in output order, every plan and batching agree, reuse across calls is clean") {
  const std::uint64_t seed = 606;
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 60; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 2 ? Alphabet::dna : Alphabet::iupac;
    opt.k = static_cast<int>(rng() % 3);
    if (iter % 4 == 3) opt.selection = Selection::all_ends;
    std::vector<Pattern> patterns;
    for (int i = 0, n = 1 + static_cast<int>(rng() % 4); i < n; ++i)
      patterns.push_back({"p" + std::to_string(i), trawl::test::random_text(rng, 4 + rng() % 8, "ACGT")});
    const PatternSet set(patterns, opt);
    std::vector<std::string> texts;
    for (int r = 0; r < 4; ++r) {
      std::string t = trawl::test::random_text(rng, rng() % 120, "ACGT");
      for (int plant = 0; plant < 3 && t.size() > 12; ++plant) {
        const std::string& p = patterns[rng() % patterns.size()].seq;
        t.replace(rng() % (t.size() - p.size()), p.size(), p);
      }
      texts.push_back(t);
    }
    INFO("seed " << seed << " iter " << iter << " " << trawl::oracle::describe(opt));
    for (const KernelFns* kernel : available_kernels()) {
      for (const bool record_by_record : {true, false}) {
        CAPTURE(kernel->name);
        CAPTURE(record_by_record);
        const SearchMode mode = trawl::test::every_pair(Command::hits, false, record_by_record);
        Searcher reused(set, opt, *kernel, mode);
        BatchResults all;
        all.hits.hits.push_back({});  // something already there must stay
        all.hits.cigar_ops.push_back({1, 'Z'});
        for (std::uint64_t r = 0; r < texts.size(); ++r) {
          const std::size_t before = all.hits.hits.size();
          const std::vector<std::string> earlier = rows(all.hits, 1);
          const std::string_view one[] = {texts[r]};
          reused.search(one, r, all);
          const std::vector<std::string> now = rows(all.hits, 1);
          REQUIRE(now.size() >= earlier.size());
          CHECK(std::vector<std::string>(now.begin(), now.begin() + static_cast<std::ptrdiff_t>(earlier.size())) == earlier);
          CHECK(all.hits.cigar_ops.front().op == 'Z');

          // Order: pattern, then start, then strand ('+' first), then end.
          for (std::size_t i = before + 1; i < all.hits.hits.size(); ++i) {
            const Hit& a = all.hits.hits[i - 1];
            const Hit& b = all.hits.hits[i];
            CHECK(std::make_tuple(a.pattern_idx, a.start, a.strand, a.end) <=
                  std::make_tuple(b.pattern_idx, b.start, b.strand, b.end));
          }
          // A fresh Searcher gives the same rows, and so does the reference path.
          const HitList alone = trawl::test::search_texts(set, opt, *kernel, mode, one, r).hits;
          CHECK(rows(all.hits, before) == rows(alone));
          CHECK(rows(trawl::test::reference_hits(set, opt, scalar_kernel(), texts[r], r)) == rows(alone));
          for (const Hit& h : alone.hits) {
            CHECK(h.text_idx == r);
            CHECK(h.cost <= opt.k);
            CHECK(trawl::oracle::check_hit(set.seq(h.pattern_idx), texts[r], opt,
                                           trawl::oracle::from_library(alone, h)) == "");
          }
        }
        // All records in one call: the same rows as one call per record.
        const std::vector<std::string_view> views(texts.begin(), texts.end());
        CHECK(rows(trawl::test::search_texts(set, opt, *kernel, mode, views).hits) == rows(all.hits, 1));
      }
    }
  }
}
