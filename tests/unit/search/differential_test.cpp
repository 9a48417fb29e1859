// Seeded random differential test: Searcher(scalar_kernel) against the naive oracle
// (tests/support/oracle.*), field by field, with every reported CIGAR re-scored.
//
// Environment:
//   TRAWL_DIFF_CASES  number of cases (default 200000)
//   TRAWL_DIFF_SEED   base seed (default below); case i uses its own seed derived from it
//   TRAWL_DIFF_ONLY   run only case number i (to reproduce a printed failure quickly)
//   TRAWL_DIFF_KEEP_GOING=1  do not stop at the first failure: count all failing cases and
//                     print the first 5 (for triage)
//   TRAWL_DIFF_BEST_FROM=all_ends  Selection::best picks among all ends instead of the
//                     local minima (see oracle.h BestFrom; differs only with the N filter)
// On the first failure the test prints the seed, the case number, the options, the patterns
// and the text (\xNN escapes), both hit lists, and a shrunk reproducer, then stops.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/run_search.h"
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

constexpr std::uint64_t kDefaultSeed = 0x7472617750524f50ULL;
constexpr std::uint64_t kDefaultCases = 200000;

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() { return splitmix(s); }
  // Uniform in [0, n); n > 0.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  template <class T, std::size_t N>
  T pick(const T (&a)[N]) { return a[below(N)]; }
  char pick(std::string_view pool) { return pool[below(pool.size())]; }
};

std::optional<std::uint64_t> env_u64(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::strtoull(v, nullptr, 0);
}

// How the PatternSet is built: the plain constructor, with every profile built on demand
// (precompute_limit 0, the path for millions of --paired patterns), or with add()/finish().
enum class Build { precomputed, on_demand, incremental };

struct Case {
  Build build = Build::precomputed;
  SearchOptions opt;
  std::vector<std::string> patterns;
  std::vector<std::string> texts;  // searched one after another with the same Searcher
  std::uint64_t text_idx = 0;
};

// --- generation ----------------------------------------------------------------------------

struct Pools {
  std::string pattern;  // bytes patterns are drawn from
  std::string text;     // background bytes of the text
  std::string junk;     // occasional other text bytes
  double lower = 0;     // chance to lowercase a letter (dna/iupac)
  double code = 0;      // iupac: chance of an IUPAC code in the pattern
};

std::string all_bytes() {
  std::string s;
  for (int b = 0; b < 256; ++b) s += static_cast<char>(b);
  return s;
}

Pools make_pools(Rng& r, const SearchOptions& opt) {
  Pools p;
  switch (opt.alphabet.alphabet) {
    case Alphabet::dna: {
      const char* subs[] = {"ACGT", "ACGT", "ACGT", "AC", "AT", "A", "GT", "ACG"};
      p.pattern = r.pick(subs);
      p.text = r.chance(0.7) ? std::string("ACGT") : p.pattern;
      p.junk = "NNNNnXB.-RY";
      p.lower = r.pick({0.0, 0.0, 0.1, 0.5, 1.0});
      break;
    }
    case Alphabet::iupac: {
      const char* subs[] = {"ACGT", "ACGT", "ACGT", "AC", "AT", "A", "ACG"};
      p.pattern = r.pick(subs);
      p.text = r.chance(0.7) ? std::string("ACGT") : p.pattern;
      static constexpr char junk[] = "NNNNNNnnRYSWKMBDHVXUuryx.-0!E@Z\x00\xff\x80 \t";
      p.junk.assign(junk, sizeof junk - 1);  // keeps the NUL byte
      p.lower = r.pick({0.0, 0.0, 0.1, 0.5, 1.0});
      p.code = r.pick({0.0, 0.0, 0.05, 0.2, 0.5});
      break;
    }
    case Alphabet::ascii: {
      const char* subs[] = {"ab", "abc", "aAbB", "acgtACGT", "xy@`", "hello_world"};
      if (r.chance(0.1)) {
        p.pattern = all_bytes();
      } else {
        p.pattern = r.pick(subs);
      }
      p.text = p.pattern;
      p.junk = all_bytes();
      break;
    }
  }
  return p;
}

char lower_maybe(Rng& r, char c, double p) {
  if (c >= 'A' && c <= 'Z' && p > 0 && r.chance(p)) return static_cast<char>(c + 32);
  return c;
}

