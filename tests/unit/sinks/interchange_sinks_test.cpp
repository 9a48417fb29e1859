// BED, PAF and SAM sinks (docs/semantics.md §12): the exact lines of hand-built hits (both
// strands, indels, overhang, an all-overhang hit), SAM's header from given or gathered
// lengths, PAF's target length of a record still being read, and every PAF and SAM CIGAR of
// real searches re-scored against the pattern and the text.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_search.h"
#include "support/sink_fixture.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/kernel/kernel.h"
#include "trawl/sinks/interchange_sinks.h"

using namespace trawl;
using trawl::test::add_hit;
using trawl::test::feed;
using trawl::test::make_batch;
using trawl::test::StringSink;

namespace {

const PatternSet& pattern_set() {
  static const std::vector<Pattern> p = {{"pA", "ACGT"}, {"pB", "GATTACA"}};
  static const PatternSet set(p, SearchOptions{});
  return set;
}

// Records 5 and 6: hits on both strands, an indel, overhang on each side, all overhang.
RecordBatch batch_5_6() { return make_batch({{"chr1", "AACGTTTGCAGATTTACA"}, {"chr2", "TACAGG"}}, 5); }

BatchResults hits_5_6() {
  BatchResults r;
  add_hit(r.hits, 0, 5, Strand::fwd, 0, 1, 5, {{4, '='}}, 0, 4);
  add_hit(r.hits, 0, 5, Strand::rc, 1, 2, 6, {{2, '='}, {1, 'X'}, {1, '='}}, 0, 4);
  add_hit(r.hits, 1, 5, Strand::fwd, 1, 10, 18, {{4, '='}, {1, 'D'}, {3, '='}}, 0, 7);
  add_hit(r.hits, 1, 6, Strand::fwd, 1, 0, 4, {{4, '='}}, 3, 7);  // GAT over the left end
  add_hit(r.hits, 1, 6, Strand::rc, 2, 3, 6, {{1, 'I'}, {2, '='}}, 4, 7);
  add_hit(r.hits, 0, 6, Strand::fwd, 2, 6, 6, {}, 4, 4);  // all overhang
  return r;
}

std::string output(std::unique_ptr<ResultSink> sink, StringSink& out, const RecordBatch& batch,
                   const BatchResults& results) {
  feed(*sink, batch, results);
  sink->close();
  return out.bytes;
}

}  // namespace

TEST_CASE("BED: text_id start end pat_id cost strand, no header") {
  StringSink out;
  CHECK(output(make_bed_sink(out, pattern_set(), false), out, batch_5_6(), hits_5_6()) ==
        "chr1\t1\t5\tpA\t0\t+\n"
        "chr1\t2\t6\tpA\t1\t-\n"
        "chr1\t10\t18\tpB\t1\t+\n"
        "chr2\t0\t4\tpB\t1\t+\n"
        "chr2\t3\t6\tpB\t2\t-\n"
        "chr2\t6\t6\tpA\t2\t+\n");
  StringSink empty;
  CHECK(output(make_bed_sink(empty, pattern_set(), true), empty, batch_5_6(), BatchResults{}).empty());
}

TEST_CASE("PAF: the pattern as query, the record as target, CIGAR in target direction") {
  StringSink out;
  CHECK(output(make_paf_sink(out, pattern_set(), false), out, batch_5_6(), hits_5_6()) ==
        "pA\t4\t0\t4\t+\tchr1\t18\t1\t5\t4\t4\t255\tNM:i:0\tcg:Z:4=\n"
        "pA\t4\t0\t4\t-\tchr1\t18\t2\t6\t3\t4\t255\tNM:i:1\tcg:Z:1=1X2=\n"
        "pB\t7\t0\t7\t+\tchr1\t18\t10\t18\t7\t8\t255\tNM:i:1\tcg:Z:4=1D3=\n"
        "pB\t7\t3\t7\t+\tchr2\t6\t0\t4\t4\t4\t255\tNM:i:0\tcg:Z:4=\n"
        "pB\t7\t4\t7\t-\tchr2\t6\t3\t6\t2\t3\t255\tNM:i:1\tcg:Z:2=1I\n"
        "pA\t4\t4\t4\t+\tchr2\t6\t6\t6\t0\t0\t255\tNM:i:0\tcg:Z:\n");
}

