// --region through the whole run (reader -> pipeline -> sink): every record's result must be
// that of searching its region's part alone, as if it were the record, with start and end
// moved back to the whole record. Checked against the O(nm) oracle on the parts, and against
// a run over a file of the parts, on seeded random records shorter than the region, around
// it, and long enough to be cut into windows, at one and two threads.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "trawl/core/errors.h"
#include "support/pipeline_run.h"
#include "trawl/io/byte_sink.h"
#include "trawl/io/reader.h"
#include "trawl/run/pipeline.h"
#include "trawl/sinks/sinks.h"

using namespace trawl;

namespace {

using trawl::test::TempFile;

std::string run(const std::string& path, const PatternSet& patterns, const SearchOptions& opt,
                const test::PipelineRun& r) {
  return test::run_tsv(path, patterns, opt, r);
}

// seqkit's resolution written out on its own (not through Region::span): [begin, end) of a
// record of n bases, clipped to the record.
std::pair<std::uint64_t, std::uint64_t> part_of(std::int64_t a, std::int64_t b, std::uint64_t n) {
  const auto len = static_cast<std::int64_t>(n);
  const std::int64_t begin = std::clamp<std::int64_t>(a > 0 ? a - 1 : len + a, 0, len);
  const std::int64_t end = std::clamp<std::int64_t>(b > 0 ? b : len + b + 1, 0, len);
  return {static_cast<std::uint64_t>(begin), static_cast<std::uint64_t>(std::max(begin, end))};
}

// The hits TSV with start and end (columns 4 and 5) moved by the offset of the row's record
// (its text_idx, the last column).
std::string shifted(const std::string& tsv, const std::vector<std::uint64_t>& offsets) {
  std::istringstream in(tsv);
  std::string line, out;
  bool header = true;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::size_t at = 0;
    for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1) f.push_back(line.substr(at, tab - at));
    f.push_back(line.substr(at));
    if (!header) {
      const std::uint64_t off = offsets[std::stoull(f.back())];
      f[4] = std::to_string(std::stoull(f[4]) + off);
      f[5] = std::to_string(std::stoull(f[5]) + off);
    }
    header = false;
    for (std::size_t i = 0; i < f.size(); ++i) out += (i ? "\t" : "") + f[i];
    out += '\n';
  }
  return out;
}

using Parts = std::vector<std::pair<std::uint64_t, std::uint64_t>>;  // [begin, end) of each part

// The oracle's hits of one pattern in a record: those of each part, moved to the record's
// coordinates, part after part; with --best, the best of each strand over all parts (lowest
// cost, then the largest end in the strand's orientation: for '-', the smallest start).
std::vector<oracle::OracleHit> oracle_hits(const std::string& pat, const std::string& seq, const Parts& parts,
                                           const SearchOptions& opt) {
  std::vector<oracle::OracleHit> all;
  for (const auto& [begin, end] : parts)
    for (oracle::OracleHit h : oracle::search(pat, seq.substr(begin, end - begin), opt)) {
      h.start += begin;
      h.end += begin;
      all.push_back(h);
    }
  if (opt.selection != Selection::best || parts.size() < 2) return all;
  std::vector<oracle::OracleHit> best;
  for (const Strand strand : {Strand::fwd, Strand::rc}) {
    const oracle::OracleHit* b = nullptr;
    for (const oracle::OracleHit& h : all) {
      if (h.strand != strand) continue;
      if (!b || h.cost < b->cost ||
          (h.cost == b->cost && (strand == Strand::fwd ? h.end > b->end : h.start < b->start)))
        b = &h;
    }
    if (b) best.push_back(*b);
  }
  std::sort(best.begin(), best.end(), [](const auto& a, const auto& b) { return a.start < b.start || (a.start == b.start && a.strand < b.strand); });
  return best;
}

