#include "trawl/core/ranges.h"

#include <charconv>

namespace trawl {
namespace {

// Fixed notation: a range error must read as plain numbers, never 1e+10.
std::string plain(float value) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(value);
}

}  // namespace

std::string range_text(std::string_view value, WholeRange range) {
  return std::string(value) + " is out of range; give a whole number from " +
         std::to_string(range.min) + " to " + std::to_string(range.max);
}

std::string out_of_range(std::string_view option, std::string_view value, WholeRange range) {
  return std::string(option) + ": " + range_text(value, range);
}

std::string out_of_range(std::string_view option, float value, float min, float max) {
  return std::string(option) + ": " + plain(value) + " is out of range; give a number from " +
         plain(min) + " to " + plain(max);
}

}  // namespace trawl
