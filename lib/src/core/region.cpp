#include "trawl/core/region.h"

#include <algorithm>
#include <charconv>

namespace trawl {
namespace {

struct Parsed {
  bool from_end = false;
  std::uint64_t magnitude = 0;
  bool ok = false;
};

Parsed parse_position(std::string_view text) {
  Parsed p;
  p.from_end = !text.empty() && text[0] == '-';
  const std::string_view digits = text.substr(p.from_end ? 1 : 0);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return p;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), p.magnitude);
  p.ok = ec == std::errc() && end == digits.data() + digits.size();
  return p;
}

// Why `spec` is not a region, "" where it is one.
std::string reason(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return "not of the form A:B";
  const Parsed a = parse_position(spec.substr(0, colon)), b = parse_position(spec.substr(colon + 1));
  if (!a.ok || !b.ok) return "A and B must be whole numbers";
  if (a.magnitude == 0 || b.magnitude == 0) return "positions start at 1 (there is no position 0)";
  if (a.from_end == b.from_end && (a.from_end ? a.magnitude < b.magnitude : a.magnitude > b.magnitude))
    return "A is after B";
  return {};
}

}  // namespace

std::optional<Region> Region::parse(std::string_view spec) {
  if (!reason(spec).empty()) return std::nullopt;
  const std::size_t colon = spec.find(':');
  const Parsed a = parse_position(spec.substr(0, colon)), b = parse_position(spec.substr(colon + 1));
  return Region({a.from_end, a.magnitude}, {b.from_end, b.magnitude});
}

std::string Region::problem(std::string_view spec) {
  const std::string why = reason(spec);
  if (why.empty()) return {};
  return "--region " + std::string(spec) + ": " + why +
         "; give A:B, 1-based and inclusive as in seqkit, negative counting from the end "
         "(1:35 the first 35 bases, -35:-1 the last 35, 20:-1 from base 20 to the end)";
}

Span Region::span(std::uint64_t length) const {
  // 0-based half-open [begin, end) before clipping to the record: A names its base (A - 1,
  // or length - |A| from the end), B the base after its own.
  const std::uint64_t begin = from_.from_end
                                  ? (from_.magnitude >= length ? 0 : length - from_.magnitude)
                                  : std::min(from_.magnitude - 1, length);
  const std::uint64_t end = to_.from_end
                                ? (to_.magnitude - 1 >= length ? 0 : length - (to_.magnitude - 1))
                                : std::min(to_.magnitude, length);
  return end > begin ? Span{begin, end - begin} : Span{begin, 0};
}

}  // namespace trawl