TEST_CASE("PAF: rows of a record still being read wait for its length") {
  StringSink out;
  auto sink = make_paf_sink(out, pattern_set(), false);
  const std::string whole = "AACGTTTGCAGATTTACA";
  RecordBatch partial = make_batch({{"chr1", whole.substr(0, 8)}}, 0);
  partial.external_seq = std::string_view(whole).substr(0, 8);
  partial.text_partial = partial.record_continues = true;
  BatchResults first;
  add_hit(first.hits, 0, 0, Strand::fwd, 0, 1, 5, {{4, '='}}, 0, 4);
  feed(*sink, partial, first);
  CHECK(out.bytes.empty());
  RecordBatch last = make_batch({{"chr1", whole}}, 0);
  last.external_seq = whole;
  feed(*sink, last, BatchResults{});
  sink->close();
  CHECK(out.bytes == "pA\t4\t0\t4\t+\tchr1\t18\t1\t5\t4\t4\t255\tNM:i:0\tcg:Z:4=\n");
}

TEST_CASE("SAM: header from the records with hits, rows in reference direction with clips") {
  StringSink out;
  SamOptions options;
  options.version = "9.9";
  options.command_line = "trawl hits\t-p X";
  CHECK(output(make_sam_sink(out, pattern_set(), AlphabetSpec{Alphabet::dna, false}, false, options), out,
               batch_5_6(), hits_5_6()) ==
        "@HD\tVN:1.6\tSO:unsorted\n"
        "@SQ\tSN:chr1\tLN:18\n"
        "@SQ\tSN:chr2\tLN:6\n"
        "@PG\tID:trawl\tPN:trawl\tVN:9.9\tCL:trawl hits -p X\n"
        "pA\t0\tchr1\t2\t255\t4=\t*\t0\t0\tACGT\t*\tNM:i:0\n"
        "pA\t16\tchr1\t3\t255\t1=1X2=\t*\t0\t0\tACGT\t*\tNM:i:1\n"
        "pB\t0\tchr1\t11\t255\t4=1D3=\t*\t0\t0\tGATTACA\t*\tNM:i:1\n"
        "pB\t0\tchr2\t1\t255\t3S4=\t*\t0\t0\tGATTACA\t*\tNM:i:0\n"
        "pB\t16\tchr2\t4\t255\t2=1I4S\t*\t0\t0\tTGTAATC\t*\tNM:i:1\n"
        "pA\t4\t*\t0\t0\t*\t*\t0\t0\tACGT\t*\n");
}

TEST_CASE("SAM: given lengths are the header; a record with hits must be among them") {
  SamOptions options;
  options.collect = false;
  options.refs = {{"chr2", 6}, {"chr1", 18}, {"chrM", 16569}};
  StringSink out;
  const std::string text =
      output(make_sam_sink(out, pattern_set(), AlphabetSpec{Alphabet::dna, false}, false, options), out,
             batch_5_6(), BatchResults{});
  CHECK(text.rfind("@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:chr2\tLN:6\n@SQ\tSN:chr1\tLN:18\n@SQ\tSN:chrM\tLN:16569\n@PG\t", 0) == 0);
  CHECK(text.find("\n", text.find("@PG")) == text.size() - 1);  // header only

  options.refs = {{"chr1", 18}};
  StringSink missing;
  auto sink = make_sam_sink(missing, pattern_set(), AlphabetSpec{Alphabet::dna, false}, false, options);
  CHECK_THROWS_WITH_AS(feed(*sink, batch_5_6(), hits_5_6()),
                       "record 'chr2' has hits but no length in the SAM reference lengths (--ref-lengths or INPUT.fai)",
                       InputError);
  options.refs = {{"chr1", 17}, {"chr2", 6}};
  StringSink wrong;
  sink = make_sam_sink(wrong, pattern_set(), AlphabetSpec{Alphabet::dna, false}, false, options);
  CHECK_THROWS_AS(feed(*sink, batch_5_6(), hits_5_6()), InputError);
}

TEST_CASE("read_ref_lengths: a .fai or a two-column TSV") {
  const trawl::test::TempDir dir("trawl-ref-lengths");
  const std::string fai = dir.write("g.fa.fai", "chr1\t248956422\t112\t70\t71\nchrM\t16569\t0\t60\t61\n\n");
  const std::string bad = dir.write("bad.tsv", "chr1\t12\nchr2 7\n");
  const std::vector<RefLength> refs = read_ref_lengths(fai);
  REQUIRE(refs.size() == 2);
  CHECK(refs[0].name == "chr1");
  CHECK(refs[0].length == 248956422);
  CHECK(refs[1].name == "chrM");
  CHECK(refs[1].length == 16569);
  CHECK_THROWS_WITH_AS(read_ref_lengths(bad), (bad + ": line 2: want NAME<TAB>LENGTH (a .fai or a two-column TSV)").c_str(),
                       InputError);
  CHECK_THROWS_AS(read_ref_lengths(dir.file("none")), InputError);
}

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream in(line);
  for (std::string s; std::getline(in, s, '\t');) f.push_back(s);
  return f;
}

struct Walk {
  std::uint64_t edits = 0, query = 0, target = 0, clipped = 0;
};

