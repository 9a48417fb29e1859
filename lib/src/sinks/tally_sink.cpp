#include "trawl/sinks/tally_sink.h"

#include <limits>

namespace trawl {
namespace {

class TallySink : public ResultSink {
 public:
  TallySink(ResultSink& inner, std::size_t patterns, const ResultShape& shape, PatternTallies& tallies)
      : inner_(inner), tallies_(tallies) {
    const bool pairs = shape.command == Command::count || (shape.command == Command::contains && shape.per_pair);
    tallies_.hits_known = shape.command == Command::hits || shape.command == Command::count;
    tallies_.records_known = shape.command == Command::hits || pairs;
    tallies_.hits.assign(tallies_.hits_known ? patterns : 0, 0);
    tallies_.records.assign(tallies_.records_known ? patterns : 0, 0);
    if (shape.command == Command::hits) last_record_.assign(patterns, kNone);
  }
  void format(const RecordBatch& batch, const BatchResults& results, FormattedBatch& out) const override {
    inner_.format(batch, results, out);
  }
  void write(const RecordBatch& batch, const BatchResults& results, const FormattedBatch& formatted) override {
    inner_.write(batch, results, formatted);
    // Hits come in output order, so a pattern's hits in one record are neighbours or at least
    // share the record index last seen for that pattern (a long record's windows included).
    for (const Hit& h : results.hits.hits) {
      ++tallies_.hits[h.pattern_idx];
      std::uint64_t& last = last_record_[h.pattern_idx];
      if (last != h.text_idx) {
        last = h.text_idx;
        ++tallies_.records[h.pattern_idx];
      }
    }
    for (const PairCount& pc : results.pair_counts) {
      if (tallies_.hits_known) tallies_.hits[pc.pattern_idx] += pc.count;
      if (tallies_.records_known) tallies_.records[pc.pattern_idx] += pc.count > 0;
    }
  }
  void close() override { inner_.close(); }

 private:
  static constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  ResultSink& inner_;
  PatternTallies& tallies_;
  std::vector<std::uint64_t> last_record_;  // hits: the record of each pattern's last hit
};

}  // namespace

std::unique_ptr<ResultSink> make_tally_sink(ResultSink& inner, std::size_t patterns, const ResultShape& shape,
                                            PatternTallies& tallies) {
  return std::make_unique<TallySink>(inner, patterns, shape, tallies);
}

}  // namespace trawl