// The oracle's rows for the region run: hits (without match_region), count (--zeros), or
// contains (by record or by pair), from the oracle's hits in every record's parts.
std::string oracle_rows(const std::vector<Pattern>& pats, const std::vector<std::string>& seqs,
                        const std::vector<Parts>& parts, const SearchOptions& opt, const ResultShape& shape) {
  std::string out = shape.command == Command::hits ? "pat_id\ttext_id\tcost\tstrand\tstart\tend\tcigar\tpat_idx\ttext_idx\n"
                    : shape.command == Command::count ? "pat_id\ttext_id\tcount\n"
                    : shape.per_pair                  ? "pat_id\ttext_id\tcontains\n"
                                                      : "text_id\tcontains\n";
  for (std::size_t r = 0; r < seqs.size(); ++r) {
    const std::string name = "r" + std::to_string(r);
    bool any = false;
    for (std::size_t p = 0; p < pats.size(); ++p) {
      const std::vector<oracle::OracleHit> hs = oracle_hits(pats[p].seq, seqs[r], parts[r], opt);
      any = any || !hs.empty();
      if (shape.command == Command::hits) {
        for (const oracle::OracleHit& h : hs)
          out += pats[p].id + "\t" + name + "\t" + std::to_string(h.cost) + "\t" + (h.strand == Strand::fwd ? "+" : "-") +
                 "\t" + std::to_string(h.start) + "\t" + std::to_string(h.end) + "\t" + h.cigar + "\t" +
                 std::to_string(p) + "\t" + std::to_string(r) + "\n";
      } else if (shape.command == Command::count) {
        std::uint32_t fwd = 0, rc = 0;
        for (const oracle::OracleHit& h : hs) (h.strand == Strand::fwd ? fwd : rc) += 1;
        const std::uint32_t c = reported_count({fwd, rc}, opt.selection == Selection::best);
        if (c > 0 || shape.zeros) out += pats[p].id + "\t" + name + "\t" + std::to_string(c) + "\n";
      } else if (shape.per_pair) {
        out += pats[p].id + "\t" + name + "\t" + (hs.empty() ? "false" : "true") + "\n";
      }
    }
    if (shape.command == Command::contains && !shape.per_pair) out += name + "\t" + (any ? "true" : "false") + "\n";
  }
  return out;
}

struct Spec {
  const char* text;
  std::int64_t a, b;  // A and B as numbers, for part_of
};

// A seeded random case for iteration `iter`: options cycling through alphabets, strands,
// selections and overhang; 1-3 patterns and k < 4; records of the `lengths` given and one of
// 1-4000 bases, patterns planted, shuffled, written to `path` as FASTA (multi-line on odd
// iterations: a long record is then read in pieces, and whole before its windows, as a
// region may count from the end).
struct RandomCase {
  SearchOptions opt;
  std::vector<Pattern> pats;
  std::vector<std::string> seqs;
};
RandomCase random_case(std::mt19937_64& rng, int iter, std::vector<std::uint64_t> lengths, const std::string& path) {
  RandomCase c;
  SearchOptions& opt = c.opt;
  opt.alphabet.alphabet = iter % 4 == 3 ? Alphabet::ascii : iter % 2 ? Alphabet::dna : Alphabet::iupac;
  opt.both_strands = iter % 3 != 2;
  opt.selection = iter % 3 == 1 ? Selection::best : iter % 4 == 2 ? Selection::all_ends : Selection::local_minima;
  if (opt.alphabet.alphabet != Alphabet::ascii && iter % 3 == 0) opt.overhang = 0.5f;
  opt.max_n_frac = opt.alphabet.alphabet == Alphabet::iupac ? 0.2f : 1.0f;
  const bool ascii = opt.alphabet.alphabet == Alphabet::ascii;
  const std::string letters = ascii ? "ab" : "ACGTN";
  for (int p = 0, npat = 1 + static_cast<int>(rng() % 3); p < npat; ++p) {
    std::string s(3 + rng() % 12, 'A');
    for (char& ch : s) ch = (ascii ? "ab" : "ACGT")[rng() % (ascii ? 2 : 4)];
    c.pats.push_back({"p" + std::to_string(p), s});
  }
  opt.k = static_cast<int>(rng() % 4);
  lengths.push_back(1 + rng() % 4000);
  for (const std::uint64_t len : lengths) {
    std::string s(len, 'A');
    for (char& ch : s) ch = letters[rng() % letters.size()];
    for (int plant = 0; plant < 8 && !s.empty(); ++plant) {
      const std::string& p = c.pats[rng() % c.pats.size()].seq;
      const std::size_t at = rng() % s.size();
      s.replace(at, std::min(p.size(), s.size() - at), p.substr(0, std::min(p.size(), s.size() - at)));
    }
    c.seqs.push_back(s);
  }
  std::shuffle(c.seqs.begin(), c.seqs.end(), rng);
  const std::size_t width = iter % 2 ? 70 : std::string::npos;
  std::ofstream f(path);
  for (std::size_t r = 0; r < c.seqs.size(); ++r) {
    f << ">r" << r << " d\n";
    for (std::size_t at = 0; at < c.seqs[r].size(); at += width) f << c.seqs[r].substr(at, width) << "\n";
    if (c.seqs[r].empty()) f << "\n";
  }
  return c;
}

}  // namespace

