// Parquet sinks: the rows of the row model (trawl/sinks/rows.h), written through our own
// Parquet writer. format() (parallel) fills typed columns; write() (serial) appends them, so
// the writer itself is only touched by one thread.
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "trawl/core/errors.h"
#include "trawl/sinks/parquet_writer.h"
#include "trawl/sinks/sinks.h"

namespace trawl {
namespace {

using parquet::Column;
using parquet::Type;

// Parquet strings must be UTF-8; record names and sequence bytes need not be. Invalid
// sequences become U+FFFD (as Sassy writes its TSV "lossily as UTF-8").
std::string_view valid_utf8(std::string_view in, std::string& scratch) {
  std::size_t i = 0;
  while (i < in.size() && static_cast<unsigned char>(in[i]) < 0x80) ++i;
  if (i == in.size()) return in;  // the usual case: plain ASCII
  scratch.assign(in.data(), i);
  bool changed = false;
  while (i < in.size()) {
    const auto c = static_cast<unsigned char>(in[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= in.size();
    for (std::size_t j = 1; ok && j < len; ++j)
      ok = (static_cast<unsigned char>(in[i + j]) & 0xC0) == 0x80;
    if (ok && len > 1) {
      // Reject overlong forms, surrogates and code points past U+10FFFF.
      std::uint32_t cp = c & (0x7F >> len);
      for (std::size_t j = 1; j < len; ++j) cp = (cp << 6) | (static_cast<unsigned char>(in[i + j]) & 0x3F);
      static const std::uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
      ok = cp >= min_cp[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    if (ok) {
      scratch.append(in.data() + i, len);
      i += len;
    } else {
      scratch.append("\xEF\xBF\xBD");
      changed = true;
      ++i;
    }
  }
  return changed ? std::string_view(scratch) : in;
}

using parquet::ColumnValues;

// Whether every byte is ASCII (then valid UTF-8 as it is), 8 bytes at a time.
bool all_ascii(std::string_view s) {
  std::size_t i = 0;
  std::uint64_t any = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    any |= w;
  }
  for (; i < s.size(); ++i) any |= static_cast<unsigned char>(s[i]);
  return (any & 0x8080808080808080ULL) == 0;
}

std::string created_by(const ParquetOptions& o) { return "trawl version " + o.version; }
std::vector<std::pair<std::string, std::string>> metadata(const ParquetOptions& o) {
  return {{"trawl.version", o.version}, {"trawl.command_line", o.command_line}};
}

std::vector<Column> schema(const std::vector<rows::Column>& columns) {
  std::vector<Column> out;
  for (const rows::Column& c : columns) {
    switch (c.kind) {
      case rows::Kind::string: out.push_back({std::string(c.name), Type::utf8}); break;
      case rows::Kind::int32: out.push_back({std::string(c.name), Type::int32}); break;
      case rows::Kind::int64: out.push_back({std::string(c.name), Type::int64}); break;
      case rows::Kind::boolean: out.push_back({std::string(c.name), Type::boolean}); break;
    }
  }
  return out;
}

std::int32_t checked_int32(std::uint64_t v, std::string_view name) {
  if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    throw OutputError("a " + std::string(name) + " exceeds the INT32 range of the Parquet " + std::string(name) +
                      " column; use TSV output");
  return static_cast<std::int32_t>(v);
}

// The rows of the row model into the typed columns of a parquet::RowBatch, on a worker
// thread (the serial write() only appends them). Strings that change only with a key (ids,
// strand) and a CIGAR equal to the last are not spelled again: they extend the column's run.
class ParquetRowWriter {
 public:
  ParquetRowWriter(const std::vector<rows::Column>& columns, parquet::RowBatch& rows)
      : columns_(columns), rows_(rows), slots_(columns.size()) {
    if (rows_.columns.size() != columns.size()) rows_.columns.resize(columns.size());
  }

  // The numbers go straight to their places: each column sized once for all n rows, a value
  // stored at its row (the row count is the one index that moves).
  void begin_rows(std::size_t n) {
    const std::size_t first = rows_.rows;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      ColumnValues& c = rows_.columns[i];
      switch (columns_[i].kind) {
        case rows::Kind::int32: c.i32.resize(first + n); slots_[i].values = c.i32.data(); break;
        case rows::Kind::int64: c.i64.resize(first + n); slots_[i].values = c.i64.data(); break;
        case rows::Kind::boolean: c.bools.resize(first + n); slots_[i].values = c.bools.data(); break;
        case rows::Kind::string: break;
      }
    }
    row_ = first - 1;
    rows_.rows = first + n;
  }
  void begin_row() { ++row_; }
  void end_row() {}

  // (Called per row: inlined into the row loop, where a call would cost more than the work.)
  [[gnu::always_inline]] void pair(std::size_t col, const rows::PairIds& ids) {
    keyed(col, ids.pattern.idx, [&] { return ids.pattern.spell(room_); });
    keyed(col + 1, ids.record.idx, [&] { return ids.record.spell(); });
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, const rows::PatternId& id) { keyed(col, id.idx, [&] { return id.spell(room_); }); }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, const rows::RecordId& id) { keyed(col, id.idx, [&] { return id.spell(); }); }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, std::int32_t v) {
    static_assert(rows::column(F).kind == rows::Kind::int32);
    *next<std::int32_t>(col) = v;
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, std::uint64_t v) {
    if constexpr (rows::column(F).kind == rows::Kind::int32)
      *next<std::int32_t>(col) = checked_int32(v, rows::column(F).name);
    else
      *next<std::int64_t>(col) = static_cast<std::int64_t>(v);
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, bool v) { *next<std::uint8_t>(col) = v; }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, Strand s) {
    keyed(col, static_cast<std::uint64_t>(s), [&] { return std::string_view(s == Strand::fwd ? "+" : "-"); });
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, const rows::Region& region) {
    ColumnValues& c = rows_.columns[col];
    const std::string_view text = region.text();
    if (region.revcomp != nullptr) {
      revcomp_.clear();
      for (std::size_t i = text.size(); i > 0; --i)
        revcomp_.push_back(static_cast<char>(region.revcomp->complement(static_cast<std::uint8_t>(text[i - 1]))));
      c.add_string(valid_utf8(revcomp_, scratch_));
      return;
    }
    // A short record's bytes are checked once for all its regions, not region by region.
    constexpr std::size_t kCheckedWhole = std::size_t{1} << 16;
    if (region.record != ascii_record_) {
      ascii_record_ = region.record;
      ascii_ = region.seq.size() <= kCheckedWhole && all_ascii(region.seq);
    }
    c.add_string(ascii_ ? text : valid_utf8(text, scratch_));
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t col, const rows::Cigar& cigar) {
    // Neighbouring hits often have the same alignment: its text is spelled once.
    ColumnValues& c = rows_.columns[col];
    const std::span<const CigarOp> ops = cigar.ops;
    const bool same = c.runs() > 0 && cigar.reversed == last_reversed_ && ops.size() == last_ops_.size() &&
                      std::equal(ops.begin(), ops.end(), last_ops_.begin(),
                                 [](const CigarOp& a, const CigarOp& b) { return a.len == b.len && a.op == b.op; });
    if (same) {
      c.repeat_last();
      return;
    }
    last_ops_.assign(ops.begin(), ops.end());
    last_reversed_ = cigar.reversed;
    cigar_text_.clear();
    append_cigar(cigar_text_, ops, cigar.reversed);
    c.add_string(cigar_text_);
  }

