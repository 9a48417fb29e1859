// SearchPlan (search/plan.h) and the plan Searcher chooses (Searcher::plan()): the name of
// every strategy and the log line describe() makes of a plan; then which strategy a searcher
// takes: record by record where the mode asks for the reference, paired lanes for --paired,
// a seed-filtered panel where SeedFilter can rule out enough of a precomputed panel's scans,
// screened lanes for a few patterns of 16 or more characters and small k where the kernel
// has a screen, a plain panel for other precomputed sets of short patterns, and job lanes
// otherwise; contains without the N filter lets the first end decide (and then neither
// filters nor screens), and count without the N filter and overhang counts ends as they
// are scanned. The plan changes how, never what: rows are the same under every plan.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "support/random_text.h"
#include "support/run_search.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/plan.h"
#include "trawl/search/searcher.h"

using namespace trawl;

namespace {

SearchOptions dna(int k = 1) {
  SearchOptions o;
  o.alphabet.alphabet = Alphabet::dna;
  o.k = k;
  return o;
}

std::vector<Pattern> random_patterns(std::size_t count, std::size_t length, std::uint64_t seed = 17) {
  std::mt19937_64 rng(seed);
  std::vector<Pattern> out;
  for (std::size_t i = 0; i < count; ++i)
    out.push_back({"p" + std::to_string(i), trawl::test::random_text(rng, length, "ACGT")});
  return out;
}

SearchMode mode_of(Command command, bool paired = false, bool record_by_record = false) {
  SearchMode m;
  m.shape.command = command;
  m.paired = paired;
  m.record_by_record = record_by_record;
  return m;
}

// A kernel that screens: the scalar kernel with a screen that passes every text (a piece
// "may" end anywhere), which is always a correct screen, only an idle one.
void pass_everything(const ScreenPieces&, const ScreenText*, std::size_t n, std::uint8_t* flags) {
  for (std::size_t t = 0; t < n; ++t) flags[t] = 3;
}

const KernelFns& screening_kernel() {
  static const KernelFns k = [] {
    KernelFns fns = scalar_kernel();
    fns.screen = pass_everything;
    return fns;
  }();
  return k;
}

SearchPlan plan_of(const PatternSet& patterns, const SearchOptions& opt, const SearchMode& mode,
                   const KernelFns& kernel = scalar_kernel()) {
  return Searcher(patterns, opt, kernel, mode).plan();
}

}  // namespace

TEST_CASE("plan: every strategy's name") {
  CHECK(std::string(strategy_name(Strategy::record_by_record)) == "record by record");
  CHECK(std::string(strategy_name(Strategy::lanes)) == "job lanes");
  CHECK(std::string(strategy_name(Strategy::panel)) == "pattern panel");
  CHECK(std::string(strategy_name(Strategy::filtered_panel)) == "seed-filtered pattern panel");
  CHECK(std::string(strategy_name(Strategy::screened)) == "screened job lanes");
  CHECK(std::string(strategy_name(Strategy::paired)) == "paired job lanes");
}

TEST_CASE("plan: describe names the strategy and each flag that is set, in a fixed order") {
  SearchPlan p;
  CHECK(p.describe() == "search plan: job lanes");  // the default plan
  p.strategy = Strategy::screened;
  p.first_end_decides = true;
  CHECK(p.describe() == "search plan: screened job lanes, first end decides");
  p.first_end_decides = false;
  p.counted = true;
  CHECK(p.describe() == "search plan: screened job lanes, ends counted as scanned");
  p.first_end_decides = true;
  p.strategy = Strategy::record_by_record;
  CHECK(p.describe() == "search plan: record by record, first end decides, ends counted as scanned");
}

TEST_CASE("plan: record by record where the mode asks for it, whatever else applies") {
  const SearchOptions opt = dna();
  const PatternSet panel(random_patterns(8, 20), opt);
  for (const bool paired : {false, true})
    for (const Command command : {Command::hits, Command::count, Command::contains}) {
      CAPTURE(paired);
      CHECK(plan_of(panel, opt, mode_of(command, paired, true)).strategy == Strategy::record_by_record);
      CHECK(plan_of(panel, opt, mode_of(command, paired, true), screening_kernel()).strategy == Strategy::record_by_record);
    }
}