std::string make_pattern(Rng& r, const SearchOptions& opt, const Pools& pools, std::uint32_t m) {
  std::string s;
  s.reserve(m);
  const bool homopolymer = r.chance(0.08);
  const char h = r.pick(pools.pattern);
  for (std::uint32_t i = 0; i < m; ++i) {
    char c = homopolymer && !r.chance(0.1) ? h : r.pick(pools.pattern);
    if (opt.alphabet.alphabet == Alphabet::iupac && pools.code > 0 && r.chance(pools.code))
      c = r.pick(std::string_view("RYSWKMBDHVNXU"));
    if (opt.alphabet.alphabet != Alphabet::ascii) c = lower_maybe(r, c, pools.lower);
    s += c;
  }
  return s;
}

// A copy of `s` with about `edits` random substitutions, insertions and deletions.
std::string mutate(Rng& r, std::string s, int edits, const Pools& pools) {
  for (int e = 0; e < edits; ++e) {
    const std::uint64_t kind = r.below(3);
    if (kind == 0 && !s.empty()) {
      s[r.below(s.size())] = r.pick(pools.text);
    } else if (kind == 1) {
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(r.below(s.size() + 1)), r.pick(pools.text));
    } else if (!s.empty()) {
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(r.below(s.size())));
    }
  }
  return s;
}

std::string make_text(Rng& r, const SearchOptions& opt, const Pools& pools,
                      const std::vector<std::string>& patterns, std::uint64_t n) {
  std::string t;
  t.reserve(n + 64);
  const double junk = opt.alphabet.alphabet == Alphabet::ascii ? r.pick({0.0, 0.02})
                                                               : r.pick({0.0, 0.0, 0.02, 0.1});
  const double lower = opt.alphabet.alphabet == Alphabet::ascii ? 0.0 : r.pick({0.0, 0.0, 0.2});
  for (std::uint64_t i = 0; i < n; ++i) {
    char c = r.chance(junk) ? r.pick(pools.junk) : r.pick(pools.text);
    t += lower_maybe(r, c, lower);
  }
  if (n == 0) return t;
  // Homopolymer runs.
  if (r.chance(0.2)) {
    const std::uint64_t runs = r.range(1, 3);
    for (std::uint64_t x = 0; x < runs; ++x) {
      const char c = r.chance(0.8) ? r.pick(pools.text) : r.pick(pools.junk);
      const std::uint64_t len = std::min<std::uint64_t>(n, r.range(3, 120));
      const std::uint64_t at = r.below(n - len + 1);
      std::fill(t.begin() + static_cast<std::ptrdiff_t>(at),
                t.begin() + static_cast<std::ptrdiff_t>(at + len), c);
    }
  }
  // N-rich stretches (the N filter's raw material).
  if (opt.max_n_frac != 1.0f || r.chance(0.1)) {
    const std::uint64_t runs = r.range(1, 4);
    for (std::uint64_t x = 0; x < runs; ++x) {
      const std::uint64_t len = std::min<std::uint64_t>(n, r.range(1, 30));
      const std::uint64_t at = r.below(n - len + 1);
      for (std::uint64_t i = at; i < at + len; ++i)
        if (r.chance(0.7)) t[i] = r.chance(0.8) ? 'N' : 'n';
    }
  }
  // Planted, mutated copies of the patterns (reverse complemented for rc sometimes).
  const std::uint64_t plants = r.below(4);
  for (std::uint64_t x = 0; x < plants && !patterns.empty(); ++x) {
    std::string copy = patterns[r.below(patterns.size())];
    if (opt.searches_rc() && r.chance(0.5))
      copy = trawl::oracle::reverse_complement(opt.alphabet, copy);
    const int edits = static_cast<int>(r.below(static_cast<std::uint64_t>(opt.k) + 2));
    copy = mutate(r, std::move(copy), edits, pools);
    if (copy.empty()) continue;
    // Planted at the text ends now and then (overhang cases).
    std::uint64_t at;
    const std::uint64_t where = r.below(6);
    if (where == 0) {
      const std::uint64_t cut = r.below(copy.size());
      copy.erase(0, cut);
      at = 0;
    } else if (where == 1) {
      const std::uint64_t keep = r.range(1, copy.size());
      copy.resize(keep);
      at = n > copy.size() ? n - copy.size() : 0;
    } else {
      at = r.below(n + 1);
    }
    if (r.chance(0.5)) {
      t.insert(at, copy);  // insertion: the text grows a bit
    } else {
      for (std::uint64_t i = 0; i < copy.size() && at + i < t.size(); ++i) t[at + i] = copy[i];
    }
  }
  return t;
}

