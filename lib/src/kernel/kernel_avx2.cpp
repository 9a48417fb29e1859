// AVX2 kernel: two vectors of 4 lanes (8 lanes of 32 bits where m <= 32), each lane a text
// segment of a chunk (kernel_tiled.h) or a short record (kernel_jobs.h). Patterns longer than
// 64 and short chunks go to the scalar kernel. Compiled with -mavx2 only; chosen at run time by the CPU
// probe in dispatch.cpp.
#include <immintrin.h>

#include "kernel_jobs.h"
#include "kernel_tiled.h"

namespace trawl {
namespace {

// No vector lookup on AVX2: make_table refuses every profile, so kernel_jobs.h fills the
// equality words with scalar loads.
struct ScalarLookup {
  static constexpr bool kTwoTables = false;
  static constexpr bool kCountedShared = false;  // (no vector popcount: see kernel_jobs.h)
  struct Table {};
  static bool make_table(const std::uint64_t*, std::uint32_t, Table&) { return false; }
  template <class Word>
  static void fill(const Table*, const std::uint8_t* const*, std::uint32_t, Word*, unsigned) {}
  template <class Word>
  static void table_rows(const Table*, std::uint32_t, Word*, unsigned) {}
};

// The vector operations kernel_jobs.h needs, on 4 x 64-bit lanes.
struct Avx2 : ScalarLookup {
  static constexpr unsigned kLanes = 4;
  // Vectors stepped side by side (kernel_jobs.h). Four, though 16 registers do not hold
  // four lane groups and their temporaries: the steps are latency-bound, so four still beat
  // two, spills and all (docs/performance.md).
  static constexpr unsigned kGroups = 4;
  using Word = std::uint64_t;
  static constexpr Word kIdleScore = Word{1} << 62;
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
  // Row m as a shift count: the score moves by bit m - 1 of ph minus that of mh.
  static std::uint64_t last_row(std::uint32_t m) { return m - 1; }
  static Reg score_step(Reg score, Reg ph, Reg mh, Reg shift) {
    const Reg one = _mm256_set1_epi64x(1);
    score = _mm256_add_epi64(score, _mm256_and_si256(_mm256_srlv_epi64(ph, shift), one));
    return _mm256_sub_epi64(score, _mm256_and_si256(_mm256_srlv_epi64(mh, shift), one));
  }
  static Reg shl1(Reg a) { return _mm256_slli_epi64(a, 1); }
  static unsigned le_mask(Reg a, Reg b) {  // a <= b  <=>  !(a > b)
    return ~static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(a, b)))) & 0xFu;
  }
  // Lanes as all-ones words; blend takes b where the mask has the lane, else a.
  using LaneMask = __m256i;
  static LaneMask lane_mask(unsigned bits) {
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(bits), bit), bit);
  }
  static Reg blend(LaneMask m, Reg a, Reg b) { return _mm256_blendv_epi8(a, b, m); }
};

// The same on 8 x 32-bit lanes, for patterns of at most 32 characters: twice the lanes per
// instruction (see kernel_jobs.h for why narrow lanes give the same answers).
struct Avx2Narrow : ScalarLookup {
  static constexpr unsigned kLanes = 8;
  static constexpr unsigned kGroups = 4;
  using Word = std::uint32_t;
  static constexpr Word kIdleScore = Word{1} << 30;
  using Reg = __m256i;
  static Reg load(const Word* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(Word* p, Reg v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
  static Reg set1(Word v) { return _mm256_set1_epi32(static_cast<int>(v)); }
  static Reg and_(Reg a, Reg b) { return _mm256_and_si256(a, b); }
  static Reg or_(Reg a, Reg b) { return _mm256_or_si256(a, b); }
  static Reg xor_(Reg a, Reg b) { return _mm256_xor_si256(a, b); }
  static Reg add(Reg a, Reg b) { return _mm256_add_epi32(a, b); }
  static Reg or_not_or(Reg a, Reg b, Reg c) {
    return _mm256_or_si256(a, _mm256_xor_si256(_mm256_or_si256(b, c), _mm256_set1_epi32(-1)));
  }
  static Word last_row(std::uint32_t m) { return m - 1; }
  static Reg score_step(Reg score, Reg ph, Reg mh, Reg shift) {
    const Reg one = _mm256_set1_epi32(1);
    score = _mm256_add_epi32(score, _mm256_and_si256(_mm256_srlv_epi32(ph, shift), one));
    return _mm256_sub_epi32(score, _mm256_and_si256(_mm256_srlv_epi32(mh, shift), one));
  }
  static Reg shl1(Reg a) { return _mm256_slli_epi32(a, 1); }
  static unsigned le_mask(Reg a, Reg b) {  // a <= b  <=>  !(a > b)
    return ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b)))) & 0xFFu;
  }
  using LaneMask = __m256i;
  static LaneMask lane_mask(unsigned bits) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits)), bit), bit);
  }
  static Reg blend(LaneMask m, Reg a, Reg b) { return _mm256_blendv_epi8(a, b, m); }
};

