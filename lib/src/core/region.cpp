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

// Why the range `spec` (one A:B) is not a range, "" where it is one.
std::string range_reason(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return "not of the form A:B";
  const Parsed a = parse_position(spec.substr(0, colon)), b = parse_position(spec.substr(colon + 1));
  if (!a.ok || !b.ok) return "A and B must be whole numbers";
  if (a.magnitude == 0 || b.magnitude == 0) return "positions start at 1 (there is no position 0)";
  if (a.from_end == b.from_end && (a.from_end ? a.magnitude < b.magnitude : a.magnitude > b.magnitude))
    return "A is after B";
  return {};
}

// Calls f(range) for each comma-separated range of `spec`.
template <class F>
void for_each_range(std::string_view spec, F f) {
  for (std::size_t at = 0;;) {
    const std::size_t comma = spec.find(',', at);
    f(spec.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
    if (comma == std::string_view::npos) return;
    at = comma + 1;
  }
}

// Why `spec` is not a region, "" where it is one.
std::string reason(std::string_view spec) {
  std::string why;
  std::size_t ranges = 0;
  for_each_range(spec, [&](std::string_view range) {
    ++ranges;
    if (!why.empty()) return;
    why = range_reason(range);
    if (!why.empty() && spec.find(',') != std::string_view::npos)
      why = "range " + std::to_string(ranges) + " (" + std::string(range) + ") " + why;
  });
  return why;
}

}  // namespace

std::optional<Region> Region::parse(std::string_view spec) {
  if (!reason(spec).empty()) return std::nullopt;
  std::vector<Range> ranges;
  for_each_range(spec, [&](std::string_view range) {
    const std::size_t colon = range.find(':');
    const Parsed a = parse_position(range.substr(0, colon)), b = parse_position(range.substr(colon + 1));
    ranges.push_back({{a.from_end, a.magnitude}, {b.from_end, b.magnitude}});
  });
  return Region(std::move(ranges));
}

std::string Region::problem(std::string_view spec) {
  const std::string why = reason(spec);
  if (why.empty()) return {};
  return "--region " + std::string(spec) + ": " + why +
         "; give A:B, 1-based and inclusive as in seqkit, negative counting from the end "
         "(1:35 the first 35 bases, -35:-1 the last 35, 20:-1 from base 20 to the end), "
         "or several joined by commas (1:150,-150:-1 both ends)";
}

Span Region::Range::span(std::uint64_t length) const {
  // 0-based half-open [begin, end) before clipping to the record: A names its base (A - 1,
  // or length - |A| from the end), B the base after its own.
  const std::uint64_t begin = from.from_end ? (from.magnitude >= length ? 0 : length - from.magnitude)
                                            : std::min(from.magnitude - 1, length);
  const std::uint64_t end = to.from_end ? (to.magnitude - 1 >= length ? 0 : length - (to.magnitude - 1))
                                        : std::min(to.magnitude, length);
  return end > begin ? Span{begin, end - begin} : Span{begin, 0};
}

void Region::spans(std::uint64_t length, std::vector<Span>& out) const {
  out.clear();
  if (single()) {
    out.push_back(span(length));
    return;
  }
  for (const Range& r : ranges_)
    if (const Span s = r.span(length); s.length > 0) out.push_back(s);
  if (out.empty()) {
    out.push_back(span(length));
    return;
  }
  std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.offset < b.offset; });
  std::size_t kept = 0;
  for (std::size_t i = 1; i < out.size(); ++i) {
    Span& last = out[kept];
    if (out[i].offset <= last.offset + last.length) {
      last.length = std::max(last.offset + last.length, out[i].offset + out[i].length) - last.offset;
    } else {
      out[++kept] = out[i];
    }
  }
  out.resize(kept + 1);
}

}  // namespace trawl
