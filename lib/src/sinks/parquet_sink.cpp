// Parquet sinks: the same rows and column names as the TSV sinks (SPEC §7), written through
// our own Parquet writer. format() (parallel) prepares the per-hit strings; write() (serial)
// appends the values, so the writer itself is only touched by one thread.
#include <algorithm>
#include <cstring>
#include <limits>

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

// Appends a string whose value changes only with `key` (a pattern or record index): a run
// of equal keys extends one run of the column without building the string again.
template <class Value>
void add_keyed(ColumnValues& col, std::uint64_t key, std::uint64_t& last_key, Value value) {
  if (key == last_key && col.runs() > 0) {
    col.repeat_last();
    return;
  }
  last_key = key;
  col.add_string(value());
}

// pat_id and text_id of (pattern, record) rows into two columns, each spelled only where its
// index changes (count and contains --by-pattern).
class PairIds {
 public:
  PairIds(const PatternSet& patterns, const RecordBatch& batch) : patterns_(patterns), batch_(batch) {}
  void add(ColumnValues& pat_ids, ColumnValues& text_ids, const PairCount& pc) {
    add_keyed(pat_ids, pc.pattern_idx, last_pattern_, [&] { return valid_utf8(patterns_.id(pc.pattern_idx, room_), scratch_); });
    add_keyed(text_ids, pc.text_idx, last_text_, [&] {
      return valid_utf8(batch_.name(static_cast<std::size_t>(pc.text_idx - batch_.first_record)), scratch_);
    });
  }

 private:
  const PatternSet& patterns_;
  const RecordBatch& batch_;
  std::uint64_t last_pattern_ = ~std::uint64_t{0}, last_text_ = ~std::uint64_t{0};
  PatternSet::IdRoom room_;
  std::string scratch_;
};

// The columns of a batch of rows, made ready for the schema's column count.
parquet::RowBatch& rows_for(FormattedBatch& out, std::size_t columns) {
  if (out.rows.columns.size() != columns) out.rows.columns.resize(columns);
  return out.rows;
}

std::string created_by(const ParquetOptions& o) { return "trawl version " + o.version; }
std::vector<std::pair<std::string, std::string>> metadata(const ParquetOptions& o) {
  return {{"trawl.version", o.version}, {"trawl.command_line", o.command_line}};
}

class ParquetHitsSink final : public ResultSink {
 public:
  ParquetHitsSink(ByteSink& out, const PatternSet& patterns, const AlphabetSpec& alphabet,
                  HitColumns columns, const ParquetOptions& popt)
      : patterns_(patterns), alphabet_(alphabet), columns_(std::move(columns)),
        writer_(out, schema(columns_), popt.compression, metadata(popt), popt.row_group_rows,
                128 << 20, created_by(popt)) {}