// Narrow lanes where every pattern involved has m <= 32.
std::size_t scan_avx2(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                   std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  if (prof.m <= 32) return tiled::scan_segments<Avx2Narrow>(prof, st, text, len, p0, k, out);
  return tiled::scan_segments<Avx2>(prof, st, text, len, p0, k, out);
}

std::size_t scan_jobs_avx2(const ScanJob* jobs, std::size_t n, std::int32_t k, JobEnd* out,
                           JobState* final_states, bool first_only) {
  bool narrow = true;
  for (std::size_t i = 0; i < n; ++i) narrow &= jobs[i].m <= 32;
  if (narrow)
    return first_only ? jobs::scan_any<Avx2Narrow, true>(jobs, n, k, out, final_states)
                      : jobs::scan_any<Avx2Narrow, false>(jobs, n, k, out, final_states);
  return first_only ? jobs::scan_any<Avx2, true>(jobs, n, k, out, final_states)
                    : jobs::scan_any<Avx2, false>(jobs, n, k, out, final_states);
}

// PairedSeedFilter's look-up, 32 positions a block: the bases of `length` shifted loads (a
// byte shuffle each from class to base) give every position's value as two bytes (its
// first four bases and the next four), compared with each seed's two bytes; a block's masks
// are only looked at when one has any (seeds are rare). The last block may overlap the one
// before it (first and last are a minimum and a maximum). Texts too short for a whole block
// go to the scalar loop (AVX2 has no masked byte loads).
bool seed_spans_avx2(const SeedSpanQuery& query, const std::uint8_t* codes, std::size_t n,
                     std::uint32_t* first, std::uint32_t* last) {
  const unsigned length = query.length;
  if (n < length || n - length + 1 < 32) return scalar_kernel().seed_spans(query, codes, n, first, last);
  for (std::uint32_t s = 0; s < query.count; ++s) {
    first[s] = UINT32_MAX;
    last[s] = 0;
  }
  const __m256i base_of = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(query.base_of_class)));
  __m256i seen = _mm256_setzero_si256();
  // Each seed's two bytes, broadcast once.
  __m256i seed_low[SeedSpanQuery::kMaxSeeds], seed_high[SeedSpanQuery::kMaxSeeds];
  for (std::uint32_t s = 0; s < query.count; ++s) {
    seed_low[s] = _mm256_set1_epi8(static_cast<char>(query.seeds[s] & 0xFF));
    seed_high[s] = _mm256_set1_epi8(static_cast<char>(query.seeds[s] >> 8));
  }
  const std::size_t starts = n - length + 1;  // positions 0 .. n - length
  for (std::size_t i = 0;; i += 32) {
    // The last block may overlap the one before it; no load reaches past the text.
    const bool final_block = i + 32 >= starts;
    if (final_block) i = starts - 32;
    __m256i b[8];
    for (unsigned j = 0; j < 8; ++j)
      b[j] = j < length ? _mm256_shuffle_epi8(base_of, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes + i + j)))
                        : _mm256_setzero_si256();
    for (unsigned j = 0; j < 8; ++j) seen = _mm256_or_si256(seen, b[j]);
    // Bases are < 4 (else the answer is "ambiguous" anyway), so no bit leaves its byte.
    const __m256i head = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(b[3], 6), _mm256_slli_epi16(b[2], 4)),
                                         _mm256_or_si256(_mm256_slli_epi16(b[1], 2), b[0]));
    const __m256i tail = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(b[7], 6), _mm256_slli_epi16(b[6], 4)),
                                         _mm256_or_si256(_mm256_slli_epi16(b[5], 2), b[4]));
    std::uint32_t hits[SeedSpanQuery::kMaxSeeds];
    std::uint32_t any = 0;
    for (std::uint32_t s = 0; s < query.count; ++s) {
      const __m256i eq = _mm256_and_si256(_mm256_cmpeq_epi8(head, seed_low[s]), _mm256_cmpeq_epi8(tail, seed_high[s]));
      hits[s] = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq));
      any |= hits[s];
    }
    if (any != 0) {
      for (std::uint32_t s = 0; s < query.count; ++s) {
        if (hits[s] == 0) continue;
        const auto lo = static_cast<std::uint32_t>(i + static_cast<std::size_t>(__builtin_ctz(hits[s])));
        const auto hi = static_cast<std::uint32_t>(i + 31 - static_cast<std::size_t>(__builtin_clz(hits[s])));
        if (lo < first[s]) first[s] = lo;
        if (hi > last[s]) last[s] = hi;
      }
    }
    if (final_block) break;
  }
  const __m256i ambiguous = _mm256_and_si256(seen, _mm256_set1_epi8(kAmbiguousBase));
  return _mm256_testz_si256(ambiguous, ambiguous) != 0;
}

}  // namespace

const KernelFns& avx2_kernel() {
  // contains wants the first end, which an early-exiting scalar scan finds soonest.
  static const KernelFns fns{"avx2", &scan_avx2, scalar_kernel().scan_first, &scan_jobs_avx2,
                             scalar_kernel().encode, scalar_kernel().build_peq,
                             scalar_kernel().seed_lookup, &seed_spans_avx2,
                             scalar_kernel().seed_keys, nullptr};
  return fns;
}

}  // namespace trawl