Case make_case(Rng& r) {
  Case c;
  SearchOptions& o = c.opt;
  const double a = static_cast<double>(r.below(1000)) / 1000.0;
  if (a < 0.40) {
    o.alphabet = {Alphabet::iupac, false};
  } else if (a < 0.75) {
    o.alphabet = {Alphabet::dna, false};
  } else {
    o.alphabet = {Alphabet::ascii, r.chance(0.5)};
  }
  o.both_strands = r.chance(0.5);
  if (o.alphabet.alphabet != Alphabet::ascii && r.chance(0.3))
    o.overhang = r.pick({0.0f, 0.1f, 0.25f, 0.3f, 0.5f, 0.7f, 1.0f});
  if (r.chance(0.3)) o.max_n_frac = r.pick({0.0f, 0.1f, 0.2f, 0.35f, 0.5f});
  const std::uint64_t sel = r.below(4);
  o.selection = sel < 2 ? Selection::local_minima
                : sel == 2 ? Selection::all_ends
                           : Selection::best;

  const std::uint32_t special[] = {63, 64, 65, 127, 128, 129};
  auto draw_m = [&]() -> std::uint32_t {
    const std::uint64_t x = r.below(100);
    if (x < 40) return static_cast<std::uint32_t>(r.range(1, 8));
    if (x < 55) return r.pick(special);
    if (x < 85) return static_cast<std::uint32_t>(r.range(9, 40));
    return static_cast<std::uint32_t>(r.range(41, 200));
  };
  // Now and then one long text with a short pattern, so scans cross the library's internal
  // chunk boundaries (65536 characters at the time of writing).
  const bool long_text = r.chance(0.001);
  // Now and then a panel, enough patterns for the prescan's seed filter (SeedFilter) when
  // they are long enough for k.
  const std::uint64_t npat = long_text ? 1 : r.chance(0.03) ? r.range(4, 16) : r.chance(0.1) ? r.range(2, 3) : 1;
  const Pools pools = make_pools(r, o);
  std::uint32_t mmax = 0;
  for (std::uint64_t i = 0; i < npat; ++i) {
    const std::uint32_t m = long_text ? static_cast<std::uint32_t>(r.range(1, 16)) : draw_m();
    mmax = std::max(mmax, m);
    c.patterns.push_back(make_pattern(r, o, pools, m));
  }
  const std::uint32_t m0 = static_cast<std::uint32_t>(c.patterns[0].size());
  // k from 0 to m+1: mostly small relative to m, sometimes anything.
  if (r.chance(0.25)) {
    o.k = static_cast<int>(r.below(m0 + 2));
  } else {
    o.k = static_cast<int>(r.below(std::min<std::uint64_t>(m0 + 2, 2 + m0 / 5)));
  }

  const std::uint64_t ntexts = r.chance(0.2) ? 2 : 1;
  for (std::uint64_t x = 0; x < ntexts; ++x) {
    const std::uint64_t y = r.below(100);
    std::uint64_t n = y < 50 ? r.below(61) : y < 80 ? r.below(401) : y < 95 ? r.below(1501)
                                                                            : r.below(3001);
    // Keep the work bounded: the oracle is O(n·m) per strand, and with large k nearly every
    // end becomes a hit that the library traces in O(m·(m+k)).
    const std::uint64_t mm = mmax;
    n = std::min<std::uint64_t>(n, 100000 / mm);
    if (2 * static_cast<std::uint64_t>(o.k) > mm)
      n = std::min<std::uint64_t>(n, 1200000 / (mm * (mm + static_cast<std::uint64_t>(o.k))));
    if (long_text && x == 0) n = r.chance(0.5) ? r.range(65400, 65700) : r.range(65700, 132000);
    c.texts.push_back(make_text(r, o, pools, c.patterns, n));
  }
  c.text_idx = r.below(1000);
  const std::uint64_t b = r.below(10);
  c.build = b < 7 ? Build::precomputed : b < 9 ? Build::on_demand : Build::incremental;
  return c;
}