TEST_CASE("plan: --paired takes paired lanes, even for a panel the seed filter or the screen would take") {
  const SearchOptions opt = dna();
  const PatternSet panel(random_patterns(8, 20), opt);
  const PatternSet one(random_patterns(1, 20), opt, 0);  // --paired builds profiles on demand
  for (const Command command : {Command::hits, Command::count, Command::contains}) {
    CHECK(plan_of(panel, opt, mode_of(command, true)).strategy == Strategy::paired);
    CHECK(plan_of(one, opt, mode_of(command, true), screening_kernel()).strategy == Strategy::paired);
  }
}

TEST_CASE("plan: a panel the seed filter can thin is filtered; one it cannot is a plain panel") {
  const SearchOptions opt = dna(1);
  // 8 patterns of 20 on both strands: 16 scans, each in 2 pieces of 10 the filter reads.
  const PatternSet filtered(random_patterns(8, 20), opt);
  CHECK(plan_of(filtered, opt, mode_of(Command::hits)).strategy == Strategy::filtered_panel);
  CHECK(plan_of(filtered, opt, mode_of(Command::count)).strategy == Strategy::filtered_panel);
  // The filter excludes the screen.
  CHECK(plan_of(filtered, opt, mode_of(Command::hits), screening_kernel()).strategy == Strategy::filtered_panel);
  // 4 patterns on the forward strand only: 4 scans, under the 8 it takes to pay.
  SearchOptions fwd = opt;
  fwd.both_strands = false;
  CHECK(plan_of(PatternSet(random_patterns(4, 20), fwd), fwd, mode_of(Command::hits)).strategy == Strategy::panel);
  // ... but 8 forward-only patterns are 8 scans.
  CHECK(plan_of(PatternSet(random_patterns(8, 20), fwd), fwd, mode_of(Command::hits)).strategy == Strategy::filtered_panel);
  // More than 64 scans (33 patterns, both strands) cannot be a record's bits.
  CHECK(plan_of(PatternSet(random_patterns(33, 20), opt), opt, mode_of(Command::hits)).strategy == Strategy::panel);
  // With overhang an end need not hold a whole piece.
  SearchOptions over = opt;
  over.overhang = 0.5f;
  CHECK(plan_of(PatternSet(random_patterns(8, 20), over), over, mode_of(Command::hits)).strategy == Strategy::panel);
  // Pieces too short to look up (k = 4 cuts 20 into pieces of 4).
  const SearchOptions k4 = dna(4);
  CHECK(plan_of(PatternSet(random_patterns(8, 20), k4), k4, mode_of(Command::hits)).strategy == Strategy::panel);
  // The ascii alphabet has no bases to seed.
  SearchOptions ascii = opt;
  ascii.alphabet.alphabet = Alphabet::ascii;
  CHECK(plan_of(PatternSet(random_patterns(8, 20), ascii), ascii, mode_of(Command::hits)).strategy == Strategy::panel);
}

TEST_CASE("plan: job lanes where no panel can be kept ready") {
  const SearchOptions opt = dna(1);
  // Profiles built on demand (no precomputed profiles).
  CHECK(plan_of(PatternSet(random_patterns(8, 20), opt, 0), opt, mode_of(Command::hits)).strategy == Strategy::lanes);
  CHECK(plan_of(PatternSet(random_patterns(1, 20), opt, 0), opt, mode_of(Command::hits)).strategy == Strategy::lanes);
  // A pattern longer than 64.
  std::vector<Pattern> pats = random_patterns(8, 20);
  pats.push_back({"long", std::string(65, 'A')});
  CHECK(plan_of(PatternSet(pats, opt), opt, mode_of(Command::hits)).strategy == Strategy::lanes);
  CHECK(plan_of(PatternSet(pats, opt), opt, mode_of(Command::hits), screening_kernel()).strategy == Strategy::lanes);
}

