// The lane strategies and LaneDriver (search/lane_strategies.h) with the scalar kernel (for the
// screen, with a screen that passes everything): which strategies a driver sets up; that each
// leaves every job with exactly the semi-global DP's ends (reverse: complement(P) against
// reverse(T); no job only where the DP has no end), or their count; group budgets; the first
// end deciding; and --paired's one pattern per record.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/random_text.h"
#include "trawl/core/pattern_set.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/lane_strategies.h"

using namespace trawl;

namespace {

using Ends = std::vector<std::pair<std::uint64_t, std::int32_t>>;

// Every end p (1..n, or 0..n with `from_zero`) of the whole pattern in t with cost <= k
// (D(0, p) = 0, D(j, 0) = j; upper-case ACGT only here).
Ends dp_ends(const std::string& p, const std::string& t, int k, bool from_zero = false) {
  std::vector<std::int32_t> col(p.size() + 1), next(p.size() + 1);
  for (std::size_t j = 0; j <= p.size(); ++j) col[j] = static_cast<std::int32_t>(j);
  Ends out;
  if (from_zero && col.back() <= k) out.emplace_back(0, col.back());
  for (std::size_t i = 1; i <= t.size(); ++i) {
    next[0] = 0;
    for (std::size_t j = 1; j <= p.size(); ++j)
      next[j] = std::min({col[j - 1] + (p[j - 1] == t[i - 1] ? 0 : 1), col[j] + 1, next[j - 1] + 1});
    std::swap(col, next);
    if (col.back() <= k) out.emplace_back(i, col.back());
  }
  return out;
}

std::string complement(std::string s, bool reverse = false) {
  for (char& c : s) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : 'A';
  return reverse ? std::string(s.rbegin(), s.rend()) : s;
}

Ends expected(const std::string& p, std::string_view text, Strand s, int k, bool from_zero = false) {
  const std::string t(text);
  return s == Strand::rc ? dp_ends(complement(p), {t.rbegin(), t.rend()}, k, from_zero) : dp_ends(p, t, k, from_zero);
}

// The scalar kernel with a screen that passes every text: an idle screen, but a correct one.
const KernelFns& screening_kernel() {
  static const KernelFns k = [] {
    KernelFns fns = scalar_kernel();
    fns.screen = [](const ScreenPieces&, const ScreenText*, std::size_t n, std::uint8_t* flags) {
      std::fill(flags, flags + n, std::uint8_t{3});
    };
    return fns;
  }();
  return k;
}

std::vector<Pattern> random_patterns(std::size_t count, std::size_t length, std::uint64_t seed = 17) {
  std::mt19937_64 rng(seed);
  std::vector<Pattern> out;
  for (std::size_t i = 0; i < count; ++i)
    out.push_back({"p" + std::to_string(i), test::random_text(rng, length, "ACGT")});
  return out;
}

// What a driver reads: options, patterns, the class table and a kernel (kept in place).
struct Setup {
  SearchOptions opt;
  std::vector<Pattern> pats;
  PatternSet ps;
  std::array<std::uint8_t, 256> cls{};
  const KernelFns& kernel;
  Setup(std::vector<Pattern> patterns, int k, std::size_t precompute = PatternSet::kPrecomputeLimit,
        const KernelFns& fns = scalar_kernel(), bool both = true)
      : opt(dna(k, both)), pats(std::move(patterns)), ps(pats, opt, precompute), kernel(fns) {
    for (unsigned b = 0; b < 256; ++b) cls[b] = opt.alphabet.text_class(static_cast<std::uint8_t>(b));
  }
  static SearchOptions dna(int k, bool both) {
    SearchOptions o;
    o.alphabet.alphabet = Alphabet::dna;
    o.k = k;
    o.both_strands = both;
    return o;
  }
  LaneContext ctx() const { return {ps, opt, kernel, cls}; }
};

// Records of random ACGT with copies of the patterns planted: exact, with a substitution, and
// reverse complemented (record r holds pattern r % count's copy).
std::vector<std::string> planted_texts(const std::vector<Pattern>& pats, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < count; ++r) {
    std::string copy = pats[r % pats.size()].seq;
    if (r % 3 == 1) copy[copy.size() / 2] = copy[copy.size() / 2] == 'A' ? 'C' : 'A';
    if (r % 3 == 2) copy = complement(copy, true);
    const std::string before = test::random_text(rng, 10 + rng() % 60, "ACGT");
    out.push_back(before + copy + test::random_text(rng, rng() % 60, "ACGT"));
  }
  return out;
}

