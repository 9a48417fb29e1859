#include "trawl/search/traceback.h"

#include <algorithm>
#include <stdexcept>

#include "trawl/kernel/cpu.h"

namespace trawl {
namespace {

// Bit count. The build targets plain x86-64 (no POPCNT instruction assumed), where
// std::popcount would be a library call, so the portable form inlines a dozen ALU
// operations; where the CPU has POPCNT, the walk runs in a copy compiled for it.
template <bool kHwPopcount>
[[gnu::always_inline]] inline int bit_count(std::uint64_t x) {
  if constexpr (kHwPopcount) return __builtin_popcountll(x);
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

// Sassy's greedy walk (docs/semantics.md §3) from cell (rows, cols) over any cell accessor
// D(j, i) of the band: prefer '=', then 'X', then 'D', then 'I'. Ops are collected from the
// end. Returns the column where the walk stopped and the pattern start.
template <typename Cell>
[[gnu::always_inline]] inline void greedy_walk(const Cell& D, const StrandProfile& prof, const std::uint8_t* text,
                 std::size_t rows, std::size_t cols, bool left_overhang,
                 const SearchOptions& options, std::vector<char>& rev_ops, std::size_t& i_out,
                 std::uint32_t& pattern_start) {
  std::size_t j = rows, i = cols;
  std::int32_t g = D(j, i);
  pattern_start = 0;
  while (j > 0) {
    if (i == 0 && left_overhang) {
      pattern_start = static_cast<std::uint32_t>(j);
      g -= overhang_cost(options, static_cast<std::uint32_t>(j));
      break;
    }
    if (i > 0 && D(j - 1, i - 1) == g && prof.eq(static_cast<std::uint32_t>(j - 1), text[i - 1])) {
      rev_ops.push_back('=');
      --j, --i;
      continue;
    }
    --g;
    if (i > 0 && D(j - 1, i - 1) == g) {
      rev_ops.push_back('X');
      --j, --i;
    } else if (i > 0 && D(j, i - 1) == g) {
      rev_ops.push_back('D');
      --i;
    } else if (D(j - 1, i) == g) {
      rev_ops.push_back('I');
      --j;
    } else {
      throw std::logic_error("traceback failed: no predecessor cell");
    }
  }
  if (g != 0) throw std::logic_error("traceback failed: cost does not add up");
  i_out = i;
}

// The greedy walk over bit-parallel columns: D(j, i) = popcount(pv_i below j) -
// popcount(mv_i below j) (the top row is free). Returns D(rows, cols).
template <bool kHwPopcount>
[[gnu::always_inline]] inline std::int32_t walk_columns(
    const std::uint64_t* cpv, const std::uint64_t* cmv, const StrandProfile& prof,
    const std::uint8_t* text, std::size_t rows, std::size_t cols, bool left_overhang,
    const SearchOptions& options, std::vector<char>& rev_ops, std::size_t& i_stop,
    std::uint32_t& pattern_start) {
  auto D = [cpv, cmv](std::size_t j, std::size_t i) -> std::int32_t {
    const std::uint64_t below = j >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << j) - 1;
    return bit_count<kHwPopcount>(cpv[i] & below) - bit_count<kHwPopcount>(cmv[i] & below);
  };
  greedy_walk(D, prof, text, rows, cols, left_overhang, options, rev_ops, i_stop, pattern_start);
  return D(rows, cols);
}

__attribute__((target("popcnt"))) std::int32_t walk_columns_popcnt(
    const std::uint64_t* cpv, const std::uint64_t* cmv, const StrandProfile& prof,
    const std::uint8_t* text, std::size_t rows, std::size_t cols, bool left_overhang,
    const SearchOptions& options, std::vector<char>& rev_ops, std::size_t& i_stop,
    std::uint32_t& pattern_start) {
  return walk_columns<true>(cpv, cmv, prof, text, rows, cols, left_overhang, options, rev_ops,
                            i_stop, pattern_start);
}

}  // namespace

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
  // Only a band that starts at the real text start has the overhang left column.
  const bool left_overhang = options.overhang.has_value() && s == 0;

