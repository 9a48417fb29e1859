// AVX-512 kernel: 8 text segments per chunk side by side (see kernel_tiled.h). Patterns
// longer than 64 and short chunks go to the scalar kernel. Compiled with -mavx512f only;
// chosen at run time by the CPU probe in dispatch.cpp.
#include <immintrin.h>

#include <vector>

#include "kernel_tiled.h"

namespace trawl {
namespace {

constexpr unsigned W = 8;

std::size_t scan_avx512(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                        std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  const std::uint64_t overlap = std::uint64_t{prof.m} + static_cast<std::uint64_t>(k);
  const tiled::Plan plan = prof.words == 1 ? tiled::plan(len, W, overlap) : tiled::Plan{};
  if (plan.lanes == 1) {
    return scalar_kernel().scan(prof, st, text, len, p0, k, out);
  }
  thread_local std::vector<std::uint8_t> buf;
  buf.resize(plan.steps * W);
  tiled::transpose<W>(plan, text, buf.data());

  // Equality masks by text class: two registers cover 16 classes (iupac, dna); more
  // classes (ascii) are gathered.
  const bool small_alphabet = prof.classes_hint <= 16;
  __m512i table_lo = _mm512_setzero_si512(), table_hi = _mm512_setzero_si512();
  if (small_alphabet) {
    alignas(64) std::uint64_t t[16] = {};
    for (unsigned c = 0; c < prof.classes_hint; ++c) t[c] = prof.peq[c];
    table_lo = _mm512_load_si512(t);
    table_hi = _mm512_load_si512(t + 8);
  }

  // Lane 0 continues the caller's state; the others start fresh (D(j, start) = j).
  alignas(64) std::uint64_t init_pv[W], init_score[W];
  for (unsigned l = 0; l < W; ++l) {
    init_pv[l] = ~std::uint64_t{0};
    init_score[l] = prof.m;
  }
  init_pv[0] = st.vp[0];
  init_score[0] = static_cast<std::uint64_t>(st.score);
  __m512i pv = _mm512_load_si512(init_pv);
  __m512i mv = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, static_cast<long long>(st.vn[0]));
  __m512i score = _mm512_load_si512(init_score);
  const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(prof.m - 1));
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i kv = _mm512_set1_epi64(k);
  const __mmask8 used = static_cast<__mmask8>((1u << plan.lanes) - 1);

  std::size_t counts[W] = {};
  for (std::uint64_t i = 0; i < plan.steps; ++i) {
    const __m512i idx = _mm512_cvtepu8_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(buf.data() + i * W)));
    const __m512i eq = small_alphabet ? _mm512_permutex2var_epi64(table_lo, idx, table_hi)
                                      : _mm512_i64gather_epi64(idx, reinterpret_cast<const long long*>(prof.peq), 8);
    const __m512i xv = _mm512_or_si512(eq, mv);
    const __m512i xh = _mm512_or_si512(
        _mm512_xor_si512(_mm512_add_epi64(_mm512_and_si512(eq, pv), pv), pv), eq);
    // ph = mv | ~(xh | pv); mh = pv & xh
    __m512i ph = _mm512_ternarylogic_epi64(mv, xh, pv, 0xF1);
    __m512i mh = _mm512_and_si512(pv, xh);
    score = _mm512_add_epi64(score, _mm512_and_si512(_mm512_srl_epi64(ph, shift), one));
    score = _mm512_sub_epi64(score, _mm512_and_si512(_mm512_srl_epi64(mh, shift), one));
    ph = _mm512_slli_epi64(ph, 1);
    mh = _mm512_slli_epi64(mh, 1);
    // pv = mh | ~(xv | ph); mv = ph & xv
    pv = _mm512_ternarylogic_epi64(mh, xv, ph, 0xF1);
    mv = _mm512_and_si512(ph, xv);
    __mmask8 hit = _mm512_mask_cmple_epi64_mask(used, score, kv);
    if (hit) {  // rare: record the owned ends of the lanes at or below k
      alignas(64) std::uint64_t sc[W];
      _mm512_store_si512(sc, score);
      tiled::record_hits(plan, hit, sc, i, p0, out, counts);
    }
  }
  alignas(64) std::uint64_t fpv[W], fmv[W], fsc[W];
  _mm512_store_si512(fpv, pv);
  _mm512_store_si512(fmv, mv);
  _mm512_store_si512(fsc, score);
  return tiled::finish(plan, st, fpv, fmv, fsc, out, counts);
}

}  // namespace

const KernelFns& avx512_kernel() {
  // contains wants the first end, which an early-exiting scalar scan finds soonest.
  static const KernelFns fns{"avx512", &scan_avx512, scalar_kernel().scan_first};
  return fns;
}

}  // namespace trawl
