#include <algorithm>
#include <charconv>
#include <cstring>
#include <span>

#include "trawl/sinks.h"

namespace trawl {
namespace {

void append_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// Writes rows into `out` through a raw pointer: open(bound) makes room for a group of rows
// (at most `bound` bytes), close() trims what was not used. One std::string append per field
// would dominate dense outputs; groups keep the over-reservation small.
class RowWriter {
 public:
  explicit RowWriter(FormattedBytes& out) : out_(out) {}
  void open(std::size_t bound) {
    const std::size_t used = out_.size();
    out_.resize(used + bound);
    w_ = out_.data() + used;
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
  void put(char c) { *w_++ = c; }
  // Costs, CIGAR lengths and short-read positions are mostly one or two digits.
  void put_uint(std::uint64_t v) {
    if (v < 10) {
      *w_++ = static_cast<char>('0' + v);
    } else if (v < 100) {
      w_[0] = static_cast<char>('0' + v / 10);
      w_[1] = static_cast<char>('0' + v % 10);
      w_ += 2;
    } else {
      w_ = std::to_chars(w_, w_ + 20, v).ptr;
    }
  }

 private:
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
};

constexpr std::size_t kRowGroup = 1024;

// Rows "pat_id <TAB> text_id <TAB> value" of (pattern, record) pairs; `value` writes the
// last field (at most 20 bytes).
template <typename Value>
void write_pair_rows(const RecordBatch& batch, std::span<const PairCount> pairs,
                     const PatternSet& patterns, FormattedBytes& out, Value value) {
  RowWriter w(out);
  for (std::size_t g = 0; g < pairs.size(); g += kRowGroup) {
    const std::span<const PairCount> group = pairs.subspan(g, std::min(kRowGroup, pairs.size() - g));
    auto name = [&](const PairCount& pc) {
      return batch.name(static_cast<std::size_t>(pc.text_idx - batch.first_record));
    };
    std::size_t bound = 0;
    for (const PairCount& pc : group)
      bound += patterns.pattern(pc.pattern_idx).id.size() + name(pc).size() + 23;
    w.open(bound);
    for (const PairCount& pc : group) {
      w.put(patterns.pattern(pc.pattern_idx).id);
      w.put('\t');
      w.put(name(pc));
      w.put('\t');
      value(w, pc);
      w.put('\n');
    }
    w.close();
  }
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
              FormattedBytes& out) const override {
    const std::span<const Hit> all = results.hits.hits;
    RowWriter w(out);
    for (std::size_t g = 0; g < all.size(); g += kRowGroup) {
      const std::span<const Hit> group = all.subspan(g, std::min(kRowGroup, all.size() - g));
      std::size_t bound = 0;
      for (const Hit& h : group) {
        const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
        bound += patterns_.pattern(h.pattern_idx).id.size() + batch.name(r).size() + (h.end - h.start) +
                 24 * std::size_t{h.cigar_count} + 21 * (3 + columns_.extra.size()) + 16;
      }
      w.open(bound);
      for (const Hit& h : group) format_row(batch, results, h, w);
      w.close();
    }
  }

  void format_row(const RecordBatch& batch, const BatchResults& results, const Hit& h,
                  RowWriter& w) const {
    const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
    w.put(patterns_.pattern(h.pattern_idx).id);
    w.put('\t');
    w.put(batch.name(r));
    w.put('\t');
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

  void write(const RecordBatch&, const BatchResults&, const FormattedBytes& formatted) override {
    out_.write(formatted.data(), formatted.size());
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
              FormattedBytes& out) const override {
    if (totals_) return;  // aggregated in write()
    write_pair_rows(batch, results.pair_counts, patterns_, out,
                    [](RowWriter& w, const PairCount& pc) { w.put_uint(pc.count); });
  }
  void write(const RecordBatch&, const BatchResults& results,
             const FormattedBytes& formatted) override {
    if (!totals_) {
      out_.write(formatted.data(), formatted.size());
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
    for (std::size_t i = 0; i < patterns_.size(); ++i) {
      rows.append(patterns_.pattern(i).id);
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
              FormattedBytes& out) const override {
    if (per_pair_) {
      write_pair_rows(batch, results.pair_counts, patterns_, out,
                      [](RowWriter& w, const PairCount& pc) { w.put(pc.count ? "true" : "false"); });
      return;
    }
    RowWriter w(out);
    const std::size_t n = results.contains.size();
    for (std::size_t g = 0; g < n; g += kRowGroup) {
      const std::size_t end = std::min(n, g + kRowGroup);
      std::size_t bound = 0;
      for (std::size_t r = g; r < end; ++r) bound += batch.name(r).size() + 8;
      w.open(bound);
      for (std::size_t r = g; r < end; ++r) {
        w.put(batch.name(r));
        w.put(results.contains[r] ? "\ttrue\n" : "\tfalse\n");
      }
      w.close();
    }
  }
  void write(const RecordBatch&, const BatchResults&, const FormattedBytes& formatted) override {
    out_.write(formatted.data(), formatted.size());
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
