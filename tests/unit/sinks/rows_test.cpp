// The one row model: the columns of every command and option combination, and the fields
// of each kind of row (a hit on either strand with and without --sam, the --columns extras,
// a pair count, a contains flag, a pattern total), visited in the order of the columns.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "trawl/io/byte_sink.h"
#include "trawl/sinks/rows.h"
#include "trawl/sinks/sinks.h"

using namespace trawl;
using rows::Field;
using rows::Kind;

namespace {

std::vector<std::string> names(const rows::RowModel& m) {
  std::vector<std::string> out;
  for (const rows::Column& c : m.columns()) out.emplace_back(c.name);
  return out;
}

std::vector<Kind> kinds(const rows::RowModel& m) {
  std::vector<Kind> out;
  for (const rows::Column& c : m.columns()) out.push_back(c.kind);
  return out;
}

// Every field of every row as (field, text), the way a writer sees them.
struct Recorder {
  using Row = std::vector<std::pair<Field, std::string>>;
  std::vector<Row> rows;
  std::size_t announced = 0;
  PatternSet::IdRoom room{};

  void begin_rows(std::size_t n) { announced += n; }
  void begin_row() { rows.emplace_back(); }
  void end_row() {}
  void pair(std::size_t col, const rows::PairIds& ids) {
    add(col, Field::pat_id, std::string(ids.pattern.spell(room)));
    add(col + 1, Field::text_id, std::string(ids.record.spell()));
  }
  template <Field F> void field(std::size_t col, const rows::PatternId& id) { add(col, F, std::string(id.spell(room))); }
  template <Field F> void field(std::size_t col, const rows::RecordId& id) { add(col, F, std::string(id.spell())); }
  template <Field F> void field(std::size_t col, std::int32_t v) { add(col, F, std::to_string(v)); }
  template <Field F> void field(std::size_t col, std::uint64_t v) { add(col, F, std::to_string(v)); }
  template <Field F> void field(std::size_t col, bool v) { add(col, F, v ? "true" : "false"); }
  template <Field F> void field(std::size_t col, Strand s) { add(col, F, std::string(1, strand_char(s))); }
  template <Field F> void field(std::size_t col, const rows::Region& r) {
    std::string s(r.text());
    if (r.revcomp != nullptr) {
      std::string rc;
      for (auto it = s.rbegin(); it != s.rend(); ++it) rc.push_back(static_cast<char>(r.revcomp->complement(static_cast<std::uint8_t>(*it))));
      s = rc;
    }
    add(col, F, s);
  }
  template <Field F> void field(std::size_t col, const rows::Cigar& c) {
    std::string s;
    append_cigar(s, c.ops, c.reversed);
    add(col, F, s);
  }
  // `col` must be the field's position in the row.
  void add(std::size_t col, Field f, std::string v) {
    CHECK(col == rows.back().size());
    rows.back().emplace_back(f, std::move(v));
  }
};

// Each row visits exactly the model's columns, in order.
void check_row_fields(const rows::RowModel& m, const Recorder& rec) {
  CHECK(rec.announced == rec.rows.size());
  for (const Recorder::Row& row : rec.rows) {
    REQUIRE(row.size() == m.columns().size());
    for (std::size_t i = 0; i < row.size(); ++i) CHECK(row[i].first == m.columns()[i].field);
  }
}

std::vector<std::string> values(const Recorder::Row& row) {
  std::vector<std::string> out;
  for (const auto& f : row) out.push_back(f.second);
  return out;
}

// Two records: r0 "AACGTT" (pattern 0 hits it on both strands), r1 "GGGG".
struct Fixture {
  SearchOptions opt;
  PatternSet patterns{{{"p0", "ACG"}, {"p1", "GG"}}, opt};
  RecordBatch batch;
  BatchResults results;

  Fixture() {
    batch.first_record = 10;
    batch.names = "r0r1";
    batch.seqs = "AACGTTGGGG";
    batch.name_spans = {{0, 2}, {2, 2}};
    batch.seq_spans = {{0, 6}, {6, 4}};
    batch.seq_bases = 10;
    // '+' hit of p0 at [1, 4) "ACG" with one substitution-free CIGAR, '-' hit at [2, 5) "CGT"
    // (revcomp "ACG") with a CIGAR of two runs to show the --sam reversal.
    results.hits.cigar_ops = {{3, '='}, {1, '='}, {2, 'X'}};
    results.hits.hits = {
        Hit{10, 1, 4, 0, 0, 3, 0, Strand::fwd, 0, 1},
        Hit{10, 2, 5, 0, 1, 2, 1, Strand::rc, 1, 2},
    };
    results.pair_counts = {{10, 0, 2}, {11, 1, 0}};
    results.contains = {1, 0};
  }
};

struct StringSink : ByteSink {
  std::string data;
  void write(const void* p, std::size_t n) override { data.append(static_cast<const char*>(p), n); }
};

}  // namespace

