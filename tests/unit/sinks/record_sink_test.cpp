// filter's record sink (sinks/record_sink.h): records are written as read (FASTQ header,
// sequence and quality; FASTA header and sequence on one line; --lines lines), each to the
// side of its contains flag or, with --tag, of its hits; --invert swaps the sides; --tag
// appends the best hit (lowest cost, then first pattern, then first in output order);
// --format fasta drops qualities and --format fastq refuses a FASTA record; a long record's
// views are gathered until the last; written() and others() count the records.
#include <doctest/doctest.h>

#include <string>

#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/io/bgzf.h"
#include "trawl/io/reader.h"
#include "trawl/sinks/record_sink.h"

using namespace trawl;

namespace {

class StringSink final : public ByteSink {
 public:
  void write(const void* data, std::size_t size) override { text.append(static_cast<const char*>(data), size); }
  std::string text;
};

RecordBatch read_all(const std::string& path, bool lines = false) {
  FastxReader reader({path}, ReaderOptions{false, 0, true, lines, true});
  RecordBatch batch;
  while (reader.next(batch)) {
  }
  return batch;
}

PatternSet two_patterns() {
  SearchOptions o;
  o.alphabet.alphabet = Alphabet::dna;
  return PatternSet({{"p0", "ACGT"}, {"p1", "GGGG"}}, o);
}

Hit hit(std::uint64_t record, std::uint32_t pattern, int cost, std::uint64_t start, Strand s = Strand::fwd) {
  return Hit{record, start, start + 4, pattern, 0, 4, cost, s, 0, 0};
}

struct Written {
  std::string out, other;
  std::uint64_t written, others;
};

Written run_sink(const RecordBatch& batch, const BatchResults& results, const PatternSet& patterns,
                 RecordSinkOptions options) {
  StringSink out, other;
  RecordOutputs outputs;
  outputs.sinks = {&out, &other, nullptr, nullptr};
  auto sink = make_record_sink(outputs, patterns, options);
  FormattedBatch f;
  sink->format(batch, results, f);
  sink->write(batch, results, f);
  sink->close();
  return {out.text, other.text, sink->written(), sink->others()};
}

}  // namespace

TEST_CASE("record sink: FASTQ records as read, each to its side, --invert swaps them") {
  test::TempDir dir("trawl_record_sink");
  const RecordBatch batch = read_all(dir.write("in.fq", "@r0 one\r\nACGT\n+\nIIII\n@r1\nTT\n+r1\n#!\n@r2 x\tz\nGG\n+\nAB\n"));
  REQUIRE(batch.size() == 3);
  BatchResults results;
  results.contains = {1, 0, 1};
  const PatternSet patterns = two_patterns();
  Written w = run_sink(batch, results, patterns, {});
  CHECK(w.out == "@r0 one\nACGT\n+\nIIII\n@r2 x\tz\nGG\n+\nAB\n");
  CHECK(w.other == "@r1\nTT\n+\n#!\n");
  CHECK(w.written == 2);
  CHECK(w.others == 1);
  RecordSinkOptions inverted;
  inverted.invert = true;
  w = run_sink(batch, results, patterns, inverted);
  CHECK(w.out == "@r1\nTT\n+\n#!\n");
  CHECK(w.written == 1);
  CHECK(w.others == 2);
  RecordSinkOptions fasta;
  fasta.format = RecordFormat::fasta;
  CHECK(run_sink(batch, results, patterns, fasta).out == ">r0 one\nACGT\n>r2 x\tz\nGG\n");
}

TEST_CASE("record sink: --tag names the best hit; the side comes from the hits") {
  test::TempDir dir("trawl_record_sink");
  const RecordBatch batch = read_all(dir.write("in.fa", ">a\nACGTACGTGGGG\n>b\nTTTT\n>c desc\nAC\nGT\n"));
  const PatternSet patterns = two_patterns();
  BatchResults results;
  // Record 0: the lowest cost wins, then the first pattern; record 2: the first pattern.
  results.hits.hits = {hit(0, 0, 1, 0), hit(0, 1, 0, 8), hit(0, 0, 0, 4, Strand::rc), hit(2, 1, 1, 0), hit(2, 0, 1, 0, Strand::rc)};
  RecordSinkOptions tag;
  tag.tag = true;
  const Written w = run_sink(batch, results, patterns, tag);
  CHECK(w.out == ">a trawl:pat=p0,cost=0,strand=-,start=4,end=8\nACGTACGTGGGG\n"
                 ">c desc trawl:pat=p0,cost=1,strand=-,start=0,end=4\nACGT\n");
  CHECK(w.other == ">b\nTTTT\n");
}

