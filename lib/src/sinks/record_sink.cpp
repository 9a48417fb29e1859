#include "trawl/sinks/record_sink.h"

#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "trawl/core/errors.h"
#include "trawl/io/bgzf.h"

namespace trawl {
namespace {

void put(FormattedBytes& dst, std::string_view s) {
  const std::size_t at = dst.size();
  dst.resize(at + s.size());
  if (!s.empty()) std::memcpy(dst.data() + at, s.data(), s.size());
}

void put_number(FormattedBytes& dst, std::uint64_t v) {
  char digits[24];
  put(dst, {digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits)});
}

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

class FastxRecordSink final : public RecordSink {
 public:
  FastxRecordSink(ByteSink& out, ByteSink* other, const PatternSet& patterns, const RecordSinkOptions& options)
      : out_(out), other_(other), patterns_(patterns), options_(options) {}

  void format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& f) const override {
    // A long record's rows come in several calls, all on the serial output stage: its best
    // hit is gathered until the last.
    if (batch.external_seq.data() != nullptr && options_.tag) {
      for (const Hit& h : results.hits.hits) keep_better(long_best_, h);
      if (batch.record_continues) return;
    }
    if (batch.record_continues) return;
    const bool want_out = !options_.invert;
    f.matched = write_side(batch, results, want_out, options_.bgzf, f.bytes, f.scratch);
    if (other_) write_side(batch, results, !want_out, options_.other_bgzf, f.other, f.scratch);
    if (batch.external_seq.data() != nullptr) long_best_.reset();
  }

  void write(const RecordBatch& batch, const BatchResults&, const FormattedBatch& f) override {
    if (batch.record_continues) return;
    out_.write(f.bytes.data(), f.bytes.size());
    if (other_) other_->write(f.other.data(), f.other.size());
    const std::uint64_t sent = options_.invert ? batch.size() - f.matched : f.matched;
    written_ += sent;
    others_ += batch.size() - sent;
  }

  void close() override {
    if (options_.bgzf) write_eof(out_);
    if (other_ && options_.other_bgzf) write_eof(*other_);
  }

  std::uint64_t written() const override { return written_; }
  std::uint64_t others() const override { return others_; }

 private:
  static void write_eof(ByteSink& sink) {
    const std::string_view eof = bgzf_eof_block();
    sink.write(eof.data(), eof.size());
  }

  // Appends the batch's records that are (`matched`) or are not matched to `dst`, compressed
  // where asked (through `scratch`); returns how many records are matched.
  std::uint64_t write_side(const RecordBatch& batch, const BatchResults& results, bool matched,
                           bool compress, FormattedBytes& dst, FormattedBytes& scratch) const {
    FormattedBytes& text = compress ? scratch : dst;
    if (compress) scratch.clear();
    std::uint64_t hit_records = 0;
    std::size_t h = 0;
    // (Only a long record's view reads the carried best: other batches run concurrently.)
    const std::optional<Hit> carried = batch.external_seq.data() != nullptr ? long_best_ : std::nullopt;
    const std::vector<Hit>& hits = results.hits.hits;
    for (std::size_t r = 0; r < batch.size(); ++r) {
      std::optional<Hit> best;
      bool has_hit;
      if (options_.tag) {
        best = carried;
        for (; h < hits.size() && hits[h].text_idx == batch.first_record + r; ++h) keep_better(best, hits[h]);
        has_hit = best.has_value();
      } else {
        has_hit = r < results.contains.size() && results.contains[r] != 0;
      }
      hit_records += has_hit;
      if (has_hit == matched) append_record(batch, r, has_hit ? best : std::nullopt, text);
    }
    if (compress) bgzf_compress({scratch.data(), scratch.size()}, dst, options_.level);
    return hit_records;
  }

  void append_record(const RecordBatch& batch, std::size_t r, const std::optional<Hit>& tag,
                     FormattedBytes& dst) const {
    const RecordBatch::Kind kind = batch.kinds[r];
    if (kind == RecordBatch::Kind::line) {
      put(dst, batch.seq(r));
      dst.push_back('\n');
      return;
    }
    if (options_.format == RecordFormat::fastq && kind != RecordBatch::Kind::fastq)
      throw UsageError("--format fastq: record " + std::to_string(batch.first_record + r + 1) + " ('" +
                       std::string(batch.name(r)) + "') is FASTA, which has no qualities; "
                       "only FASTQ can be written as FASTQ");
    const bool fastq = kind == RecordBatch::Kind::fastq && options_.format != RecordFormat::fasta;
    dst.push_back(fastq ? '@' : '>');
    put(dst, batch.header(r));
    if (tag) append_tag(*tag, dst);
    dst.push_back('\n');
    put(dst, batch.seq(r));
    dst.push_back('\n');
    if (!fastq) return;
    put(dst, "+\n");
    put(dst, batch.qual(r));
    dst.push_back('\n');
  }

  void append_tag(const Hit& h, FormattedBytes& dst) const {
    PatternSet::IdRoom room;
    put(dst, " trawl:pat=");
    put(dst, patterns_.id(h.pattern_idx, room));
    put(dst, ",cost=");
    put_number(dst, static_cast<std::uint64_t>(h.cost));
    put(dst, h.strand == Strand::fwd ? ",strand=+,start=" : ",strand=-,start=");
    put_number(dst, h.start);
    put(dst, ",end=");
    put_number(dst, h.end);
  }

  ByteSink& out_;
  ByteSink* other_;
  const PatternSet& patterns_;
  const RecordSinkOptions options_;
  // Touched only for long records, whose rows reach the sink on the serial output stage.
  mutable std::optional<Hit> long_best_;
  std::uint64_t written_ = 0, others_ = 0;
};

}  // namespace

std::unique_ptr<RecordSink> make_record_sink(ByteSink& out, ByteSink* other, const PatternSet& patterns,
                                             const RecordSinkOptions& options) {
  return std::make_unique<FastxRecordSink>(out, other, patterns, options);
}

}  // namespace trawl
