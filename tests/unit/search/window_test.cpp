// Windows of a long record (issue: equal-size tasks): searching any tiling of a record into
// windows and merging must give exactly the hits of the unsplit record, for both strands,
// every selection, overhang at both ends, the N filter, k >= m (the whole record one run)
// and several patterns of different lengths searched in each window.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/run_search.h"
#include "trawl/search/searcher.h"

using namespace trawl;

namespace {

using Key = std::tuple<std::uint64_t, int, std::uint64_t, std::uint32_t, std::uint32_t, int, std::string>;

Key key_of(const HitList& list, const Hit& h) {
  std::string cigar;
  append_cigar(cigar, list.cigar(h));
  return {h.start, static_cast<int>(h.strand), h.end, h.pattern_start, h.pattern_end, h.cost, cigar};
}

// docs/semantics.md §9 order; equal (start, strand, end) keep pattern_end descending.
bool output_less(const Key& a, const Key& b) {
  if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
  if (std::get<1>(a) != std::get<1>(b)) return std::get<1>(a) < std::get<1>(b);
  if (std::get<2>(a) != std::get<2>(b)) return std::get<2>(a) < std::get<2>(b);
  return std::get<4>(a) > std::get<4>(b);
}

std::string random_text(std::mt19937_64& rng, std::size_t n, const std::string& letters) {
  std::string s(n, 'A');
  for (char& c : s) c = letters[rng() % letters.size()];
  return s;
}

}  // namespace

