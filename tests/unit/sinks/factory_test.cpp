// The sink factory (sinks/factory.h): hit_columns() maps --columns names to extra columns in
// the order given (unknown names dropped) and keeps the region, cigar and sam choices;
// parquet_options() takes the compression by name (UsageError "--compression NAME: unknown"
// otherwise), the row group size and the provenance; make_result_sink() makes, for each
// command and format, the sink of that command's rows: TSV (plain text for tsv_gz too, as
// compressing is the byte sink's business) with the header of the command and its shape and
// columns, or Parquet (magic bytes, schema of the same columns, the asked row groups and
// metadata), or BED, PAF and SAM lines for hits, writing into the byte sink it was given;
// sam_options() finds the SAM header lengths (--ref-lengths, INPUT.fai, else gathered).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/parquet_reader.h"
#include "support/sink_fixture.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/sinks/factory.h"

using namespace trawl;
using trawl::test::feed;
using trawl::test::make_batch;
using trawl::test::StringSink;
namespace tp = trawl::test::parquet;

namespace {

const PatternSet& pattern_set() {
  static const PatternSet set({{"pA", "ACGT"}, {"pB", "GATTACA"}}, SearchOptions{});
  return set;
}

RecordBatch two_records() { return make_batch({{"r0", "AACGTT"}, {"r1", "GATTACA"}}); }

BatchResults results_for(Command command) {
  BatchResults r;
  switch (command) {
    case Command::hits:
      trawl::test::add_hit(r.hits, 0, 0, Strand::fwd, 0, 1, 5, {{4, '='}}, 0, 4);
      trawl::test::add_hit(r.hits, 1, 1, Strand::rc, 1, 0, 7, {{7, '='}}, 0, 7);
      break;
    case Command::count:
      r.pair_counts = {{0, 0, 2}, {1, 1, 1}};
      break;
    case Command::contains:
      r.contains = {1, 0};
      r.pair_counts = {{0, 0, 1}, {1, 1, 0}};
      break;
  }
  return r;
}

// The bytes a sink made by the factory writes for the two records.
std::string output_of(OutputFormat format, const ResultShape& shape, const HitColumns& columns = {},
                      const ParquetOptions& parquet = {}) {
  StringSink out;
  const auto sink = make_result_sink(format, out, pattern_set(), AlphabetSpec{}, shape, columns, parquet);
  REQUIRE(sink != nullptr);
  RecordBatch batch = two_records();
  BatchResults results = results_for(shape.command);
  if (shape.command == Command::contains && !shape.per_pair) results.pair_counts.clear();
  if (shape.command == Command::contains && shape.per_pair) results.contains.clear();
  feed(*sink, batch, results);
  sink->close();
  return out.bytes;
}

tp::File decode(const std::string& bytes) {
  return tp::read_file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

std::vector<std::string> column_names(const tp::File& f) {
  std::vector<std::string> names;
  for (const tp::SchemaColumn& c : f.columns) names.push_back(c.name);
  return names;
}

std::string first_line(const std::string& tsv) { return tsv.substr(0, tsv.find('\n')); }

}  // namespace

TEST_CASE("sink factory: hit_columns keeps the choices and maps extra names in order") {
  ColumnChoice choice;
  choice.region = false;
  choice.cigar = true;
  choice.sam = true;
  choice.extra = {"text_idx", "bogus", "pattern_start", "pat_idx", "pattern_end", "text_idx"};
  const HitColumns c = hit_columns(choice);
  CHECK_FALSE(c.region);
  CHECK(c.cigar);
  CHECK(c.sam);
  CHECK(c.extra == std::vector<ExtraColumn>{ExtraColumn::text_idx, ExtraColumn::pattern_start, ExtraColumn::pat_idx,
                                            ExtraColumn::pattern_end, ExtraColumn::text_idx});
  const HitColumns d = hit_columns(ColumnChoice{});
  CHECK(d.region);
  CHECK(d.cigar);
  CHECK_FALSE(d.sam);
  CHECK(d.extra.empty());
}

TEST_CASE("sink factory: parquet_options by compression name, row groups and provenance") {
  RunOptions o;
  o.row_group_rows = 777;
  o.version = "1.2.3";
  o.command_line = "trawl hits -p ACGT";
  const std::pair<const char*, parquet::Compression> names[] = {{"zstd", parquet::Compression::zstd},
                                                                {"snappy", parquet::Compression::snappy},
                                                                {"none", parquet::Compression::none}};
  for (const auto& [name, compression] : names) {
    CAPTURE(name);
    o.compression = name;
    const ParquetOptions po = parquet_options(o);
    CHECK(po.compression == compression);
    CHECK(po.row_group_rows == 777);
    CHECK(po.version == "1.2.3");
    CHECK(po.command_line == "trawl hits -p ACGT");
  }
  o.compression = "lz4";
  CHECK_THROWS_WITH_AS(parquet_options(o), "--compression lz4: unknown", UsageError);
}

TEST_CASE("sink factory: TSV sinks for each command and shape, tsv_gz the same text") {
  struct Want {
    ResultShape shape;
    std::string text;
  };
  const Want wants[] = {
      {ResultShape{Command::hits},
       "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar\n"
       "pA\tr0\t0\t+\t1\t5\tACGT\t4=\n"
       "pB\tr1\t1\t-\t0\t7\tTGTAATC\t7=\n"},
      {ResultShape{Command::count}, "pat_id\ttext_id\tcount\npA\tr0\t2\npB\tr1\t1\n"},
      {ResultShape{Command::count, false, true}, "pat_id\tcount\trecords\npA\t2\t1\npB\t1\t1\n"},
      {ResultShape{Command::contains}, "text_id\tcontains\nr0\ttrue\nr1\tfalse\n"},
      {ResultShape{Command::contains, false, false, true}, "pat_id\ttext_id\tcontains\npA\tr0\ttrue\npB\tr1\tfalse\n"},
  };
  for (const Want& w : wants) {
    CAPTURE(w.text);
    CHECK(output_of(OutputFormat::tsv, w.shape) == w.text);
    CHECK(output_of(OutputFormat::tsv_gz, w.shape) == w.text);
  }
}

TEST_CASE("sink factory: hits columns shape the TSV header and rows; other commands ignore them") {
  HitColumns columns;
  columns.region = false;
  columns.extra = {ExtraColumn::pat_idx, ExtraColumn::text_idx};
  CHECK(output_of(OutputFormat::tsv, ResultShape{Command::hits}, columns) ==
        "pat_id\ttext_id\tcost\tstrand\tstart\tend\tcigar\tpat_idx\ttext_idx\n"
        "pA\tr0\t0\t+\t1\t5\t4=\t0\t0\n"
        "pB\tr1\t1\t-\t0\t7\t7=\t1\t1\n");
  CHECK(first_line(output_of(OutputFormat::tsv, ResultShape{Command::count}, columns)) == "pat_id\ttext_id\tcount");
  CHECK(first_line(output_of(OutputFormat::tsv, ResultShape{Command::contains}, columns)) == "text_id\tcontains");
}

TEST_CASE("sink factory: Parquet sinks for each command, with the same columns and rows") {
  ParquetOptions po;
  po.compression = parquet::Compression::none;
  po.row_group_rows = 1;
  po.version = "0.0.1-factory";
  struct Want {
    ResultShape shape;
    std::vector<std::string> columns;
    std::int64_t rows;
  };
  const Want wants[] = {
      {ResultShape{Command::hits}, {"pat_id", "text_id", "cost", "strand", "start", "end", "match_region", "cigar"}, 2},
      {ResultShape{Command::count}, {"pat_id", "text_id", "count"}, 2},
      {ResultShape{Command::count, false, true}, {"pat_id", "count", "records"}, 2},
      {ResultShape{Command::contains}, {"text_id", "contains"}, 2},
      {ResultShape{Command::contains, false, false, true}, {"pat_id", "text_id", "contains"}, 2},
  };
  for (const Want& w : wants) {
    CAPTURE(w.columns.size());
    CAPTURE(w.columns.back());
    const std::string bytes = output_of(OutputFormat::parquet, w.shape, {}, po);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes.substr(0, 4) == "PAR1");
    CHECK(bytes.substr(bytes.size() - 4) == "PAR1");
    const tp::File f = decode(bytes);
    CHECK(column_names(f) == w.columns);
    CHECK(f.num_rows == w.rows);
    CHECK(f.row_groups.size() == 2);  // one row a group, as asked
    CHECK(f.created_by.value_or("").find("0.0.1-factory") != std::string::npos);
    for (const tp::RowGroup& g : f.row_groups)
      for (const tp::ColumnChunk& c : g.columns) CHECK(c.codec == tp::kCodecUncompressed);
  }
  // The hits sink's columns follow the choice, as in TSV.
  HitColumns columns;
  columns.cigar = false;
  columns.extra = {ExtraColumn::pattern_end};
  const tp::File f = decode(output_of(OutputFormat::parquet, ResultShape{Command::hits}, columns, po));
  CHECK(column_names(f) == std::vector<std::string>{"pat_id", "text_id", "cost", "strand", "start", "end",
                                                    "match_region", "pattern_end"});
  CHECK(f.values[1].str == std::vector<std::string>{"r0", "r1"});
  CHECK(f.values[4].i64 == std::vector<std::int64_t>{1, 0});
}