  // The rows in columns, on a worker thread: the serial write() only appends them.
  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& out) const override {
    parquet::RowBatch& rows = rows_for(out, 6 + columns_.region + columns_.cigar + columns_.extra.size());
    std::string region, cigar, scratch;
    PatternSet::IdRoom room;
    std::uint64_t last_pattern = ~std::uint64_t{0}, last_text = ~std::uint64_t{0}, last_strand = 2;
    std::vector<CigarOp> last_ops;  // of the last CIGAR spelled
    bool last_reversed = false;
    constexpr std::size_t kCheckedWhole = std::size_t{1} << 16;
    bool ascii_text = false;  // the current record is short and all ASCII
    std::string_view seq;     // the current record's
    // The numbers go straight to their places (sized once, not a push_back each).
    const std::size_t n = results.hits.hits.size(), first = rows.rows;
    rows.columns[2].i32.resize(first + n);
    rows.columns[4].i64.resize(first + n);
    rows.columns[5].i64.resize(first + n);
    std::int32_t* costs = rows.columns[2].i32.data() + first;
    std::int64_t* starts = rows.columns[4].i64.data() + first;
    std::int64_t* ends = rows.columns[5].i64.data() + first;
    for (const Hit& h : results.hits.hits) {
      const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
      auto col = rows.columns.begin();
      add_keyed(*col++, h.pattern_idx, last_pattern, [&] { return valid_utf8(patterns_.id(h.pattern_idx, room), scratch); });
      add_keyed(*col++, h.text_idx, last_text, [&] {
        // A short record's bytes are checked once for all its regions, not region by region.
        seq = batch.seq(r);
        ascii_text = seq.size() <= kCheckedWhole && all_ascii(seq);
        return valid_utf8(batch.name(r), scratch);
      });
      *costs++ = h.cost;
      ++col;
      add_keyed(*col++, static_cast<std::uint64_t>(h.strand), last_strand,
                [&] { return std::string_view(h.strand == Strand::fwd ? "+" : "-"); });
      *starts++ = static_cast<std::int64_t>(h.start);
      *ends++ = static_cast<std::int64_t>(h.end);
      col += 2;
      const bool text_direction = h.strand == Strand::fwd || columns_.sam;
      if (columns_.region) {
        const std::string_view slice(seq.data() + h.start, h.end - h.start);
        if (text_direction) {
          (col++)->add_string(ascii_text ? slice : valid_utf8(slice, scratch));
        } else {
          region.clear();
          for (std::size_t i = slice.size(); i > 0; --i)
            region.push_back(static_cast<char>(alphabet_.complement(static_cast<std::uint8_t>(slice[i - 1]))));
          (col++)->add_string(valid_utf8(region, scratch));
        }
      }
      if (columns_.cigar) {
        // Neighbouring hits often have the same alignment: its text is spelled once.
        const std::span<const CigarOp> ops = results.hits.cigar(h);
        const bool reversed = h.strand == Strand::rc && columns_.sam;
        const bool same = col->runs() > 0 && reversed == last_reversed && ops.size() == last_ops.size() &&
                          std::equal(ops.begin(), ops.end(), last_ops.begin(), [](const CigarOp& a, const CigarOp& b) {
                            return a.len == b.len && a.op == b.op;
                          });
        if (same) {
          col->repeat_last();
        } else {
          last_ops.assign(ops.begin(), ops.end());
          last_reversed = reversed;
          cigar.clear();
          append_cigar(cigar, ops, reversed);
          col->add_string(cigar);
        }
        ++col;
      }
      for (ExtraColumn c : columns_.extra) {
        std::uint64_t v = 0;
        switch (c) {
          case ExtraColumn::pattern_start: v = h.pattern_start; break;
          case ExtraColumn::pattern_end: v = h.pattern_end; break;
          case ExtraColumn::pat_idx: v = h.pattern_idx; break;
          case ExtraColumn::text_idx: v = h.text_idx; break;
        }
        (col++)->i64.push_back(static_cast<std::int64_t>(v));
      }
    }
    rows.rows = first + n;
  }

  void write(const RecordBatch&, const BatchResults&, const FormattedBatch& formatted) override {
    writer_.append_rows(formatted.rows);
  }
  void close() override { writer_.close(); }

 private:
  static std::vector<Column> schema(const HitColumns& c) {
    std::vector<Column> s = {{"pat_id", Type::utf8}, {"text_id", Type::utf8}, {"cost", Type::int32},
                             {"strand", Type::utf8}, {"start", Type::int64}, {"end", Type::int64}};
    if (c.region) s.push_back({"match_region", Type::utf8});
    if (c.cigar) s.push_back({"cigar", Type::utf8});
    static const char* names[] = {"pattern_start", "pattern_end", "pat_idx", "text_idx"};
    for (ExtraColumn e : c.extra) s.push_back({names[static_cast<int>(e)], Type::int64});
    return s;
  }

  const PatternSet& patterns_;
  AlphabetSpec alphabet_;
  HitColumns columns_;
  parquet::Writer writer_;
};

std::int32_t checked_count(std::uint64_t v) {
  if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    throw OutputError("a count exceeds the INT32 range of the Parquet count column; use TSV output");
  return static_cast<std::int32_t>(v);
}