// --- comparison ----------------------------------------------------------------------------

std::string describe_case(const Case& c) {
  std::ostringstream s;
  s << "options: " << trawl::oracle::describe(c.opt) << ", PatternSet built "
    << (c.build == Build::precomputed ? "precomputed"
        : c.build == Build::on_demand ? "on demand (precompute_limit 0)"
                                      : "incrementally (add/finish)")
    << "\n";
  for (std::size_t i = 0; i < c.patterns.size(); ++i)
    s << "pattern[" << i << "] (m=" << c.patterns[i].size()
      << "): " << trawl::oracle::escape(c.patterns[i]) << "\n";
  for (std::size_t i = 0; i < c.texts.size(); ++i)
    s << "text[" << i << "] (n=" << c.texts[i].size() << "): " << trawl::oracle::escape(c.texts[i])
      << "\n";
  return s.str();
}

std::string list(const std::vector<OracleHit>& hs) {
  std::string s;
  for (const OracleHit& h : hs) s += "    " + trawl::oracle::format_hit(h) + "\n";
  if (hs.empty()) s = "    (none)\n";
  return s;
}

struct Stats {
  std::uint64_t hits = 0;
  std::uint64_t cells = 0;
};

trawl::oracle::BestFrom best_from() {
  const char* v = std::getenv("TRAWL_DIFF_BEST_FROM");
  return v != nullptr && std::string_view(v) == "all_ends" ? trawl::oracle::BestFrom::all_ends
                                                           : trawl::oracle::BestFrom::local_minima;
}

// Compares the library with the oracle on one case. Returns "" or a description of the first
// difference.
// The oracle's hits per (pattern, text), shared by the kernels of one case (the oracle is
// the slow part of the test).
using OracleCache = std::map<std::pair<std::string, std::string>, std::vector<OracleHit>>;

const std::vector<OracleHit>& oracle_search(OracleCache& cache, const std::string& pattern,
                                            std::string_view text, const SearchOptions& opt) {
  auto [it, fresh] = cache.try_emplace({pattern, std::string(text)});
  if (fresh) it->second = trawl::oracle::search(pattern, text, opt, best_from());
  return it->second;
}

// Job lanes (Searcher::search choosing its plan's lanes): the case's texts plus pieces of
// them (lanes then end and refill at different steps, empty texts included) in groups, with
// every pattern and then --paired, for hits, count and contains, each against the oracle.
std::string check_lanes(const Case& c, const trawl::PatternSet& set, const trawl::KernelFns& kernel,
                        Stats& stats, OracleCache& cache) {
  std::vector<std::string_view> views;
  for (const std::string& t : c.texts) views.push_back(t);
  // Pieces on a quarter of the cases only: every view costs oracle time.
  for (const std::string& t : c.texts) {
    if (c.text_idx % 4 != 0) break;
    const std::string_view v = t;
    views.push_back(v.substr(0, v.size() / 3));
    views.push_back(v.substr(v.size() / 2));
    views.push_back(v.substr(v.size() / 5, v.size() / 4));
    views.push_back({});
  }
  const std::uint64_t npat = c.patterns.size();
  const bool best = c.opt.selection == Selection::best;
  for (int mode = 0; mode < 6; ++mode) {
    const bool paired = mode & 1;
    const auto command = static_cast<trawl::Command>(mode / 2);
    // --paired: view v is record first + v and has that pattern, the last views none.
    const std::uint64_t first = paired ? c.text_idx % npat : 0;
    const trawl::BatchResults res =
        trawl::test::search_texts(set, c.opt, kernel, trawl::test::every_pair(command, paired), views, first);
    std::size_t hit = 0, pair = 0;
    for (std::size_t v = 0; v < views.size(); ++v) {
      std::uint64_t lo = 0, hi = npat;
      if (paired) {
        lo = std::min(first + v, npat);
        hi = std::min(lo + 1, npat);
      }
      for (std::uint64_t pi = lo; pi < hi; ++pi) {
        const std::vector<OracleHit>& expected = oracle_search(cache, c.patterns[pi], views[v], c.opt);
        const std::string where = std::string("lanes") + (paired ? " --paired" : "") + " command " +
                                  std::to_string(mode / 2) + " view[" + std::to_string(v) + "] (n=" +
                                  std::to_string(views[v].size()) + ") pattern[" + std::to_string(pi) + "]";
        if (command == trawl::Command::hits) {
          std::vector<OracleHit> got;
          for (; hit < res.hits.hits.size() && res.hits.hits[hit].text_idx == first + v &&
                 res.hits.hits[hit].pattern_idx == pi; ++hit)
            got.push_back(trawl::oracle::from_library(res.hits, res.hits.hits[hit]));
          stats.hits += got.size();
          if (!(got == expected))
            return where + ": hit lists differ\n  library:\n" + list(got) + "  oracle:\n" + list(expected);
          continue;
        }
        if (pair >= res.pair_counts.size()) return where + ": too few pair rows";
        const trawl::PairCount pc = res.pair_counts[pair++];
        if (pc.text_idx != first + v || pc.pattern_idx != pi) return where + ": pair rows out of order";
        std::uint32_t fwd = 0, rc = 0;
        for (const OracleHit& h : expected) (h.strand == trawl::Strand::fwd ? fwd : rc) += 1;
        const std::uint32_t want = command == trawl::Command::contains ? !expected.empty()
                                   : trawl::reported_count({fwd, rc}, best);
        if (pc.count != want)
          return where + ": " + std::to_string(pc.count) + ", oracle " + std::to_string(want);
      }
    }
    if (hit != res.hits.hits.size()) return "lanes: hits out of order or of no pair";
    if (pair != res.pair_counts.size()) return "lanes: pair rows of no pair";
  }
  return "";
}

