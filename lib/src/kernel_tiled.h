#pragma once
// Text tiling shared by the SIMD kernels (included only by their translation units, each
// compiled with its own -m flags, so nothing here may leak into generic code).
//
// A chunk of text is cut into LANES segments that run side by side, one per SIMD lane, each
// a single-word Myers DP (m <= 64). Lane 0 continues the caller's DP state; lane l > 0
// starts fresh (m + k) characters before the first end it owns, which makes every owned
// cost <= k exact (DESIGN §3), and costs above k are never reported. All lanes run the same
// number of steps T; the last lane ends exactly at the chunk end, so its state is the state
// handed back (a fresh-start state: exact for every later cost <= k, which is all the
// callers use).
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "trawl/kernel.h"

namespace trawl::tiled {

struct Plan {
  unsigned lanes = 1;            // lanes in use (1 = run the scalar kernel instead)
  std::uint64_t steps = 0;       // T
  std::uint64_t start[8] = {};   // b_l: text index (from p0) of each lane's first character
  std::uint64_t own_from[8] = {};  // steps before a lane's ends are its own
  std::uint64_t own_end[8] = {};   // e_l: last owned end position minus p0
};

// Lays out `len` characters over at most `max_lanes` lanes with an overlap of `overlap`.
inline Plan plan(std::size_t len, unsigned max_lanes, std::uint64_t overlap) {
  Plan p;
  // Lanes run side by side, so extra lanes cost nothing but their warm-up overlap: steps
  // T = (len + (lanes - 1) * overlap) / lanes fall with every lane added while len >
  // overlap. Use them all, as long as each lane still owns a few ends (>= 8).
  unsigned lanes = max_lanes;
  while (lanes > 1 && len < overlap + 8 * std::uint64_t{lanes}) --lanes;
  p.lanes = lanes;
  if (lanes == 1) return p;
  const std::uint64_t T = (len + (lanes - 1) * overlap + lanes - 1) / lanes;
  p.steps = T;
  std::uint64_t prev_end = 0;
  for (unsigned l = 0; l < lanes; ++l) {
    std::uint64_t e = l == 0 ? T : prev_end + (T - overlap);
    if (l == lanes - 1 || e > len) e = len;
    p.own_end[l] = e;
    p.start[l] = e - T;
    p.own_from[l] = l == 0 ? 0 : prev_end - p.start[l];
    prev_end = e;
  }
  return p;
}

// Interleaves the lanes' characters: buf[i * W + l] = text[start_l + i] (0 for unused
// lanes), one W-byte word per step so the stores stay sequential.
template <unsigned W>
inline void transpose(const Plan& p, const std::uint8_t* text, std::uint8_t* buf) {
  using Word = std::conditional_t<W == 8, std::uint64_t, std::uint32_t>;
  const std::uint8_t* src[W];
  for (unsigned l = 0; l < p.lanes; ++l) src[l] = text + p.start[l];
  for (std::uint64_t i = 0; i < p.steps; ++i) {
    Word w = 0;
    for (unsigned l = 0; l < p.lanes; ++l) w |= static_cast<Word>(src[l][i]) << (8 * l);
    std::memcpy(buf + i * W, &w, sizeof w);
  }
}

// Records the owned ends of the lanes in `hit` (bit l: lane l's cost sc[l] <= k after step
// i). Each lane writes into its own stretch of `out` (compact() closes the gaps).
inline void record_hits(const Plan& p, unsigned hit, const std::uint64_t* sc, std::uint64_t i,
                        std::uint64_t p0, EndCost* out, std::size_t* counts) {
  for (; hit; hit &= hit - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(hit));
    if (i < p.own_from[l]) continue;  // still warming up
    const std::uint64_t base = l == 0 ? 0 : p.own_end[l - 1];
    out[base + counts[l]++] = {p0 + p.start[l] + i + 1, static_cast<std::int32_t>(sc[l])};
  }
}

// Moves each lane's ends (written at out[own_start_l ...]) together, in lane order.
inline std::size_t compact(const Plan& p, EndCost* out, const std::size_t* counts) {
  std::size_t total = 0;
  for (unsigned l = 0; l < p.lanes; ++l) {
    const std::uint64_t base = l == 0 ? 0 : p.own_end[l - 1];
    if (total != base && counts[l]) std::memmove(out + total, out + base, counts[l] * sizeof(EndCost));
    total += counts[l];
  }
  return total;
}

// Hands the last lane's column back as the caller's state (it ends at the chunk end) and
// gathers the lanes' ends. pv, mv, score: the lanes' final values.
inline std::size_t finish(const Plan& p, ColumnState& st, const std::uint64_t* pv,
                          const std::uint64_t* mv, const std::uint64_t* score, EndCost* out,
                          const std::size_t* counts) {
  const unsigned last = p.lanes - 1;
  st.vp[0] = pv[last];
  st.vn[0] = mv[last];
  st.score = static_cast<std::int64_t>(score[last]);
  return compact(p, out, counts);
}

}  // namespace trawl::tiled
