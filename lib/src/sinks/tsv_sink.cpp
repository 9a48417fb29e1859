#include <algorithm>
#include <charconv>
#include <cstring>
#include <span>

#include "trawl/sinks/sinks.h"

namespace trawl {
namespace {

void append_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// Writes rows into `out` through a raw pointer. reserve(bound) before each row makes room
// for at most `bound` bytes plus kSlack, growing `out` geometrically (rarely: once it has
// reached a batch's size it is reused); close() trims what was not used. One
// std::vector append per field would dominate dense outputs.
class RowWriter {
 public:
  // Bytes that may be written past a row's bound by the fixed-size copies below.
  static constexpr std::size_t kSlack = 64;

  explicit RowWriter(FormattedBytes& out) : out_(out) {
    const std::size_t used = out_.size();
    out_.resize(out_.capacity());
    w_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }
  void reserve(std::size_t bound) {
    if (static_cast<std::size_t>(end_ - w_) < bound + kSlack) grow(bound + kSlack);
  }
  void close() { out_.resize(static_cast<std::size_t>(w_ - out_.data())); }
  // Fields are mostly a few bytes (ids, names, costs, a short region), where a memcpy call
  // costs more than the copy: up to 16 bytes go as two overlapping loads and stores that
  // stay inside the field.
  void put(std::string_view v) {
    const std::size_t n = v.size();
    const char* src = v.data();
    if (n >= 8 && n <= 16) {
      copy_two<std::uint64_t>(src, n);
    } else if (n >= 4 && n < 8) {
      copy_two<std::uint32_t>(src, n);
    } else if (n < 4) {
      for (std::size_t i = 0; i < n; ++i) w_[i] = src[i];
    } else {
      std::memcpy(w_, src, n);
    }
    w_ += n;
  }
  // `n` bytes from a buffer that may be read up to 32 bytes past them (rounded up to whole
  // 32-byte copies, which the slack absorbs).
  void put_padded(const char* src, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 32) std::memcpy(w_ + i, src + i, 32);
    w_ += n;
  }
  void put(char c) { *w_++ = c; }
  // Costs, CIGAR lengths and short-read positions are mostly one to four digits: two digits
  // per table lookup, no division loop.
  void put_uint(std::uint64_t v) {
    if (v < 10) {
      *w_++ = static_cast<char>('0' + v);
    } else if (v < 100) {
      std::memcpy(w_, kDigitPairs + 2 * v, 2);
      w_ += 2;
    } else if (v < 1000) {
      w_[0] = static_cast<char>('0' + v / 100);
      std::memcpy(w_ + 1, kDigitPairs + 2 * (v % 100), 2);
      w_ += 3;
    } else if (v < 10000) {
      std::memcpy(w_, kDigitPairs + 2 * (v / 100), 2);
      std::memcpy(w_ + 2, kDigitPairs + 2 * (v % 100), 2);
      w_ += 4;
    } else {
      w_ = std::to_chars(w_, w_ + 20, v).ptr;
    }
  }

 private:
  static constexpr char kDigitPairs[201] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";

  void grow(std::size_t need) {
    const std::size_t used = static_cast<std::size_t>(w_ - out_.data());
    out_.resize(std::max(used + need, 2 * out_.size() + 4096));
    w_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }
  // [src, src + n) for sizeof(Word) <= n <= 2 * sizeof(Word): the first and the last Word.
  template <class Word>
  void copy_two(const char* src, std::size_t n) {
    Word head, tail;
    std::memcpy(&head, src, sizeof head);
    std::memcpy(&tail, src + n - sizeof tail, sizeof tail);
    std::memcpy(w_, &head, sizeof head);
    std::memcpy(w_ + n - sizeof tail, &tail, sizeof tail);
  }

