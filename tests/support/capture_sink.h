#pragma once
// A ResultSink that keeps what it is given: each write()'s record batch (first record,
// names, sequence lengths) and results (hits with their CIGAR text, pair counts, contains
// flags), and whether write() got the bytes its own format() made for that batch.
#include <cstdint>
#include <string>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/core/results.h"
#include "trawl/sinks/sinks.h"

namespace trawl::test {

// A hit as one line: "record pattern strand start end cost pattern_start pattern_end cigar".
inline std::string hit_row(const HitList& list, const Hit& h) {
  std::string cigar;
  append_cigar(cigar, list.cigar(h));
  return std::to_string(h.text_idx) + " p" + std::to_string(h.pattern_idx) + " " +
         strand_char(h.strand) + " " + std::to_string(h.start) + "-" + std::to_string(h.end) +
         " cost " + std::to_string(h.cost) + " pat " + std::to_string(h.pattern_start) + "-" +
         std::to_string(h.pattern_end) + " " + cigar;
}

inline std::vector<std::string> hit_rows(const HitList& list) {
  std::vector<std::string> out;
  for (const Hit& h : list.hits) out.push_back(hit_row(list, h));
  return out;
}

inline std::vector<std::string> count_rows(const std::vector<PairCount>& counts) {
  std::vector<std::string> out;
  for (const PairCount& pc : counts)
    out.push_back(std::to_string(pc.text_idx) + " p" + std::to_string(pc.pattern_idx) + " " +
                  std::to_string(pc.count));
  return out;
}

class CaptureSink final : public ResultSink {
 public:
  struct Write {
    std::uint64_t first_record = 0;
    std::vector<std::string> names;
    std::vector<std::uint64_t> seq_sizes;
    std::vector<std::string> hits;
    std::vector<std::string> counts;
    std::vector<std::uint8_t> contains;
    bool formatted_matches = false;  // write() got format()'s bytes for this batch
  };

  void format(const RecordBatch& batch, const BatchResults& results,
              FormattedBatch& out) const override {
    ++formats;
    const std::string tag = tag_of(batch, results);
    out.bytes.insert(out.bytes.end(), tag.begin(), tag.end());
  }
  void write(const RecordBatch& batch, const BatchResults& results,
             const FormattedBatch& formatted) override {
    Write w;
    w.first_record = batch.first_record;
    for (std::size_t r = 0; r < batch.size(); ++r) {
      w.names.emplace_back(batch.name(r));
      w.seq_sizes.push_back(batch.seq(r).size());
    }
    w.hits = hit_rows(results.hits);
    w.counts = count_rows(results.pair_counts);
    w.contains = results.contains;
    w.formatted_matches = std::string(formatted.bytes.begin(), formatted.bytes.end()) == tag_of(batch, results);
    writes.push_back(std::move(w));
  }
  void close() override { ++closes; }

  // Everything written, in order.
  std::vector<std::string> all_hits() const {
    std::vector<std::string> out;
    for (const Write& w : writes) out.insert(out.end(), w.hits.begin(), w.hits.end());
    return out;
  }
  std::vector<std::string> all_counts() const {
    std::vector<std::string> out;
    for (const Write& w : writes) out.insert(out.end(), w.counts.begin(), w.counts.end());
    return out;
  }
  std::vector<std::uint8_t> all_contains() const {
    std::vector<std::uint8_t> out;
    for (const Write& w : writes) out.insert(out.end(), w.contains.begin(), w.contains.end());
    return out;
  }

  std::vector<Write> writes;
  mutable int formats = 0;
  int closes = 0;

 private:
  static std::string tag_of(const RecordBatch& batch, const BatchResults& results) {
    return "batch " + std::to_string(batch.first_record) + " x" + std::to_string(batch.size()) + " hits " +
           std::to_string(results.hits.hits.size()) + " counts " + std::to_string(results.pair_counts.size()) +
           " flags " + std::to_string(results.contains.size()) + "\n";
  }
};

}  // namespace trawl::test
