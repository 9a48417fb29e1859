#include "trawl/sinks/record_sink.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "trawl/core/errors.h"
#include "trawl/io/bgzf.h"
#include "put_bytes.h"

namespace trawl {
namespace {

// The better of two hits of one record for --tag: lower cost, then the first pattern, then
// the first in output order (`a` comes first where both are equal).
bool better(const Hit& a, const Hit& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.pattern_idx != b.pattern_idx) return a.pattern_idx < b.pattern_idx;
  return output_order(a, b) || !output_order(b, a);
}

void keep_better(std::optional<Hit>& best, const Hit& h) {
  if (!best || better(h, *best)) best = h;
}

// Whether a pair (or a lone record: `b` false) goes to the matched side.
bool pair_matches(PairMatch rule, bool a, bool b) {
  switch (rule) {
    case PairMatch::both: return a && b;
    case PairMatch::first: return a;
    case PairMatch::second: return b;
    default: return a || b;
  }
}

void append_tag(const Hit& h, const PatternSet& patterns, FormattedBytes& dst) {
  PatternSet::IdRoom room;
  put(dst, " trawl:pat=");
  put(dst, patterns.id(h.pattern_idx, room));
  put(dst, ",cost=");
  put_number(dst, static_cast<std::uint64_t>(h.cost));
  put(dst, h.strand == Strand::fwd ? ",strand=+,start=" : ",strand=-,start=");
  put_number(dst, h.start);
  put(dst, ",end=");
  put_number(dst, h.end);
}

class FastxRecordSink final : public RecordSink {
 public:
  FastxRecordSink(const RecordOutputs& outputs, const PatternSet& patterns, const RecordSinkOptions& options)
      : outputs_(outputs), patterns_(patterns), options_(options) {}

  void format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& f) const override {
    const bool long_record = batch.external_seq.data() != nullptr;
    // A long record's rows come in several calls, all on the serial output stage (so only
    // its views touch long_best_): its best hit is gathered until the last.
    if (long_record && options_.tag)
      for (const Hit& h : results.hits.hits) keep_better(long_best_, h);
    if (batch.record_continues) return;
    const std::optional<Hit> carried = long_record ? long_best_ : std::nullopt;
    if (long_record) long_best_.reset();
    std::size_t cursor = 0;
    const std::size_t step = options_.pairs == PairMatch::none ? 1 : 2;
    const bool split = outputs_.sinks[RecordOutputs::out2] != nullptr;
    for (std::size_t r = 0; r < batch.size(); r += step) {
      const std::size_t mates = std::min(step, batch.size() - r);
      std::optional<Hit> best[2];
      bool has[2] = {false, false};
      for (std::size_t j = 0; j < mates; ++j) has[j] = record_hit(batch, results, r + j, carried, cursor, best[j]);
      const bool matched = pair_matches(options_.pairs, has[0], has[1]);
      f.matched += matched ? mates : 0;
      const std::size_t side = matched != options_.invert ? RecordOutputs::out : RecordOutputs::other;
      for (std::size_t j = 0; j < mates; ++j) {
        const std::size_t stream = side + (j == 1 && split ? 2 : 0);
        if (outputs_.sinks[stream])
          append_record(batch, r + j, options_.format, best[j] ? &*best[j] : nullptr, patterns_, buffer(f, stream));
      }
    }
    for (std::size_t i = 0; i < 4; ++i)
      if (outputs_.sinks[i] && outputs_.bgzf[i]) compress(buffer(f, i), f.scratch);
  }

  void write(const RecordBatch& batch, const BatchResults&, const FormattedBatch& f) override {
    if (batch.record_continues) return;
    for (std::size_t i = 0; i < 4; ++i)
      if (outputs_.sinks[i]) {
        const FormattedBytes& bytes = i == 0 ? f.bytes : f.more[i - 1];
        outputs_.sinks[i]->write(bytes.data(), bytes.size());
      }
    const std::uint64_t sent = options_.invert ? batch.size() - f.matched : f.matched;
    written_ += sent;
    others_ += batch.size() - sent;
  }

  void close() override {
    const std::string_view eof = bgzf_eof_block();
    for (std::size_t i = 0; i < 4; ++i)
      if (outputs_.sinks[i] && outputs_.bgzf[i]) outputs_.sinks[i]->write(eof.data(), eof.size());
  }

  std::uint64_t written() const override { return written_; }
  std::uint64_t others() const override { return others_; }

 private:
  static FormattedBytes& buffer(FormattedBatch& f, std::size_t stream) {
    return stream == 0 ? f.bytes : f.more[stream - 1];
  }

  void compress(FormattedBytes& text, FormattedBytes& scratch) const {
    scratch.swap(text);
    text.clear();
    bgzf_compress({scratch.data(), scratch.size()}, text, options_.level);
  }

  // Whether record r has a hit: its contains flag, or with --tag its hits (those of the
  // batch from `cursor` on, in record order, and a long record's `carried` best), the best
  // of which goes to `best`.
  bool record_hit(const RecordBatch& batch, const BatchResults& results, std::size_t r,
                  const std::optional<Hit>& carried, std::size_t& cursor, std::optional<Hit>& best) const {
    if (!options_.tag) return r < results.contains.size() && results.contains[r] != 0;
    const std::vector<Hit>& hits = results.hits.hits;
    best = carried;
    for (; cursor < hits.size() && hits[cursor].text_idx == batch.first_record + r; ++cursor) keep_better(best, hits[cursor]);
    return best.has_value();
  }

  const RecordOutputs outputs_;
  const PatternSet& patterns_;
  const RecordSinkOptions options_;
  // Touched only for long records, whose rows reach the sink on the serial output stage.
  mutable std::optional<Hit> long_best_;
  std::uint64_t written_ = 0, others_ = 0;
};

}  // namespace

void append_record(const RecordBatch& batch, std::size_t r, RecordFormat format, const Hit* tag,
                   const PatternSet& patterns, FormattedBytes& dst) {
  const RecordBatch::Kind kind = batch.kinds[r];
  if (kind == RecordBatch::Kind::line) {
    put(dst, batch.seq(r));
    dst.push_back('\n');
    return;
  }
  if (format == RecordFormat::fastq && kind != RecordBatch::Kind::fastq)
    throw InputError("--format fastq: record " + std::to_string(batch.first_record + r + 1) + " ('" +
                     std::string(batch.name(r)) + "') is FASTA, which has no qualities; "
                     "only FASTQ can be written as FASTQ");
  const bool fastq = kind == RecordBatch::Kind::fastq && format != RecordFormat::fasta;
  dst.push_back(fastq ? '@' : '>');
  put(dst, batch.header(r));
  if (tag) append_tag(*tag, patterns, dst);
  dst.push_back('\n');
  put(dst, batch.seq(r));
  dst.push_back('\n');
  if (!fastq) return;
  put(dst, "+\n");
  put(dst, batch.qual(r));
  dst.push_back('\n');
}

std::unique_ptr<RecordSink> make_record_sink(const RecordOutputs& outputs, const PatternSet& patterns,
                                             const RecordSinkOptions& options) {
  return std::make_unique<FastxRecordSink>(outputs, patterns, options);
}

}  // namespace trawl
