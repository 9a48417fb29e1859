#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <span>

#include "row_writer.h"
#include "trawl/sinks/sinks.h"

namespace trawl {
namespace {

// "pat_id <TAB> text_id <TAB>", the start of every row of one (pattern, record) pair, made
// once per pair (dense outputs have many rows per pair) in a buffer padded for
// RowWriter::put_padded.
class PairPrefix {
 public:
  bool is(std::uint32_t pattern_idx, std::uint64_t text_idx) const {
    return valid_ && pattern_idx == pattern_idx_ && text_idx == text_idx_;
  }
  // Makes the prefix of (pattern_idx, text_idx). fits() is false if it is too long for the
  // buffer (rows then write their fields one by one); size() is right either way.
  void set(std::uint32_t pattern_idx, std::uint64_t text_idx, std::string_view pat_id,
           std::string_view text_id) {
    valid_ = true;
    pattern_idx_ = pattern_idx;
    text_idx_ = text_idx;
    size_ = pat_id.size() + text_id.size() + 2;
    fits_ = size_ <= kCapacity;
    if (!fits_) return;
    std::memcpy(buf_, pat_id.data(), pat_id.size());
    buf_[pat_id.size()] = '\t';
    std::memcpy(buf_ + pat_id.size() + 1, text_id.data(), text_id.size());
    buf_[size_ - 1] = '\t';
  }
  bool fits() const { return fits_; }
  const char* data() const { return buf_; }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kCapacity = 224;
  char buf_[kCapacity + 32];  // + 32: put_padded's over-read
  std::size_t size_ = 0;
  std::uint64_t text_idx_ = 0;
  std::uint32_t pattern_idx_ = 0;
  bool valid_ = false, fits_ = false;
};

// The rows of the row model as TSV: each field followed by a tab, the row's last tab turned
// into a newline.
class TsvRowWriter {
 public:
  TsvRowWriter(FormattedBytes& out, std::size_t columns)
      : w_(out), fixed_(21 * columns + 16) {}

  void begin_rows(std::size_t) {}
  // Numbers take at most 21 bytes with their tab (contains 6). Every reserve below asks for
  // this much beyond its own field, so the numbers after it always have room; every row
  // starts with an id (pair or one id), whose reserve covers the row's first numbers.
  void begin_row() {}
  void end_row() { w_.back() = '\n'; }
  void end_rows() { w_.close(); }

  // The room a hit row's region and CIGAR take (a run is at most 24 bytes: its count and
  // letter), made with the row's ids in pair(); the region and CIGAR fields then need none.
  [[gnu::always_inline]] void hit_row_sizes(std::size_t region_bytes, std::size_t cigar_runs) {
    row_extra_ = region_bytes + 24 * cigar_runs;
  }

