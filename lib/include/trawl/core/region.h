#pragma once
// --region A:B: the part of every record that is searched, in seqkit's convention (1-based,
// inclusive, negative positions counted from the record's end: -1 is the last base).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trawl {

// A stretch of a record: 0-based offset and length.
struct Span {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

// A parsed A:B. Pure and immutable; safe to share between threads.
class Region {
 public:
  // "A:B" with A and B nonzero whole numbers (an optional '-', then digits), and A <= B where
  // both have the same sign; nullopt otherwise (a mixed-sign pair is checked per record).
  static std::optional<Region> parse(std::string_view spec);

  // The message for an invalid `spec` ("--region SPEC: why; the convention"), "" if valid.
  static std::string problem(std::string_view spec);

  // The part of a record of `length` bases the region covers: its overlap with the record,
  // empty (length 0, offset at most `length`) where there is none.
  Span span(std::uint64_t length) const;

 private:
  // A position as sign and magnitude, so that every 64-bit magnitude resolves without
  // overflow.
  struct Position {
    bool from_end = false;
    std::uint64_t magnitude = 0;
  };
  Region(Position from, Position to) : from_(from), to_(to) {}
  Position from_, to_;
};

}  // namespace trawl
