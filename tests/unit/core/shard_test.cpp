// --shard I/N (core/shard.h): I/N parses only with 1 <= I <= N; the N ranges are contiguous,
// cover every unit once, differ in size by at most one, and count pairs as two records.
#include <doctest/doctest.h>

#include <cstdint>

#include "trawl/core/shard.h"

using namespace trawl;

TEST_CASE("shard: I/N parses with 1 <= I <= N, anything else is a problem") {
  CHECK(Shard::parse("1/1"));
  const auto s = Shard::parse("2/8");
  REQUIRE(s);
  CHECK(s->index == 2);
  CHECK(s->count == 8);
  for (const char* bad : {"0/3", "4/3", "3", "/3", "1/", "a/b", "-1/3", "+1/3", "1/3x", "1 /3", "", "1/0", "99999999999/99999999999"})
    CHECK_MESSAGE(!Shard::parse(bad), bad);
  CHECK(Shard::problem("2/8").empty());
  CHECK(Shard::problem("0/3") == "--shard 0/3: give I/N with whole numbers 1 <= I <= N (e.g. 2/8, the second of 8 shards)");
}

TEST_CASE("shard: the ranges tile the input, balanced to one unit, pairs as two records") {
  for (const std::uint64_t units : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{1000}, std::uint64_t{1001},
                                    UINT64_MAX / 2})
    for (const std::uint32_t n : {1u, 2u, 3u, 7u, 64u}) {
      CAPTURE(units);
      CAPTURE(n);
      std::uint64_t at = 0, smallest = UINT64_MAX, largest = 0;
      for (std::uint32_t i = 1; i <= n; ++i) {
        const RecordRange r = Shard{i, n}.range(units);
        CHECK(r.first == at);
        CHECK(r.end >= r.first);
        smallest = std::min(smallest, r.end - r.first);
        largest = std::max(largest, r.end - r.first);
        at = r.end;
      }
      CHECK(at == units);
      CHECK(largest - smallest <= 1);
    }
  CHECK(Shard{2, 3}.range(10, 2) == RecordRange{6, 12});  // pairs 3..5 are records 6..11
  CHECK(Shard{3, 3}.range(10, 2) == RecordRange{12, 20});
}
