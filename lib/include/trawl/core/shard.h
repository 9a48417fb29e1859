#pragma once
// --shard I/N: the I-th of N contiguous, equal (to one record) parts of the input's records,
// so that N machines share one input with no coordination and the outputs of shards 1..N,
// concatenated in order, are one unsharded run's.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trawl {

// Records [first, end) of the input (0-based, over all inputs; pairs count as two records).
struct RecordRange {
  std::uint64_t first = 0;
  std::uint64_t end = UINT64_MAX;
  friend bool operator==(const RecordRange&, const RecordRange&) = default;
};

struct Shard {
  std::uint32_t index = 1;  // I, 1-based
  std::uint32_t count = 1;  // N

  // "I/N" with 1 <= I <= N (whole numbers, N at most 2^32 - 1); nullopt otherwise.
  static std::optional<Shard> parse(std::string_view spec);
  // The message for an invalid `spec`, "" if valid.
  static std::string problem(std::string_view spec);

  // This shard's records of an input of `units` units (records, or pairs where `per` is 2):
  // units [floor((I-1) units / N), floor(I units / N)), times `per`.
  RecordRange range(std::uint64_t units, std::uint64_t per = 1) const;
};

}  // namespace trawl
