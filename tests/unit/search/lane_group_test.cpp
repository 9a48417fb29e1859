// LaneGroup (search/lane_group.h): a group filled by hand the way a strategy fills one
// (records, their codes, a job per (record, pattern, strand)), scanned with the scalar
// kernel, and read back: each job's kept ends are exactly the semi-global edit-distance
// DP's ends (forward: P against T; reverse: complement(P) against reverse(T)), however the
// scan is chunked; a counted scan counts every end with cost <= k, the start column's
// included; job offsets shift a job's ends; job_of finds a job for full and filtered
// records; and the start columns are those of the text's start.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/random_text.h"
#include "trawl/core/pattern_set.h"
#include "trawl/core/search_options.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/lane_group.h"

using namespace trawl;

namespace {

using Ends = std::vector<std::pair<std::uint64_t, std::int32_t>>;

SearchOptions dna(int k) {
  SearchOptions o;
  o.alphabet.alphabet = Alphabet::dna;
  o.k = k;
  return o;
}

std::array<std::uint8_t, 256> classes_of(const SearchOptions& opt) {
  std::array<std::uint8_t, 256> c{};
  for (unsigned b = 0; b < 256; ++b) c[b] = opt.alphabet.text_class(static_cast<std::uint8_t>(b));
  return c;
}

// Every end p (1..n, or 0..n with `from_zero`) of the whole pattern in the text with cost
// <= k: D(0, p) = 0, D(j, 0) = j, unit costs (texts and patterns here are upper-case ACGT).
Ends dp_ends(const std::string& p, const std::string& t, int k, bool from_zero = false) {
  const std::size_t m = p.size();
  std::vector<std::int32_t> col(m + 1), next(m + 1);
  for (std::size_t j = 0; j <= m; ++j) col[j] = static_cast<std::int32_t>(j);
  Ends out;
  if (from_zero && col[m] <= k) out.emplace_back(0, col[m]);
  for (std::size_t i = 1; i <= t.size(); ++i) {
    next[0] = 0;
    for (std::size_t j = 1; j <= m; ++j)
      next[j] = std::min({col[j - 1] + (p[j - 1] == t[i - 1] ? 0 : 1), col[j] + 1, next[j - 1] + 1});
    std::swap(col, next);
    if (col[m] <= k) out.emplace_back(i, col[m]);
  }
  return out;
}

std::string complement(std::string s) {
  for (char& c : s) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : 'A';
  return s;
}

// What the group's jobs are scanned against: forward P vs T, reverse complement(P) vs reverse(T).
Ends expected(const std::string& p, const std::string& t, bool rc, int k, bool from_zero = false) {
  return rc ? dp_ends(complement(p), std::string(t.rbegin(), t.rend()), k, from_zero) : dp_ends(p, t, k, from_zero);
}

Ends as_pairs(std::span<const EndCost> ends) {
  Ends out;
  for (const EndCost& e : ends) out.emplace_back(e.pos, e.cost);
  return out;
}

// Fills `g` with every record of `texts` (a job per pattern and strand, forward first).
void fill(LaneGroup& g, const LaneContext& ctx, const std::vector<std::string>& texts, bool counted,
          std::uint64_t chunk_steps) {
  g.set_start_columns(ctx.options);
  g.begin(ctx.strands(), counted, chunk_steps);
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  for (std::uint32_t r = 0; r < texts.size(); ++r) {
    const auto n = static_cast<std::uint32_t>(texts[r].size());
    LaneGroup::Record& rec = g.records.emplace_back();
    rec.text = texts[r];
    rec.codes_offset = static_cast<std::uint32_t>(g.fwd.size());
    rec.first_job = static_cast<std::uint32_t>(g.jobs.size());
    rec.patterns = npat;
    g.fwd.resize(g.fwd.size() + n);
    g.rev.resize(g.fwd.size());
    ctx.kernel.encode(ctx.class_of.data(), reinterpret_cast<const std::uint8_t*>(texts[r].data()), n,
                      g.fwd.data() + rec.codes_offset, g.rev.data() + rec.codes_offset + n);
    for (unsigned s = 0; s < ctx.strands(); ++s)
      for (std::uint32_t pi = 0; pi < npat; ++pi) g.add_job(ctx, rec.codes_offset, s == 1, pi, r, n);
    rec.jobs = static_cast<std::uint32_t>(g.jobs.size()) - rec.first_job;
  }
  g.fix_up_jobs();
  g.finals.resize(g.jobs.size());
  g.raw_ends.clear();
}

}  // namespace