  // (Inlined into the row loop, as are the fields: a call would pass the writer's address,
  // and every byte written would then reload its cursor.)
  [[gnu::always_inline]] void pair(std::size_t, const rows::PairIds& ids) {
    // (Ids are spelled into a room of the call's own: a member's address, passed to
    // PatternSet::id, would make every byte written reload the writer's cursor.)
    PatternSet::IdRoom room;
    if (!ids.shared) {
      const std::string_view pat_id = ids.pattern.spell(room), text_id = ids.record.spell();
      w_.reserve(pat_id.size() + text_id.size() + fixed_ + row_extra_);
      put_field(pat_id);
      put_field(text_id);
      return;
    }
    // Dense outputs have many rows per pair: its two ids are spelled once.
    if (!prefix_.is(ids.pattern.idx, ids.record.idx))
      prefix_.set(ids.pattern.idx, ids.record.idx, ids.pattern.spell(room), ids.record.spell());
    w_.reserve(prefix_.size() + fixed_ + row_extra_);
    if (prefix_.fits()) {
      w_.put_padded(prefix_.data(), prefix_.size());
    } else {
      put_field(ids.pattern.spell(room));
      put_field(ids.record.spell());
    }
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, const rows::PatternId& id) {
    PatternSet::IdRoom room;
    put_string(id.spell(room));
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, const rows::RecordId& id) { put_string(id.spell()); }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, std::int32_t v) {
    if (v < 0) w_.put('-');
    w_.put_uint(static_cast<std::uint64_t>(v < 0 ? -static_cast<std::int64_t>(v) : v));
    w_.put('\t');
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, std::uint64_t v) {
    w_.put_uint(v);
    w_.put('\t');
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, Strand s) {
    w_.put(strand_char(s));
    w_.put('\t');
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, bool v) { w_.put(v ? std::string_view("true\t") : std::string_view("false\t")); }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, const rows::Region& region) {
    const std::string_view text = region.text();  // (room made by hit_row_sizes)
    if (region.revcomp == nullptr) {
      w_.put(text);
    } else {
      for (std::size_t i = text.size(); i > 0; --i)
        w_.put(static_cast<char>(region.revcomp->complement(static_cast<std::uint8_t>(text[i - 1]))));
    }
    w_.put('\t');
  }
  template <rows::Field F>
  [[gnu::always_inline]] void field(std::size_t, const rows::Cigar& cigar) {
    const std::span<const CigarOp> ops = cigar.ops;  // (room made by hit_row_sizes)
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const CigarOp& op = ops[cigar.reversed ? ops.size() - 1 - i : i];
      w_.put_uint(op.len);
      w_.put(op.op);
    }
    w_.put('\t');
  }

 private:
  void put_string(std::string_view v) {
    w_.reserve(v.size() + fixed_);
    put_field(v);
  }
  void put_field(std::string_view v) {
    w_.put(v);
    w_.put('\t');
  }

  RowWriter w_;
  std::size_t fixed_;
  std::size_t row_extra_ = 0;
  PairPrefix prefix_;
};

// Every command's TSV: a header of the column names, then the rows.
class TsvSink final : public ResultSink {
 public:
  TsvSink(ByteSink& out, rows::RowModel model) : out_(out), model_(std::move(model)) {
    std::string header;
    for (const rows::Column& c : model_.columns()) {
      if (!header.empty()) header += '\t';
      header += c.name;
    }
    header += '\n';
    out_.write(header.data(), header.size());
    if (model_.totals()) totals_.emplace(model_.patterns().size());
  }

  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& formatted) const override {
    if (model_.totals()) return;  // rows at close
    TsvRowWriter w(formatted.bytes, model_.columns().size());
    model_.batch_rows(batch, results, w);
    w.end_rows();
  }
  void write(const RecordBatch&, const BatchResults& results, const FormattedBatch& formatted) override {
    if (totals_) {
      totals_->add(results.pair_counts);
      return;
    }
    out_.write(formatted.bytes.data(), formatted.bytes.size());
  }
  void close() override {
    if (!totals_) return;
    FormattedBytes bytes;
    TsvRowWriter w(bytes, model_.columns().size());
    model_.total_rows(*totals_, 0, totals_->size(), w);
    w.end_rows();
    out_.write(bytes.data(), bytes.size());
  }

 private:
  ByteSink& out_;
  rows::RowModel model_;
  std::optional<rows::PatternTotals> totals_;
};

}  // namespace

std::unique_ptr<ResultSink> make_tsv_hits_sink(ByteSink& out, const PatternSet& patterns,
                                               const AlphabetSpec& alphabet, HitColumns columns) {
  return std::make_unique<TsvSink>(out, rows::RowModel::hits(patterns, alphabet, std::move(columns)));
}

std::unique_ptr<ResultSink> make_tsv_count_sink(ByteSink& out, const PatternSet& patterns,
                                                const ResultShape& shape) {
  return std::make_unique<TsvSink>(out, rows::RowModel::count(patterns, shape));
}

std::unique_ptr<ResultSink> make_tsv_contains_sink(ByteSink& out, const PatternSet& patterns,
                                                   const ResultShape& shape) {
  return std::make_unique<TsvSink>(out, rows::RowModel::contains(patterns, shape));
}

}  // namespace trawl
