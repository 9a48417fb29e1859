// Parquet sinks (README, Output): the same columns and rows as the TSV sinks, decoded with the
// independent test reader (tests/support/parquet_reader.h): column names and physical types
// (INT64 positions, indexes and counts, INT32 cost, UTF8 strings, BOOLEAN contains), every
// value, row groups of the asked size, each compression, the version metadata, and invalid
// UTF-8 in names and regions replaced by U+FFFD.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "support/parquet_reader.h"
#include "support/sink_fixture.h"
#include "trawl/core/errors.h"
#include "trawl/sinks/sinks.h"

using namespace trawl;
using trawl::test::add_hit;
using trawl::test::feed;
using trawl::test::make_batch;
using trawl::test::StringSink;
namespace tp = trawl::test::parquet;

namespace {

using Table = std::vector<std::vector<std::string>>;  // header row, then rows

const std::vector<Pattern>& patterns() {
  static const std::vector<Pattern> p = {{"pA", "ACGT"}, {"pB", "GATTACA"}, {std::string(300, 'L'), "ACG"}};
  return p;
}

const PatternSet& pattern_set() {
  static const PatternSet set(patterns(), SearchOptions{});
  return set;
}

tp::File decode(const StringSink& out) {
  return tp::read_file(reinterpret_cast<const std::uint8_t*>(out.bytes.data()), out.bytes.size());
}

// The file as text: column names, then each row with numbers in decimal and booleans as
// true/false (the TSV spelling), so it can be compared with a TSV sink's output.
Table table_of(const tp::File& f) {
  Table t(1);
  for (const tp::SchemaColumn& c : f.columns) t[0].push_back(c.name);
  for (std::int64_t r = 0; r < f.num_rows; ++r) {
    std::vector<std::string> row;
    for (std::size_t c = 0; c < f.columns.size(); ++c) {
      const tp::ColumnValues& v = f.values[c];
      const auto i = static_cast<std::size_t>(r);
      switch (f.columns[c].type) {
        case tp::PhysicalType::int32: row.push_back(std::to_string(v.i32.at(i))); break;
        case tp::PhysicalType::int64: row.push_back(std::to_string(v.i64.at(i))); break;
        case tp::PhysicalType::byte_array: row.push_back(v.str.at(i)); break;
        case tp::PhysicalType::boolean: row.push_back(v.boolean.at(i) ? "true" : "false"); break;
      }
    }
    t.push_back(std::move(row));
  }
  return t;
}

Table table_of_tsv(const std::string& tsv) {
  Table t;
  std::size_t at = 0;
  while (at < tsv.size()) {
    const std::size_t eol = tsv.find('\n', at);
    const std::string line = tsv.substr(at, eol - at);
    std::vector<std::string> fields;
    std::size_t from = 0;
    for (;;) {
      const std::size_t tab = line.find('\t', from);
      fields.push_back(line.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
      if (tab == std::string::npos) break;
      from = tab + 1;
    }
    t.push_back(std::move(fields));
    at = eol + 1;
  }
  return t;
}

// Column name -> (physical type, UTF8 annotation) as the README's Output section gives them.
void check_types(const tp::File& f) {
  for (const tp::SchemaColumn& c : f.columns) {
    CAPTURE(c.name);
    const bool text = c.name == "pat_id" || c.name == "text_id" || c.name == "strand" ||
                      c.name == "match_region" || c.name == "cigar";
    const bool int32 = c.name == "cost";
    const bool boolean = c.name == "contains";
    const tp::PhysicalType want = text      ? tp::PhysicalType::byte_array
                                  : int32   ? tp::PhysicalType::int32
                                  : boolean ? tp::PhysicalType::boolean
                                            : tp::PhysicalType::int64;
    CHECK(c.type == want);
    if (text) CHECK(c.converted_type == std::optional<std::int32_t>(tp::kConvertedUtf8));
  }
}

RecordBatch batch_5_to_7() {
  return make_batch({{"read1", "AACGTTTGCA"}, {"r1", "GT"}, {"rec 3 full header", "ttacgRNaa"}}, 5);
}

BatchResults hits_5_to_7() {
  BatchResults r;
  add_hit(r.hits, 0, 5, Strand::fwd, 0, 1, 5, {{4, '='}});
  add_hit(r.hits, 0, 5, Strand::rc, 1, 2, 6, {{2, '='}, {1, 'X'}, {1, '='}});
  add_hit(r.hits, 0, 5, Strand::rc, 1, 2, 6, {{2, '='}, {1, 'X'}, {1, '='}});  // a repeated CIGAR
  add_hit(r.hits, 1, 5, Strand::fwd, 12, 0, 10, {{3, '='}, {1, 'I'}, {1, 'D'}, {100, '='}});
  add_hit(r.hits, 0, 6, Strand::fwd, 1, 0, 2, {{2, '='}}, 2, 4);
  add_hit(r.hits, 0, 6, Strand::fwd, 1, 2, 2, {}, 4, 4);
  add_hit(r.hits, 1, 7, Strand::rc, 345, 1, 8, {{6, '='}, {1, 'D'}}, 0, 7);
  add_hit(r.hits, 2, 7, Strand::fwd, 6789, 0, 3, {{3, 'X'}}, 0, 3);
  return r;
}

ParquetOptions popts(parquet::Compression c = parquet::Compression::zstd, std::size_t group_rows = 1 << 20) {
  ParquetOptions o;
  o.compression = c;
  o.row_group_rows = group_rows;
  o.version = "9.9.9-test";
  o.command_line = "trawl hits -k 1 -p ACGT";
  return o;
}

// Both sinks made by `make` (tsv: popts null) over the same batches; returns the outputs.
template <class MakeTsv, class MakeParquet>
std::pair<Table, tp::File> both(MakeTsv make_tsv, MakeParquet make_parquet,
                                const std::vector<std::pair<RecordBatch, BatchResults>>& batches) {
  StringSink tsv_out, pq_out;
  auto tsv = make_tsv(tsv_out);
  auto pq = make_parquet(pq_out);
  for (const auto& [batch, results] : batches) {
    feed(*tsv, batch, results);
    feed(*pq, batch, results);
  }
  tsv->close();
  pq->close();
  return {table_of_tsv(tsv_out.bytes), decode(pq_out)};
}

}  // namespace

TEST_CASE("parquet hits: the TSV sink's columns and rows, typed, for each column choice") {
  HitColumns plain, sam, lean, extra;
  sam.sam = true;
  lean.region = lean.cigar = false;
  extra.extra = {ExtraColumn::pattern_start, ExtraColumn::pattern_end, ExtraColumn::pat_idx, ExtraColumn::text_idx};
  for (const HitColumns& cols : {plain, sam, lean, extra}) {
    const AlphabetSpec iupac{Alphabet::iupac, false};
    const auto [tsv, file] = both(
        [&](ByteSink& o) { return make_tsv_hits_sink(o, pattern_set(), iupac, cols); },
        [&](ByteSink& o) { return make_parquet_hits_sink(o, pattern_set(), iupac, cols, popts()); },
        {{batch_5_to_7(), hits_5_to_7()}});
    CAPTURE(cols.sam);
    CAPTURE(cols.region);
    CAPTURE(cols.extra.size());
    CHECK(table_of(file) == tsv);
    CHECK(file.num_rows == 8);
    check_types(file);
  }
  // Spot checks of the decoded values themselves.
  StringSink out;
  auto sink = make_parquet_hits_sink(out, pattern_set(), AlphabetSpec{}, HitColumns{}, popts());
  feed(*sink, batch_5_to_7(), hits_5_to_7());
  sink->close();
  const tp::File f = decode(out);
  REQUIRE(f.columns.size() == 8);
  CHECK(f.values[2].i32 == std::vector<std::int32_t>{0, 1, 1, 12, 1, 1, 345, 6789});
  CHECK(f.values[3].str == std::vector<std::string>{"+", "-", "-", "+", "+", "+", "-", "+"});
  CHECK(f.values[4].i64 == std::vector<std::int64_t>{1, 2, 2, 0, 0, 2, 1, 0});
  CHECK(f.values[6].str[1] == "AACG");
  CHECK(f.values[6].str[6] == "tNYcgta");
  CHECK(f.values[7].str == std::vector<std::string>{"4=", "2=1X1=", "2=1X1=", "3=1I1D100=", "2=", "", "6=1D", "3X"});
}

TEST_CASE("parquet hits: no hits gives a valid file with the schema and zero rows") {
  StringSink out;
  auto sink = make_parquet_hits_sink(out, pattern_set(), AlphabetSpec{}, HitColumns{}, popts());
  feed(*sink, batch_5_to_7(), BatchResults{});
  sink->close();
  const tp::File f = decode(out);
  CHECK(f.num_rows == 0);
  REQUIRE(f.columns.size() == 8);
  CHECK(f.columns[0].name == "pat_id");
  CHECK(f.columns[7].name == "cigar");
  check_types(f);
}

TEST_CASE("parquet hits: row groups of the asked size, each compression, version metadata") {
  std::vector<std::pair<RecordBatch, BatchResults>> batches;
  for (std::uint64_t b = 0; b < 4; ++b) {
    BatchResults r;
    for (std::uint64_t i = 0; i < 5; ++i)
      add_hit(r.hits, static_cast<std::uint32_t>(i % 2), b, i % 3 ? Strand::fwd : Strand::rc,
              static_cast<std::int32_t>(i), i, i + 4, {{4, '='}});
    batches.emplace_back(make_batch({{"rec" + std::to_string(b), "ACGTACGTACGT"}}, b), std::move(r));
  }
  for (auto c : {parquet::Compression::none, parquet::Compression::snappy, parquet::Compression::zstd}) {
    const AlphabetSpec dna{Alphabet::dna, false};
    const auto [tsv, file] = both(
        [&](ByteSink& o) { return make_tsv_hits_sink(o, pattern_set(), dna, HitColumns{}); },
        [&](ByteSink& o) { return make_parquet_hits_sink(o, pattern_set(), dna, HitColumns{}, popts(c, 3)); },
        batches);
    CAPTURE(static_cast<int>(c));
    CHECK(table_of(file) == tsv);
    CHECK(file.num_rows == 20);
    REQUIRE(file.row_groups.size() == 7);  // ceil(20 / 3)
    for (const tp::RowGroup& g : file.row_groups) CHECK(g.num_rows <= 3);
    const std::int32_t codec = c == parquet::Compression::none     ? tp::kCodecUncompressed
                               : c == parquet::Compression::snappy ? tp::kCodecSnappy
                                                                   : tp::kCodecZstd;
    CHECK(file.row_groups[0].columns[0].codec == codec);
    CHECK(file.created_by == std::optional<std::string>("trawl version 9.9.9-test"));
    bool version = false, command = false;
    for (const auto& [key, value] : file.key_value_metadata) {
      version = version || (key == "trawl.version" && value == std::optional<std::string>("9.9.9-test"));
      command = command || (key == "trawl.command_line" && value == std::optional<std::string>("trawl hits -k 1 -p ACGT"));
    }
    CHECK(version);
    CHECK(command);
  }
}

TEST_CASE("parquet hits: invalid UTF-8 in names and regions becomes U+FFFD; valid UTF-8 is kept") {
  const RecordBatch batch = make_batch({{"bad\xff" "name", "AC\x80GT"}, {"caf\xc3\xa9", "ACGT"}}, 0);
  BatchResults r;
  add_hit(r.hits, 0, 0, Strand::fwd, 1, 0, 5, {{2, '='}, {1, 'D'}, {2, '='}});
  add_hit(r.hits, 0, 1, Strand::fwd, 0, 0, 4, {{4, '='}});
  StringSink out;
  auto sink = make_parquet_hits_sink(out, pattern_set(), AlphabetSpec{}, HitColumns{}, popts());
  feed(*sink, batch, r);
  sink->close();
  const tp::File f = decode(out);
  CHECK(f.values[1].str == std::vector<std::string>{"bad\xef\xbf\xbdname", "caf\xc3\xa9"});
  CHECK(f.values[6].str == std::vector<std::string>{"AC\xef\xbf\xbdGT", "ACGT"});
}

TEST_CASE("parquet count: pairs and --by pattern totals, as the TSV sink writes them") {
  const RecordBatch first = make_batch({{"read1", "A"}, {"r1", "C"}}, 5);
  const RecordBatch second = make_batch({{"rec 3", "G"}}, 7);
  BatchResults c1, c2;
  c1.pair_counts = {{5, 0, 3}, {5, 1, 1}, {6, 0, 0}};
  c2.pair_counts = {{7, 1, 2}, {7, 2, 1234567}};
  for (bool totals : {false, true}) {
    ResultShape shape{Command::count};
    shape.per_pattern_totals = totals;
    const auto [tsv, file] = both(
        [&](ByteSink& o) { return make_tsv_count_sink(o, pattern_set(), shape); },
        [&](ByteSink& o) { return make_parquet_count_sink(o, pattern_set(), shape, popts()); },
        {{first, c1}, {second, c2}});
    CAPTURE(totals);
    CHECK(table_of(file) == tsv);
    CHECK(file.num_rows == (totals ? 3 : 5));
    check_types(file);
    if (totals) {
      REQUIRE(file.columns.size() == 3);
      CHECK(file.columns[2].name == "records");
      CHECK(file.values[1].i64 == std::vector<std::int64_t>{3, 3, 1234567});
      CHECK(file.values[2].i64 == std::vector<std::int64_t>{1, 2, 1});
    } else {
      CHECK(file.values[2].i64 == std::vector<std::int64_t>{3, 1, 0, 2, 1234567});
    }
  }
}

TEST_CASE("parquet count: a count beyond INT32 is written whole, as INT64") {
  StringSink out;
  ResultShape totals{Command::count};
  totals.per_pattern_totals = true;
  auto sink = make_parquet_count_sink(out, pattern_set(), totals, popts());
  BatchResults r;
  r.pair_counts = {{0, 0, 2000000000u}};
  const RecordBatch batch = make_batch({{"a", "A"}, {"b", "C"}}, 0);
  feed(*sink, batch, r);
  r.pair_counts = {{1, 0, 2000000000u}};
  feed(*sink, batch, r);
  sink->close();
  const tp::File f = decode(out);
  REQUIRE(f.columns.size() == 3);
  CHECK(f.columns[1].type == tp::PhysicalType::int64);
  CHECK(f.values[1].i64.at(0) == 4000000000);
  CHECK(f.values[2].i64.at(0) == 2);
}

TEST_CASE("parquet contains: per record and per pair, BOOLEAN, as the TSV sink writes them") {
  const RecordBatch batch = make_batch({{"read1", "A"}, {"r1", "C"}, {"rec 3", "G"}}, 5);
  BatchResults per_record;
  per_record.contains = {1, 0, 1};
  BatchResults per_pair_results;
  per_pair_results.pair_counts = {{5, 0, 1}, {5, 1, 0}, {6, 0, 0}, {7, 1, 4}};
  for (bool per_pair : {false, true}) {
    ResultShape shape{Command::contains};
    shape.per_pair = per_pair;
    const BatchResults& r = per_pair ? per_pair_results : per_record;
    const auto [tsv, file] = both(
        [&](ByteSink& o) { return make_tsv_contains_sink(o, pattern_set(), shape); },
        [&](ByteSink& o) { return make_parquet_contains_sink(o, pattern_set(), shape, popts()); },
        {{batch, r}});
    CAPTURE(per_pair);
    CHECK(table_of(file) == tsv);
    check_types(file);
    const tp::ColumnValues& flags = file.values.back();
    CHECK(flags.boolean == (per_pair ? std::vector<bool>{true, false, false, true} : std::vector<bool>{true, false, true}));
  }
}