TEST_CASE("record sink: --lines writes lines; --format fastq refuses FASTA") {
  test::TempDir dir("trawl_record_sink");
  const RecordBatch lines = read_all(dir.write("in.txt", "one\ntwo gattaca\n\n"), true);
  REQUIRE(lines.size() == 3);
  BatchResults results;
  results.contains = {0, 1, 0};
  const PatternSet patterns = two_patterns();
  const Written w = run_sink(lines, results, patterns, {});
  CHECK(w.out == "two gattaca\n");
  CHECK(w.other == "one\n\n");
  const RecordBatch fasta = read_all(dir.write("in.fa", ">a\nACGT\n"));
  RecordSinkOptions fastq;
  fastq.format = RecordFormat::fastq;
  results.contains = {1};
  CHECK_THROWS_AS(run_sink(fasta, results, patterns, fastq), InputError);
}

TEST_CASE("record sink: a long record's views are held until its last; BGZF ends with its end block") {
  test::TempDir dir("trawl_record_sink");
  const RecordBatch read = read_all(dir.write("in.fq", "@long x\nACGTACGT\n+\nIIIIJJJJ\n"));
  RecordBatch view;
  view.first_record = 0;
  view.names = "long";
  view.name_spans.push_back({0, 4});
  view.seq_spans.push_back({0, 8});
  view.external_seq = read.seq(0);
  view.header_spans.push_back({view.names.size(), 6});
  view.names += "long x";
  view.quals = "IIIIJJJJ";
  view.add_kept(RecordBatch::Kind::fastq, {0, 8});
  const PatternSet patterns = two_patterns();
  StringSink out;
  RecordSinkOptions tag;
  tag.tag = true;
  RecordOutputs outputs;
  outputs.sinks[RecordOutputs::out] = &out;
  auto sink = make_record_sink(outputs, patterns, tag);
  BatchResults first, last;
  first.hits.hits = {hit(0, 1, 1, 0)};
  last.hits.hits = {hit(0, 0, 1, 4)};
  FormattedBatch f;
  view.record_continues = true;
  sink->format(view, first, f);
  sink->write(view, first, f);
  CHECK(out.text.empty());
  view.record_continues = false;
  f.clear();
  sink->format(view, last, f);
  sink->write(view, last, f);
  CHECK(out.text == "@long x trawl:pat=p0,cost=1,strand=+,start=4,end=8\nACGTACGT\n+\nIIIIJJJJ\n");
  CHECK(sink->written() == 1);
  CHECK(sink->others() == 0);
  StringSink gz;
  RecordOutputs compressed_outputs;
  compressed_outputs.sinks[RecordOutputs::out] = &gz;
  compressed_outputs.bgzf[RecordOutputs::out] = true;
  auto compressed = make_record_sink(compressed_outputs, patterns, {});
  compressed->close();
  CHECK(gz.text == std::string(bgzf_eof_block()));
}

TEST_CASE("record sink: pairs go together, by --pair-match, to one interleaved output or one per mate") {
  test::TempDir dir("trawl_record_sink");
  const RecordBatch batch = read_all(dir.write("in.fa", ">a/1\nAA\n>a/2\nCC\n>b/1\nGG\n>b/2\nTT\n>c/1\nAC\n>c/2\nGT\n"));
  BatchResults results;
  results.contains = {1, 0, 1, 1, 0, 1};  // pair a: first only, b: both, c: second only
  const PatternSet patterns = two_patterns();
  const std::pair<PairMatch, std::string> rules[] = {
      {PairMatch::any, "abc"}, {PairMatch::both, "b"}, {PairMatch::first, "ab"}, {PairMatch::second, "bc"}};
  for (const auto& [rule, kept] : rules) {
    CAPTURE(kept);
    StringSink out, other, out2, other2;
    RecordOutputs split;
    split.sinks = {&out, &other, &out2, &other2};
    RecordSinkOptions options;
    options.pairs = rule;
    auto sink = make_record_sink(split, patterns, options);
    FormattedBatch f;
    sink->format(batch, results, f);
    sink->write(batch, results, f);
    std::string want1, want2, rest1, rest2;
    for (const char pair : std::string("abc")) {
      const bool in = kept.find(pair) != std::string::npos;
      const std::size_t at = static_cast<std::size_t>(pair - 'a') * 2;
      (in ? want1 : rest1) += ">" + std::string(batch.header(at)) + "\n" + std::string(batch.seq(at)) + "\n";
      (in ? want2 : rest2) += ">" + std::string(batch.header(at + 1)) + "\n" + std::string(batch.seq(at + 1)) + "\n";
    }
    CHECK(out.text == want1);
    CHECK(out2.text == want2);
    CHECK(other.text == rest1);
    CHECK(other2.text == rest2);
    CHECK(sink->written() == 2 * kept.size());
    CHECK(sink->others() == 6 - 2 * kept.size());
  }
  StringSink one;
  RecordOutputs interleaved;
  interleaved.sinks[RecordOutputs::out] = &one;
  RecordSinkOptions both;
  both.pairs = PairMatch::both;
  auto sink = make_record_sink(interleaved, patterns, both);
  FormattedBatch f;
  sink->format(batch, results, f);
  sink->write(batch, results, f);
  CHECK(one.text == ">b/1\nGG\n>b/2\nTT\n");
}