TEST_CASE("plan: a few patterns of 16 or more with k <= 4 are screened where the kernel screens") {
  const SearchOptions opt = dna(2);
  const PatternSet one(random_patterns(1, 20), opt);
  CHECK(plan_of(one, opt, mode_of(Command::hits), screening_kernel()).strategy == Strategy::screened);
  CHECK(plan_of(one, opt, mode_of(Command::count), screening_kernel()).strategy == Strategy::screened);
  // Without a screen in the kernel: a plain panel.
  CHECK(plan_of(one, opt, mode_of(Command::hits)).strategy == Strategy::panel);
  // The screen needs no precomputed profiles (without it: lanes).
  const PatternSet on_demand(random_patterns(1, 20), opt, 0);
  CHECK(plan_of(on_demand, opt, mode_of(Command::hits), screening_kernel()).strategy == Strategy::screened);
  CHECK(plan_of(on_demand, opt, mode_of(Command::hits)).strategy == Strategy::lanes);
  // Each real kernel: screened exactly where it has a screen.
  for (const KernelFns* kernel : available_kernels()) {
    CAPTURE(kernel->name);
    CHECK(plan_of(one, opt, mode_of(Command::hits), *kernel).strategy ==
          (kernel->screen ? Strategy::screened : Strategy::panel));
  }
  // Up to 32 patterns (forward only: 32 scans, which the seed filter would take with k = 1;
  // with k = 4 its pieces are too short, so the screen takes them).
  SearchOptions fwd4 = dna(4);
  fwd4.both_strands = false;
  CHECK(plan_of(PatternSet(random_patterns(32, 24), fwd4), fwd4, mode_of(Command::hits), screening_kernel()).strategy ==
        Strategy::screened);
  CHECK(plan_of(PatternSet(random_patterns(33, 24), fwd4), fwd4, mode_of(Command::hits), screening_kernel()).strategy ==
        Strategy::panel);
  // k above 4, a pattern under 16, overhang: no screen.
  const SearchOptions k5 = dna(5);
  CHECK(plan_of(PatternSet(random_patterns(1, 20), k5), k5, mode_of(Command::hits), screening_kernel()).strategy ==
        Strategy::panel);
  std::vector<Pattern> short_one = random_patterns(1, 20);
  short_one.push_back({"short", "ACGTACGTACGTACG"});  // 15
  CHECK(plan_of(PatternSet(short_one, opt), opt, mode_of(Command::hits), screening_kernel()).strategy == Strategy::panel);
  SearchOptions over = opt;
  over.overhang = 0.5f;
  CHECK(plan_of(PatternSet(random_patterns(1, 20), over), over, mode_of(Command::hits), screening_kernel()).strategy ==
        Strategy::panel);
}

TEST_CASE("plan: contains without the N filter lets the first end decide, and then neither filters nor screens") {
  const SearchOptions opt = dna(1);
  const PatternSet panel(random_patterns(8, 20), opt);
  const SearchPlan p = plan_of(panel, opt, mode_of(Command::contains));
  CHECK(p.first_end_decides);
  CHECK_FALSE(p.counted);
  CHECK(p.strategy == Strategy::panel);  // not filtered_panel
  CHECK(p.describe() == "search plan: pattern panel, first end decides");
  const SearchOptions k2 = dna(2);
  const PatternSet one(random_patterns(1, 20), k2);
  CHECK(plan_of(one, k2, mode_of(Command::contains), screening_kernel()).strategy == Strategy::panel);  // not screened
  // With the N filter (iupac's default 0.2) an end may be filtered away: every end is looked at.
  SearchOptions iupac = opt;
  iupac.alphabet.alphabet = Alphabet::iupac;
  iupac.max_n_frac = 0.2f;
  const PatternSet ipanel(random_patterns(8, 20), iupac);
  const SearchPlan q = plan_of(ipanel, iupac, mode_of(Command::contains));
  CHECK_FALSE(q.first_end_decides);
  CHECK(q.strategy == Strategy::filtered_panel);
  // Other commands never stop at the first end.
  CHECK_FALSE(plan_of(panel, opt, mode_of(Command::hits)).first_end_decides);
  CHECK_FALSE(plan_of(panel, opt, mode_of(Command::count)).first_end_decides);
  // --paired keeps its strategy, with the flag.
  const SearchPlan r = plan_of(panel, opt, mode_of(Command::contains, true));
  CHECK(r.strategy == Strategy::paired);
  CHECK(r.first_end_decides);
  // The rules as the run applies them before any searcher (for the pattern index).
  CHECK(first_end_decides(Command::contains, opt));
  CHECK_FALSE(first_end_decides(Command::contains, iupac));
  CHECK_FALSE(first_end_decides(Command::count, opt));
  CHECK_FALSE(first_end_decides(Command::hits, opt));
  CHECK(counts_as_scanned(Command::count, opt));
  CHECK_FALSE(counts_as_scanned(Command::count, iupac));
}

