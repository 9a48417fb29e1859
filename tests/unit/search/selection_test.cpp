// Hit selection (docs/semantics.md §2 and §10): LocalMinimaSelector, fed only the ends with
// cost <= k, reports exactly what the one-pass rule of §2 reports on the whole cost row:
// plateaus give their right end, a run restarts the rule, the last end position counts only
// when n >= 1. Checked on hand-made rows and against a direct implementation of the rule as
// §2 states it, on random rows (arbitrary values and real DP rows); LocalMinimaCounter
// counts the same ends.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "trawl/search/selection.h"

using namespace trawl;

namespace {

using Row = std::vector<std::int32_t>;
using Picks = std::vector<std::pair<std::uint64_t, std::int32_t>>;

// The rule of docs/semantics.md §2, step by step, on the whole row C[0..last].
Picks spec_local_minima(const Row& c, std::int32_t k) {
  Picks out;
  bool decreasing = true;
  for (std::size_t q = 1; q < c.size(); ++q) {
    if (decreasing && c[q] > c[q - 1] && c[q - 1] <= k) out.emplace_back(q - 1, c[q - 1]);
    decreasing = c[q] < c[q - 1] || (decreasing && c[q] == c[q - 1]);
  }
  const std::size_t n = c.size() - 1;
  if (decreasing && c[n] <= k && n >= 1) out.emplace_back(n, c[n]);
  return out;
}

// The selector over the sparse stream of (p, C[p]) with C[p] <= k.
Picks select(const Row& c, std::int32_t k, LocalMinimaSelector& selector) {
  std::vector<EndCost> out;
  for (std::size_t p = 0; p < c.size(); ++p)
    if (c[p] <= k) selector.push(p, c[p], out);
  selector.finish(c.size() - 1, out);
  Picks picks;
  for (const EndCost& e : out) picks.emplace_back(e.pos, e.cost);
  return picks;
}

Picks select(const Row& c, std::int32_t k) {
  LocalMinimaSelector selector;
  return select(c, k, selector);
}

std::uint32_t count(const Row& c, std::int32_t k) {
  LocalMinimaCounter counter;
  for (std::size_t p = 0; p < c.size(); ++p)
    if (c[p] <= k) counter.push(p, c[p]);
  return counter.finish(c.size() - 1);
}

std::string show(const Row& c) {
  std::string s;
  for (std::int32_t v : c) s += std::to_string(v) + " ";
  return s;
}

}  // namespace

TEST_CASE("local minima: hand-made rows") {
  using P = Picks;
  // A valley: its bottom.
  CHECK(select({3, 2, 1, 2, 3}, 1) == P{{2, 1}});
  // A plateau gives one hit, at its right end.
  CHECK(select({3, 1, 1, 1, 3}, 1) == P{{3, 1}});
  // A plateau after a rise is not a minimum.
  CHECK(select({0, 1, 1, 2}, 1) == P{{0, 0}});
  // Two valleys in one run (the rise between stays <= k).
  CHECK(select({3, 1, 2, 1, 3}, 2) == P{{1, 1}, {3, 1}});
  // A descending row ends at its last position (the end-of-text rule).
  CHECK(select({3, 2, 1, 0}, 1) == P{{3, 0}});
  CHECK(select({2, 1, 1}, 1) == P{{2, 1}});
  // n = 0: position 0 alone is never reported (n >= 1 rule), even at cost 0.
  CHECK(select({0}, 0) == P{});
  CHECK(select({0}, 5) == P{});
  // n = 1.
  CHECK(select({1, 0}, 0) == P{{1, 0}});
  CHECK(select({0, 1}, 1) == P{{0, 0}});
  // A run restarts the rule: values above k before a run are a strict decrease into it,
  // even where the run starts higher than the previous run's values.
  CHECK(select({0, 9, 1, 2, 9, 0}, 1) == P{{0, 0}, {2, 1}, {5, 0}});
  CHECK(select({2, 1, 1, 9, 1, 1, 2}, 1) == P{{2, 1}, {5, 1}});
  // A rising run contributes its first position only.
  CHECK(select({5, 0, 1, 2, 5}, 2) == P{{1, 0}});
  // Nothing <= k, nothing reported.
  CHECK(select({5, 4, 5, 4}, 3) == P{});
  // Values above k never matter (docs/semantics.md §10): any value > k gives the same hits.
  CHECK(select({3, 1, 7, 0, 100, 1}, 1) == select({2, 1, 2, 0, 2, 1}, 1));
}

TEST_CASE("local minima: the selector matches the one-pass rule on random rows, and the counter counts them") {
  const std::uint64_t seed = 91;
  std::mt19937_64 rng(seed);
  LocalMinimaSelector reused;  // finish() resets it for the next row
  for (int iter = 0; iter < 20000; ++iter) {
    const std::int32_t k = static_cast<std::int32_t>(rng() % 4);
    const std::size_t len = 1 + rng() % 40;
    Row c(len);
    // Small steps with long plateaus, or arbitrary values, around k.
    const bool steps = iter % 2 == 0;
    std::int32_t v = static_cast<std::int32_t>(rng() % (k + 3));
    for (auto& x : c) {
      if (steps) {
        const auto r = rng() % 5;
        v = std::max(0, v + (r == 0 ? -1 : r == 1 ? 1 : 0));
      } else {
        v = static_cast<std::int32_t>(rng() % (k + 3));
      }
      x = v;
    }
    const Picks want = spec_local_minima(c, k);
    INFO("seed " << seed << " iter " << iter << " k " << k << " row " << show(c));
    REQUIRE(select(c, k) == want);
    REQUIRE(select(c, k, reused) == want);
    REQUIRE(count(c, k) == want.size());
  }
}