Ends ends_of(const LaneGroup& g, std::uint32_t job) {
  Ends got;
  for (const EndCost& e : g.ends_of(job)) got.emplace_back(e.pos, e.cost);
  return got;
}

// Checks every job of the driver's group against the DP (ends kept, or counted); returns how
// many (record, pattern, strand) the DP gives an end, and how many have no job.
std::pair<std::size_t, std::size_t> check_group(const LaneDriver& d, const Setup& s, bool counted) {
  const LaneGroup& g = d.group();
  std::size_t with_ends = 0, ruled_out = 0;
  for (std::size_t r = 0; r < g.records.size(); ++r) {
    const LaneGroup::Record& rec = g.records[r];
    if (rec.first_job == LaneGroup::kNoJobs) {  // not in lanes: only a record without patterns here
      CHECK(rec.patterns == 0);
      continue;
    }
    for (std::uint32_t pi = rec.first_pattern; pi < rec.first_pattern + rec.patterns; ++pi)
      for (const Strand strand : {Strand::fwd, Strand::rc}) {
        if (strand == Strand::rc && !s.opt.searches_rc()) break;
        CAPTURE(r);
        CAPTURE(pi);
        CAPTURE(strand_char(strand));
        const Ends want = expected(s.pats[pi].seq, rec.text, strand, s.opt.k, counted);
        with_ends += !want.empty();
        const std::uint32_t j = g.job_of(rec, pi, strand);
        if (j == LaneGroup::kNoJobs) {
          ++ruled_out;
          CHECK(want.empty());  // ruled out only where there is no end
        } else if (counted) {
          CHECK(g.counts[j] == want.size());
        } else {
          CHECK(ends_of(g, j) == want);
        }
      }
  }
  return {with_ends, ruled_out};
}

// Which strategies a driver sets up: panel, filtered panel, screened.
std::array<bool, 3> strategies(std::vector<Pattern> pats, int k,
                               std::size_t precompute = PatternSet::kPrecomputeLimit,
                               const KernelFns& kernel = scalar_kernel(), bool both = true) {
  const Setup s(std::move(pats), k, precompute, kernel, both);
  const LaneDriver d(s.ctx());
  return {d.panel(), d.filtered_panel(), d.screened()};
}

}  // namespace

TEST_CASE("lane strategies: the driver sets up the strategies the patterns and the kernel allow") {
  using Set = std::array<bool, 3>;  // panel, filtered panel, screened
  const std::size_t on_demand = 0, kept = PatternSet::kPrecomputeLimit;
  CHECK(strategies(random_patterns(2, 20), 1) == Set{true, false, false});  // 4 scans: too few to filter
  CHECK(strategies(random_patterns(2, 20), 1, on_demand) == Set{false, false, false});
  std::vector<Pattern> with_long = random_patterns(2, 20);
  with_long.push_back({"long", std::string(65, 'A')});
  CHECK(strategies(with_long, 1) == Set{false, false, false});
  // 8 patterns of 20 with k = 1 on both strands: 16 scans the seed filter can rule out.
  CHECK(strategies(random_patterns(8, 20), 1) == Set{true, true, false});
  CHECK(strategies(random_patterns(4, 20), 1, kept, scalar_kernel(), false) == Set{true, false, false});
  CHECK(strategies(random_patterns(8, 20), 1, on_demand) == Set{false, false, false});
  // The screen: only with a kernel that has one, k <= 4, and not where the filter takes the panel.
  CHECK(strategies(random_patterns(1, 20), 2) == Set{true, false, false});
  CHECK(strategies(random_patterns(1, 20), 2, kept, screening_kernel()) == Set{true, false, true});
  CHECK(strategies(random_patterns(1, 20), 2, on_demand, screening_kernel()) == Set{false, false, true});
  CHECK(strategies(random_patterns(8, 20), 1, kept, screening_kernel()) == Set{true, true, false});
  CHECK(strategies(random_patterns(1, 20), 5, kept, screening_kernel()) == Set{true, false, false});
}

