// Parquet sinks: the same rows and column names as the TSV sinks (SPEC §7), written through
// our own Parquet writer. format() (parallel) prepares the per-hit strings; write() (serial)
// appends the values, so the writer itself is only touched by one thread.
#include <cstring>
#include <limits>

#include "trawl/errors.h"
#include "trawl/parquet_writer.h"
#include "trawl/sinks.h"

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

// [u32 len][bytes]
void put_field(FormattedBytes& out, std::string_view v) {
  const auto len = static_cast<std::uint32_t>(v.size());
  const char* len_bytes = reinterpret_cast<const char*>(&len);
  out.insert(out.end(), len_bytes, len_bytes + sizeof len);
  out.insert(out.end(), v.begin(), v.end());
}
std::string_view take(const FormattedBytes& in, std::size_t& pos) {
  std::uint32_t len;
  std::memcpy(&len, in.data() + pos, sizeof len);
  pos += sizeof len;
  std::string_view v(in.data() + pos, len);
  pos += len;
  return v;
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

  // Per hit: [u32 len][match_region][u32 len][cigar], already valid UTF-8.
  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBytes& out) const override {
    std::string region, cigar, scratch;
    for (const Hit& h : results.hits.hits) {
      const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
      const bool text_direction = h.strand == Strand::fwd || columns_.sam;
      if (columns_.region) {
        const std::string_view slice = batch.seq(r).substr(h.start, h.end - h.start);
        region.clear();
        if (text_direction) {
          region.assign(slice);
        } else {
          for (std::size_t i = slice.size(); i > 0; --i)
            region.push_back(static_cast<char>(alphabet_.complement(static_cast<std::uint8_t>(slice[i - 1]))));
        }
        put_field(out, valid_utf8(region, scratch));
      }
      if (columns_.cigar) {
        cigar.clear();
        append_cigar(cigar, results.hits.cigar(h), h.strand == Strand::rc && columns_.sam);
        put_field(out, cigar);
      }
    }
  }

  void write(const RecordBatch& batch, const BatchResults& results,
             const FormattedBytes& formatted) override {
    std::size_t pos = 0;
    for (const Hit& h : results.hits.hits) {
      const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
      std::size_t col = 0;
      writer_.append_string(col++, valid_utf8(patterns_.id(h.pattern_idx, id_room_), scratch_));
      writer_.append_string(col++, valid_utf8(batch.name(r), scratch_));
      writer_.append_int32(col++, h.cost);
      writer_.append_string(col++, h.strand == Strand::fwd ? "+" : "-");
      writer_.append_int64(col++, static_cast<std::int64_t>(h.start));
      writer_.append_int64(col++, static_cast<std::int64_t>(h.end));
      if (columns_.region) writer_.append_string(col++, take(formatted, pos));
      if (columns_.cigar) writer_.append_string(col++, take(formatted, pos));
      for (ExtraColumn c : columns_.extra) {
        std::uint64_t v = 0;
        switch (c) {
          case ExtraColumn::pattern_start: v = h.pattern_start; break;
          case ExtraColumn::pattern_end: v = h.pattern_end; break;
          case ExtraColumn::pat_idx: v = h.pattern_idx; break;
          case ExtraColumn::text_idx: v = h.text_idx; break;
        }
        writer_.append_int64(col++, static_cast<std::int64_t>(v));
      }
      writer_.end_row();
    }
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
  std::string scratch_;
  PatternSet::IdRoom id_room_;
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
  void format(const RecordBatch&, const BatchResults&, FormattedBytes&) const override {}
  void write(const RecordBatch& batch, const BatchResults& results, const FormattedBytes&) override {
    for (const PairCount& pc : results.pair_counts) {
      if (totals_) {
        hit_totals_[pc.pattern_idx] += pc.count;
        record_totals_[pc.pattern_idx] += pc.count > 0;
        continue;
      }
      writer_.append_string(0, valid_utf8(patterns_.id(pc.pattern_idx, id_room_), scratch_));
      writer_.append_string(1, valid_utf8(batch.name(static_cast<std::size_t>(pc.text_idx - batch.first_record)), scratch_));
      writer_.append_int32(2, checked_count(pc.count));
      writer_.end_row();
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
  void format(const RecordBatch&, const BatchResults&, FormattedBytes&) const override {}
  void write(const RecordBatch& batch, const BatchResults& results, const FormattedBytes&) override {
    if (per_pair_) {
      for (const PairCount& pc : results.pair_counts) {
        writer_.append_string(0, valid_utf8(patterns_.id(pc.pattern_idx, id_room_), scratch_));
        writer_.append_string(1, valid_utf8(batch.name(static_cast<std::size_t>(pc.text_idx - batch.first_record)), scratch_));
        writer_.append_bool(2, pc.count > 0);
        writer_.end_row();
      }
      return;
    }
    for (std::size_t r = 0; r < results.contains.size(); ++r) {
      writer_.append_string(0, valid_utf8(batch.name(r), scratch_));
      writer_.append_bool(1, results.contains[r] != 0);
      writer_.end_row();
    }
  }
  void close() override { writer_.close(); }

 private:
  const PatternSet& patterns_;
  bool per_pair_;
  parquet::Writer writer_;
  std::string scratch_;
  PatternSet::IdRoom id_room_;
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
