#include "trawl/traceback.h"

#include <algorithm>
#include <stdexcept>

namespace trawl {

TraceResult Tracer::trace(const StrandProfile& prof, std::span<const std::uint8_t> codes,
                          std::uint64_t codes_begin, std::uint64_t n, std::uint64_t p,
                          const SearchOptions& options, std::vector<CigarOp>& ops) {
  const std::uint32_t m = prof.m;
  const std::uint32_t o = p > n ? static_cast<std::uint32_t>(p - n) : 0;  // right overhang
  const std::uint32_t rows = m - o;
  const std::uint64_t i_end = p - o;
  const std::uint64_t band = std::uint64_t{m} + static_cast<std::uint64_t>(options.k);
  // Any alignment of cost <= k spans at most m + k text characters, so the band holds
  // every cell of every optimal path and tracing in it equals tracing the full matrix.
  const std::uint64_t s = p > band ? p - band : 0;
  if (s < codes_begin || i_end > codes_begin + codes.size())
    throw std::logic_error("traceback: text slice does not cover the band");
  const std::uint8_t* text = codes.data() + (s - codes_begin);  // text[i] = position s + i
  const std::size_t cols = static_cast<std::size_t>(i_end - s);
  const std::size_t width = cols + 1;
  dp_.resize((std::size_t{rows} + 1) * width);
  auto D = [&](std::size_t j, std::size_t i) -> std::int32_t& { return dp_[j * width + i]; };
  // Only a band that starts at the real text start has the overhang left column.
  const bool left_overhang = options.overhang.has_value() && s == 0;

  for (std::size_t i = 0; i <= cols; ++i) D(0, i) = 0;
  for (std::uint32_t j = 1; j <= rows; ++j) {
    D(j, 0) = left_overhang ? overhang_cost(options, j) : static_cast<std::int32_t>(j);
    const std::int32_t* up = &D(j - 1, 0);
    std::int32_t* row = &D(j, 0);
    for (std::size_t i = 1; i <= cols; ++i) {
      std::int32_t best = up[i - 1] + (prof.eq(j - 1, text[i - 1]) ? 0 : 1);
      best = std::min(best, up[i] + 1);
      best = std::min(best, row[i - 1] + 1);
      row[i] = best;
    }
  }

  rev_ops_.clear();
  std::size_t j = rows, i = cols;
  std::int32_t g = D(j, i);
  const std::int32_t cost = g + (o > 0 ? overhang_cost(options, o) : 0);
  std::uint32_t pattern_start = 0;
  while (j > 0) {
    if (i == 0 && left_overhang) {
      pattern_start = static_cast<std::uint32_t>(j);
      g -= overhang_cost(options, static_cast<std::uint32_t>(j));
      break;
    }
    if (i > 0 && D(j - 1, i - 1) == g && prof.eq(static_cast<std::uint32_t>(j - 1), text[i - 1])) {
      rev_ops_.push_back('=');
      --j, --i;
      continue;
    }
    --g;
    if (i > 0 && D(j - 1, i - 1) == g) {
      rev_ops_.push_back('X');
      --j, --i;
    } else if (i > 0 && D(j, i - 1) == g) {
      rev_ops_.push_back('D');
      --i;
    } else if (D(j - 1, i) == g) {
      rev_ops_.push_back('I');
      --j;
    } else {
      throw std::logic_error("traceback failed: no predecessor cell");
    }
  }
  if (g != 0) throw std::logic_error("traceback failed: cost does not add up");

  // Ops were collected from the end; write them as runs in pattern direction.
  for (std::size_t r = rev_ops_.size(); r > 0;) {
    const char op = rev_ops_[r - 1];
    std::uint32_t len = 0;
    while (r > 0 && rev_ops_[r - 1] == op) --r, ++len;
    ops.push_back({len, op});
  }
  return {s + i, i_end, pattern_start, rows, cost};
}

}  // namespace trawl