  // Exact occurrence: the walk would take m '=' steps down the diagonal (a cost-0 path ending
  // at p >= m cannot use the left overhang, and p <= n has no right overhang), so skip the DP.
  // Dense exact hits (short adapters, k = 0) are common enough to be worth the O(m) check.
  if (o == 0 && p >= m) {
    const std::uint8_t* last_m = text + (cols - m);
    std::uint32_t j = 0;
    while (j < m && prof.eq(j, last_m[j])) ++j;
    if (j == m) {
      ops.push_back({m, '='});
      return {p - m, p, 0, m, 0};
    }
  }

  rev_ops_.clear();
  std::size_t i_stop = 0;
  std::uint32_t pattern_start = 0;
  std::int32_t end_cell = 0;
  if (m <= 64) {
    // Bit-parallel band: one Myers column (vertical deltas) per text position, so a cell is
    // D(j, i) = popcount(pv_i below j) - popcount(mv_i below j) (the top row is free).
    col_pv_.resize(cols + 1);
    col_mv_.resize(cols + 1);
    std::uint64_t pv = ~std::uint64_t{0}, mv = 0;
    if (left_overhang)
      for (std::uint32_t j = 0; j < m; ++j)
        if (overhang_cost(options, j + 1) == overhang_cost(options, j)) pv &= ~(std::uint64_t{1} << j);
    col_pv_[0] = pv;
    col_mv_[0] = mv;
    for (std::size_t i = 1; i <= cols; ++i) {
      const std::uint64_t eq = prof.peq_of(text[i - 1])[0];
      const std::uint64_t xv = eq | mv;
      const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
      std::uint64_t ph = mv | ~(xh | pv);
      std::uint64_t mh = pv & xh;
      ph <<= 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      col_pv_[i] = pv;
      col_mv_[i] = mv;
    }
    static const bool hw_popcount = cpu_features().popcnt;
    end_cell = (hw_popcount ? &walk_columns_popcnt : &walk_columns<false>)(
        col_pv_.data(), col_mv_.data(), prof, text, rows, cols, left_overhang, options, rev_ops_,
        i_stop, pattern_start);
  } else {
    const std::size_t width = cols + 1;
    dp_.resize((std::size_t{rows} + 1) * width);
    std::int32_t* dp = dp_.data();
    for (std::size_t i = 0; i <= cols; ++i) dp[i] = 0;
    for (std::uint32_t j = 1; j <= rows; ++j) {
      const std::int32_t* up = dp + (j - 1) * width;
      std::int32_t* row = dp + j * width;
      row[0] = left_overhang ? overhang_cost(options, j) : static_cast<std::int32_t>(j);
      for (std::size_t i = 1; i <= cols; ++i) {
        std::int32_t best = up[i - 1] + (prof.eq(j - 1, text[i - 1]) ? 0 : 1);
        best = std::min(best, up[i] + 1);
        best = std::min(best, row[i - 1] + 1);
        row[i] = best;
      }
    }
    auto D = [dp, width](std::size_t j, std::size_t i) -> std::int32_t { return dp[j * width + i]; };
    end_cell = D(rows, cols);
    greedy_walk(D, prof, text, rows, cols, left_overhang, options, rev_ops_, i_stop, pattern_start);
  }
  const std::int32_t cost = end_cell + (o > 0 ? overhang_cost(options, o) : 0);

  // Ops were collected from the end; write them as runs in pattern direction.
  for (std::size_t r = rev_ops_.size(); r > 0;) {
    const char op = rev_ops_[r - 1];
    std::uint32_t len = 0;
    while (r > 0 && rev_ops_[r - 1] == op) --r, ++len;
    ops.push_back({len, op});
  }
  return {s + i_stop, i_end, pattern_start, rows, cost};
}

}  // namespace trawl