TEST_CASE("sink factory: hits as BED, PAF and SAM lines") {
  ResultShape shape;
  shape.command = Command::hits;
  CHECK(output_of(OutputFormat::bed, shape) == "r0\t1\t5\tpA\t0\t+\nr1\t0\t7\tpB\t1\t-\n");
  CHECK(output_of(OutputFormat::paf, shape) ==
        "pA\t4\t0\t4\t+\tr0\t6\t1\t5\t4\t4\t255\tNM:i:0\tcg:Z:4=\n"
        "pB\t7\t0\t7\t-\tr1\t7\t0\t7\t7\t7\t255\tNM:i:0\tcg:Z:7=\n");
  const std::string sam = output_of(OutputFormat::sam, shape);
  CHECK(sam.rfind("@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:r0\tLN:6\n@SQ\tSN:r1\tLN:7\n@PG\tID:trawl\t", 0) == 0);
  CHECK(sam.find("\npA\t0\tr0\t2\t255\t4=\t") != std::string::npos);
}

TEST_CASE("sink factory: sam_options from --ref-lengths, else INPUT.fai beside one input, else gathered") {
  const trawl::test::TempDir dir("trawl-sam-options");
  RunOptions o;
  o.version = "1.2";
  o.command_line = "trawl hits";
  o.inputs = {dir.write("g.fa", ">c\nACGT\n")};
  SamOptions so = sam_options(o);
  CHECK(so.collect);
  CHECK(so.refs.empty());
  CHECK(so.version == "1.2");
  CHECK(so.command_line == "trawl hits");
  dir.write("g.fa.fai", "c\t4\t3\t4\t5\n");
  so = sam_options(o);
  CHECK_FALSE(so.collect);
  REQUIRE(so.refs.size() == 1);
  CHECK(so.refs[0].name == "c");
  CHECK(so.refs[0].length == 4);
  o.inputs.push_back(o.inputs[0]);  // two inputs: no INPUT.fai
  CHECK(sam_options(o).collect);
  o.ref_lengths = dir.write("len.tsv", "c\t4\nd\t9\n");
  so = sam_options(o);
  CHECK_FALSE(so.collect);
  CHECK(so.refs.size() == 2);
  o.ref_lengths = dir.file("missing.tsv");
  CHECK_THROWS_AS(sam_options(o), InputError);
}
