// TSV sinks (README, Output): the header of each command and option, and the exact row text of
// hits (both strands, --sam, --no-region, --no-cigar, --columns, empty CIGARs, long ids,
// numbers of every width), count (pairs and --by pattern totals) and contains (per record
// and --by-pattern), written through the make_* factories into an in-memory ByteSink.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "support/sink_fixture.h"
#include "trawl/sinks/sinks.h"

using namespace trawl;
using trawl::test::add_hit;
using trawl::test::feed;
using trawl::test::make_batch;
using trawl::test::StringSink;

namespace {

const std::string kLongId(300, 'L');  // longer than any prefix buffer a sink may keep

const std::vector<Pattern>& patterns() {
  static const std::vector<Pattern> p = {{"pA", "ACGT"}, {"pB", "GATTACA"}, {kLongId, "ACG"}};
  return p;
}

const PatternSet& pattern_set() {
  static const PatternSet set(patterns(), SearchOptions{});
  return set;
}

// Records 5, 6, 7 of the input.
RecordBatch batch_5_to_7() {
  return make_batch({{"read1", "AACGTTTGCA"}, {"r1", "GT"}, {"rec 3 full header", "ttacgRNaa"}}, 5);
}

// The hits the rows below spell out: every strand and CIGAR shape the formatter handles.
BatchResults hits_5_to_7() {
  BatchResults r;
  add_hit(r.hits, 0, 5, Strand::fwd, 0, 1, 5, {{4, '='}});
  add_hit(r.hits, 0, 5, Strand::rc, 1, 2, 6, {{2, '='}, {1, 'X'}, {1, '='}});
  add_hit(r.hits, 1, 5, Strand::fwd, 12, 0, 10, {{3, '='}, {1, 'I'}, {1, 'D'}, {100, '='}});
  add_hit(r.hits, 0, 6, Strand::fwd, 1, 0, 2, {{2, '='}}, 2, 4);
  add_hit(r.hits, 0, 6, Strand::fwd, 1, 2, 2, {}, 4, 4);
  add_hit(r.hits, 1, 7, Strand::rc, 345, 1, 8, {{6, '='}, {1, 'D'}}, 0, 7);
  add_hit(r.hits, 2, 7, Strand::fwd, 6789, 0, 3, {{3, 'X'}}, 0, 3);
  return r;
}

const char* kHitsHeader = "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar\n";

std::string hits_output(const HitColumns& columns, const RecordBatch& batch, const BatchResults& results) {
  StringSink out;
  auto sink = make_tsv_hits_sink(out, pattern_set(), AlphabetSpec{Alphabet::iupac, false}, columns);
  feed(*sink, batch, results);
  sink->close();
  return out.bytes;
}

}  // namespace

TEST_CASE("tsv hits: Sassy's header is written when the sink is made, and alone for no hits") {
  StringSink out;
  auto sink = make_tsv_hits_sink(out, pattern_set(), AlphabetSpec{}, HitColumns{});
  CHECK(out.bytes == kHitsHeader);
  feed(*sink, batch_5_to_7(), BatchResults{});
  sink->close();
  CHECK(out.bytes == kHitsHeader);
}

TEST_CASE("tsv hits: default rows; '-' regions are revcomp(T from start to end), CIGARs in pattern direction") {
  const std::string want = std::string(kHitsHeader) +
                           "pA\tread1\t0\t+\t1\t5\tACGT\t4=\n"
                           "pA\tread1\t1\t-\t2\t6\tAACG\t2=1X1=\n"
                           "pB\tread1\t12\t+\t0\t10\tAACGTTTGCA\t3=1I1D100=\n"
                           "pA\tr1\t1\t+\t0\t2\tGT\t2=\n"
                           "pA\tr1\t1\t+\t2\t2\t\t\n"
                           "pB\trec 3 full header\t345\t-\t1\t8\ttNYcgta\t6=1D\n" +
                           kLongId + "\trec 3 full header\t6789\t+\t0\t3\ttta\t3X\n";
  CHECK(hits_output(HitColumns{}, batch_5_to_7(), hits_5_to_7()) == want);
}

TEST_CASE("tsv hits: --sam writes '-' regions and CIGARs in text direction; '+' rows unchanged") {
  HitColumns sam;
  sam.sam = true;
  const std::string out = hits_output(sam, batch_5_to_7(), hits_5_to_7());
  CHECK(out.find("pA\tread1\t1\t-\t2\t6\tCGTT\t1=1X2=\n") != std::string::npos);
  CHECK(out.find("pB\trec 3 full header\t345\t-\t1\t8\ttacgRNa\t1D6=\n") != std::string::npos);
  CHECK(out.find("pA\tread1\t0\t+\t1\t5\tACGT\t4=\n") != std::string::npos);
  CHECK(out.find("pB\tread1\t12\t+\t0\t10\tAACGTTTGCA\t3=1I1D100=\n") != std::string::npos);
  CHECK(out.rfind(kHitsHeader, 0) == 0);
}