TEST_CASE("region: each record's result is its part's, searched alone and moved back, windows included") {
  std::mt19937_64 rng(20270131);
  const TempFile file("trawl_region_test"), parts_file("trawl_region_parts");
  const Spec specs[] = {{"1:35", 1, 35},       {"-35:-1", -35, -1},    {"20:-1", 20, -1},
                        {"5:5", 5, 5},         {"-50:30", -50, 30},    {"100:2500", 100, 2500},
                        {"-2600:-90", -2600, -90}, {"300:-300", 300, -300}, {"-1200:1500", -1200, 1500}};
  const int iters = std::getenv("TRAWL_PIPELINE_ITERS") ? 4 : 12;
  int runs = 0;
  for (int iter = 0; iter < iters; ++iter) {
    // Lengths below, around and far above every region, the long ones windowed at 1000.
    const auto [opt, pats, seqs] = random_case(rng, iter, {0, 4, 30, 36, 60, 200, 999, 2700, 3500}, file.path);
    const PatternSet patterns(pats, opt);
    for (const Spec& spec : {specs[iter % 9], specs[(iter + 4) % 9], specs[(iter * 7 + 2) % 9]}) {
      const std::optional<Region> region = Region::parse(spec.text);
      REQUIRE(region);
      std::vector<Parts> parts;
      std::vector<std::uint64_t> offsets;
      {
        std::ofstream f(parts_file.path);
        for (std::size_t r = 0; r < seqs.size(); ++r) {
          const auto [begin, end] = part_of(spec.a, spec.b, seqs[r].size());
          parts.push_back({{begin, end}});
          offsets.push_back(begin);
          f << ">r" << r << "\n" << seqs[r].substr(begin, end - begin) << "\n";
        }
      }
      for (const ResultShape shape : {ResultShape{Command::hits}, ResultShape{Command::count, true},
                                      ResultShape{Command::contains}, ResultShape{Command::contains, false, false, true}}) {
        const bool hits = shape.command == Command::hits;
        const std::string want_oracle = oracle_rows(pats, seqs, parts, opt, shape);
        test::PipelineRun whole{shape};
        std::string want_parts = run(parts_file.path, patterns, opt, whole);
        if (hits) want_parts = shifted(want_parts, offsets);
        for (const int threads : {1, 2})
          for (const std::uint64_t batch : {std::uint64_t{1} << 20, std::uint64_t{1000}, std::uint64_t{97}}) {
            CAPTURE(iter);
            const std::string region_text = spec.text;
            CAPTURE(region_text);
            CAPTURE(static_cast<int>(shape.command));
            CAPTURE(threads);
            CAPTURE(batch);
            test::PipelineRun s{shape, threads, batch, region};
            s.reader.map_files = batch != 97;
            CHECK(run(file.path, patterns, opt, s) == want_parts);
            if (hits) s.match_region = false;
            CHECK(run(file.path, patterns, opt, s) == want_oracle);
            runs += 2;
          }
      }
    }
  }
  MESSAGE("region exactness: " << runs << " runs compared with the oracle and the parts' run");
}

TEST_CASE("region: without one, a run is unchanged, and 1:-1 gives the whole records") {
  const TempFile file("trawl_region_whole");
  {
    std::ofstream f(file.path);
    f << ">a\nACGTACGTTTGACCA\n>b\n\n>c\nGGACGTAC\n";
  }
  SearchOptions opt;
  opt.k = 1;
  const PatternSet patterns(std::vector<Pattern>{{"p", "ACGTAC"}}, opt);
  for (const ResultShape shape : {ResultShape{Command::hits}, ResultShape{Command::count, true}, ResultShape{Command::contains}}) {
    test::PipelineRun s{shape};
    const std::string plain = run(file.path, patterns, opt, s);
    s.region = Region::parse("1:-1");
    CHECK(run(file.path, patterns, opt, s) == plain);
    s.batch_bases = 4;
    CHECK(run(file.path, patterns, opt, s) == plain);
  }
}

