#pragma once
// The one row model of every result sink (docs/semantics.md §9, and the README's Output):
// which columns a command has, in which order, with which names and value kinds, and how a
// hit, a pair count, a contains flag or a pattern total becomes the fields of a row. A
// writer (TSV text, Parquet columns, later BED/PAF/SAM) only turns fields into bytes, so a
// column is added here once and a format is one writer.
//
// Writers see the rows through an inline interface, resolved at compile time (no virtual
// call per field: dense outputs have millions of rows per second). A writer `Out` has:
//   void begin_rows(std::size_t n);      the next n rows (those of one call)
//   void begin_row();  void end_row();
//   void pair(std::size_t col, const rows::PairIds&);   columns col, col + 1: pat_id, text_id
//   template <rows::Field F> void field(std::size_t col, V value);
// where col is the column's index in columns() (a writer of typed columns needs no running
// count of its own, whose every increment would go through memory), and V one of PatternId, RecordId (string columns), std::int32_t, std::uint64_t (int32
// and int64 columns; a writer checks the range of an int32 column), Strand, Region, Cigar
// (string columns) and bool. Each row visits the fields of columns() in their order.
// Optionally, `void hit_row_sizes(std::size_t region_bytes, std::size_t cigar_runs)`: called
// before a hit row's pair with the lengths of its match_region and CIGAR.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trawl/core/alphabet.h"
#include "trawl/core/hit.h"
#include "trawl/core/pattern_set.h"
#include "trawl/core/results.h"
#include "trawl/io/record_batch.h"

namespace trawl {

enum class ExtraColumn : std::uint8_t { pattern_start, pattern_end, pat_idx, text_idx };

// The columns of `hits` rows the user chose (--no-region, --no-cigar, --sam, --columns).
struct HitColumns {
  bool region = true;  // match_region
  bool cigar = true;
  bool sam = false;    // '-' rows: region and CIGAR in text direction
  bool mate = false;   // a mate column after text_id (paired input)
  std::vector<ExtraColumn> extra;  // appended after the standard columns, in this order
};

namespace rows {

// How a writer stores a column's values (Parquet: UTF8, INT32, INT64, BOOLEAN).
enum class Kind : std::uint8_t { string, int32, int64, boolean };

// A column's identity and the source of its value.
enum class Field : std::uint8_t {
  pat_id, text_id, cost, strand, start, end, match_region, cigar,
  pattern_start, pattern_end, pat_idx, text_idx, count, records, contains, mate
};

struct Column {
  Field field;
  std::string_view name;  // the header / schema name
  Kind kind;
};

// The name and kind of a field (the same in every command that has it).
constexpr Column column(Field f) {
  switch (f) {
    case Field::pat_id: return {f, "pat_id", Kind::string};
    case Field::text_id: return {f, "text_id", Kind::string};
    case Field::cost: return {f, "cost", Kind::int32};
    case Field::strand: return {f, "strand", Kind::string};
    case Field::start: return {f, "start", Kind::int64};
    case Field::end: return {f, "end", Kind::int64};
    case Field::match_region: return {f, "match_region", Kind::string};
    case Field::cigar: return {f, "cigar", Kind::string};
    case Field::pattern_start: return {f, "pattern_start", Kind::int64};
    case Field::pattern_end: return {f, "pattern_end", Kind::int64};
    case Field::pat_idx: return {f, "pat_idx", Kind::int64};
    case Field::text_idx: return {f, "text_idx", Kind::int64};
    case Field::count: return {f, "count", Kind::int64};
    case Field::records: return {f, "records", Kind::int64};
    case Field::contains: return {f, "contains", Kind::boolean};
    case Field::mate: return {f, "mate", Kind::int32};
  }
  return {f, "", Kind::string};
}

// A pattern's id, spelled on demand (a list pattern's id is made from its line number);
// `idx` also keys it, so a writer may spell a run of equal ids once.
struct PatternId {
  const PatternSet* patterns;
  std::uint32_t idx;
  std::string_view spell(PatternSet::IdRoom& room) const { return patterns->id(idx, room); }
};

// A record's text_id; `idx` (global, 0-based) keys it. Valid while the batch is.
struct RecordId {
  const RecordBatch* batch;
  std::uint64_t idx;
  std::string_view spell() const {
    return batch->name(static_cast<std::size_t>(idx - batch->first_record));
  }
};

// The pat_id and text_id of a (pattern, record) pair, the first two columns of its rows.
// `shared`: neighbouring rows often have the same pair (hits), so spelling it once pays.
struct PairIds {
  PatternId pattern;
  RecordId record;
  bool shared;
};

// match_region: text[start, end) of record `record`, whose whole sequence is `seq`; written
// reverse-complemented through `revcomp` where that is set (a '-' hit outside --sam).
struct Region {
  std::string_view seq;
  std::uint64_t record;
  std::uint64_t start, end;
  const AlphabetSpec* revcomp;
  std::string_view text() const { return std::string_view(seq.data() + start, end - start); }
};

// cigar: the runs in pattern direction, written last to first where `reversed` (a '-' hit
// with --sam: text direction).
struct Cigar {
  std::span<const CigarOp> ops;
  bool reversed;
};

// Per pattern totals of `count --by pattern` over the whole input. Serial use.
class PatternTotals {
 public:
  explicit PatternTotals(std::size_t patterns) : hits_(patterns, 0), records_(patterns, 0) {}
  void add(std::span<const PairCount> pairs) {
    for (const PairCount& pc : pairs) {
      hits_[pc.pattern_idx] += pc.count;
      records_[pc.pattern_idx] += pc.count > 0;
    }
  }
  std::size_t size() const { return hits_.size(); }
  std::uint64_t hits(std::size_t i) const { return hits_[i]; }
  std::uint64_t records(std::size_t i) const { return records_[i]; }