std::string run_case(const Case& c, const trawl::KernelFns& kernel, Stats& stats,
                     OracleCache& cache, bool also_single = true) {
  std::vector<trawl::Pattern> ps;
  for (std::size_t i = 0; i < c.patterns.size(); ++i)
    ps.push_back({"p" + std::to_string(i), c.patterns[i]});
  std::optional<trawl::PatternSet> set;
  try {
    switch (c.build) {
      case Build::precomputed: set.emplace(ps, c.opt); break;
      case Build::on_demand: set.emplace(ps, c.opt, 0); break;  // profiles built per search
      case Build::incremental:
        set.emplace(c.opt);
        for (const trawl::Pattern& p : ps) set->add(p.id, p.seq);
        set->finish();
        break;
    }
  } catch (const std::exception& e) {
    return std::string("PatternSet threw: ") + e.what();
  }
  // One record at a time, the texts one after another through the same Searcher.
  trawl::Searcher searcher(*set, c.opt, kernel, trawl::test::every_pair(trawl::Command::hits, false, true));
  trawl::BatchResults results;
  const trawl::HitList& out = results.hits;
  for (std::size_t t = 0; t < c.texts.size(); ++t) {
    const std::string& text = c.texts[t];
    results.clear();
    try {
      const std::string_view one[] = {text};
      searcher.search(one, c.text_idx + t, results);
    } catch (const std::exception& e) {
      return "search threw on text[" + std::to_string(t) + "]: " + e.what();
    }
    // Hits come grouped by pattern in pattern order.
    std::size_t pos = 0;
    for (std::uint32_t pi = 0; pi < c.patterns.size(); ++pi) {
      const std::string& pat = c.patterns[pi];
      std::vector<OracleHit> expected;
      try {
        expected = oracle_search(cache, pat, text, c.opt);
      } catch (const std::exception& e) {
        return std::string("ORACLE BUG: ") + e.what();
      }
      stats.cells += (pat.size() + 1) * (text.size() + 1) * (c.opt.searches_rc() ? 2 : 1);
      std::vector<OracleHit> got;
      while (pos < out.hits.size() && out.hits[pos].pattern_idx == pi) {
        const trawl::Hit& h = out.hits[pos++];
        if (h.text_idx != c.text_idx + t)
          return "hit with text_idx " + std::to_string(h.text_idx) + ", expected " +
                 std::to_string(c.text_idx + t);
        got.push_back(trawl::oracle::from_library(out, h));
      }
      stats.hits += got.size();
      for (const OracleHit& h : expected) {
        const std::string problem = trawl::oracle::check_hit(pat, text, c.opt, h);
        if (!problem.empty())
          return "ORACLE BUG: oracle hit " + trawl::oracle::format_hit(h) + ": " + problem;
      }
      std::string where = "text[" + std::to_string(t) + "] pattern[" + std::to_string(pi) + "]";
      for (const OracleHit& h : got) {
        const std::string problem = trawl::oracle::check_hit(pat, text, c.opt, h);
        if (!problem.empty())
          return where + ": library hit " + trawl::oracle::format_hit(h) + " fails re-scoring: " +
                 problem + "\n  library:\n" + list(got) + "  oracle:\n" + list(expected);
      }
      if (!(got == expected)) {
        std::size_t i = 0;
        while (i < got.size() && i < expected.size() && got[i] == expected[i]) ++i;
        return where + ": hit lists differ at index " + std::to_string(i) + "\n  library (" +
               std::to_string(got.size()) + "):\n" + list(got) + "  oracle (" +
               std::to_string(expected.size()) + "):\n" + list(expected);
      }
    }
    if (pos != out.hits.size())
      return "text[" + std::to_string(t) + "]: hits out of pattern order or with a bad pattern_idx";
    // --paired, one record at a time: one pattern only (record pi has pattern pi).
    if (also_single && c.patterns.size() > 1) {
      const std::uint32_t pi = static_cast<std::uint32_t>((c.text_idx + t) % c.patterns.size());
      trawl::HitList one;
      try {
        const std::string_view texts[] = {text};
        one = trawl::test::search_texts(*set, c.opt, kernel,
                                        trawl::test::every_pair(trawl::Command::hits, true, true), texts, pi).hits;
      } catch (const std::exception& e) {
        return std::string("search --paired threw: ") + e.what();
      }
      std::vector<OracleHit> got;
      for (const trawl::Hit& h : one.hits) {
        if (h.pattern_idx != pi) return "search_pattern returned a hit of another pattern";
        got.push_back(trawl::oracle::from_library(one, h));
      }
      const std::vector<OracleHit> expected =
          oracle_search(cache, c.patterns[pi], text, c.opt);
      if (!(got == expected))
        return "search_pattern(" + std::to_string(pi) + ") on text[" + std::to_string(t) +
               "] differs\n  library:\n" + list(got) + "  oracle:\n" + list(expected);
    }
  }
  return check_lanes(c, *set, kernel, stats, cache);
}