TEST_CASE("lane group: kept ends of every job are the DP's ends, however the scan is chunked") {
  const SearchOptions opt = dna(2);
  const std::vector<Pattern> pats = {{"a", "ACGTTGCAAGGT"}, {"b", "TTAC"}};
  const std::array<std::uint8_t, 256> cls = classes_of(opt);
  std::mt19937_64 rng(41);
  const std::vector<std::string> texts = {
      test::random_text(rng, 30, "ACGT") + "ACGTTGCAAGGT" + test::random_text(rng, 25, "ACGT"),
      std::string(40, 'G'),  // no end of either pattern on either strand
      test::random_text(rng, 20, "ACGT") + "ACCTTGCTTGCAACGT" + test::random_text(rng, 50, "ACGT"),
      "TTAC"};
  // Profiles precomputed, and built on demand into the group (fixed up once it stops growing).
  for (const std::size_t precompute : {PatternSet::kPrecomputeLimit, std::size_t{0}}) {
    const PatternSet ps(pats, opt, precompute);
    const LaneContext ctx{ps, opt, scalar_kernel(), cls};
    for (const std::uint64_t chunk : {std::uint64_t{1} << 16, std::uint64_t{7}}) {
      CAPTURE(precompute);
      CAPTURE(chunk);
      LaneGroup g;
      fill(g, ctx, texts, false, chunk);
      REQUIRE(g.jobs.size() == texts.size() * 4);
      g.scan_chunked(ctx, g.jobs.data(), g.jobs.size(), 0, g.finals.data(), false, false);
      g.group_ends();
      std::size_t with_ends = 0;
      for (std::uint32_t r = 0; r < texts.size(); ++r) {
        const LaneGroup::Record& rec = g.records[r];
        bool any = false;
        for (const Strand s : {Strand::fwd, Strand::rc})
          for (std::uint32_t pi = 0; pi < 2; ++pi) {
            const std::uint32_t j = g.job_of(rec, pi, s);
            CHECK(j == rec.first_job + pi + (s == Strand::rc ? 2u : 0u));
            const Ends want = expected(pats[pi].seq, texts[r], s == Strand::rc, opt.k);
            CHECK(as_pairs(g.ends_of(j)) == want);
            CHECK(g.job_has_ends(j) == !want.empty());
            any = any || !want.empty();
          }
        CHECK(g.record_has_no_ends(rec) == !any);
        with_ends += any;
      }
      CHECK(with_ends == 3);  // every record but the G run
      CHECK(g.record_has_no_ends(g.records[1]));
      CHECK_FALSE(g.job_has_ends(LaneGroup::kNoJobs));
    }
  }
}

TEST_CASE("lane group: a counted scan counts every end with cost <= k, the start column's included") {
  SearchOptions opt = dna(2);
  opt.selection = Selection::all_ends;
  // "AC" (m = 2 <= k) ends at every position, 0 included; the 9-mer in a few places.
  const std::vector<Pattern> pats = {{"short", "AC"}, {"long", "GATTACAGA"}};
  const PatternSet ps(pats, opt);
  const std::array<std::uint8_t, 256> cls = classes_of(opt);
  const LaneContext ctx{ps, opt, scalar_kernel(), cls};
  std::mt19937_64 rng(7);
  const std::vector<std::string> texts = {test::random_text(rng, 50, "ACGT") + "GATTACAGA",
                                          "TCTGTAATC" + test::random_text(rng, 31, "ACGT"), "G"};
  LaneGroup g;
  fill(g, ctx, texts, true, std::uint64_t{1} << 16);
  g.scan_counted(ctx);
  REQUIRE(g.counts.size() == g.jobs.size());
  CHECK(g.raw_ends.empty());  // counted: never kept
  for (std::uint32_t r = 0; r < texts.size(); ++r)
    for (const Strand s : {Strand::fwd, Strand::rc})
      for (std::uint32_t pi = 0; pi < 2; ++pi) {
        CAPTURE(r);
        CAPTURE(pi);
        const std::uint32_t j = g.job_of(g.records[r], pi, s);
        CHECK(g.counts[j] == expected(pats[pi].seq, texts[r], s == Strand::rc, opt.k, true).size());
      }
  // "AC" at k = 2: every one of the n + 1 positions.
  CHECK(g.counts[g.job_of(g.records[0], 0, Strand::fwd)] == texts[0].size() + 1);
  CHECK(g.counts[g.job_of(g.records[2], 0, Strand::rc)] == 2);
  CHECK(g.counts[g.job_of(g.records[0], 1, Strand::fwd)] >= 1);  // the planted copy
  CHECK(g.counts[g.job_of(g.records[1], 1, Strand::rc)] >= 1);   // its reverse complement
}