TEST_CASE("rows: hits columns follow --no-region, --no-cigar and --columns") {
  Fixture f;
  HitColumns c;
  CHECK(names(rows::RowModel::hits(f.patterns, f.opt.alphabet, c)) ==
        std::vector<std::string>{"pat_id", "text_id", "cost", "strand", "start", "end", "match_region", "cigar"});
  CHECK(kinds(rows::RowModel::hits(f.patterns, f.opt.alphabet, c)) ==
        std::vector<Kind>{Kind::string, Kind::string, Kind::int32, Kind::string, Kind::int64, Kind::int64,
                          Kind::string, Kind::string});
  c.region = false;
  CHECK(names(rows::RowModel::hits(f.patterns, f.opt.alphabet, c)) ==
        std::vector<std::string>{"pat_id", "text_id", "cost", "strand", "start", "end", "cigar"});
  c.cigar = false;
  c.region = true;
  CHECK(names(rows::RowModel::hits(f.patterns, f.opt.alphabet, c)) ==
        std::vector<std::string>{"pat_id", "text_id", "cost", "strand", "start", "end", "match_region"});
  c.region = false;
  c.extra = {ExtraColumn::text_idx, ExtraColumn::pattern_start, ExtraColumn::pattern_end, ExtraColumn::pat_idx};
  const rows::RowModel m = rows::RowModel::hits(f.patterns, f.opt.alphabet, c);
  CHECK(names(m) == std::vector<std::string>{"pat_id", "text_id", "cost", "strand", "start", "end", "text_idx",
                                             "pattern_start", "pattern_end", "pat_idx"});
  CHECK(kinds(m).back() == Kind::int64);
  CHECK_FALSE(m.totals());
}

TEST_CASE("rows: count and contains columns for each shape") {
  Fixture f;
  ResultShape s;
  s.command = Command::count;
  CHECK(names(rows::RowModel::count(f.patterns, s)) == std::vector<std::string>{"pat_id", "text_id", "count"});
  CHECK(kinds(rows::RowModel::count(f.patterns, s)) == std::vector<Kind>{Kind::string, Kind::string, Kind::int64});
  s.per_pattern_totals = true;
  CHECK(names(rows::RowModel::count(f.patterns, s)) == std::vector<std::string>{"pat_id", "count", "records"});
  CHECK(kinds(rows::RowModel::count(f.patterns, s)) == std::vector<Kind>{Kind::string, Kind::int64, Kind::int64});
  CHECK(rows::RowModel::count(f.patterns, s).totals());
  s = {};
  s.command = Command::contains;
  CHECK(names(rows::RowModel::contains(f.patterns, s)) == std::vector<std::string>{"text_id", "contains"});
  CHECK(kinds(rows::RowModel::contains(f.patterns, s)) == std::vector<Kind>{Kind::string, Kind::boolean});
  s.per_pair = true;
  CHECK(names(rows::RowModel::contains(f.patterns, s)) == std::vector<std::string>{"pat_id", "text_id", "contains"});
  CHECK(kinds(rows::RowModel::contains(f.patterns, s)).back() == Kind::boolean);
}

TEST_CASE("rows: hit fields, '-' strand in pattern direction, or text direction with --sam") {
  Fixture f;
  HitColumns c;
  c.extra = {ExtraColumn::pattern_start, ExtraColumn::pattern_end, ExtraColumn::pat_idx, ExtraColumn::text_idx};
  {
    const rows::RowModel m = rows::RowModel::hits(f.patterns, f.opt.alphabet, c);
    Recorder rec;
    m.batch_rows(f.batch, f.results, rec);
    REQUIRE(rec.rows.size() == 2);
    check_row_fields(m, rec);
    CHECK(values(rec.rows[0]) ==
          std::vector<std::string>{"p0", "r0", "0", "+", "1", "4", "ACG", "3=", "0", "3", "0", "10"});
    CHECK(values(rec.rows[1]) ==
          std::vector<std::string>{"p0", "r0", "1", "-", "2", "5", "ACG", "1=2X", "1", "2", "0", "10"});
  }
  c.sam = true;
  {
    const rows::RowModel m = rows::RowModel::hits(f.patterns, f.opt.alphabet, c);
    Recorder rec;
    m.batch_rows(f.batch, f.results, rec);
    check_row_fields(m, rec);
    CHECK(values(rec.rows[0])[6] == "ACG");
    CHECK(values(rec.rows[1])[6] == "CGT");
    CHECK(values(rec.rows[1])[7] == "2X1=");
  }
  c = {};
  c.region = c.cigar = false;
  const rows::RowModel m = rows::RowModel::hits(f.patterns, f.opt.alphabet, c);
  Recorder rec;
  m.batch_rows(f.batch, f.results, rec);
  check_row_fields(m, rec);
  CHECK(values(rec.rows[1]) == std::vector<std::string>{"p0", "r0", "1", "-", "2", "5"});
}