// Walks `cigar` over query[q0...] and text[t0...], checking every '=' and 'X'.
Walk rescore(const std::string& cigar, const std::string& query, std::size_t q0, const std::string& text,
             std::size_t t0) {
  Walk w;
  std::size_t q = q0, t = t0;
  for (std::size_t i = 0; i < cigar.size();) {
    std::size_t j = i;
    while (std::isdigit(static_cast<unsigned char>(cigar[j]))) ++j;
    const std::size_t n = std::stoul(cigar.substr(i, j - i));
    const char op = cigar[j];
    i = j + 1;
    for (std::size_t r = 0; r < n; ++r) {
      if (op == '=' || op == 'X') {
        REQUIRE(q < query.size());
        REQUIRE(t < text.size());
        CHECK((query[q] == text[t]) == (op == '='));
        ++q, ++t;
      } else if (op == 'I' || op == 'S') {
        ++q;
      } else {
        REQUIRE(op == 'D');
        ++t;
      }
      if (op == 'X' || op == 'I' || op == 'D') ++w.edits;
      if (op == 'S') ++w.clipped;
    }
  }
  w.query = q - q0;
  w.target = t - t0;
  return w;
}

std::string revcomp(const std::string& s) {
  std::string r(s.rbegin(), s.rend());
  for (char& c : r) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : 'A';
  return r;
}

}  // namespace

TEST_CASE("PAF and SAM CIGARs of real searches re-score to NM and the cost") {
  for (const bool overhang : {false, true}) {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(seed);
      CAPTURE(overhang);
      std::mt19937 rng(seed);
      const auto random_dna = [&rng](std::size_t n) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i) s += "ACGT"[rng() % 4];
        return s;
      };
      SearchOptions options;
      options.alphabet = AlphabetSpec{Alphabet::dna, false};
      options.k = 3;
      if (overhang) options.overhang = 0.5f;
      const std::string pattern = random_dna(12);
      // The text holds mutated copies of the pattern on both strands, and its ends cut one.
      std::string text = pattern.substr(5) + random_dna(30);
      for (int copy = 0; copy < 4; ++copy) {
        std::string p = copy % 2 ? revcomp(pattern) : pattern;
        p[rng() % p.size()] = "ACGT"[rng() % 4];
        if (copy == 2) p.erase(rng() % p.size(), 1);
        text += p + random_dna(20);
      }
      text += pattern.substr(0, 7);
      const std::vector<Pattern> pats = {{"p", pattern}};
      const PatternSet set(pats, options);
      BatchResults results;
      results.hits = trawl::test::reference_hits(set, options, scalar_kernel(), text);
      REQUIRE(results.hits.hits.size() >= 4);
      const RecordBatch batch = make_batch({{"t", text}});

      StringSink sam, paf;
      output(make_sam_sink(sam, set, options.alphabet, false, SamOptions{}), sam, batch, results);
      output(make_paf_sink(paf, set, false), paf, batch, results);
      std::stringstream sam_lines(sam.bytes), paf_lines(paf.bytes);
      std::string line;
      for (const Hit& h : results.hits.hits) {
        const std::uint32_t m = static_cast<std::uint32_t>(pattern.size());
        const std::int32_t overhang_cost =
            trawl::overhang_cost(options, h.pattern_start) + trawl::overhang_cost(options, m - h.pattern_end);
        do REQUIRE(std::getline(sam_lines, line));
        while (line[0] == '@');
        std::vector<std::string> f = split(line);
        REQUIRE(f.size() == 12);
        if (f[5] != "*") {
          const Walk w = rescore(f[5], f[9], 0, text, std::stoul(f[3]) - 1);
          CHECK(w.query == m);
          CHECK(std::stoul(f[3]) - 1 + w.target == h.end);
          CHECK(f[11] == "NM:i:" + std::to_string(w.edits));
          CHECK(static_cast<std::int32_t>(w.edits) + overhang_cost == h.cost);
          CHECK(f[9] == (h.strand == Strand::rc ? revcomp(pattern) : pattern));
        }
        REQUIRE(std::getline(paf_lines, line));
        f = split(line);
        REQUIRE(f.size() == 14);
        const std::size_t qstart = std::stoul(f[2]), qend = std::stoul(f[3]);
        const std::string query = f[4] == "+" ? pattern : revcomp(pattern);
        const Walk w = rescore(f[13].substr(5), query, f[4] == "+" ? qstart : m - qend, text, std::stoul(f[7]));
        CHECK(w.query == qend - qstart);
        CHECK(w.target == std::stoul(f[8]) - std::stoul(f[7]));
        CHECK(std::stoul(f[6]) == text.size());
        CHECK(f[12] == "NM:i:" + std::to_string(w.edits));
        CHECK(static_cast<std::int32_t>(w.edits) + overhang_cost == h.cost);
      }
    }
  }
}