TEST_CASE("lane strategies: every strategy leaves each job with the DP's ends, or their count") {
  struct Case { Strategy strategy; std::size_t precompute; const KernelFns* kernel; };
  const std::vector<Pattern> pats = random_patterns(8, 20);
  const std::vector<std::string> owned = planted_texts(pats, 16, 99);
  const std::vector<std::string_view> texts(owned.begin(), owned.end());
  const std::size_t kept = PatternSet::kPrecomputeLimit;
  for (const Case c : {Case{Strategy::lanes, 0, &scalar_kernel()}, Case{Strategy::panel, kept, &scalar_kernel()},
                       Case{Strategy::filtered_panel, kept, &scalar_kernel()},
                       Case{Strategy::screened, 0, &screening_kernel()}})
    for (const bool counted : {false, true}) {
      const std::string name = strategy_name(c.strategy);
      CAPTURE(name);
      CAPTURE(counted);
      Setup s(pats, 1, c.precompute, *c.kernel);
      s.opt.selection = counted ? Selection::all_ends : Selection::local_minima;
      LaneDriver d(s.ctx());
      SearchPlan plan;
      plan.strategy = c.strategy;
      plan.counted = counted;
      d.follow(plan);
      REQUIRE(d.scan(s.ctx(), texts, LaneDriver::kAllPatterns) == texts.size());
      REQUIRE(d.group().records.size() == texts.size());
      for (std::size_t r = 0; r < texts.size(); ++r) CHECK(d.group().records[r].text.data() == texts[r].data());
      const auto [with_ends, ruled_out] = check_group(d, s, counted);
      CHECK(with_ends >= texts.size());  // every planted copy at least
      // Only the seed filter rules jobs out (most of them); the idle screen passes all.
      if (c.strategy == Strategy::filtered_panel) CHECK(ruled_out > texts.size() * 8);
      else CHECK(ruled_out == 0);
    }
}

TEST_CASE("lane strategies: a group stops at its budget, and records too long for a lane get no jobs") {
  const Setup s(random_patterns(8, 20), 1);
  const std::vector<std::string> owned = planted_texts(s.pats, 600, 5);
  const std::vector<std::string_view> texts(owned.begin(), owned.end());
  LaneDriver d(s.ctx());
  d.follow(SearchPlan{Strategy::panel, false, false});
  std::size_t at = 0, groups = 0;
  while (at < texts.size()) {
    const std::size_t took = d.scan(s.ctx(), std::span(texts).subspan(at), LaneDriver::kAllPatterns);
    REQUIRE(took >= 1);
    REQUIRE(d.group().records.size() == took);
    CHECK(d.group().records[0].text.data() == texts[at].data());
    check_group(d, s, false);
    at += took;
    ++groups;
  }
  CHECK(at == texts.size());
  CHECK(groups > 1);
  // A record longer than a lane takes (4096) still comes first, without jobs, where its 16
  // jobs would not fill a kernel batch (see the long-read panel case below).
  const std::string long_one(5000, 'A');
  const std::vector<std::string_view> two = {long_one, texts[0]};
  REQUIRE(d.scan(s.ctx(), two, LaneDriver::kAllPatterns) == 2);
  CHECK(d.group().records[0].first_job == LaneGroup::kNoJobs);
  CHECK(d.group().records[1].first_job != LaneGroup::kNoJobs);
}

TEST_CASE("lane strategies: where the first end decides, a job keeps its first end and reverse jobs follow misses") {
  const std::vector<Pattern> pats = random_patterns(3, 20, 3);
  std::mt19937_64 rng(11);
  const auto random = [&](std::size_t n) { return test::random_text(rng, n, "ACGT"); };
  const std::vector<std::string> owned = {random(10) + pats[0].seq + random(270),    // early, forward
                                          random(250) + pats[0].seq + random(30),    // past the head
                                          random(100) + complement(pats[1].seq, true) + random(180),
                                          random(60), random(300)};
  const std::vector<std::string_view> texts(owned.begin(), owned.end());
  for (const std::size_t precompute : {PatternSet::kPrecomputeLimit, std::size_t{0}}) {  // panel, lanes
    CAPTURE(precompute);
    const Setup s(pats, 1, precompute);
    LaneDriver d(s.ctx());
    d.follow(SearchPlan{precompute ? Strategy::panel : Strategy::lanes, true, false});
    REQUIRE(d.scan(s.ctx(), texts, LaneDriver::kAllPatterns) == texts.size());
    const LaneGroup& g = d.group();
    for (std::size_t r = 0; r < texts.size(); ++r)
      for (std::uint32_t pi = 0; pi < pats.size(); ++pi) {
        CAPTURE(r);
        CAPTURE(pi);
        Ends fwd = expected(pats[pi].seq, texts[r], Strand::fwd, 1);
        Ends rc = expected(pats[pi].seq, texts[r], Strand::rc, 1);
        fwd.resize(std::min<std::size_t>(fwd.size(), 1));  // the first end only
        rc.resize(std::min<std::size_t>(rc.size(), 1));
        const std::uint32_t jf = g.job_of(g.records[r], pi, Strand::fwd);
        const std::uint32_t jr = g.job_of(g.records[r], pi, Strand::rc);
        REQUIRE(jf != LaneGroup::kNoJobs);
        CHECK(ends_of(g, jf) == fwd);
        if (!fwd.empty()) {
          CHECK(jr == LaneGroup::kNoJobs);  // never scanned: the forward end decided
        } else {
          REQUIRE(jr != LaneGroup::kNoJobs);
          CHECK(ends_of(g, jr) == rc);
        }
      }
    CHECK(g.job_has_ends(g.job_of(g.records[0], 0, Strand::fwd)));
    CHECK(g.job_has_ends(g.job_of(g.records[1], 0, Strand::fwd)));
    CHECK(g.job_has_ends(g.job_of(g.records[2], 1, Strand::rc)));
  }
}

