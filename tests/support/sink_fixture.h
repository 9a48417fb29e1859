#pragma once
// Hand-built inputs for the sink tests: an in-memory ByteSink, record batches made from
// (name, sequence) pairs, and hits with their CIGAR runs, so a sink's rows can be compared
// with rows written out by hand.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/core/results.h"
#include "trawl/io/byte_sink.h"
#include "trawl/io/record_batch.h"
#include "trawl/sinks/sinks.h"

namespace trawl::test {

// Keeps every byte written, in order.
class StringSink final : public trawl::ByteSink {
 public:
  void write(const void* data, std::size_t size) override {
    if (size > 0) bytes.append(static_cast<const char*>(data), size);
  }
  std::string bytes;
};

// A batch of records (name, sequence) whose first record has global index `first`.
inline trawl::RecordBatch make_batch(const std::vector<std::pair<std::string, std::string>>& records,
                                     std::uint64_t first = 0) {
  trawl::RecordBatch b;
  b.first_record = first;
  for (const auto& [name, seq] : records) {
    b.name_spans.push_back({b.names.size(), name.size()});
    b.names += name;
    b.seq_spans.push_back({b.seqs.size(), seq.size()});
    b.seqs += seq;
    b.seq_bases += seq.size();
  }
  return b;
}

// Appends a hit with its CIGAR runs to `list`.
inline void add_hit(trawl::HitList& list, std::uint32_t pattern_idx, std::uint64_t text_idx,
                    trawl::Strand strand, std::int32_t cost, std::uint64_t start, std::uint64_t end,
                    const std::vector<trawl::CigarOp>& ops, std::uint32_t pattern_start = 0,
                    std::uint32_t pattern_end = 0) {
  trawl::Hit h{};
  h.text_idx = text_idx;
  h.start = start;
  h.end = end;
  h.pattern_idx = pattern_idx;
  h.pattern_start = pattern_start;
  h.pattern_end = pattern_end;
  h.cost = cost;
  h.strand = strand;
  h.cigar_offset = static_cast<std::uint32_t>(list.cigar_ops.size());
  h.cigar_count = static_cast<std::uint32_t>(ops.size());
  list.cigar_ops.insert(list.cigar_ops.end(), ops.begin(), ops.end());
  list.hits.push_back(h);
}

// Runs one batch through a sink as the pipeline does: format (on a fresh buffer), then write.
inline void feed(trawl::ResultSink& sink, const trawl::RecordBatch& batch,
                 const trawl::BatchResults& results) {
  trawl::FormattedBatch formatted;
  sink.format(batch, results, formatted);
  sink.write(batch, results, formatted);
}

}  // namespace trawl::test
