// AVX2 kernel: 4 text segments per chunk side by side (see kernel_tiled.h). Patterns longer
// than 64 and short chunks go to the scalar kernel. Compiled with -mavx2 only; chosen at
// run time by the CPU probe in dispatch.cpp.
#include <immintrin.h>

#include <vector>

#include "kernel_jobs.h"
#include "kernel_tiled.h"

namespace trawl {
namespace {

constexpr unsigned W = 4;

std::size_t scan_avx2(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                      std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  const std::uint64_t overlap = std::uint64_t{prof.m} + static_cast<std::uint64_t>(k);
  const tiled::Plan plan = prof.words == 1 ? tiled::plan(len, W, overlap) : tiled::Plan{};
  if (plan.lanes == 1) {
    return scalar_kernel().scan(prof, st, text, len, p0, k, out);
  }
  thread_local std::vector<std::uint8_t> buf;
  buf.resize(plan.steps * W + 4);
  tiled::transpose<W>(plan, text, buf.data());

  __m256i pv = _mm256_set_epi64x(-1, -1, -1, static_cast<long long>(st.vp[0]));
  __m256i mv = _mm256_set_epi64x(0, 0, 0, static_cast<long long>(st.vn[0]));
  __m256i score = _mm256_set_epi64x(prof.m, prof.m, prof.m, st.score);
  const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(prof.m - 1));
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i kv = _mm256_set1_epi64x(k);
  const __m256i all = _mm256_set1_epi64x(-1);
  const unsigned used = (1u << plan.lanes) - 1;
  const auto* peq = reinterpret_cast<const long long*>(prof.peq);

  std::size_t counts[W] = {};
  for (std::uint64_t i = 0; i < plan.steps; ++i) {
    std::int32_t packed;
    std::memcpy(&packed, buf.data() + i * W, sizeof packed);
    const __m256i idx = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed));
    const __m256i eq = _mm256_i64gather_epi64(peq, idx, 8);
    const __m256i xv = _mm256_or_si256(eq, mv);
    const __m256i xh = _mm256_or_si256(
        _mm256_xor_si256(_mm256_add_epi64(_mm256_and_si256(eq, pv), pv), pv), eq);
    __m256i ph = _mm256_or_si256(mv, _mm256_xor_si256(_mm256_or_si256(xh, pv), all));
    __m256i mh = _mm256_and_si256(pv, xh);
    score = _mm256_add_epi64(score, _mm256_and_si256(_mm256_srl_epi64(ph, shift), one));
    score = _mm256_sub_epi64(score, _mm256_and_si256(_mm256_srl_epi64(mh, shift), one));
    ph = _mm256_slli_epi64(ph, 1);
    mh = _mm256_slli_epi64(mh, 1);
    pv = _mm256_or_si256(mh, _mm256_xor_si256(_mm256_or_si256(xv, ph), all));
    mv = _mm256_and_si256(ph, xv);
    // score <= k  <=>  !(score > k)
    unsigned hit = ~static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(score, kv)))) & used;
    if (hit) {  // rare: record the owned ends of the lanes at or below k
      alignas(32) std::uint64_t sc[W];
      _mm256_store_si256(reinterpret_cast<__m256i*>(sc), score);
      tiled::record_hits(plan, hit, sc, i, p0, out, counts);
    }
  }
  alignas(32) std::uint64_t fpv[W], fmv[W], fsc[W];
  _mm256_store_si256(reinterpret_cast<__m256i*>(fpv), pv);
  _mm256_store_si256(reinterpret_cast<__m256i*>(fmv), mv);
  _mm256_store_si256(reinterpret_cast<__m256i*>(fsc), score);
  return tiled::finish(plan, st, fpv, fmv, fsc, out, counts);
}

// The vector operations kernel_jobs.h needs, on 4 x 64-bit lanes.
struct Avx2 {
  static constexpr unsigned kLanes = 4;
  using Reg = __m256i;
  static Reg load(const std::uint64_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(std::uint64_t* p, Reg v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
  static Reg set1(std::uint64_t v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }
  static Reg and_(Reg a, Reg b) { return _mm256_and_si256(a, b); }
  static Reg or_(Reg a, Reg b) { return _mm256_or_si256(a, b); }
  static Reg xor_(Reg a, Reg b) { return _mm256_xor_si256(a, b); }
  static Reg add(Reg a, Reg b) { return _mm256_add_epi64(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_epi64(a, b); }
  static Reg or_not_or(Reg a, Reg b, Reg c) {
    return _mm256_or_si256(a, _mm256_xor_si256(_mm256_or_si256(b, c), _mm256_set1_epi64x(-1)));
  }
  static Reg srlv(Reg a, Reg n) { return _mm256_srlv_epi64(a, n); }
  static Reg low_bit(Reg a) { return _mm256_and_si256(a, _mm256_set1_epi64x(1)); }
  static Reg shl1(Reg a) { return _mm256_slli_epi64(a, 1); }
  // No vector lookup here: kernel_jobs.h falls back to scalar loads.
  static bool fill(const std::uint64_t* const*, const std::uint32_t*, const std::uint8_t* const*,
                   std::uint32_t, std::uint64_t*, unsigned) {
    return false;
  }
  static unsigned le_mask(Reg a, Reg b) {  // a <= b  <=>  !(a > b)
    return ~static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(a, b)))) & 0xFu;
  }
};

std::size_t scan_jobs_avx2(const ScanJob* jobs, std::size_t n, std::int32_t k, JobEnd* out,
                           JobState* final_states, bool first_only) {
  return first_only ? jobs::scan<Avx2, true>(jobs, n, k, out, final_states)
                    : jobs::scan<Avx2, false>(jobs, n, k, out, final_states);
}

}  // namespace

const KernelFns& avx2_kernel() {
  // contains wants the first end, which an early-exiting scalar scan finds soonest.
  static const KernelFns fns{"avx2", &scan_avx2, scalar_kernel().scan_first, &scan_jobs_avx2,
                             scalar_kernel().encode};
  return fns;
}

}  // namespace trawl