TEST_CASE("rows: pair counts, contains flags and pattern totals") {
  Fixture f;
  ResultShape s;
  s.command = Command::count;
  {
    const rows::RowModel m = rows::RowModel::count(f.patterns, s);
    Recorder rec;
    m.batch_rows(f.batch, f.results, rec);
    check_row_fields(m, rec);
    REQUIRE(rec.rows.size() == 2);
    CHECK(values(rec.rows[0]) == std::vector<std::string>{"p0", "r0", "2"});
    CHECK(values(rec.rows[1]) == std::vector<std::string>{"p1", "r1", "0"});
  }
  s.per_pattern_totals = true;
  {
    const rows::RowModel m = rows::RowModel::count(f.patterns, s);
    Recorder rec;
    m.batch_rows(f.batch, f.results, rec);
    CHECK(rec.rows.empty());  // totals come at the end
    rows::PatternTotals totals(f.patterns.size());
    totals.add(f.results.pair_counts);
    totals.add(f.results.pair_counts);
    m.total_rows(totals, 0, totals.size(), rec);
    check_row_fields(m, rec);
    REQUIRE(rec.rows.size() == 2);
    CHECK(values(rec.rows[0]) == std::vector<std::string>{"p0", "4", "2"});
    CHECK(values(rec.rows[1]) == std::vector<std::string>{"p1", "0", "0"});
  }
  s = {};
  s.command = Command::contains;
  {
    const rows::RowModel m = rows::RowModel::contains(f.patterns, s);
    Recorder rec;
    m.batch_rows(f.batch, f.results, rec);
    check_row_fields(m, rec);
    REQUIRE(rec.rows.size() == 2);
    CHECK(values(rec.rows[0]) == std::vector<std::string>{"r0", "true"});
    CHECK(values(rec.rows[1]) == std::vector<std::string>{"r1", "false"});
  }
  s.per_pair = true;
  const rows::RowModel m = rows::RowModel::contains(f.patterns, s);
  Recorder rec;
  m.batch_rows(f.batch, f.results, rec);
  check_row_fields(m, rec);
  CHECK(values(rec.rows[0]) == std::vector<std::string>{"p0", "r0", "true"});
  CHECK(values(rec.rows[1]) == std::vector<std::string>{"p1", "r1", "false"});
}

TEST_CASE("rows: the TSV sinks write the model's header and rows") {
  Fixture f;
  auto tsv = [&](std::unique_ptr<ResultSink> sink, StringSink& out) {
    FormattedBatch formatted;
    sink->format(f.batch, f.results, formatted);
    sink->write(f.batch, f.results, formatted);
    sink->close();
    return out.data;
  };
  HitColumns c;
  c.sam = true;
  c.extra = {ExtraColumn::text_idx};
  StringSink hits;
  CHECK(tsv(make_tsv_hits_sink(hits, f.patterns, f.opt.alphabet, c), hits) ==
        "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar\ttext_idx\n"
        "p0\tr0\t0\t+\t1\t4\tACG\t3=\t10\n"
        "p0\tr0\t1\t-\t2\t5\tCGT\t2X1=\t10\n");
  ResultShape s;
  s.command = Command::count;
  s.per_pattern_totals = true;
  StringSink totals;
  CHECK(tsv(make_tsv_count_sink(totals, f.patterns, s), totals) == "pat_id\tcount\trecords\np0\t2\t1\np1\t0\t0\n");
  s = {};
  s.command = Command::contains;
  StringSink contains;
  CHECK(tsv(make_tsv_contains_sink(contains, f.patterns, s), contains) == "text_id\tcontains\nr0\ttrue\nr1\tfalse\n");
}
