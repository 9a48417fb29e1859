#pragma once
// Text tiling shared by the SIMD kernels (included only by their translation units, each
// compiled with its own -m flags, so nothing here may leak into generic code).
//
// A chunk of text is cut into segments that run side by side, one per lane of the job
// kernel (kernel_jobs.h), each a single-word Myers DP (m <= 64). Lane 0 continues the
// caller's DP state; lane l > 0 starts fresh (m + k) characters before the first end it owns,
// which makes every owned cost <= k exact (docs/semantics.md §10); costs above k never leave.
// All lanes run the same number of steps T; the last lane ends exactly at the chunk end, so
// its state is the state handed back (a fresh-start state: exact for every later cost <= k,
// which is all the callers use).
#include <cstdint>

#include "kernel_buffer.h"
#include "kernel_jobs.h"
#include "trawl/kernel/kernel.h"

namespace trawl::tiled {

constexpr unsigned kMaxLanes = 64;

struct Plan {
  unsigned lanes = 1;                     // lanes in use (1 = run the scalar kernel instead)
  std::uint64_t steps = 0;                // T
  std::uint64_t start[kMaxLanes] = {};    // b_l: text index (from p0) of each lane's first character
  std::uint64_t own_from[kMaxLanes] = {};  // steps before a lane's ends are its own
  std::uint64_t own_end[kMaxLanes] = {};   // e_l: last owned end position minus p0
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

// The ScanFn of a SIMD kernel (V: its vector operations, see kernel_jobs.h): the chunk's
// segments become jobs, one per lane, and their owned ends are gathered in lane order.
// Patterns longer than 64 and chunks too short to split go to the scalar kernel.
template <class V>
std::size_t scan_segments(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                          std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  constexpr unsigned L = V::kGroups * V::kLanes;
  static_assert(L <= kMaxLanes);
  const std::uint64_t overlap = std::uint64_t{prof.m} + static_cast<std::uint64_t>(k);
  const Plan p = prof.words == 1 ? plan(len, L, overlap) : Plan{};
  if (p.lanes == 1) return scalar_kernel().scan(prof, st, text, len, p0, k, out);

  ScanJob jobs[L];
  JobState finals[L];
  for (unsigned l = 0; l < p.lanes; ++l) {
    // Lane 0 continues the caller's column; the others start fresh (D(j, start) = j).
    jobs[l] = {prof.peq, text + p.start[l], static_cast<std::uint32_t>(p.steps), prof.m,
               prof.classes_hint, l == 0 ? st.vp[0] : ~std::uint64_t{0},
               l == 0 ? st.score : static_cast<std::int64_t>(prof.m), l == 0 ? st.vn[0] : 0};
  }
  thread_local KernelBuffer<JobEnd> ends;
  ends.resize(p.steps * p.lanes);
  const std::size_t found = jobs::scan<V, false>(jobs, p.lanes, k, ends.data(), finals);

  // Owned ends only, in lane order (each lane's ends come out in increasing position).
  std::size_t next[L + 1] = {};
  for (std::size_t e = 0; e < found; ++e)
    if (ends[e].pos - 1 >= p.own_from[ends[e].job]) ++next[ends[e].job + 1];
  for (unsigned l = 0; l < p.lanes; ++l) next[l + 1] += next[l];
  const std::size_t total = next[p.lanes];
  for (std::size_t e = 0; e < found; ++e) {
    const JobEnd& je = ends[e];
    if (je.pos - 1 < p.own_from[je.job]) continue;  // still warming up
    out[next[je.job]++] = {p0 + p.start[je.job] + je.pos, je.cost};
  }
  const JobState& last = finals[p.lanes - 1];
  st.vp[0] = last.vp;
  st.vn[0] = last.vn;
  st.score = last.score;
  return total;
}

}  // namespace trawl::tiled