// Greedy shrinking of a failing case to a small reproducer (single pattern, single text).
Case shrink(Case c, const trawl::KernelFns& kernel) {
  Stats st;
  auto fails = [&](const Case& x) {
    OracleCache fresh;
    const std::string r = run_case(x, kernel, st, fresh, false);
    return !r.empty() && r.rfind("ORACLE BUG", 0) != 0;
  };
  // Single pattern / single text first.
  for (std::size_t pi = 0; pi < c.patterns.size() && c.patterns.size() > 1; ++pi) {
    for (std::size_t ti = 0; ti < c.texts.size(); ++ti) {
      Case x = c;
      x.patterns = {c.patterns[pi]};
      x.texts = {c.texts[ti]};
      if (fails(x)) {
        c = x;
        goto single_done;
      }
    }
  }
  for (std::size_t ti = 0; ti < c.texts.size() && c.texts.size() > 1; ++ti) {
    Case x = c;
    x.texts = {c.texts[ti]};
    if (fails(x)) {
      c = x;
      break;
    }
  }
single_done:
  int budget = 4000;
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    for (int which = 0; which < 2; ++which) {
      const std::size_t count = which == 0 ? c.texts.size() : c.patterns.size();
      for (std::size_t idx = 0; idx < count; ++idx) {
        auto str = [&](Case& x) -> std::string& {
          return which == 0 ? x.texts[idx] : x.patterns[idx];
        };
        for (std::size_t chunk = std::max<std::size_t>(1, str(c).size() / 2);; chunk /= 2) {
          for (std::size_t at = 0; at + chunk <= str(c).size() && budget > 0;) {
            if (which == 1 && str(c).size() == chunk) break;  // keep m >= 1
            Case x = c;
            str(x).erase(at, chunk);
            --budget;
            if (fails(x)) {
              c = std::move(x);
              progress = true;
            } else {
              at += chunk;
            }
          }
          if (chunk <= 1) break;
        }
      }
    }
    // Smaller k.
    while (c.opt.k > 0 && budget > 0) {
      Case x = c;
      --x.opt.k;
      --budget;
      if (!fails(x)) break;
      c = std::move(x);
      progress = true;
    }
  }
  return c;
}

