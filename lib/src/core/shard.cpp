#include "trawl/core/shard.h"

#include <charconv>

namespace trawl {
namespace {

std::optional<std::uint32_t> whole(std::string_view s) {
  std::uint32_t v = 0;
  if (s.empty() || s.front() == '+' || s.front() == '-') return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<Shard> Shard::parse(std::string_view spec) {
  const std::size_t slash = spec.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto i = whole(spec.substr(0, slash)), n = whole(spec.substr(slash + 1));
  if (!i || !n || *i < 1 || *i > *n) return std::nullopt;
  return Shard{*i, *n};
}

std::string Shard::problem(std::string_view spec) {
  if (parse(spec)) return "";
  return "--shard " + std::string(spec) + ": give I/N with whole numbers 1 <= I <= N (e.g. 2/8, the second of 8 shards)";
}

RecordRange Shard::range(std::uint64_t units, std::uint64_t per) const {
  // floor(units * k / N) without the product, which may not fit 64 bits.
  const std::uint64_t q = units / count, r = units % count;
  const auto at = [&](std::uint64_t k) { return (q * k + r * k / count) * per; };
  return {at(index - 1u), at(index)};
}

}  // namespace trawl