TEST_CASE("lane strategies: paired gives record r pattern paired_first + r only, with the DP's ends") {
  const Setup s(random_patterns(8, 20, 23), 1, 0);  // --paired builds profiles on demand
  std::vector<std::string> owned = planted_texts(s.pats, 8, 31);
  owned.push_back(owned[0]);  // past the last pattern: none
  const std::vector<std::string_view> texts(owned.begin(), owned.end());
  LaneDriver d(s.ctx());
  d.follow(SearchPlan{Strategy::paired, false, false});
  REQUIRE(d.scan(s.ctx(), texts, 0) == texts.size());
  for (std::uint32_t r = 0; r < 8; ++r) {
    CHECK(d.group().records[r].first_pattern == r);
    CHECK(d.group().records[r].patterns == 1);
  }
  CHECK(d.group().records[8].patterns == 0);
  CHECK(check_group(d, s, false).first >= 8);
  // From pattern 5 on: records 0, 1, 2 hold patterns 5, 6, 7.
  REQUIRE(d.scan(s.ctx(), std::span(texts).subspan(5, 3), 5) == 3);
  for (std::uint32_t r = 0; r < 3; ++r) CHECK(d.group().records[r].first_pattern == 5 + r);
  CHECK(check_group(d, s, false).first >= 3);
}

// Long reads (past a lane of their own) share their codes between a panel's jobs, scanned a
// whole kernel batch at a time past the group's chunk of steps: every kernel, the DP's ends.
TEST_CASE("lane strategies: a pattern panel over long reads leaves each job with the DP's ends, every kernel") {
  std::mt19937_64 rng(20261208);
  const std::vector<Pattern> pats = random_patterns(40, 24, 23);  // 80 jobs a record: past a batch of 64
  std::vector<std::string> owned = planted_texts(pats, 40, 7);
  std::vector<std::string> reads;
  for (std::size_t r = 0; r < 4; ++r) {
    std::string read;
    while (read.size() < 4500 + r * 3000) read += owned[rng() % owned.size()] + test::random_text(rng, rng() % 400, "ACGT");
    reads.push_back(read);
  }
  reads.push_back(owned[0]);  // a short one beside them
  const std::vector<std::string_view> texts(reads.begin(), reads.end());
  const std::string too_long((std::size_t{1} << 16) + 1, 'A');  // past kMaxPanelText (lanes.h)
  const std::vector<std::string_view> too_long_only = {too_long};
  for (const KernelFns* kernel : available_kernels())
    for (const bool counted : {false, true}) {
      CAPTURE(kernel->name);
      CAPTURE(counted);
      Setup s(pats, 2, PatternSet::kPrecomputeLimit, *kernel);
      s.opt.selection = counted ? Selection::all_ends : Selection::local_minima;
      LaneDriver d(s.ctx());
      SearchPlan plan;
      plan.strategy = Strategy::panel;
      plan.counted = counted;
      d.follow(plan);
      for (std::size_t at = 0; at < texts.size();) {
        const std::size_t took = d.scan(s.ctx(), std::span(texts).subspan(at), LaneDriver::kAllPatterns);
        REQUIRE(took >= 1);
        for (const LaneGroup::Record& rec : d.group().records) CHECK(rec.first_job != LaneGroup::kNoJobs);
        const auto [with_ends, ruled_out] = check_group(d, s, counted);
        CHECK(with_ends > 0);
        CHECK(ruled_out == 0);
        at += took;
      }
      REQUIRE(d.scan(s.ctx(), too_long_only, LaneDriver::kAllPatterns) == 1);
      CHECK(d.group().records[0].first_job == LaneGroup::kNoJobs);
    }
}
