// Hits and CIGARs (docs/semantics.md §3): run-length text with an explicit count for every
// run, SAM letters, the reversed order of --sam '-' rows, and HitList's out-of-line CIGAR
// runs.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "trawl/core/hit.h"

using namespace trawl;

TEST_CASE("append_cigar: every run with its count, SAM letters, appended to what is there") {
  const std::vector<CigarOp> ops = {{3, '='}, {1, 'X'}, {12, 'I'}, {1, 'D'}, {250, '='}};
  std::string out;
  append_cigar(out, ops);
  CHECK(out == "3=1X12I1D250=");
  out = "cigar:";
  append_cigar(out, ops);
  CHECK(out == "cigar:3=1X12I1D250=");
  std::string one;
  append_cigar(one, std::vector<CigarOp>{{1, 'X'}});
  CHECK(one == "1X");  // never "X" or "M"
  std::string big;
  append_cigar(big, std::vector<CigarOp>{{4294967295u, '='}});
  CHECK(big == "4294967295=");
}

TEST_CASE("append_cigar: reversed writes the runs in the opposite order, each run unchanged") {
  const std::vector<CigarOp> ops = {{2, '='}, {1, 'D'}, {10, '='}, {3, 'X'}};
  std::string fwd, rev;
  append_cigar(fwd, ops, false);
  append_cigar(rev, ops, true);
  CHECK(fwd == "2=1D10=3X");
  CHECK(rev == "3X10=1D2=");
  // Reversing twice is the identity, and a single run reads the same both ways.
  std::vector<CigarOp> back(ops.rbegin(), ops.rend());
  std::string twice;
  append_cigar(twice, back, true);
  CHECK(twice == fwd);
  std::string single_fwd, single_rev;
  append_cigar(single_fwd, std::vector<CigarOp>{{7, '='}}, false);
  append_cigar(single_rev, std::vector<CigarOp>{{7, '='}}, true);
  CHECK(single_fwd == single_rev);
}

TEST_CASE("append_cigar: an empty CIGAR (all-overhang hit) appends nothing") {
  std::string out = "x";
  append_cigar(out, std::span<const CigarOp>{});
  append_cigar(out, std::span<const CigarOp>{}, true);
  CHECK(out == "x");
}

TEST_CASE("HitList: each hit's CIGAR is its own slice of cigar_ops; clear keeps capacity") {
  HitList list;
  list.cigar_ops = {{4, '='}, {1, 'X'}, {3, '='}, {2, '='}, {1, 'I'}};
  Hit a{};
  a.cigar_offset = 0;
  a.cigar_count = 3;
  Hit b{};
  b.cigar_offset = 3;
  b.cigar_count = 2;
  Hit empty{};
  empty.cigar_offset = 5;
  empty.cigar_count = 0;
  list.hits = {a, b, empty};
  std::string sa, sb, se;
  append_cigar(sa, list.cigar(list.hits[0]));
  append_cigar(sb, list.cigar(list.hits[1]));
  append_cigar(se, list.cigar(list.hits[2]));
  CHECK(sa == "4=1X3=");
  CHECK(sb == "2=1I");
  CHECK(se.empty());
  CHECK(list.cigar(list.hits[2]).empty());

  const auto hit_capacity = list.hits.capacity();
  const auto op_capacity = list.cigar_ops.capacity();
  list.clear();
  CHECK(list.hits.empty());
  CHECK(list.cigar_ops.empty());
  CHECK(list.hits.capacity() == hit_capacity);
  CHECK(list.cigar_ops.capacity() == op_capacity);
}

TEST_CASE("strand_char: '+' forward, '-' reverse complement") {
  CHECK(strand_char(Strand::fwd) == '+');
  CHECK(strand_char(Strand::rc) == '-');
}