TEST_CASE("any tiling into windows gives the hits of the unsplit record") {
  const std::uint64_t seed =
      std::getenv("TRAWL_WINDOW_SEED") ? std::strtoull(std::getenv("TRAWL_WINDOW_SEED"), nullptr, 10) : 11;
  std::mt19937_64 rng(seed);
  long compared = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    SearchOptions opt;
    const int alpha = static_cast<int>(rng() % 3);
    opt.alphabet.alphabet = alpha == 0 ? Alphabet::iupac : alpha == 1 ? Alphabet::dna : Alphabet::ascii;
    opt.both_strands = rng() % 4 != 0;
    const int sel = static_cast<int>(rng() % 3);
    opt.selection = sel == 0 ? Selection::local_minima : sel == 1 ? Selection::all_ends : Selection::best;
    if (opt.alphabet.alphabet != Alphabet::ascii && rng() % 3 == 0)
      opt.overhang = std::vector<float>{0.0f, 0.3f, 0.5f, 1.0f}[rng() % 4];
    if (rng() % 3 == 0) opt.max_n_frac = std::vector<float>{0.0f, 0.2f, 0.5f}[rng() % 3];
    const bool homopolymer = rng() % 5 == 0;  // long constant-cost plateaus
    const std::string letters = homopolymer ? "AAAAAAAC"
                                : opt.alphabet.alphabet == Alphabet::ascii ? "ab"
                                                                            : "ACGTNa";
    const std::string pat_letters = opt.alphabet.alphabet == Alphabet::ascii ? "ab" : homopolymer ? "AAAC" : "ACGT";
    // One to three patterns of different lengths: a window's patterns share its codes.
    std::vector<std::string> patterns;
    const int npat = rng() % 3 == 0 ? 1 + static_cast<int>(rng() % 3) : 1;
    for (int i = 0; i < npat; ++i)
      patterns.push_back(random_text(rng, 1 + rng() % (rng() % 4 == 0 ? 70 : 12), pat_letters));
    const std::size_t m = patterns[0].size();
    std::string text = random_text(rng, rng() % (iter % 10 == 0 ? 20000 : 600), letters);
    for (int plant = 0; plant < 3 && !text.empty(); ++plant) {
      const std::string& pattern = patterns[rng() % patterns.size()];
      const std::size_t at = rng() % text.size();
      text.replace(at, std::min(pattern.size(), text.size() - at), pattern.substr(0, std::min(pattern.size(), text.size() - at)));
    }
    // k from 0 to m + 1: k >= m makes the whole record one run of ends with cost <= k.
    opt.k = static_cast<int>(rng() % (m + 2));
    CAPTURE(seed);
    CAPTURE(iter);
    CAPTURE(patterns.size());
    CAPTURE(patterns[0]);
    CAPTURE(text);
    CAPTURE(opt.k);
    std::vector<Pattern> named;
    for (const std::string& p : patterns) named.push_back({"p" + std::to_string(named.size()), p});
    PatternSet ps(named, opt);
    const auto np = static_cast<std::uint32_t>(patterns.size());
    // The whole record, one pattern at a time (--paired: record pi has pattern pi).
    std::vector<HitList> whole_hits(np);
    std::vector<StrandCounts> whole_counts(np);
    std::vector<bool> whole_contains(np);
    const std::string_view one[] = {text};
    for (std::uint32_t pi = 0; pi < np; ++pi) {
      whole_hits[pi] = test::search_texts(ps, opt, scalar_kernel(), test::every_pair(Command::hits, true, true), one, pi).hits;
      for (const Hit& h : whole_hits[pi].hits) ++(h.strand == Strand::fwd ? whole_counts[pi].fwd : whole_counts[pi].rc);
      whole_contains[pi] = !whole_hits[pi].hits.empty();
    }

    // A random tiling: window sizes from 1 to 200, with a kernel picked per case; in each
    // window every pattern in turn.
    const auto kernels = available_kernels();
    const KernelFns& kernel = *kernels[rng() % kernels.size()];
    CAPTURE(kernel.name);
    Searcher part_hits(ps, opt, kernel, test::every_pair(Command::hits));
    Searcher part_count(ps, opt, kernel, test::every_pair(Command::count));
    Searcher part_contains(ps, opt, kernel, test::every_pair(Command::contains));
    std::vector<std::vector<Key>> merged(np);
    BatchResults window_hits;
    std::vector<StrandCounts> counts(np);
    std::vector<bool> contains(np);
    std::uint64_t begin = 0;
    const std::uint64_t max_size = 1 + rng() % 200;
    for (;;) {
      Window w{begin, begin + 1 + rng() % max_size};
      if (w.end >= text.size()) w.end = Window::kOpen;
      for (std::uint32_t pi = 0; pi < np; ++pi) {
        window_hits.clear();
        const WindowQuery query{text, w, false, pi, 0};
        part_hits.search(query, window_hits);
        for (const Hit& h : window_hits.hits.hits) merged[pi].push_back(key_of(window_hits.hits, h));
        const StrandCounts c = part_count.search(query, window_hits).counts;
        counts[pi].fwd += c.fwd;
        counts[pi].rc += c.rc;
        contains[pi] = contains[pi] || part_contains.search(query, window_hits).contains;
      }
      if (w.end == Window::kOpen) break;
      begin = w.end;
    }
    for (std::uint32_t pi = 0; pi < np; ++pi) {
      CAPTURE(pi);
      if (opt.selection == Selection::best) {
        // Per strand: lowest cost, ties -> largest end in the strand's orientation.
        std::vector<Key> best;
        for (int strand = 0; strand < 2; ++strand) {
          const Key* pick = nullptr;
          for (const Key& k : merged[pi]) {
            if (std::get<1>(k) != strand) continue;
            const bool better =
                !pick || std::get<5>(k) < std::get<5>(*pick) ||
                (std::get<5>(k) == std::get<5>(*pick) &&
                 (strand == 0 ? std::get<2>(k) > std::get<2>(*pick) : std::get<0>(k) < std::get<0>(*pick)));
            if (better) pick = &k;
          }
          if (pick) best.push_back(*pick);
        }
        merged[pi] = best;
      }
      std::stable_sort(merged[pi].begin(), merged[pi].end(), output_less);
      std::vector<Key> expected;
      for (const Hit& h : whole_hits[pi].hits) expected.push_back(key_of(whole_hits[pi], h));
      REQUIRE(merged[pi] == expected);
      if (opt.selection != Selection::best) {
        REQUIRE(counts[pi].fwd == whole_counts[pi].fwd);
        REQUIRE(counts[pi].rc == whole_counts[pi].rc);
      } else {
        REQUIRE((counts[pi].fwd > 0) == (whole_counts[pi].fwd > 0));
        REQUIRE((counts[pi].rc > 0) == (whole_counts[pi].rc > 0));
      }
      REQUIRE(contains[pi] == whole_contains[pi]);
      compared += static_cast<long>(expected.size());
    }
  }
  MESSAGE("window tilings: 6000 cases, " << compared << " hits compared");
}