// A record in lines longer than the reader's first read is searched while it is read; with a
// region it is read whole first, as a region counted from the end needs the record's length.
TEST_CASE("region: long records in lines give the result of their parts") {
  std::mt19937_64 rng(20270201);
  const TempFile file("trawl_region_lines"), parts_file("trawl_region_lines_parts");
  std::vector<std::string> seqs;
  for (const std::size_t len : {std::size_t{5} << 19, std::size_t{300}, std::size_t{3} << 19}) {
    std::string s(len, 'A');
    for (char& c : s) c = "ACGT"[rng() % 4];
    seqs.push_back(s);
  }
  {
    std::ofstream f(file.path);
    for (std::size_t r = 0; r < seqs.size(); ++r) {
      f << ">r" << r << "\n";
      for (std::size_t at = 0; at < seqs[r].size(); at += 61) f << seqs[r].substr(at, 61) << "\n";
    }
  }
  SearchOptions opt;
  opt.k = 2;
  opt.max_n_frac = 1.0f;
  const PatternSet patterns(std::vector<Pattern>{{"p", "ACGTTGCA"}, {"q", "GATTACA"}}, opt);
  const Spec specs[] = {{"-1000:-1", -1000, -1}, {"-2000000:-500000", -2000000, -500000},
                        {"100:-100", 100, -100}, {"1048000:1049600", 1048000, 1049600}};
  for (const Spec& spec : specs) {
    std::vector<std::uint64_t> offsets;
    {
      std::ofstream f(parts_file.path);
      for (std::size_t r = 0; r < seqs.size(); ++r) {
        const auto [begin, end] = part_of(spec.a, spec.b, seqs[r].size());
        offsets.push_back(begin);
        f << ">r" << r << "\n" << seqs[r].substr(begin, end - begin) << "\n";
      }
    }
    for (const ResultShape shape : {ResultShape{Command::hits}, ResultShape{Command::count, true}, ResultShape{Command::contains}}) {
      std::string want = run(parts_file.path, patterns, opt, test::PipelineRun{shape});
      if (shape.command == Command::hits) want = shifted(want, offsets);
      // (TRAWL_PIPELINE_ITERS set: the ThreadSanitizer run, two threads only.)
      const bool quick = std::getenv("TRAWL_PIPELINE_ITERS") != nullptr;
      for (const bool map_files : {true, false})
        for (const int threads : {1, 2})
          for (const std::uint64_t batch : {std::uint64_t{1} << 14, std::uint64_t{1} << 20}) {
            if (quick && (threads != 2 || !map_files)) continue;
            const std::string region_text = spec.text;
            CAPTURE(region_text);
            CAPTURE(static_cast<int>(shape.command));
            CAPTURE(map_files);
            CAPTURE(threads);
            CAPTURE(batch);
            test::PipelineRun s{shape, threads, batch, Region::parse(spec.text)};
            s.reader.map_files = map_files;
            CHECK(run(file.path, patterns, opt, s) == want);
          }
    }
  }
}

// Several ranges: a record's parts are its ranges' overlaps, joined where they overlap or
// touch (written out here on their own, not through Region::spans); with none, the first
// range's empty overlap.
Parts parts_of(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges, std::uint64_t n) {
  Parts parts;
  for (const auto& [a, b] : ranges)
    if (const auto part = part_of(a, b, n); part.second > part.first) parts.push_back(part);
  if (parts.empty()) return {part_of(ranges[0].first, ranges[0].second, n)};
  std::sort(parts.begin(), parts.end());
  Parts joined{parts[0]};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].first <= joined.back().second) joined.back().second = std::max(joined.back().second, parts[i].second);
    else joined.push_back(parts[i]);
  }
  return joined;
}

TEST_CASE("region: several ranges give the hits of every part, folded into the record's rows, windows included") {
  std::mt19937_64 rng(20271207);
  const TempFile file("trawl_region_multi");
  struct Multi {
    const char* text;
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  };
  const Multi specs[] = {{"1:40,-40:-1", {{1, 40}, {-40, -1}}},
                         {"-40:-1,1:40", {{-40, -1}, {1, 40}}},
                         {"1:150,-150:-1", {{1, 150}, {-150, -1}}},
                         {"1:20,10:35,200:-200,-1500:-1000", {{1, 20}, {10, 35}, {200, -200}, {-1500, -1000}}},
                         {"900:1100,2000:2200,5:5", {{900, 1100}, {2000, 2200}, {5, 5}}}};
  const int iters = std::getenv("TRAWL_PIPELINE_ITERS") ? 3 : 10;
  int runs = 0;
  for (int iter = 0; iter < iters; ++iter) {
    const auto [opt, pats, seqs] = random_case(rng, iter, {0, 30, 79, 80, 81, 299, 301, 1200, 3500}, file.path);
    const PatternSet patterns(pats, opt);
    for (const Multi& spec : {specs[iter % 5], specs[(iter + 2) % 5]}) {
      std::vector<Parts> parts;
      for (const std::string& seq : seqs) parts.push_back(parts_of(spec.ranges, seq.size()));
      for (const ResultShape shape : {ResultShape{Command::hits}, ResultShape{Command::count, true}, ResultShape{Command::count},
                                      ResultShape{Command::contains}, ResultShape{Command::contains, false, false, true}}) {
        const std::string want = oracle_rows(pats, seqs, parts, opt, shape);
        for (const int threads : {1, 2})
          for (const std::uint64_t batch : {std::uint64_t{1} << 20, std::uint64_t{1000}, std::uint64_t{97}}) {
            CAPTURE(iter);
            const std::string region_text = spec.text;
            CAPTURE(region_text);
            CAPTURE(static_cast<int>(shape.command));
            CAPTURE(threads);
            CAPTURE(batch);
            test::PipelineRun s{shape, threads, batch, Region::parse(spec.text)};
            s.reader.map_files = batch != 97;
            s.match_region = false;
            CHECK(run(file.path, patterns, opt, s) == want);
            ++runs;
          }
      }
    }
  }
  MESSAGE("several ranges: " << runs << " runs compared with the oracle");
}