TEST_CASE("tsv hits: --no-region and --no-cigar drop their columns from header and rows") {
  HitColumns no_region;
  no_region.region = false;
  HitColumns no_cigar;
  no_cigar.cigar = false;
  HitColumns neither;
  neither.region = neither.cigar = false;
  BatchResults one;
  add_hit(one.hits, 0, 5, Strand::rc, 1, 2, 6, {{2, '='}, {1, 'X'}, {1, '='}});
  const RecordBatch batch = batch_5_to_7();
  CHECK(hits_output(no_region, batch, one) ==
        "pat_id\ttext_id\tcost\tstrand\tstart\tend\tcigar\npA\tread1\t1\t-\t2\t6\t2=1X1=\n");
  CHECK(hits_output(no_cigar, batch, one) ==
        "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\npA\tread1\t1\t-\t2\t6\tAACG\n");
  CHECK(hits_output(neither, batch, one) == "pat_id\ttext_id\tcost\tstrand\tstart\tend\npA\tread1\t1\t-\t2\t6\n");
}

TEST_CASE("tsv hits: --columns appends the extra columns in the order asked") {
  HitColumns cols;
  cols.region = false;
  cols.extra = {ExtraColumn::text_idx, ExtraColumn::pattern_start, ExtraColumn::pattern_end, ExtraColumn::pat_idx};
  BatchResults r;
  add_hit(r.hits, 1, 7, Strand::fwd, 2, 3, 9, {{5, '='}}, 2, 7);
  add_hit(r.hits, 0, 6, Strand::rc, 0, 0, 2, {}, 0, 0);
  CHECK(hits_output(cols, batch_5_to_7(), r) ==
        "pat_id\ttext_id\tcost\tstrand\tstart\tend\tcigar\ttext_idx\tpattern_start\tpattern_end\tpat_idx\n"
        "pB\trec 3 full header\t2\t+\t3\t9\t5=\t7\t2\t7\t1\n"
        "pA\tr1\t0\t-\t0\t2\t\t6\t0\t0\t0\n");
}

TEST_CASE("tsv hits: numbers of every width, far into a long record") {
  HitColumns cols;
  cols.region = false;
  cols.extra = {ExtraColumn::text_idx};
  // A record that stands for a long one: the sink reads no sequence without match_region.
  RecordBatch batch = make_batch({{"chr1", "A"}}, 123456789);
  BatchResults r;
  const std::uint64_t starts[] = {0, 9, 10, 99, 100, 999, 1000, 9999, 10000, 123456789012ull, 18446744073709551614ull};
  std::string want = "pat_id\ttext_id\tcost\tstrand\tstart\tend\tcigar\ttext_idx\n";
  for (std::uint64_t s : starts) {
    add_hit(r.hits, 0, 123456789, Strand::fwd, 3, s, s + 1, {{1, 'X'}, {1000000, '='}});
    want += "pA\tchr1\t3\t+\t" + std::to_string(s) + "\t" + std::to_string(s + 1) + "\t1X1000000=\t123456789\n";
  }
  CHECK(hits_output(cols, batch, r) == want);
}

TEST_CASE("tsv hits: batches arrive in write order; a FormattedBatch can be cleared and reused") {
  StringSink out;
  auto sink = make_tsv_hits_sink(out, pattern_set(), AlphabetSpec{}, HitColumns{});
  const RecordBatch first = make_batch({{"a", "ACGTACGT"}}, 0);
  const RecordBatch second = make_batch({{"b", "GATTACA"}}, 1);
  BatchResults r1, r2;
  add_hit(r1.hits, 0, 0, Strand::fwd, 0, 4, 8, {{4, '='}});
  add_hit(r2.hits, 1, 1, Strand::fwd, 0, 0, 7, {{7, '='}});
  FormattedBatch f1, f2;
  sink->format(second, r2, f2);  // formatting may happen in any order, on any thread
  sink->format(first, r1, f1);
  sink->write(first, r1, f1);
  sink->write(second, r2, f2);
  f1.clear();
  sink->format(first, r1, f1);  // the same bytes again from a reused buffer
  sink->write(first, r1, f1);
  sink->close();
  CHECK(out.bytes == std::string(kHitsHeader) +
                         "pA\ta\t0\t+\t4\t8\tACGT\t4=\n"
                         "pB\tb\t0\t+\t0\t7\tGATTACA\t7=\n"
                         "pA\ta\t0\t+\t4\t8\tACGT\t4=\n");
}