TEST_CASE("plan: count counts ends as scanned only without the N filter and overhang") {
  const SearchOptions opt = dna(1);
  const PatternSet panel(random_patterns(8, 20), opt);
  const SearchPlan p = plan_of(panel, opt, mode_of(Command::count));
  CHECK(p.counted);
  CHECK_FALSE(p.first_end_decides);
  CHECK(p.describe() == "search plan: seed-filtered pattern panel, ends counted as scanned");
  SearchOptions nfilter = opt;
  nfilter.alphabet.alphabet = Alphabet::iupac;
  nfilter.max_n_frac = 0.2f;
  CHECK_FALSE(plan_of(PatternSet(random_patterns(8, 20), nfilter), nfilter, mode_of(Command::count)).counted);
  nfilter.max_n_frac = 1.0f;  // iupac with the filter off
  CHECK(plan_of(PatternSet(random_patterns(8, 20), nfilter), nfilter, mode_of(Command::count)).counted);
  SearchOptions over = opt;
  over.overhang = 0.3f;
  CHECK_FALSE(plan_of(PatternSet(random_patterns(8, 20), over), over, mode_of(Command::count)).counted);
  CHECK_FALSE(plan_of(panel, opt, mode_of(Command::hits)).counted);
  CHECK_FALSE(plan_of(panel, opt, mode_of(Command::contains)).counted);
  CHECK(plan_of(panel, opt, mode_of(Command::count, false, true)).counted);  // the flag is the command's
  CHECK(plan_of(panel, opt, mode_of(Command::count, true)).counted);
}

TEST_CASE("plan: rows are the same under every plan, the screened one included") {
  std::mt19937_64 rng(909);
  for (int iter = 0; iter < 12; ++iter) {
    SearchOptions opt = dna(static_cast<int>(rng() % 3));
    if (iter % 3 == 2) opt.selection = Selection::best;
    const std::vector<Pattern> pats = random_patterns(1 + rng() % 2, 16 + rng() % 10, rng());
    const PatternSet set(pats, opt);
    std::vector<std::string> texts;
    for (int r = 0; r < 40; ++r) {
      std::string t = trawl::test::random_text(rng, 30 + rng() % 200, "ACGT");
      if (r % 3 == 0) t.replace(rng() % (t.size() - 20), pats[0].seq.size() - 2, pats[0].seq.substr(1, pats[0].seq.size() - 2));
      texts.push_back(t);
    }
    const std::vector<std::string_view> views(texts.begin(), texts.end());
    for (const Command command : {Command::hits, Command::count, Command::contains}) {
      CAPTURE(iter);
      CAPTURE(static_cast<int>(command));
      const SearchMode reference = trawl::test::every_pair(command, false, true);
      const SearchMode lanes = trawl::test::every_pair(command);
      REQUIRE(Searcher(set, opt, screening_kernel(), lanes).plan().strategy ==
              (command == Command::contains ? Strategy::panel : Strategy::screened));
      const BatchResults want = trawl::test::search_texts(set, opt, scalar_kernel(), reference, views);
      const BatchResults got = trawl::test::search_texts(set, opt, screening_kernel(), lanes, views);
      CHECK(got.hits.hits.size() == want.hits.hits.size());
      for (std::size_t i = 0; i < std::min(got.hits.hits.size(), want.hits.hits.size()); ++i) {
        const Hit &a = got.hits.hits[i], &b = want.hits.hits[i];
        CHECK((a.text_idx == b.text_idx && a.pattern_idx == b.pattern_idx && a.start == b.start && a.end == b.end &&
               a.strand == b.strand && a.cost == b.cost));
      }
      CHECK(hits_in(got, command) == hits_in(want, command));
      CHECK(got.pair_counts.size() == want.pair_counts.size());
      for (std::size_t i = 0; i < std::min(got.pair_counts.size(), want.pair_counts.size()); ++i)
        CHECK((got.pair_counts[i].text_idx == want.pair_counts[i].text_idx &&
               got.pair_counts[i].pattern_idx == want.pair_counts[i].pattern_idx &&
               got.pair_counts[i].count == want.pair_counts[i].count));
      CHECK(got.contains == want.contains);
    }
  }
}