 private:
  struct Slot {
    void* values = nullptr;                      // number columns: the values of every row
    std::uint64_t last_key = ~std::uint64_t{0};  // keyed string columns: the last key
  };
  template <class T>
  [[gnu::always_inline]] T* next(std::size_t col) {
    return static_cast<T*>(slots_[col].values) + row_;
  }
  template <class Spell>
  [[gnu::always_inline]] void keyed(std::size_t col, std::uint64_t key, Spell spell) {
    Slot& s = slots_[col];
    ColumnValues& c = rows_.columns[col];
    if (key == s.last_key && c.runs() > 0) {
      c.repeat_last();
      return;
    }
    s.last_key = key;
    c.add_string(valid_utf8(spell(), scratch_));
  }

  const std::vector<rows::Column>& columns_;
  parquet::RowBatch& rows_;
  std::vector<Slot> slots_;
  std::size_t row_ = 0;  // of the current row in rows_
  PatternSet::IdRoom room_;
  std::string scratch_, revcomp_, cigar_text_;
  std::uint64_t ascii_record_ = ~std::uint64_t{0};
  bool ascii_ = false;  // record ascii_record_ is short and all ASCII
  std::vector<CigarOp> last_ops_;  // of the last CIGAR spelled
  bool last_reversed_ = false;
};

// Every command's Parquet file: the row model's columns as its schema, then the rows.
class ParquetSink final : public ResultSink {
 public:
  ParquetSink(ByteSink& out, rows::RowModel model, const ParquetOptions& popt)
      : model_(std::move(model)),
        writer_(out, schema(model_.columns()), popt.compression, metadata(popt), popt.row_group_rows,
                128 << 20, created_by(popt)) {
    if (model_.totals()) totals_.emplace(model_.patterns().size());
  }

  void format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& out) const override {
    if (model_.totals()) return;  // rows at close
    ParquetRowWriter w(model_.columns(), out.rows);
    model_.batch_rows(batch, results, w);
  }
  void write(const RecordBatch&, const BatchResults& results, const FormattedBatch& formatted) override {
    if (totals_) {
      totals_->add(results.pair_counts);
      return;
    }
    writer_.append_rows(formatted.rows);
  }
  void close() override {
    if (totals_) {
      // In slices, so that a large pattern set is not held as one batch of rows.
      constexpr std::size_t kSlice = std::size_t{1} << 16;
      parquet::RowBatch rows;
      for (std::size_t first = 0; first < totals_->size(); first += kSlice) {
        rows.clear();
        ParquetRowWriter w(model_.columns(), rows);
        model_.total_rows(*totals_, first, std::min(kSlice, totals_->size() - first), w);
        writer_.append_rows(rows);
      }
    }
    writer_.close();
  }

 private:
  rows::RowModel model_;
  parquet::Writer writer_;
  std::optional<rows::PatternTotals> totals_;
};

}  // namespace

std::unique_ptr<ResultSink> make_parquet_hits_sink(ByteSink& out, const PatternSet& patterns,
                                                   const AlphabetSpec& alphabet, HitColumns columns,
                                                   const ParquetOptions& options) {
  return std::make_unique<ParquetSink>(out, rows::RowModel::hits(patterns, alphabet, std::move(columns)), options);
}
std::unique_ptr<ResultSink> make_parquet_count_sink(ByteSink& out, const PatternSet& patterns,
                                                    const ResultShape& shape,
                                                    const ParquetOptions& options) {
  return std::make_unique<ParquetSink>(out, rows::RowModel::count(patterns, shape), options);
}
std::unique_ptr<ResultSink> make_parquet_contains_sink(ByteSink& out, const PatternSet& patterns,
                                                       const ResultShape& shape,
                                                       const ParquetOptions& options) {
  return std::make_unique<ParquetSink>(out, rows::RowModel::contains(patterns, shape), options);
}

}  // namespace trawl
