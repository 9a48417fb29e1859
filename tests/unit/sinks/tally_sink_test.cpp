// The --json tally (sinks/tally_sink.h): every call reaches the run's own sink; hits count per
// pattern, and a record counts once per pattern even when its hits arrive in several writes
// (a long record's windows); pair counts give hits and records (count) or records only
// (contains --by pair); contains per record knows neither.
#include <doctest/doctest.h>

#include "trawl/sinks/tally_sink.h"

using namespace trawl;

namespace {

class Counting final : public ResultSink {
 public:
  void format(const RecordBatch&, const BatchResults&, FormattedBatch&) const override { ++formats; }
  void write(const RecordBatch&, const BatchResults&, const FormattedBatch&) override { ++writes; }
  void close() override { ++closes; }
  mutable int formats = 0;
  int writes = 0, closes = 0;
};

Hit hit(std::uint64_t record, std::uint32_t pattern) {
  Hit h{};
  h.text_idx = record;
  h.pattern_idx = pattern;
  return h;
}

}  // namespace

TEST_CASE("tally sink: hits per pattern, records once per pattern across writes") {
  Counting inner;
  PatternTallies t;
  ResultShape shape;
  auto sink = make_tally_sink(inner, 3, shape, t);
  RecordBatch batch;
  BatchResults r;
  FormattedBatch f;
  r.hits.hits = {hit(0, 0), hit(0, 0), hit(0, 2), hit(1, 0)};
  sink->format(batch, r, f);
  sink->write(batch, r, f);
  r.hits.hits = {hit(1, 0), hit(1, 2), hit(4, 2)};  // record 1 goes on (a window)
  sink->write(batch, r, f);
  sink->close();
  CHECK(inner.formats == 1);
  CHECK(inner.writes == 2);
  CHECK(inner.closes == 1);
  CHECK(t.hits_known);
  CHECK(t.records_known);
  CHECK(t.hits == std::vector<std::uint64_t>{4, 0, 3});
  CHECK(t.records == std::vector<std::uint64_t>{2, 0, 3});
}

TEST_CASE("tally sink: pair counts, and what contains knows") {
  Counting inner;
  RecordBatch batch;
  FormattedBatch f;
  BatchResults r;
  r.pair_counts = {{0, 1, 3}, {1, 1, 0}, {2, 0, 1}};
  PatternTallies count;
  ResultShape shape;
  shape.command = Command::count;
  make_tally_sink(inner, 2, shape, count)->write(batch, r, f);
  CHECK(count.hits == std::vector<std::uint64_t>{1, 3});
  CHECK(count.records == std::vector<std::uint64_t>{1, 1});
  PatternTallies pairs;
  shape.command = Command::contains;
  shape.per_pair = true;
  make_tally_sink(inner, 2, shape, pairs)->write(batch, r, f);
  CHECK_FALSE(pairs.hits_known);
  CHECK(pairs.records == std::vector<std::uint64_t>{1, 1});
  PatternTallies flags;
  shape.per_pair = false;
  BatchResults c;
  c.contains = {1, 0, 1};
  make_tally_sink(inner, 2, shape, flags)->write(batch, c, f);
  CHECK_FALSE(flags.hits_known);
  CHECK_FALSE(flags.records_known);
}