TEST_CASE("local minima: on real DP cost rows, including overhang rows (last = n + S)") {
  const std::uint64_t seed = 4242;
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 1500; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = Alphabet::dna;
    opt.k = static_cast<int>(rng() % 4);
    if (iter % 3 == 0) opt.overhang = 0.5f;
    const std::string pattern = trawl::test::random_text(rng, 1 + rng() % 12, "ACGT");
    const std::string text = trawl::test::random_text(rng, rng() % 60, iter % 2 ? "AC" : "ACGT");
    const Row c = trawl::oracle::cost_row(pattern, text, opt);
    INFO("seed " << seed << " iter " << iter << " P " << pattern << " T " << text << " k " << opt.k);
    const Picks want = spec_local_minima(c, opt.k);
    CHECK(select(c, opt.k) == want);
    CHECK(count(c, opt.k) == want.size());
    // Every run of ends <= k yields at least one hit (docs/semantics.md §10), so "some C[p]
    // <= k" for p >= 1 implies a hit.
    bool any = false;
    for (std::size_t p = 1; p < c.size(); ++p) any = any || c[p] <= opt.k;
    if (any) CHECK(!want.empty());
  }
}

TEST_CASE("local minima: the emit callback sees hits in increasing position as soon as they are decided") {
  LocalMinimaSelector s;
  std::vector<EndCost> out;
  s.push(1, 2, out);
  s.push(2, 1, out);
  CHECK(out.empty());
  s.push(3, 2, out);  // 2 is decided by the rise at 3
  REQUIRE(out.size() == 1);
  CHECK(out[0].pos == 2);
  CHECK(out[0].cost == 1);
  s.push(7, 0, out);  // a new run: the previous run's last end is not a minimum (it rose)
  CHECK(out.size() == 1);
  s.push(8, 0, out);
  s.finish(8, out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].pos == 8);
  // Finishing before the end of the text: the last end is still reported (the value after it
  // is > k).
  s.push(4, 1, out);
  s.finish(10, out);
  REQUIRE(out.size() == 3);
  CHECK(out[2].pos == 4);
  // An empty stream reports nothing.
  s.finish(10, out);
  CHECK(out.size() == 3);
}

// EndCollector: which runs of ends a scan keeps under each ownership, and when it is decided.
namespace {

std::vector<std::uint64_t> collect(Ownership own, std::uint64_t exact_from, bool minima,
                                   const std::vector<std::pair<std::uint64_t, std::int32_t>>& ends,
                                   bool& need_more) {
  std::vector<EndCost> run, selected;
  EndCollector c(own, exact_from, minima, run, selected);
  for (const auto& [p, cost] : ends) c.on_end(p, cost);
  c.close_run();
  c.finish(100);
  need_more = c.need_more();
  std::vector<std::uint64_t> out;
  for (const EndCost& e : selected) out.push_back(e.pos);
  return out;
}

}  // namespace

TEST_CASE("end collector: runs owned by where they start or end, local minima of the kept runs") {
  // Three runs: 3..5 (minimum at 4), 9..10 (plateau, right end 10), 20 alone.
  const std::vector<std::pair<std::uint64_t, std::int32_t>> ends = {
      {3, 2}, {4, 1}, {5, 2}, {9, 1}, {10, 1}, {20, 0}};
  bool need_more = false;
  CHECK(collect({}, 0, false, ends, need_more) == std::vector<std::uint64_t>{3, 4, 5, 9, 10, 20});
  CHECK(collect({}, 0, true, ends, need_more) == std::vector<std::uint64_t>{4, 10, 20});
  CHECK_FALSE(need_more);
  // Runs starting in [4, 10): only 9..10 (3..5 starts at 3).
  CHECK(collect({Own::runs_starting_in, 4, 10}, 0, false, ends, need_more) == std::vector<std::uint64_t>{9, 10});
  // Runs ending in [5, 11): 3..5 and 9..10, not 20.
  CHECK(collect({Own::runs_ending_in, 5, 11}, 0, true, ends, need_more) == std::vector<std::uint64_t>{4, 10});
  // Ends before exact_from are not seen: the run 3..5 is cut to 5.
  CHECK(collect({}, 5, false, ends, need_more) == std::vector<std::uint64_t>{5, 9, 10, 20});
  // An owned run reaching back to exact_from cannot be placed: the scan must start earlier.
  CHECK(collect({Own::runs_ending_in, 0, 6}, 3, false, ends, need_more).empty());
  CHECK(need_more);
}

TEST_CASE("end collector: decided once the scan has passed b and no owned run is open there") {
  std::vector<EndCost> run, selected;
  EndCollector all(Ownership{}, 0, false, run, selected);
  CHECK_FALSE(all.decided(1000));  // a whole record is decided only at its end
  EndCollector starting({Own::runs_starting_in, 0, 10}, 0, false, run, selected);
  starting.on_end(9, 0);
  starting.on_end(10, 0);
  CHECK_FALSE(starting.decided(10));  // its run started inside and is still open at b
  starting.on_end(11, 0);
  starting.close_run_before(13);
  CHECK(starting.decided(13));
  EndCollector ending({Own::runs_ending_in, 0, 10}, 0, false, run, selected);
  ending.on_end(10, 0);
  CHECK(ending.decided(10));  // a run reaching b is not this window's
  CHECK_FALSE(ending.decided(9));
}

TEST_CASE("best_before: lower cost first, then the larger end") {
  CHECK(best_before(0, 5, 1, 100));
  CHECK_FALSE(best_before(1, 100, 0, 5));
  CHECK(best_before(1, 7, 1, 6));
  CHECK_FALSE(best_before(1, 6, 1, 7));
  CHECK_FALSE(best_before(1, 6, 1, 6));
}
