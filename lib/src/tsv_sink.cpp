#include <charconv>

#include "trawl/sinks.h"

namespace trawl {
namespace {

void append_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
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
              std::string& out) const override {
    for (const Hit& h : results.hits.hits) {
      const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
      out.append(patterns_.pattern(h.pattern_idx).id);
      out.push_back('\t');
      out.append(batch.name(r));
      out.push_back('\t');
      if (h.cost < 0) out.push_back('-');
      append_uint(out, static_cast<std::uint64_t>(h.cost < 0 ? -h.cost : h.cost));
      out.push_back('\t');
      out.push_back(strand_char(h.strand));
      out.push_back('\t');
      append_uint(out, h.start);
      out.push_back('\t');
      append_uint(out, h.end);
      const bool text_direction = h.strand == Strand::fwd || columns_.sam;
      if (columns_.region) {
        out.push_back('\t');
        const std::string_view region = batch.seq(r).substr(h.start, h.end - h.start);
        if (text_direction) {
          out.append(region);
        } else {
          for (std::size_t i = region.size(); i > 0; --i)
            out.push_back(static_cast<char>(
                alphabet_.complement(static_cast<std::uint8_t>(region[i - 1]))));
        }
      }
      if (columns_.cigar) {
        out.push_back('\t');
        append_cigar(out, results.hits.cigar(h), h.strand == Strand::rc && columns_.sam);
      }
      for (ExtraColumn c : columns_.extra) {
        out.push_back('\t');
        switch (c) {
          case ExtraColumn::pattern_start: append_uint(out, h.pattern_start); break;
          case ExtraColumn::pattern_end: append_uint(out, h.pattern_end); break;
          case ExtraColumn::pat_idx: append_uint(out, h.pattern_idx); break;
          case ExtraColumn::text_idx: append_uint(out, h.text_idx); break;
        }
      }
      out.push_back('\n');
    }
  }

  void write(const RecordBatch&, const BatchResults&, const std::string& formatted) override {
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
              std::string& out) const override {
    if (totals_) return;  // aggregated in write()
    for (const PairCount& pc : results.pair_counts) {
      out.append(patterns_.pattern(pc.pattern_idx).id);
      out.push_back('\t');
      out.append(batch.name(static_cast<std::size_t>(pc.text_idx - batch.first_record)));
      out.push_back('\t');
      append_uint(out, pc.count);
      out.push_back('\n');
    }
  }
  void write(const RecordBatch&, const BatchResults& results,
             const std::string& formatted) override {
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
              std::string& out) const override {
    if (per_pair_) {
      for (const PairCount& pc : results.pair_counts) {
        out.append(patterns_.pattern(pc.pattern_idx).id);
        out.push_back('\t');
        out.append(batch.name(static_cast<std::size_t>(pc.text_idx - batch.first_record)));
        out.append(pc.count ? "\ttrue\n" : "\tfalse\n");
      }
      return;
    }
    for (std::size_t r = 0; r < results.contains.size(); ++r) {
      out.append(batch.name(r));
      out.append(results.contains[r] ? "\ttrue\n" : "\tfalse\n");
    }
  }
  void write(const RecordBatch&, const BatchResults&, const std::string& formatted) override {
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
