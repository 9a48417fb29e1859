#pragma once
// Appending text and whole numbers to a batch's formatted bytes (the record and demux sinks).
#include <charconv>
#include <cstring>
#include <string_view>

#include "trawl/sinks/sinks.h"

namespace trawl {

inline void put(FormattedBytes& dst, std::string_view s) {
  const std::size_t at = dst.size();
  dst.resize(at + s.size());
  if (!s.empty()) std::memcpy(dst.data() + at, s.data(), s.size());
}

template <class Int>
void put_number(FormattedBytes& dst, Int v) {
  char digits[24];
  put(dst, {digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits)});
}

}  // namespace trawl