 private:
  std::vector<std::uint64_t> hits_, records_;
};

// The rows of one command with its options. Immutable after construction; thread safe.
class RowModel {
 public:
  // `hits`: pat_id text_id [mate] cost strand start end [match_region] [cigar] [extras...].
  static RowModel hits(const PatternSet& patterns, const AlphabetSpec& alphabet, HitColumns columns);
  // `count`: pat_id text_id [mate] count per pair, or with shape.per_pattern_totals
  // pat_id count records per pattern (totals() rows, made at the end; never a mate).
  static RowModel count(const PatternSet& patterns, const ResultShape& shape);
  // `contains`: text_id [mate] contains per record, or with shape.per_pair
  // pat_id text_id [mate] contains. [mate]: where shape.mate.
  static RowModel contains(const PatternSet& patterns, const ResultShape& shape);

  const std::vector<Column>& columns() const { return columns_; }
  // Rows are per-pattern totals over the whole input: batches give none, add them to a
  // PatternTotals and visit total_rows() at the end.
  bool totals() const { return source_ == Source::pattern_totals; }
  const PatternSet& patterns() const { return *patterns_; }

  // Visits the rows of one batch, in output order (none for totals()). Inlined into the
  // writer's caller, whose writer object then stays in registers.
  template <class Out>
  [[gnu::always_inline]] inline void batch_rows(const RecordBatch& batch, const BatchResults& results, Out& out) const;
  // Visits the total rows of patterns [first, first + n).
  template <class Out>
  void total_rows(const PatternTotals& totals, std::size_t first, std::size_t n, Out& out) const;

 private:
  enum class Source : std::uint8_t { hits, pair_counts, pair_flags, record_flags, pattern_totals };
  RowModel(const PatternSet& patterns, Source source, std::vector<Column> columns)
      : patterns_(&patterns), source_(source), columns_(std::move(columns)) {}

  // (Inlined into the row loop: a call per row costs more than most of its fields.)
  // kDefault: the default columns (region and CIGAR in pattern direction, no extras), known
  // at compile time so that a dense output's rows test no options.
  template <bool kDefault, class Out>
  [[gnu::always_inline]] inline void hit_row(const RecordBatch& batch, const HitList& hits, const Hit& h,
                                             Out& out) const;
  bool default_hit_columns() const {
    return hit_columns_.region && hit_columns_.cigar && !hit_columns_.sam && !hit_columns_.mate &&
           hit_columns_.extra.empty();
  }
  // The mate column of record `text_idx` at `col`, where the rows have one (paired input
  // is interleaved: even records are mate 1); returns the next column.
  template <class Out>
  [[gnu::always_inline]] std::size_t mate_field(std::size_t col, std::uint64_t text_idx, Out& out) const {
    if (!mate_) return col;
    out.template field<Field::mate>(col, static_cast<std::int32_t>(text_idx % 2 + 1));
    return col + 1;
  }

