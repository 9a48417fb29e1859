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
    // Rows are written through a raw pointer into room reserved for a group's worst case
    // (one std::string append per field would dominate dense outputs); groups keep the
    // over-reservation small.
    const std::span<const Hit> all = results.hits.hits;
    constexpr std::size_t kGroup = 1024;
    for (std::size_t g = 0; g < all.size(); g += kGroup) {
      const std::span<const Hit> group = all.subspan(g, std::min(kGroup, all.size() - g));
      std::size_t bound = 0;
      for (const Hit& h : group) {
        const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
        bound += patterns_.pattern(h.pattern_idx).id.size() + batch.name(r).size() + (h.end - h.start) +
                 24 * std::size_t{h.cigar_count} + 21 * (3 + columns_.extra.size()) + 16;
      }
      const std::size_t used = out.size();
      out.resize(used + bound);
      char* end = format_rows(batch, results, group, out.data() + used);
      out.resize(static_cast<std::size_t>(end - out.data()));
    }
  }

  // Writes the rows of `hits` at w (room reserved by format()); returns the end.
  char* format_rows(const RecordBatch& batch, const BatchResults& results,
                    std::span<const Hit> hits, char* w) const {
    auto put = [&w](std::string_view v) {
      std::memcpy(w, v.data(), v.size());
      w += v.size();
    };
    auto put_uint = [&w](std::uint64_t v) { w = std::to_chars(w, w + 20, v).ptr; };
    for (const Hit& h : hits) {
      const std::size_t r = static_cast<std::size_t>(h.text_idx - batch.first_record);
      put(patterns_.pattern(h.pattern_idx).id);
      *w++ = '\t';
      put(batch.name(r));
      *w++ = '\t';
      if (h.cost < 0) *w++ = '-';
      put_uint(static_cast<std::uint64_t>(h.cost < 0 ? -h.cost : h.cost));
      *w++ = '\t';
      *w++ = strand_char(h.strand);
      *w++ = '\t';
      put_uint(h.start);
      *w++ = '\t';
      put_uint(h.end);
      const bool text_direction = h.strand == Strand::fwd || columns_.sam;
      if (columns_.region) {
        *w++ = '\t';
        const std::string_view region = batch.seq(r).substr(h.start, h.end - h.start);
        if (text_direction) {
          put(region);
        } else {
          for (std::size_t i = region.size(); i > 0; --i)
            *w++ = static_cast<char>(alphabet_.complement(static_cast<std::uint8_t>(region[i - 1])));
        }
      }
      if (columns_.cigar) {
        *w++ = '\t';
        const std::span<const CigarOp> ops = results.hits.cigar(h);
        const bool reversed = h.strand == Strand::rc && columns_.sam;
        for (std::size_t i = 0; i < ops.size(); ++i) {
          const CigarOp& op = ops[reversed ? ops.size() - 1 - i : i];
          put_uint(op.len);
          *w++ = op.op;
        }
      }
      for (ExtraColumn c : columns_.extra) {
        *w++ = '\t';
        switch (c) {
          case ExtraColumn::pattern_start: put_uint(h.pattern_start); break;
          case ExtraColumn::pattern_end: put_uint(h.pattern_end); break;
          case ExtraColumn::pat_idx: put_uint(h.pattern_idx); break;
          case ExtraColumn::text_idx: put_uint(h.text_idx); break;
        }
      }
      *w++ = '\n';
    }
    return w;
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