class ParquetCountSink final : public ResultSink {
 public:
  ParquetCountSink(ByteSink& out, const PatternSet& patterns, const ResultShape& shape,
                   const ParquetOptions& popt)
      : patterns_(patterns), totals_(shape.per_pattern_totals),
        writer_(out,
                totals_ ? std::vector<Column>{{"pat_id", Type::utf8}, {"count", Type::int32}, {"records", Type::int64}}
                        : std::vector<Column>{{"pat_id", Type::utf8}, {"text_id", Type::utf8}, {"count", Type::int32}},
                popt.compression, metadata(popt), popt.row_group_rows, 128 << 20, created_by(popt)) {
    if (totals_) {
      hit_totals_.assign(patterns.size(), 0);
      record_totals_.assign(patterns.size(), 0);
    }
  }
  void format(const RecordBatch& batch, const BatchResults& results,
               FormattedBatch& out) const override {
    if (totals_) return;  // aggregated in write()
    parquet::RowBatch& rows = rows_for(out, 3);
    PairIds ids(patterns_, batch);
    for (const PairCount& pc : results.pair_counts) {
      ids.add(rows.columns[0], rows.columns[1], pc);
      rows.columns[2].i32.push_back(checked_count(pc.count));
    }
    rows.rows = results.pair_counts.size();
  }
  void write(const RecordBatch&, const BatchResults& results, const FormattedBatch& formatted) override {
    if (!totals_) {
      writer_.append_rows(formatted.rows);
      return;
    }
    for (const PairCount& pc : results.pair_counts) {
      hit_totals_[pc.pattern_idx] += pc.count;
      record_totals_[pc.pattern_idx] += pc.count > 0;
    }
  }
  void close() override {
    if (totals_) {
      for (std::size_t i = 0; i < patterns_.size(); ++i) {
        writer_.append_string(0, valid_utf8(patterns_.id(i, id_room_), scratch_));
        writer_.append_int32(1, checked_count(hit_totals_[i]));
        writer_.append_int64(2, static_cast<std::int64_t>(record_totals_[i]));
        writer_.end_row();
      }
    }
    writer_.close();
  }

 private:
  const PatternSet& patterns_;
  bool totals_;
  parquet::Writer writer_;
  std::vector<std::uint64_t> hit_totals_, record_totals_;
  std::string scratch_;
  PatternSet::IdRoom id_room_;
};

class ParquetContainsSink final : public ResultSink {
 public:
  ParquetContainsSink(ByteSink& out, const PatternSet& patterns, const ResultShape& shape,
                      const ParquetOptions& popt)
      : patterns_(patterns), per_pair_(shape.per_pair),
        writer_(out,
                per_pair_ ? std::vector<Column>{{"pat_id", Type::utf8}, {"text_id", Type::utf8}, {"contains", Type::boolean}}
                          : std::vector<Column>{{"text_id", Type::utf8}, {"contains", Type::boolean}},
                popt.compression, metadata(popt), popt.row_group_rows, 128 << 20, created_by(popt)) {}
  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& out) const override {
    if (per_pair_) {
      parquet::RowBatch& rows = rows_for(out, 3);
      PairIds ids(patterns_, batch);
      for (const PairCount& pc : results.pair_counts) {
        ids.add(rows.columns[0], rows.columns[1], pc);
        rows.columns[2].bools.push_back(pc.count > 0);
      }
      rows.rows = results.pair_counts.size();
      return;
    }
    std::string scratch;
    parquet::RowBatch& rows = rows_for(out, 2);
    for (std::size_t r = 0; r < results.contains.size(); ++r) {
      rows.columns[0].add_string(valid_utf8(batch.name(r), scratch));
      rows.columns[1].bools.push_back(results.contains[r] != 0);
    }
    rows.rows = results.contains.size();
  }
  void write(const RecordBatch&, const BatchResults&, const FormattedBatch& formatted) override {
    writer_.append_rows(formatted.rows);
  }
  void close() override { writer_.close(); }

 private:
  const PatternSet& patterns_;
  bool per_pair_;
  parquet::Writer writer_;
};

}  // namespace

std::unique_ptr<ResultSink> make_parquet_hits_sink(ByteSink& out, const PatternSet& patterns,
                                                   const AlphabetSpec& alphabet, HitColumns columns,
                                                   const ParquetOptions& options) {
  return std::make_unique<ParquetHitsSink>(out, patterns, alphabet, std::move(columns), options);
}
std::unique_ptr<ResultSink> make_parquet_count_sink(ByteSink& out, const PatternSet& patterns,
                                                    const ResultShape& shape,
                                                    const ParquetOptions& options) {
  return std::make_unique<ParquetCountSink>(out, patterns, shape, options);
}
std::unique_ptr<ResultSink> make_parquet_contains_sink(ByteSink& out, const PatternSet& patterns,
                                                       const ResultShape& shape,
                                                       const ParquetOptions& options) {
  return std::make_unique<ParquetContainsSink>(out, patterns, shape, options);
}

}  // namespace trawl
