#pragma once
// --region A:B[,C:D...]: the parts of every record that are searched, in seqkit's convention
// (1-based, inclusive, negative positions counted from the record's end: -1 is the last
// base). Several ranges (1:150,-150:-1, both ends of a long read) are joined where they
// overlap or touch; each joined part is searched as if it were the whole record.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trawl {

// A stretch of a record: 0-based offset and length.
struct Span {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

// A parsed A:B[,C:D...]. Pure and immutable; safe to share between threads.
class Region {
 public:
  // Comma-separated ranges "A:B", each with A and B nonzero whole numbers (an optional '-',
  // then digits), and A <= B where both have the same sign; nullopt otherwise (a mixed-sign
  // pair is checked per record).
  static std::optional<Region> parse(std::string_view spec);

  // The message for an invalid `spec` ("--region SPEC: why; the convention"), "" if valid.
  static std::string problem(std::string_view spec);

  // Whether the region is one range (then every record has exactly one part).
  bool single() const { return ranges_.size() == 1; }

  // The part of a record of `length` bases the first range covers: its overlap with the
  // record, empty (length 0, offset at most `length`) where there is none.
  Span span(std::uint64_t length) const { return ranges_.front().span(length); }

  // Replaces `out` with the parts of a record of `length` bases: the ranges' overlaps with
  // the record, joined where they overlap or touch, in increasing order, none empty; one
  // empty part (as span() gives it) where no range reaches the record, so every record has
  // at least one part.
  void spans(std::uint64_t length, std::vector<Span>& out) const;

 private:
  // A position as sign and magnitude, so that every 64-bit magnitude resolves without
  // overflow.
  struct Position {
    bool from_end = false;
    std::uint64_t magnitude = 0;
  };
  struct Range {
    Position from, to;
    Span span(std::uint64_t length) const;
  };
  explicit Region(std::vector<Range> ranges) : ranges_(std::move(ranges)) {}
  std::vector<Range> ranges_;  // never empty
};

}  // namespace trawl
