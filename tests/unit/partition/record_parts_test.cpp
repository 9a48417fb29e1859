// RecordParts (partition/record_parts.h): a batch's records cut into their --region parts,
// and hits found in the parts folded back into the records' rows: coordinates, output order,
// --best over the parts (the tie rule of each strand), count and contains.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "trawl/partition/record_parts.h"

using namespace trawl;

namespace {

RecordBatch batch_of(const std::vector<std::string>& seqs, std::uint64_t first) {
  RecordBatch b;
  b.first_record = first;
  for (const std::string& s : seqs) {
    b.seq_spans.push_back({b.seqs.size(), s.size()});
    b.seqs += s;
    b.seq_bases += s.size();
  }
  return b;
}

Hit hit(std::uint64_t view, std::uint32_t pattern, Strand strand, std::uint64_t start, std::uint64_t end, int cost) {
  return Hit{view, start, end, pattern, 0, 0, cost, strand, 0, 0};
}

}  // namespace

TEST_CASE("record parts: the views are each record's parts, at least one per record") {
  RecordParts parts;
  const RecordBatch b = batch_of({std::string(1000, 'A'), std::string(250, 'C'), ""}, 10);
  parts.split(b, *Region::parse("1:150,-150:-1"));
  const auto v = parts.views();
  REQUIRE(v.size() == 4);
  CHECK(v[0].size() == 150);
  CHECK(v[1].data() == b.seq(0).data() + 850);
  CHECK(v[2].size() == 250);  // 1:150 and -150:-1 overlap: one part
  CHECK(v[3].empty());
}

TEST_CASE("record parts: one part each (a single range, or ranges that join) is placed, not folded") {
  RecordParts parts;
  const RecordBatch b = batch_of({std::string(1000, 'A'), std::string(20, 'C')}, 3);
  parts.split(b, *Region::parse("101:-101"));
  REQUIRE(parts.one_each());
  CHECK(parts.views()[0].data() == b.seq(0).data() + 100);
  CHECK(parts.views()[1].empty());
  BatchResults r;
  r.hits.hits = {hit(3, 0, Strand::fwd, 5, 15, 1), hit(3, 1, Strand::rc, 0, 10, 0)};
  parts.place(r);
  CHECK(r.hits.hits[0].start == 105);
  CHECK(r.hits.hits[0].end == 115);
  CHECK(r.hits.hits[1].start == 100);
  CHECK(r.hits.hits[1].text_idx == 3);
  parts.split(b, *Region::parse("1:150,-150:-1"));
  CHECK_FALSE(parts.one_each());
  parts.split(batch_of({std::string(250, 'A'), std::string(20, 'C')}, 0), *Region::parse("1:150,-150:-1"));
  CHECK(parts.one_each());
}

TEST_CASE("record parts: hits move to the record, in output order, --best over all parts") {
  RecordParts parts;
  const RecordBatch b = batch_of({std::string(1000, 'A'), std::string(100, 'C')}, 7);
  parts.split(b, *Region::parse("1:150,-150:-1"));
  REQUIRE(parts.views().size() == 3);
  // Views 0 and 1 are record 7's parts (offsets 0 and 850), view 2 record 8.
  const std::vector<Hit> found = {hit(0, 0, Strand::fwd, 5, 15, 1),  hit(0, 0, Strand::rc, 20, 30, 2),
                                  hit(0, 1, Strand::fwd, 40, 50, 0),  hit(1, 0, Strand::fwd, 10, 20, 1),
                                  hit(1, 0, Strand::rc, 60, 70, 2),   hit(1, 1, Strand::rc, 0, 10, 3),
                                  hit(2, 1, Strand::fwd, 3, 13, 0)};
  BatchResults r;
  r.hits.hits = found;
  parts.fold(r, ResultShape{Command::hits}, false, 2);
  std::vector<std::string> got;
  for (const Hit& h : r.hits.hits)
    got.push_back(std::to_string(h.text_idx) + " p" + std::to_string(h.pattern_idx) + " " +
                  (h.strand == Strand::fwd ? "+" : "-") + " " + std::to_string(h.start));
  CHECK(got == std::vector<std::string>{"7 p0 + 5", "7 p0 - 20", "7 p0 + 860", "7 p0 - 910", "7 p1 + 40",
                                        "7 p1 - 850", "8 p1 + 3"});
  // --best: '+' ties go to the larger end (the later part), '-' ties to the smaller start.
  r.clear();
  r.hits.hits = found;
  parts.fold(r, ResultShape{Command::hits}, true, 2);
  got.clear();
  for (const Hit& h : r.hits.hits)
    got.push_back(std::to_string(h.text_idx) + " p" + std::to_string(h.pattern_idx) + " " +
                  (h.strand == Strand::fwd ? "+" : "-") + " " + std::to_string(h.start));
  CHECK(got == std::vector<std::string>{"7 p0 - 20", "7 p0 + 860", "7 p1 + 40", "7 p1 - 850", "8 p1 + 3"});
}

TEST_CASE("record parts: count and contains rows from the folded hits, records without hits included") {
  RecordParts parts;
  const RecordBatch b = batch_of({std::string(1000, 'A'), std::string(100, 'C'), std::string(400, 'G')}, 0);
  parts.split(b, *Region::parse("1:150,-150:-1"));
  const std::vector<Hit> found = {hit(0, 1, Strand::fwd, 5, 15, 1), hit(1, 1, Strand::rc, 20, 30, 2),
                                  hit(1, 1, Strand::fwd, 40, 50, 0), hit(3, 0, Strand::fwd, 1, 9, 0)};
  const auto rows = [&](ResultShape shape, bool best) {
    BatchResults r;
    r.hits.hits = found;
    parts.fold(r, shape, best, 2);
    CHECK(r.hits.hits.empty());
    std::string out;
    for (const PairCount& pc : r.pair_counts)
      out += std::to_string(pc.text_idx) + ":" + std::to_string(pc.pattern_idx) + "=" + std::to_string(pc.count) + " ";
    for (const std::uint8_t f : r.contains) out += std::to_string(f);
    return out;
  };
  CHECK(rows(ResultShape{Command::count}, false) == "0:1=3 2:0=1 ");
  CHECK(rows(ResultShape{Command::count}, true) == "0:1=2 2:0=1 ");  // one per strand
  CHECK(rows(ResultShape{Command::count, true}, false) == "0:0=0 0:1=3 1:0=0 1:1=0 2:0=1 2:1=0 ");
  CHECK(rows(ResultShape{Command::contains}, false) == "101");
  CHECK(rows(ResultShape{Command::contains, false, false, true}, false) == "0:0=0 0:1=1 1:0=0 1:1=0 2:0=1 2:1=0 ");
}