  const PatternSet* patterns_;
  Source source_;
  std::vector<Column> columns_;
  HitColumns hit_columns_;
  AlphabetSpec alphabet_{};
  bool mate_ = false;  // rows have a mate column after text_id
};

template <bool kDefault, class Out>
void RowModel::hit_row(const RecordBatch& batch, const HitList& hits, const Hit& h, Out& out) const {
  const auto r = static_cast<std::size_t>(h.text_idx - batch.first_record);
  out.begin_row();
  // A writer that makes room row by row may take the row's variable sizes first, to make
  // room once (a check per field showed in dense outputs).
  if constexpr (requires { out.hit_row_sizes(std::size_t{}, std::size_t{}); })
    out.hit_row_sizes(h.end - h.start, h.cigar_count);
  out.pair(0, PairIds{{patterns_, h.pattern_idx}, {&batch, h.text_idx}, true});
  // (kDefault rows have no mate column, so their column numbers stay constants.)
  std::size_t col = kDefault ? 2 : mate_field(2, h.text_idx, out);
  out.template field<Field::cost>(col++, h.cost);
  out.template field<Field::strand>(col++, h.strand);
  out.template field<Field::start>(col++, h.start);
  out.template field<Field::end>(col++, h.end);
  // A '-' hit reads in pattern direction (docs/semantics.md §4) unless --sam asks otherwise.
  const bool rc = h.strand == Strand::rc;
  const bool sam = !kDefault && hit_columns_.sam;
  if (kDefault || hit_columns_.region)
    out.template field<Field::match_region>(
        col++, Region{batch.seq(r), h.text_idx, h.start, h.end, rc && !sam ? &alphabet_ : nullptr});
  if (kDefault || hit_columns_.cigar) out.template field<Field::cigar>(col++, Cigar{hits.cigar(h), rc && sam});
  if constexpr (kDefault) {
    out.end_row();
    return;
  }
  for (ExtraColumn c : hit_columns_.extra) {
    switch (c) {
      case ExtraColumn::pattern_start: out.template field<Field::pattern_start>(col++, std::uint64_t{h.pattern_start}); break;
      case ExtraColumn::pattern_end: out.template field<Field::pattern_end>(col++, std::uint64_t{h.pattern_end}); break;
      case ExtraColumn::pat_idx: out.template field<Field::pat_idx>(col++, std::uint64_t{h.pattern_idx}); break;
      case ExtraColumn::text_idx: out.template field<Field::text_idx>(col++, std::uint64_t{h.text_idx}); break;
    }
  }
  out.end_row();
}

template <class Out>
void RowModel::batch_rows(const RecordBatch& batch, const BatchResults& results, Out& out) const {
  switch (source_) {
    case Source::hits:
      out.begin_rows(results.hits.hits.size());
      if (default_hit_columns())
        for (const Hit& h : results.hits.hits) hit_row<true>(batch, results.hits, h, out);
      else
        for (const Hit& h : results.hits.hits) hit_row<false>(batch, results.hits, h, out);
      break;
    case Source::pair_counts:
    case Source::pair_flags:
      out.begin_rows(results.pair_counts.size());
      for (const PairCount& pc : results.pair_counts) {
        out.begin_row();
        out.pair(0, PairIds{{patterns_, pc.pattern_idx}, {&batch, pc.text_idx}, false});
        const std::size_t col = mate_field(2, pc.text_idx, out);
        if (source_ == Source::pair_counts)
          out.template field<Field::count>(col, std::uint64_t{pc.count});
        else
          out.template field<Field::contains>(col, pc.count > 0);
        out.end_row();
      }
      break;
    case Source::record_flags:
      out.begin_rows(results.contains.size());
      for (std::size_t r = 0; r < results.contains.size(); ++r) {
        out.begin_row();
        out.template field<Field::text_id>(0, RecordId{&batch, batch.first_record + r});
        out.template field<Field::contains>(mate_field(1, batch.first_record + r, out), results.contains[r] != 0);
        out.end_row();
      }
      break;
    case Source::pattern_totals: break;
  }
}

template <class Out>
void RowModel::total_rows(const PatternTotals& totals, std::size_t first, std::size_t n, Out& out) const {
  out.begin_rows(n);
  for (std::size_t i = first; i < first + n; ++i) {
    out.begin_row();
    out.template field<Field::pat_id>(0, PatternId{patterns_, static_cast<std::uint32_t>(i)});
    out.template field<Field::count>(1, totals.hits(i));
    out.template field<Field::records>(2, totals.records(i));
    out.end_row();
  }
}

}  // namespace rows
}  // namespace trawl