  FormattedBytes& out_;
  char* w_ = nullptr;
  char* end_ = nullptr;
};

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

// Rows "pat_id <TAB> text_id <TAB> value" of (pattern, record) pairs; `value` writes the
// last field (at most 20 bytes).
template <typename Value>
void write_pair_rows(const RecordBatch& batch, std::span<const PairCount> pairs,
                     const PatternSet& patterns, FormattedBytes& out, Value value) {
  RowWriter w(out);
  PatternSet::IdRoom room;
  for (const PairCount& pc : pairs) {
    const std::string_view id = patterns.id(pc.pattern_idx, room);
    const std::string_view name = batch.name(static_cast<std::size_t>(pc.text_idx - batch.first_record));
    w.reserve(id.size() + name.size() + 23);
    w.put(id);
    w.put('\t');
    w.put(name);
    w.put('\t');
    value(w, pc);
    w.put('\n');
  }
  w.close();
}

class TsvHitsSink final : public ResultSink {
 public:
  TsvHitsSink(ByteSink& out, const PatternSet& patterns, const AlphabetSpec& alphabet,
              HitColumns columns)
      : out_(out), patterns_(patterns), alphabet_(alphabet), columns_(std::move(columns)) {
    std::string header = "pat_id\ttext_id\tcost\tstrand\tstart\tend";
    if (columns_.region) header += "\tmatch_region";
    if (columns_.cigar) header += "\tcigar";
    for (ExtraColumn c : columns_.extra) {
      static const char* names[] = {"pattern_start", "pattern_end", "pat_idx", "text_idx"};
      header += '\t';
      header += names[static_cast<int>(c)];
    }
    header += '\n';
    out_.write(header.data(), header.size());
  }

  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& formatted) const override {
    FormattedBytes& out = formatted.bytes;
    RowWriter w(out);
    PairPrefix prefix;
    for (const Hit& h : results.hits.hits) format_row(batch, results, h, prefix, w);
    w.close();
  }

  void format_row(const RecordBatch& batch, const BatchResults& results, const Hit& h,
                  PairPrefix& prefix, RowWriter& w) const {
    const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
    PatternSet::IdRoom room;
    if (!prefix.is(h.pattern_idx, h.text_idx))
      prefix.set(h.pattern_idx, h.text_idx, patterns_.id(h.pattern_idx, room), batch.name(r));
    // The prefix; numbers take at most 21 bytes with their tab, a CIGAR run 24 (count and
    // letter).
    w.reserve(prefix.size() + (h.end - h.start) + 24 * std::size_t{h.cigar_count} +
              21 * (3 + columns_.extra.size()) + 16);
    if (prefix.fits()) {
      w.put_padded(prefix.data(), prefix.size());
    } else {
      w.put(patterns_.id(h.pattern_idx, room));
      w.put('\t');
      w.put(batch.name(r));
      w.put('\t');
    }
    if (h.cost < 0) w.put('-');
    w.put_uint(static_cast<std::uint64_t>(h.cost < 0 ? -h.cost : h.cost));
    w.put('\t');
    w.put(strand_char(h.strand));
    w.put('\t');
    w.put_uint(h.start);
    w.put('\t');
    w.put_uint(h.end);
    const bool text_direction = h.strand == Strand::fwd || columns_.sam;
    if (columns_.region) {
      w.put('\t');
      const std::string_view region = batch.seq(r).substr(h.start, h.end - h.start);
      if (text_direction) {
        w.put(region);
      } else {
        for (std::size_t i = region.size(); i > 0; --i)
          w.put(static_cast<char>(alphabet_.complement(static_cast<std::uint8_t>(region[i - 1]))));
      }
    }
    if (columns_.cigar) {
      w.put('\t');
      const std::span<const CigarOp> ops = results.hits.cigar(h);
      const bool reversed = h.strand == Strand::rc && columns_.sam;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const CigarOp& op = ops[reversed ? ops.size() - 1 - i : i];
        w.put_uint(op.len);
        w.put(op.op);
      }
    }
    for (ExtraColumn c : columns_.extra) {
      w.put('\t');
      switch (c) {
        case ExtraColumn::pattern_start: w.put_uint(h.pattern_start); break;
        case ExtraColumn::pattern_end: w.put_uint(h.pattern_end); break;
        case ExtraColumn::pat_idx: w.put_uint(h.pattern_idx); break;
        case ExtraColumn::text_idx: w.put_uint(h.text_idx); break;
      }
    }
    w.put('\n');
  }

  void write(const RecordBatch&, const BatchResults&, const FormattedBatch& formatted) override {
    out_.write(formatted.bytes.data(), formatted.bytes.size());
  }
  void close() override {}

 private:
  ByteSink& out_;
  const PatternSet& patterns_;
  AlphabetSpec alphabet_;
  HitColumns columns_;
};