TEST_CASE("lane group: a job over part of a strand counts its ends from its offset") {
  const SearchOptions opt = dna(1);
  const std::vector<Pattern> pats = {{"a", "CATTAGGAC"}};
  const PatternSet ps(pats, opt);
  const std::array<std::uint8_t, 256> cls = classes_of(opt);
  const LaneContext ctx{ps, opt, scalar_kernel(), cls};
  const std::string text = "CATTAGGACTTTTTTTTTTCATTAGGACTTTTTCATTGGAC";
  LaneGroup g;
  fill(g, ctx, {text}, false, std::uint64_t{1} << 16);  // job 0: the whole forward strand
  const std::uint32_t begin = 15;
  const auto n = static_cast<std::uint32_t>(text.size());
  g.add_job(ctx, g.records[0].codes_offset + begin, false, 0, 0, n - begin);  // job 2: from 15 on
  g.add_job(ctx, g.records[0].codes_offset, false, 0, 0, n);                  // job 3: whole again
  g.job_offsets = {0, 0, begin};  // job 3 is past its size: from 0
  g.fix_up_jobs();
  g.finals.resize(g.jobs.size());
  g.scan_chunked(ctx, g.jobs.data(), g.jobs.size(), 0, g.finals.data(), false, false);
  g.group_ends();
  const Ends whole = dp_ends(pats[0].seq, text, opt.k);
  CHECK(as_pairs(g.ends_of(0)) == whole);
  CHECK(as_pairs(g.ends_of(3)) == whole);
  Ends part = dp_ends(pats[0].seq, text.substr(begin), opt.k);
  for (auto& [pos, cost] : part) pos += begin;
  CHECK(as_pairs(g.ends_of(2)) == part);
  // The copy at 19 (exact, ending at 28) is found at its place in the record; the one at 0 is
  // not in the part.
  CHECK(std::find(part.begin(), part.end(), std::pair<std::uint64_t, std::int32_t>{28, 0}) != part.end());
  CHECK(std::find(whole.begin(), whole.end(), std::pair<std::uint64_t, std::int32_t>{9, 0}) != whole.end());
  for (const auto& [pos, cost] : part) CHECK(pos > begin);
}

TEST_CASE("lane group: job_of maps (pattern, strand) to a record's job, full or filtered") {
  LaneGroup g;
  g.begin(2, false, 1024);
  LaneGroup::Record full;
  full.first_job = 10;
  full.first_pattern = 3;
  full.patterns = 4;
  full.jobs = 8;
  for (std::uint32_t pi = 3; pi < 7; ++pi) {
    CHECK(g.job_of(full, pi, Strand::fwd) == 10 + (pi - 3));
    CHECK(g.job_of(full, pi, Strand::rc) == 14 + (pi - 3));  // forward + patterns
  }
  // Filtered: bits 0, 2 (forward of patterns 3 and 5) and 5 (reverse of pattern 4) live.
  LaneGroup::Record filtered = full;
  filtered.live = (1u << 0) | (1u << 2) | (1u << 5);
  filtered.jobs = 3;
  CHECK(g.job_of(filtered, 3, Strand::fwd) == 10);
  CHECK(g.job_of(filtered, 5, Strand::fwd) == 11);
  CHECK(g.job_of(filtered, 4, Strand::rc) == 12);
  for (const std::uint32_t pi : {4u, 6u}) CHECK(g.job_of(filtered, pi, Strand::fwd) == LaneGroup::kNoJobs);
  for (const std::uint32_t pi : {3u, 5u, 6u}) CHECK(g.job_of(filtered, pi, Strand::rc) == LaneGroup::kNoJobs);
  LaneGroup::Record none = full;
  none.live = 0;
  none.first_job = 0;
  CHECK(g.job_of(none, 3, Strand::fwd) == LaneGroup::kNoJobs);
  // One strand per group (the first end decides): a reverse job only where rc_job has one.
  g.begin(1, false, 1024);
  g.rc_job.assign(14, LaneGroup::kNoJobs);
  g.rc_job[11] = 20;
  CHECK(g.job_of(full, 4, Strand::fwd) == 11);
  CHECK(g.job_of(full, 4, Strand::rc) == 20);
  CHECK(g.job_of(full, 3, Strand::rc) == LaneGroup::kNoJobs);
}

TEST_CASE("lane group: start columns are the text start's, all ones and m without overhang") {
  LaneGroup g;
  const SearchOptions plain = dna(3);
  g.set_start_columns(plain);
  for (std::uint32_t m = 1; m <= 64; ++m) {
    CAPTURE(m);
    CHECK(g.start_column(m).first == ~std::uint64_t{0});
    CHECK(g.start_column(m).second == static_cast<std::int64_t>(m));
  }
  // Overhang 0.5: row j costs floor(j / 2), so only every second row adds one.
  SearchOptions over = plain;
  over.overhang = 0.5f;
  g.set_start_columns(over);
  CHECK(g.start_column(4).second == 2);
  CHECK((g.start_column(4).first & 0xF) == 0b1010);
  CHECK(g.start_column(9).second == 4);
}
