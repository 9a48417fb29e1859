// RecordBatch: names and sequences are views into the batch's arenas, into the borrowed
// block for spans with kBorrowed, or the external sequence of a windowed long record;
// clear() empties everything and keeps the arenas' capacity.
#include <doctest/doctest.h>

#include <string>

#include "trawl/io/record_batch.h"

using namespace trawl;

TEST_CASE("record batch: views into the arenas, in record order") {
  RecordBatch b;
  b.first_record = 42;
  b.names = "r1r22";
  b.seqs = "ACGTNNA";
  b.name_spans = {{0, 2}, {2, 3}, {5, 0}};
  b.seq_spans = {{0, 4}, {4, 3}, {7, 0}};
  b.seq_bases = 7;
  REQUIRE(b.size() == 3);
  CHECK(b.bases() == 7);
  CHECK(b.name(0) == "r1");
  CHECK(b.name(1) == "r22");
  CHECK(b.name(2).empty());
  CHECK(b.seq(0) == "ACGT");
  CHECK(b.seq(1) == "NNA");
  CHECK(b.seq(2).empty());  // an empty record is fine
  CHECK(b.first_record == 42);
}

TEST_CASE("record batch: kBorrowed spans read from the borrowed block, the others from the arenas") {
  const std::string block = ">read7 desc\nGATTACA\n";
  RecordBatch b;
  b.borrowed = block.data();
  b.names = "copied";
  b.seqs = "AC\nGT";  // (a copied multi-line sequence would not keep the newline; any bytes do)
  b.name_spans = {{RecordBatch::kBorrowed | 1, 5}, {0, 6}};
  b.seq_spans = {{RecordBatch::kBorrowed | 12, 7}, {0, 5}};
  CHECK(b.name(0) == "read7");
  CHECK(b.seq(0) == "GATTACA");
  CHECK(b.seq(0).data() == block.data() + 12);  // a view, not a copy
  CHECK(b.name(1) == "copied");
  CHECK(b.seq(1) == "AC\nGT");
  CHECK((RecordBatch::kBorrowed & (RecordBatch::kBorrowed - 1)) == 0);  // one bit
  CHECK(RecordBatch::kBorrowed > (std::uint64_t{1} << 62));              // above any offset
}

TEST_CASE("record batch: an external sequence stands in for the only record's") {
  const std::string whole(1000, 'G');
  RecordBatch b;
  b.names = "chr1";
  b.name_spans = {{0, 4}};
  b.seq_spans = {{0, 0}};
  b.external_seq = whole;
  CHECK(b.seq(0).data() == whole.data());
  CHECK(b.seq(0).size() == 1000);
  CHECK(b.name(0) == "chr1");
}

TEST_CASE("record batch: clear() empties it for reuse and keeps the arenas' capacity") {
  const std::string block = "XYZ";
  const std::string whole = "ACGT";
  RecordBatch b;
  b.first_record = 9;
  b.names.assign(500, 'n');
  b.seqs.assign(5000, 'A');
  b.name_spans = {{0, 500}};
  b.seq_spans = {{0, 5000}};
  b.seq_bases = 5000;
  b.borrowed = block.data();
  b.external_seq = whole;
  const auto names_capacity = b.names.capacity(), seqs_capacity = b.seqs.capacity();
  b.clear();
  CHECK(b.size() == 0);
  CHECK(b.bases() == 0);
  CHECK(b.names.empty());
  CHECK(b.seqs.empty());
  CHECK(b.name_spans.empty());
  CHECK(b.borrowed == nullptr);
  CHECK(b.borrowed_mapping == nullptr);
  CHECK(b.external_seq.data() == nullptr);
  CHECK(b.names.capacity() == names_capacity);
  CHECK(b.seqs.capacity() == seqs_capacity);
  // After clear() a fresh record reads from the arena again, not the old external sequence.
  b.names = "x";
  b.seqs = "TT";
  b.name_spans = {{0, 1}};
  b.seq_spans = {{0, 2}};
  CHECK(b.seq(0) == "TT");
}