class TsvCountSink final : public ResultSink {
 public:
  TsvCountSink(ByteSink& out, const PatternSet& patterns, const ResultShape& shape)
      : out_(out), patterns_(patterns), totals_(shape.per_pattern_totals) {
    const std::string header =
        totals_ ? "pat_id\tcount\trecords\n" : "pat_id\ttext_id\tcount\n";
    out_.write(header.data(), header.size());
    if (totals_) {
      hit_totals_.assign(patterns.size(), 0);
      record_totals_.assign(patterns.size(), 0);
    }
  }
  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& formatted) const override {
    FormattedBytes& out = formatted.bytes;
    if (totals_) return;  // aggregated in write()
    write_pair_rows(batch, results.pair_counts, patterns_, out,
                    [](RowWriter& w, const PairCount& pc) { w.put_uint(pc.count); });
  }
  void write(const RecordBatch&, const BatchResults& results,
             const FormattedBatch& formatted) override {
    if (!totals_) {
      out_.write(formatted.bytes.data(), formatted.bytes.size());
      return;
    }
    for (const PairCount& pc : results.pair_counts) {
      hit_totals_[pc.pattern_idx] += pc.count;
      record_totals_[pc.pattern_idx] += pc.count > 0;
    }
  }
  void close() override {
    if (!totals_) return;
    std::string rows;
    PatternSet::IdRoom room;
    for (std::size_t i = 0; i < patterns_.size(); ++i) {
      rows.append(patterns_.id(i, room));
      rows.push_back('\t');
      append_uint(rows, hit_totals_[i]);
      rows.push_back('\t');
      append_uint(rows, record_totals_[i]);
      rows.push_back('\n');
    }
    out_.write(rows.data(), rows.size());
  }

 private:
  ByteSink& out_;
  const PatternSet& patterns_;
  bool totals_;
  std::vector<std::uint64_t> hit_totals_, record_totals_;
};

class TsvContainsSink final : public ResultSink {
 public:
  TsvContainsSink(ByteSink& out, const PatternSet& patterns, const ResultShape& shape)
      : out_(out), patterns_(patterns), per_pair_(shape.per_pair) {
    const std::string header =
        per_pair_ ? "pat_id\ttext_id\tcontains\n" : "text_id\tcontains\n";
    out_.write(header.data(), header.size());
  }
  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& formatted) const override {
    FormattedBytes& out = formatted.bytes;
    if (per_pair_) {
      write_pair_rows(batch, results.pair_counts, patterns_, out,
                      [](RowWriter& w, const PairCount& pc) { w.put(pc.count ? "true" : "false"); });
      return;
    }
    RowWriter w(out);
    for (std::size_t r = 0; r < results.contains.size(); ++r) {
      w.reserve(batch.name(r).size() + 8);
      w.put(batch.name(r));
      w.put(results.contains[r] ? "\ttrue\n" : "\tfalse\n");
    }
    w.close();
  }
  void write(const RecordBatch&, const BatchResults&, const FormattedBatch& formatted) override {
    out_.write(formatted.bytes.data(), formatted.bytes.size());
  }
  void close() override {}

 private:
  ByteSink& out_;
  const PatternSet& patterns_;
  bool per_pair_;
};

}  // namespace

std::unique_ptr<ResultSink> make_tsv_count_sink(ByteSink& out, const PatternSet& patterns,
                                                const ResultShape& shape) {
  return std::make_unique<TsvCountSink>(out, patterns, shape);
}

std::unique_ptr<ResultSink> make_tsv_contains_sink(ByteSink& out, const PatternSet& patterns,
                                                   const ResultShape& shape) {
  return std::make_unique<TsvContainsSink>(out, patterns, shape);
}

std::unique_ptr<ResultSink> make_tsv_hits_sink(ByteSink& out, const PatternSet& patterns,
                                               const AlphabetSpec& alphabet, HitColumns columns) {
  return std::make_unique<TsvHitsSink>(out, patterns, alphabet, std::move(columns));
}

}  // namespace trawl