TEST_CASE("tsv hits: ids of a pattern list are its line numbers") {
  PatternSet set(SearchOptions{});
  const PatternSet::ForEach serial = [](std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t i = 0; i < count; ++i) body(i);
  };
  set.add_list("ACGT\n\nGATTACA\n", nullptr, 1, serial);
  set.finish();
  StringSink out;
  HitColumns cols;
  cols.region = false;
  auto sink = make_tsv_hits_sink(out, set, AlphabetSpec{}, cols);
  BatchResults r;
  add_hit(r.hits, 0, 0, Strand::fwd, 0, 0, 4, {{4, '='}});
  add_hit(r.hits, 1, 0, Strand::fwd, 1, 2, 9, {{7, '='}});
  feed(*sink, make_batch({{"x", "ACGTGATTACA"}}), r);
  sink->close();
  CHECK(out.bytes == "pat_id\ttext_id\tcost\tstrand\tstart\tend\tcigar\n1\tx\t0\t+\t0\t4\t4=\n3\tx\t1\t+\t2\t9\t7=\n");
}

TEST_CASE("tsv count: one row per pair as given, or per-pattern totals at close") {
  const RecordBatch first = make_batch({{"read1", "A"}, {"r1", "C"}}, 5);
  const RecordBatch second = make_batch({{"rec 3", "G"}}, 7);
  BatchResults c1, c2;
  c1.pair_counts = {{5, 0, 3}, {5, 1, 1}, {6, 0, 0}};
  c2.pair_counts = {{7, 1, 2}, {7, 2, 1234567}};
  {
    StringSink out;
    auto sink = make_tsv_count_sink(out, pattern_set(), ResultShape{Command::count});
    CHECK(out.bytes == "pat_id\ttext_id\tcount\n");
    feed(*sink, first, c1);
    feed(*sink, second, c2);
    sink->close();
    CHECK(out.bytes == "pat_id\ttext_id\tcount\n"
                       "pA\tread1\t3\npB\tread1\t1\npA\tr1\t0\npB\trec 3\t2\n" +
                           kLongId + "\trec 3\t1234567\n");
  }
  {
    ResultShape totals{Command::count};
    totals.per_pattern_totals = true;
    StringSink out;
    auto sink = make_tsv_count_sink(out, pattern_set(), totals);
    CHECK(out.bytes == "pat_id\tcount\trecords\n");
    feed(*sink, first, c1);
    feed(*sink, second, c2);
    CHECK(out.bytes == "pat_id\tcount\trecords\n");  // nothing before close
    sink->close();
    // count = hits over all records; records = records with >= 1 hit.
    CHECK(out.bytes == "pat_id\tcount\trecords\npA\t3\t1\npB\t3\t2\n" + kLongId + "\t1234567\t1\n");
  }
}

TEST_CASE("tsv count --by pattern: every pattern gets a row, also with no pairs at all") {
  ResultShape totals{Command::count};
  totals.per_pattern_totals = true;
  StringSink out;
  auto sink = make_tsv_count_sink(out, pattern_set(), totals);
  sink->close();
  CHECK(out.bytes == "pat_id\tcount\trecords\npA\t0\t0\npB\t0\t0\n" + kLongId + "\t0\t0\n");
}

TEST_CASE("tsv contains: one row per record, or one per (pattern, record) pair") {
  const RecordBatch batch = make_batch({{"read1", "A"}, {"r1", "C"}, {"rec 3", "G"}}, 5);
  {
    BatchResults r;
    r.contains = {1, 0, 1};
    StringSink out;
    auto sink = make_tsv_contains_sink(out, pattern_set(), ResultShape{Command::contains});
    CHECK(out.bytes == "text_id\tcontains\n");
    feed(*sink, batch, r);
    sink->close();
    CHECK(out.bytes == "text_id\tcontains\nread1\ttrue\nr1\tfalse\nrec 3\ttrue\n");
  }
  {
    ResultShape per_pair{Command::contains};
    per_pair.per_pair = true;
    BatchResults r;
    r.pair_counts = {{5, 0, 1}, {5, 1, 0}, {6, 0, 0}, {7, 1, 4}};
    StringSink out;
    auto sink = make_tsv_contains_sink(out, pattern_set(), per_pair);
    CHECK(out.bytes == "pat_id\ttext_id\tcontains\n");
    feed(*sink, batch, r);
    sink->close();
    CHECK(out.bytes == "pat_id\ttext_id\tcontains\npA\tread1\ttrue\npB\tread1\tfalse\npA\tr1\tfalse\npB\trec 3\ttrue\n");
  }
}
