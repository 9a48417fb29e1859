// Windows of a long record (issue: equal-size tasks): searching any tiling of a record into
// windows and merging must give exactly the hits of the unsplit record, for both strands,
// every selection, overhang at both ends, the N filter and k >= m (the whole record one run).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>

#include "trawl/searcher.h"

using namespace trawl;

namespace {

using Key = std::tuple<std::uint64_t, int, std::uint64_t, std::uint32_t, std::uint32_t, int, std::string>;

Key key_of(const HitList& list, const Hit& h) {
  std::string cigar;
  append_cigar(cigar, list.cigar(h));
  return {h.start, static_cast<int>(h.strand), h.end, h.pattern_start, h.pattern_end, h.cost, cigar};
}

// SPEC §7 order; equal (start, strand, end) keep pattern_end descending.
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
    const std::size_t m = 1 + rng() % (rng() % 4 == 0 ? 70 : 12);
    const std::string pattern = random_text(rng, m, pat_letters);
    std::string text = random_text(rng, rng() % (iter % 10 == 0 ? 20000 : 600), letters);
    for (int plant = 0; plant < 3 && !text.empty(); ++plant) {
      const std::size_t at = rng() % text.size();
      text.replace(at, std::min(m, text.size() - at), pattern.substr(0, std::min(m, text.size() - at)));
    }
    // k from 0 to m + 1: k >= m makes the whole record one run of ends with cost <= k.
    opt.k = static_cast<int>(rng() % (m + 2));
    CAPTURE(seed);
    CAPTURE(iter);
    CAPTURE(pattern);
    CAPTURE(text);
    CAPTURE(opt.k);
    PatternSet ps({{"p", pattern}}, opt);
    Searcher whole(ps, opt, scalar_kernel());
    HitList whole_hits;
    whole.search_record(0, text, whole_hits);
    const StrandCounts whole_counts = (whole.set_text(text), whole.count_hits(0));
    const bool whole_contains = whole.has_hit(0);

    // A random tiling: window sizes from 1 to 200, with a kernel picked per case.
    const auto kernels = available_kernels();
    const KernelFns& kernel = *kernels[rng() % kernels.size()];
    CAPTURE(kernel.name);
    Searcher part(ps, opt, kernel);
    std::vector<Key> merged;
    HitList window_hits;
    StrandCounts counts;
    bool contains = false;
    std::uint64_t begin = 0;
    const std::uint64_t max_size = 1 + rng() % 200;
    for (;;) {
      Window w{begin, begin + 1 + rng() % max_size};
      if (w.end >= text.size()) w.end = Window::kOpen;
      part.set_window(text, w);
      window_hits.clear();
      part.find_hits(0, 0, window_hits);
      for (const Hit& h : window_hits.hits) merged.push_back(key_of(window_hits, h));
      const StrandCounts c = part.count_hits(0);
      counts.fwd += c.fwd;
      counts.rc += c.rc;
      contains = contains || part.has_hit(0);
      if (w.end == Window::kOpen) break;
      begin = w.end;
    }
    if (opt.selection == Selection::best) {
      // Per strand: lowest cost, ties -> largest end in the strand's orientation.
      std::vector<Key> best;
      for (int strand = 0; strand < 2; ++strand) {
        const Key* pick = nullptr;
        for (const Key& k : merged) {
          if (std::get<1>(k) != strand) continue;
          const bool better =
              !pick || std::get<5>(k) < std::get<5>(*pick) ||
              (std::get<5>(k) == std::get<5>(*pick) &&
               (strand == 0 ? std::get<2>(k) > std::get<2>(*pick) : std::get<0>(k) < std::get<0>(*pick)));
          if (better) pick = &k;
        }
        if (pick) best.push_back(*pick);
      }
      merged = best;
    }
    std::stable_sort(merged.begin(), merged.end(), output_less);
    std::vector<Key> expected;
    for (const Hit& h : whole_hits.hits) expected.push_back(key_of(whole_hits, h));
    REQUIRE(merged == expected);
    if (opt.selection != Selection::best) {
      REQUIRE(counts.fwd == whole_counts.fwd);
      REQUIRE(counts.rc == whole_counts.rc);
    } else {
      REQUIRE((counts.fwd > 0) == (whole_counts.fwd > 0));
      REQUIRE((counts.rc > 0) == (whole_counts.rc > 0));
    }
    REQUIRE(contains == whole_contains);
    compared += static_cast<long>(expected.size());
  }
  MESSAGE("window tilings: 6000 cases, " << compared << " hits compared");
}