// The cases i with i % kParts == part: each part is a test case of its own, so that ctest
// runs the parts side by side (the whole run is most of the test suite's time).
constexpr std::uint64_t kParts = 4;

void run_differential(std::uint64_t part) {
  const std::uint64_t seed = env_u64("TRAWL_DIFF_SEED").value_or(kDefaultSeed);
  const std::uint64_t cases = env_u64("TRAWL_DIFF_CASES").value_or(kDefaultCases);
  const std::optional<std::uint64_t> only = env_u64("TRAWL_DIFF_ONLY");
  MESSAGE("differential seed TRAWL_DIFF_SEED=" << seed << ", cases " << cases << ", part " << part + 1 << " of "
                                               << kParts);

  // Every kernel is compared with the oracle on every case. Add the SIMD kernels here as
  // they appear (those the CPU supports).
  const std::vector<const trawl::KernelFns*> kernels = trawl::available_kernels();
  const auto t0 = std::chrono::steady_clock::now();
  Stats stats;
  std::uint64_t ran = 0;
  std::uint64_t with_hits = 0;
  std::uint64_t failures = 0;
  const bool keep_going = env_u64("TRAWL_DIFF_KEEP_GOING").value_or(0) != 0;
  std::uint64_t counts[3] = {0, 0, 0};  // iupac, dna, ascii
  const std::uint64_t first = only ? *only : part, end = only ? *only + 1 : cases;
  for (std::uint64_t i = first; i < end; i += kParts) {
    if (i % kParts != part) continue;  // (TRAWL_DIFF_ONLY: another part's case)
    std::uint64_t s = seed ^ (i * 0xD1B54A32D192ED03ULL);
    Rng r{splitmix(s)};
    const Case c = make_case(r);
    const std::string invalid = trawl::validate(c.opt);
    if (!invalid.empty()) {
      FAIL_CHECK("validate() rejects generated options " << trawl::oracle::describe(c.opt) << ": "
                                                         << invalid);
      break;
    }
    const std::uint64_t hits_before = stats.hits;
    OracleCache cache;
    for (const trawl::KernelFns* kernel : kernels) {
      const std::string diff = run_case(c, *kernel, stats, cache);
      if (diff.empty()) continue;
      ++failures;
      if (keep_going && failures > 5) break;
      std::string report = "case #" + std::to_string(i) + " of TRAWL_DIFF_SEED=" +
                           std::to_string(seed) + " (rerun alone with TRAWL_DIFF_ONLY=" +
                           std::to_string(i) + "), kernel " + kernel->name + "\n" +
                           describe_case(c) + diff;
      if (diff.rfind("ORACLE BUG", 0) != 0) {
        const Case small = shrink(c, *kernel);
        Stats st;
        OracleCache fresh;
        report += "\nshrunk reproducer:\n" + describe_case(small) + run_case(small, *kernel, st, fresh, false);
      }
      FAIL_CHECK(report);
      break;
    }
    ++ran;
    ++counts[static_cast<int>(c.opt.alphabet.alphabet)];
    with_hits += stats.hits != hits_before;
    if (failures > 0 && !keep_going) break;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("differential: " << ran << " cases (iupac " << counts[0] << ", dna " << counts[1]
                           << ", ascii " << counts[2] << "), " << with_hits
                           << " with hits, " << stats.hits << " hits compared, "
                           << stats.cells / 1000000 << "M oracle cells, " << secs << " s"
                           << (keep_going ? ", failing cases: " + std::to_string(failures) : ""));
  CHECK(ran == (only ? (*only % kParts == part ? 1 : 0) : (cases + kParts - 1 - part) / kParts));
}

}  // namespace

TEST_CASE("differential: Searcher (every kernel) vs naive oracle on seeded random cases (part 1 of 4)") { run_differential(0); }
TEST_CASE("differential: Searcher (every kernel) vs naive oracle on seeded random cases (part 2 of 4)") { run_differential(1); }
TEST_CASE("differential: Searcher (every kernel) vs naive oracle on seeded random cases (part 3 of 4)") { run_differential(2); }
TEST_CASE("differential: Searcher (every kernel) vs naive oracle on seeded random cases (part 4 of 4)") { run_differential(3); }
