// AVX-512 kernel: four vectors of 8 (or 16 narrow) lanes, each lane a text segment of a chunk
// (kernel_tiled.h) or a short record (kernel_jobs.h). Patterns longer than 64 and short
// chunks go to the scalar kernel. Compiled with -mavx512f only (the VBMI encoder with its
// own target attribute); chosen at run time by dispatch.cpp after the CPU probe (cpu.cpp).
#include <immintrin.h>

#include <array>
#include <cstring>

#include "kernel_jobs.h"
#include "kernel_tiled.h"
#include "trawl/kernel/cpu.h"

namespace trawl {
namespace {

// Whether the CPU counts bits in vector lanes (AVX512-VPOPCNTDQ: Ice Lake, Zen 4 and later).
bool popcount_supported() {
  static const bool vpopcntdq = cpu_features().avx512vpopcntdq;
  return vpopcntdq;
}

// (GCC 12 warns of the unpacks' own _mm512_undefined operand when they are inlined into a
// function with a target attribute; nothing here is uninitialized.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
// 16 rows of 64 bytes (r[l]: row l) to step-major order: afterwards block q (bytes 16q ..
// 16q + 15) of codes[j] holds byte 16q + j of the rows 0..15 in order. Within each 128-bit
// block: rows 2i, 2i + 1 interleaved as bytes, then pairs of pairs as 16-bit words, then 32
// and 64 bits. Needs AVX512BW (callers are compiled for it).
__attribute__((target("avx512f,avx512bw"), always_inline)) inline void transpose_bytes16(__m512i (&r)[16],
                                                                                      std::uint8_t (*codes)[64]) {
  __m512i t[16];
  for (unsigned i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_epi8(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi8(r[2 * i], r[2 * i + 1]);
  }
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned h = 0; h < 2; ++h) {
      r[4 * i + 2 * h] = _mm512_unpacklo_epi16(t[4 * i + h], t[4 * i + 2 + h]);
      r[4 * i + 2 * h + 1] = _mm512_unpackhi_epi16(t[4 * i + h], t[4 * i + 2 + h]);
    }
  for (unsigned i = 0; i < 2; ++i)
    for (unsigned h = 0; h < 4; ++h) {
      t[8 * i + 2 * h] = _mm512_unpacklo_epi32(r[8 * i + h], r[8 * i + 4 + h]);
      t[8 * i + 2 * h + 1] = _mm512_unpackhi_epi32(r[8 * i + h], r[8 * i + 4 + h]);
    }
  for (unsigned h = 0; h < 8; ++h) {
    _mm512_store_si512(codes[2 * h], _mm512_unpacklo_epi64(t[h], t[8 + h]));
    _mm512_store_si512(codes[2 * h + 1], _mm512_unpackhi_epi64(t[h], t[8 + h]));
  }
}
#pragma GCC diagnostic pop

// The vector operations kernel_jobs.h needs, on 8 x 64-bit lanes.
struct Avx512 {
  static constexpr unsigned kLanes = 8;
  // Vectors stepped side by side (kernel_jobs.h): 32 registers hold four lane groups.
  static constexpr unsigned kGroups = 4;
  using Word = std::uint64_t;
  static constexpr Word kIdleScore = Word{1} << 62;
  using Reg = __m512i;
  static Reg load(const std::uint64_t* p) { return _mm512_load_si512(p); }
  static void store(std::uint64_t* p, Reg v) { _mm512_store_si512(p, v); }
  static Reg set1(std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
  static Reg and_(Reg a, Reg b) { return _mm512_and_si512(a, b); }
  static Reg or_(Reg a, Reg b) { return _mm512_or_si512(a, b); }
  static Reg xor_(Reg a, Reg b) { return _mm512_xor_si512(a, b); }
  static Reg add(Reg a, Reg b) { return _mm512_add_epi64(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_epi64(a, b); }
  static Reg or_not_or(Reg a, Reg b, Reg c) { return _mm512_ternarylogic_epi64(a, b, c, 0xF1); }
  // Row m's bit as a mask; the score moves by one where ph or mh has it (masked add/sub:
  // four instructions instead of two shifts, two ands, an add and a sub).
  static std::uint64_t last_row(std::uint32_t m) { return std::uint64_t{1} << (m - 1); }
  static Reg score_step(Reg score, Reg ph, Reg mh, Reg last) {
    const Reg one = _mm512_set1_epi64(1);
    score = _mm512_mask_add_epi64(score, _mm512_test_epi64_mask(ph, last), score, one);
    return _mm512_mask_sub_epi64(score, _mm512_test_epi64_mask(mh, last), score, one);
  }
  static Reg shl1(Reg a) { return _mm512_slli_epi64(a, 1); }
  static unsigned le_mask(Reg a, Reg b) { return _mm512_cmple_epi64_mask(a, b); }
  // Lanes as a mask register; blend takes b where the mask has the lane, else a.
  using LaneMask = __mmask8;
  static LaneMask lane_mask(unsigned bits) { return static_cast<__mmask8>(bits); }
  static Reg blend(LaneMask m, Reg a, Reg b) { return _mm512_mask_blend_epi64(m, a, b); }
  static constexpr bool kTwoTables = false;  // (see Avx512Narrow)
  // The shared-text kernel with counted scores (scan_shared_counted below).
  static constexpr bool kCountedShared = true;
  static bool counted_supported() { return popcount_supported(); }
  __attribute__((target("avx512f,avx512vpopcntdq"))) static Reg popcount(Reg a) { return _mm512_popcnt_epi64(a); }
  template <bool kFirstOnly, unsigned G>
  static std::size_t scan_shared_counted(const ScanJob* jobs, const jobs::SharedVector* vecs, std::size_t nvec,
                                         std::int32_t k, JobEnd* out, JobState* final_states);

  // Equality words of 8 lanes for `steps` steps, into dst[s * stride + lane], when every
  // lane has at most 16 classes: each lane's profile sits in two registers, 8 codes become
  // 8 words with one permute, and 8 x 8 blocks are transposed to step-major order.
  struct Table {
    __m512i lo, hi;
  };
  static bool make_table(const std::uint64_t* peq, std::uint32_t c, Table& t) {
    if (c > 16) return false;
    t.lo = _mm512_maskz_loadu_epi64(static_cast<__mmask8>(c >= 8 ? 0xFF : (1u << c) - 1), peq);
    t.hi = c <= 8 ? _mm512_setzero_si512()
                  : _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << (c - 8)) - 1), peq + 8);
    return true;
  }
  static void fill(const Table* table, const std::uint8_t* const* text, std::uint32_t steps,
                   std::uint64_t* dst, unsigned stride) {
    for (std::uint32_t s0 = 0; s0 < steps; s0 += 8) {
      __m512i r[kLanes];
      const unsigned n = steps - s0 < 8 ? steps - s0 : 8;
      for (unsigned l = 0; l < kLanes; ++l) {
        std::uint64_t codes = 0;  // a short last group reads only the steps it has
        if (n == 8) {
          std::memcpy(&codes, text[l] + s0, 8);
        } else {
          for (unsigned i = 0; i < n; ++i) codes |= std::uint64_t{text[l][s0 + i]} << (8 * i);
        }
        const __m512i idx = _mm512_cvtepu8_epi64(_mm_cvtsi64_si128(static_cast<long long>(codes)));
        r[l] = _mm512_permutex2var_epi64(table[l].lo, idx, table[l].hi);
      }
      store_transposed(r, n, dst + s0 * stride, stride);
    }
  }
  // The rows 0 .. rows - 1 of 8 lanes' tables (as fill() would give for the codes 0, 1, ...).
  static void table_rows(const Table* table, std::uint32_t rows, std::uint64_t* dst, unsigned stride) {
    __m512i r[kLanes];
    for (unsigned l = 0; l < kLanes; ++l) r[l] = table[l].lo;
    store_transposed(r, rows < 8 ? rows : 8, dst, stride);
    if (rows <= 8) return;
    for (unsigned l = 0; l < kLanes; ++l) r[l] = table[l].hi;
    store_transposed(r, rows - 8, dst + 8 * stride, stride);
  }
  // 8 x 8 transpose: r[l] holds lane l's words for steps 0..7; dst row j (j < n) gets step j
  // of every lane.
  static void store_transposed(const __m512i (&r)[8], unsigned n, std::uint64_t* dst, unsigned stride) {
    __m512i t[8], u[8];
    for (unsigned i = 0; i < 8; i += 2) {
      t[i] = _mm512_unpacklo_epi64(r[i], r[i + 1]);
      t[i + 1] = _mm512_unpackhi_epi64(r[i], r[i + 1]);
    }
    for (unsigned i = 0; i < 8; i += 4) {
      u[i] = _mm512_shuffle_i64x2(t[i], t[i + 2], 0x88);
      u[i + 1] = _mm512_shuffle_i64x2(t[i + 1], t[i + 3], 0x88);
      u[i + 2] = _mm512_shuffle_i64x2(t[i], t[i + 2], 0xDD);
      u[i + 3] = _mm512_shuffle_i64x2(t[i + 1], t[i + 3], 0xDD);
    }
    for (unsigned j = 0; j < n; ++j) {
      const __m512i c = j < 4 ? _mm512_shuffle_i64x2(u[j], u[j + 4], 0x88)
                              : _mm512_shuffle_i64x2(u[j - 4], u[j], 0xDD);
      _mm512_store_si512(dst + j * stride, c);
    }
  }
};

// The same on 16 x 32-bit lanes, for patterns of at most 32 characters (most primers,
// barcodes and guides): twice the lanes per instruction, and each lane's profile (<= 16
// classes) fits one register, so a single permute looks up 16 steps of a lane.
struct Avx512Narrow {
  static constexpr unsigned kLanes = 16;
  static constexpr unsigned kGroups = 4;
  using Word = std::uint32_t;
  static constexpr Word kIdleScore = Word{1} << 30;
  using Reg = __m512i;
  static Reg load(const Word* p) { return _mm512_load_si512(p); }
  static void store(Word* p, Reg v) { _mm512_store_si512(p, v); }
  static Reg set1(Word v) { return _mm512_set1_epi32(static_cast<int>(v)); }
  static Reg and_(Reg a, Reg b) { return _mm512_and_si512(a, b); }
  static Reg or_(Reg a, Reg b) { return _mm512_or_si512(a, b); }
  static Reg xor_(Reg a, Reg b) { return _mm512_xor_si512(a, b); }
  static Reg add(Reg a, Reg b) { return _mm512_add_epi32(a, b); }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_epi32(a, b); }
  static Reg or_not_or(Reg a, Reg b, Reg c) { return _mm512_ternarylogic_epi32(a, b, c, 0xF1); }
  static Word last_row(std::uint32_t m) { return Word{1} << (m - 1); }
  static Reg score_step(Reg score, Reg ph, Reg mh, Reg last) {
    const Reg one = _mm512_set1_epi32(1);
    score = _mm512_mask_add_epi32(score, _mm512_test_epi32_mask(ph, last), score, one);
    return _mm512_mask_sub_epi32(score, _mm512_test_epi32_mask(mh, last), score, one);
  }
  static Reg shl1(Reg a) { return _mm512_slli_epi32(a, 1); }
  static unsigned le_mask(Reg a, Reg b) { return _mm512_cmple_epi32_mask(a, b); }
  using LaneMask = __mmask16;
  static LaneMask lane_mask(unsigned bits) { return static_cast<__mmask16>(bits); }
  static Reg blend(LaneMask m, Reg a, Reg b) { return _mm512_mask_blend_epi32(m, a, b); }
  static constexpr bool kCountedShared = true;
  static bool counted_supported() { return popcount_supported(); }
  __attribute__((target("avx512f,avx512vpopcntdq"))) static Reg popcount(Reg a) { return _mm512_popcnt_epi32(a); }
  template <bool kFirstOnly, unsigned G>
  static std::size_t scan_shared_counted(const ScanJob* jobs, const jobs::SharedVector* vecs, std::size_t nvec,
                                         std::int32_t k, JobEnd* out, JobState* final_states);

  // Equality words of 16 lanes for `steps` <= 64 steps, as fill() below, where the lanes use
  // at most two profiles (bit i of `use_b`: lane i uses b, else a), as the text tiles of one
  // pattern or a pattern's two strands do: the lanes' codes are transposed as bytes, 64
  // steps in four rounds of unpacks, and a step's 16 words are one two-table permute
  // (about half of fill's shuffles per step, whose per-lane lookups need a word transpose).
  // Needs AVX512BW for the byte unpacks (compiled for it alone, called where the CPU has it).
  static constexpr bool kTwoTables = true;
  static bool two_tables_supported() {
    static const bool bw = cpu_features().avx512bw;
    return bw;
  }
  __attribute__((target("avx512f,avx512bw"))) static void fill_two_tables(__m512i a, __m512i b, unsigned use_b, const std::uint8_t* const* text,
                              std::uint32_t steps, Word* dst, unsigned stride) {
    const __mmask64 in_block = steps >= 64 ? ~__mmask64{0} : (__mmask64{1} << steps) - 1;
    __m512i r[16];
    // (A full block with plain loads: masked loads are slow on AMD Zen.)
    if (steps >= 64) {
      for (unsigned l = 0; l < 16; ++l) r[l] = _mm512_loadu_si512(text[l]);
    } else {
      for (unsigned l = 0; l < 16; ++l) r[l] = _mm512_maskz_loadu_epi8(in_block, text[l]);
    }
    alignas(64) std::uint8_t codes[16][64];  // codes[j] block q: step 16q + j
    transpose_bytes16(r, codes);
    // Index bit 4 picks table b.
    const __m512i pick_b = _mm512_maskz_mov_epi32(static_cast<__mmask16>(use_b), _mm512_set1_epi32(16));
    for (std::uint32_t s = 0; s < steps; ++s) {
      const __m128i step_codes = _mm_load_si128(reinterpret_cast<const __m128i*>(codes[s & 15] + 16 * (s >> 4)));
      const __m512i idx = _mm512_or_si512(_mm512_cvtepu8_epi32(step_codes), pick_b);
      _mm512_store_si512(dst + s * stride, _mm512_permutex2var_epi32(a, idx, b));
    }
  }

  // Equality words of 16 lanes for `steps` steps, into dst[s * stride + lane], when every
  // lane has at most 16 classes: the low halves of a lane's class words make one register,
  // 16 codes become 16 words with one permute, and 16 x 16 blocks are transposed to
  // step-major order.
  using Table = __m512i;
  static bool make_table(const std::uint64_t* peq, std::uint32_t c, Table& t) {
    if (c > 16) return false;
    const __m512i lo = _mm512_maskz_loadu_epi64(static_cast<__mmask8>(c >= 8 ? 0xFF : (1u << c) - 1), peq);
    const __m512i hi = c <= 8 ? _mm512_setzero_si512()
                              : _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << (c - 8)) - 1), peq + 8);
    t = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)), _mm512_cvtepi64_epi32(hi), 1);
    return true;
  }
  static void fill(const Table* table, const std::uint8_t* const* text, std::uint32_t steps,
                   Word* dst, unsigned stride) {
    for (std::uint32_t s0 = 0; s0 < steps; s0 += 16) {
      const unsigned n = steps - s0 < 16 ? steps - s0 : 16;
      __m512i r[16];
      for (unsigned l = 0; l < kLanes; ++l) {
        __m128i codes;
        if (n == 16) {
          codes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text[l] + s0));
        } else {  // a short last group reads only the steps it has
          alignas(16) std::uint8_t some[16] = {};
          std::memcpy(some, text[l] + s0, n);
          codes = _mm_load_si128(reinterpret_cast<const __m128i*>(some));
        }
        r[l] = _mm512_permutexvar_epi32(_mm512_cvtepu8_epi32(codes), table[l]);
      }
      store_transposed(r, n, dst + s0 * stride, stride);
    }
  }
  // The rows 0 .. rows - 1 of 16 lanes' tables (as fill() would give for the codes 0, 1, ...).
  static void table_rows(const Table* table, std::uint32_t rows, Word* dst, unsigned stride) {
    __m512i r[kLanes];
    for (unsigned l = 0; l < kLanes; ++l) r[l] = table[l];
    store_transposed(r, rows < 16 ? rows : 16, dst, stride);
  }
  // 16 x 16 transpose: r[l] holds lane l's words for steps 0..15; dst row j (j < n) gets step
  // j of every lane. After the two unpack rounds, 128-bit block q of u[4i + j] holds lanes
  // 4i..4i+3 at step 4q + j; two rounds of 128-bit block shuffles then gather each step's
  // blocks.
  static void store_transposed(const __m512i (&r)[16], unsigned n, Word* dst, unsigned stride) {
    __m512i t[16], u[16];
    for (unsigned i = 0; i < 16; i += 2) {
      t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
      t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (unsigned i = 0; i < 16; i += 4) {
      u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
      u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
      u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
      u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (unsigned j = 0; j < 4; ++j) {
      const __m512i v0 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0x88);
      const __m512i v1 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0xDD);
      const __m512i v2 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0x88);
      const __m512i v3 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0xDD);
      const __m512i c[4] = {_mm512_shuffle_i32x4(v0, v2, 0x88), _mm512_shuffle_i32x4(v1, v3, 0x88),
                            _mm512_shuffle_i32x4(v0, v2, 0xDD), _mm512_shuffle_i32x4(v1, v3, 0xDD)};
      for (unsigned q = 0; q < 4; ++q)  // c[q] is step 4q + j
        if (4 * q + j < n) _mm512_store_si512(dst + (4 * q + j) * stride, c[q]);
    }
  }
};

// Shared-text batches (jobs::scan_shared_batches) without the score at row m moved in every
// step. A text's positions are free (row 0 is all 0), so a column's score is its number of
// +1 vertical deltas less its -1 ones, popcount(pv) - popcount(mv) over the pattern's rows,
// plus an offset that the job's first column fixes. A score moves by at most one a step, so a
// lane whose score after kCheckSteps steps is above k + kCheckSteps - 1 had none at or below
// k in those steps; a vector with a lane that close (rare where jobs::counted_pays) steps them
// again from its saved columns, scoring each. This drops the score and the hit mask from the
// step (8 of its ~20 instructions). Needs AVX512-VPOPCNTDQ, checked at run time: these
// functions have it as their target, nothing else in this file does. (The same for the job
// lanes of jobs::scan did not pay: their blocks are short, and reads with planted hits make
// many vectors step again; docs/performance.md.)
#define TRAWL_COUNTED __attribute__((target("avx512f,avx512vpopcntdq")))

// Per lane: bits of the column's +1 deltas less bits of its -1 deltas in `rows`.
template <class V>
TRAWL_COUNTED inline typename V::Reg delta_count(typename V::Reg pv, typename V::Reg mv, typename V::Reg rows) {
  return V::sub(V::popcount(V::and_(pv, rows)), V::popcount(V::and_(mv, rows)));
}

// The columns and bookkeeping of G vectors of lanes, `W` words per vector in each array.
template <class V, unsigned G>
struct CountedLanes {
  using Word = typename V::Word;
  static constexpr unsigned W = V::kLanes;
  alignas(64) Word rows[G * W];    // a lane's pattern rows as bits
  alignas(64) Word offset[G * W];  // its first score less the delta count of its first column
  alignas(64) Word saved_pv[G * W], saved_mv[G * W];  // the columns before the current steps
  std::uint32_t live[G];           // per vector: the lanes whose ends are wanted
  TRAWL_COUNTED typename V::Reg score(unsigned g, typename V::Reg pv, typename V::Reg mv) const {
    return V::add(V::load(offset + g * W), delta_count<V>(pv, mv, V::load(rows + g * W)));
  }
};

// Steps [s0, s0 + n) of vector g again from its saved column, scoring each step; writes the
// ends at or below k of its live lanes (kFirstOnly: and takes those lanes out of `live`).
template <class V, bool kFirstOnly, bool kSecond, unsigned G>
TRAWL_COUNTED __attribute__((noinline)) std::size_t rescore(const jobs::SharedBatch<V, G>& batch,
                                                            CountedLanes<V, G>& lanes, unsigned g,
                                                            std::uint32_t s0, std::uint32_t n,
                                                            std::int64_t k, JobEnd* out) {
  constexpr unsigned W = V::kLanes;
  using Reg = typename V::Reg;
  alignas(64) typename V::Word sc[W];
  const Reg kv = V::set1(static_cast<typename V::Word>(k));
  Reg pv = V::load(lanes.saved_pv + g * W), mv = V::load(lanes.saved_mv + g * W);
  std::size_t found = 0;
  for (std::uint32_t s = s0; s < s0 + n; ++s) {
    Reg ph, mh;
    jobs::advance<V>(batch.template eq<kSecond>(g, s), pv, mv, ph, mh);
    const Reg score = lanes.score(g, pv, mv);
    std::uint32_t hit = V::le_mask(score, kv) & lanes.live[g];
    if (hit == 0) continue;
    V::store(sc, score);
    if constexpr (kFirstOnly) lanes.live[g] &= ~hit;
    for (; hit; hit &= hit - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(hit));
      out[found++] = {batch.job_of[g * W + i], s + 1, static_cast<std::int32_t>(sc[i])};
    }
  }
  return found;
}

// Runs a batch set up by SharedBatch::start to the end of its texts; leaves the final
// columns and scores in the batch. Returns the number of ends written to `out`.
template <class V, bool kFirstOnly, bool kSecond, unsigned G>
TRAWL_COUNTED std::size_t step_counted(jobs::SharedBatch<V, G>& batch, std::uint32_t len, std::int64_t k,
                                       JobEnd* out) {
  constexpr unsigned W = V::kLanes;
  constexpr unsigned kCheck = jobs::kCheckSteps;
  using Reg = typename V::Reg;
  using Word = typename V::Word;
  CountedLanes<V, G> lanes;
  const Reg one = V::set1(1);
  Reg pv[G], mv[G];
  for (unsigned g = 0; g < G; ++g) {
    pv[g] = V::load(batch.pv + g * W);
    mv[g] = V::load(batch.mv + g * W);
    const Reg last = V::load(batch.last + g * W);
    const Reg rows = V::sub(V::add(last, last), one);  // (2^m wraps to 0 in a full word)
    V::store(lanes.rows + g * W, rows);
    V::store(lanes.offset + g * W, V::sub(V::load(batch.score + g * W), delta_count<V>(pv[g], mv[g], rows)));
    lanes.live[g] = batch.busy[g];
  }
  std::size_t found = 0;
  for (std::uint32_t s0 = 0; s0 < len; s0 += kCheck) {
    const std::uint32_t n = len - s0 < kCheck ? len - s0 : kCheck;
    for (unsigned g = 0; g < G; ++g) {
      V::store(lanes.saved_pv + g * W, pv[g]);
      V::store(lanes.saved_mv + g * W, mv[g]);
    }
    for (std::uint32_t s = s0; s < s0 + n; ++s)
      for (unsigned g = 0; g < G; ++g) {
        Reg ph, mh;
        jobs::advance<V>(batch.template eq<kSecond>(g, s), pv[g], mv[g], ph, mh);
      }
    const Reg near = V::set1(static_cast<Word>(k + n - 1));
    std::uint32_t close[G], any = 0;
    for (unsigned g = 0; g < G; ++g) {
      close[g] = V::le_mask(lanes.score(g, pv[g], mv[g]), near) & lanes.live[g];
      any |= close[g];
    }
    if (any == 0) continue;
    for (unsigned g = 0; g < G; ++g)
      if (close[g]) found += rescore<V, kFirstOnly, kSecond, G>(batch, lanes, g, s0, n, k, out + found);
    if constexpr (kFirstOnly) {
      std::uint32_t left = 0;
      for (unsigned g = 0; g < G; ++g) left |= lanes.live[g];
      if (left == 0) return found;  // every job has its end (final columns are then undefined)
    }
  }
  for (unsigned g = 0; g < G; ++g) {
    V::store(batch.pv + g * W, pv[g]);
    V::store(batch.mv + g * W, mv[g]);
    V::store(batch.score + g * W, lanes.score(g, pv[g], mv[g]));
  }
  return found;
}
#undef TRAWL_COUNTED

// jobs::scan_shared_batches with step_counted: V::scan_shared_counted.
template <class V, bool kFirstOnly, unsigned G>
std::size_t scan_counted_batches(const ScanJob* jobs, const jobs::SharedVector* vecs, std::size_t nvec,
                                 std::int32_t k, JobEnd* out, JobState* final_states) {
  const std::uint32_t len = jobs[vecs[0].first].len;
  const std::uint32_t classes = jobs[vecs[0].first].classes;
  const std::int64_t k_capped = std::min<std::int64_t>(k, static_cast<std::int64_t>(V::kIdleScore) - 1);
  jobs::SharedBatch<V, G> batch;
  std::size_t found = 0;
  for (std::size_t v0 = 0; v0 < nvec; v0 += G) {
    batch.start(jobs, vecs, nvec, v0, classes);
    found += batch.two_texts ? step_counted<V, kFirstOnly, true, G>(batch, len, k_capped, out + found)
                             : step_counted<V, kFirstOnly, false, G>(batch, len, k_capped, out + found);
    batch.finish(final_states);
  }
  return found;
}

template <bool kFirstOnly, unsigned G>
std::size_t Avx512::scan_shared_counted(const ScanJob* jobs, const jobs::SharedVector* vecs, std::size_t nvec,
                                        std::int32_t k, JobEnd* out, JobState* final_states) {
  return scan_counted_batches<Avx512, kFirstOnly, G>(jobs, vecs, nvec, k, out, final_states);
}
template <bool kFirstOnly, unsigned G>
std::size_t Avx512Narrow::scan_shared_counted(const ScanJob* jobs, const jobs::SharedVector* vecs,
                                              std::size_t nvec, std::int32_t k, JobEnd* out,
                                              JobState* final_states) {
  return scan_counted_batches<Avx512Narrow, kFirstOnly, G>(jobs, vecs, nvec, k, out, final_states);
}

// Narrow lanes where every pattern involved has m <= 32.
std::size_t scan_avx512(const StrandProfile& prof, ColumnState& st, const std::uint8_t* text,
                   std::size_t len, std::uint64_t p0, std::int32_t k, EndCost* out) {
  if (prof.m <= 32) return tiled::scan_segments<Avx512Narrow>(prof, st, text, len, p0, k, out);
  return tiled::scan_segments<Avx512>(prof, st, text, len, p0, k, out);
}

std::size_t scan_jobs_avx512(const ScanJob* jobs, std::size_t n, std::int32_t k, JobEnd* out,
                           JobState* final_states, bool first_only) {
  bool narrow = true;
  for (std::size_t i = 0; i < n; ++i) narrow &= jobs[i].m <= 32;
  if (narrow)
    return first_only ? jobs::scan_any<Avx512Narrow, true>(jobs, n, k, out, final_states)
                      : jobs::scan_any<Avx512Narrow, false>(jobs, n, k, out, final_states);
  return first_only ? jobs::scan_any<Avx512, true>(jobs, n, k, out, final_states)
                    : jobs::scan_any<Avx512, false>(jobs, n, k, out, final_states);
}

// The classes of 64 bytes from a 256-entry table in four registers (see encode_vbmi).
__attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline)) inline __m512i code_bytes(
    __m512i t0, __m512i t1, __m512i t2, __m512i t3, __m512i x) {
  const __m512i low_half = _mm512_permutex2var_epi8(t0, x, t1);
  const __m512i high_half = _mm512_permutex2var_epi8(t2, x, t3);
  return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low_half, high_half);
}

// 64 bytes at a time: two 128-entry byte permutes cover the table, the top bit picks one,
// and one more permute reverses the block for the rc strand. Needs AVX512-VBMI (and BW for
// the byte masks), which the dispatch below checks at run time.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void encode_vbmi(
    const std::uint8_t* table, const std::uint8_t* src, std::size_t n, std::uint8_t* fwd,
    std::uint8_t* rev_end) {
  const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
  const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
  // A constant table: filled per call, its byte stores would stall the vector load.
  static constexpr auto kReverseOrder = [] {
    std::array<std::uint8_t, 64> order{};
    for (unsigned i = 0; i < 64; ++i) order[i] = static_cast<std::uint8_t>(63 - i);
    return order;
  }();
  const __m512i reverse = _mm512_loadu_si512(kReverseOrder.data());
  // Whole blocks with plain loads and stores: masked byte stores are slow on AMD Zen
  // (docs/performance.md).
  if (n >= 64) {
    for (std::size_t i = 0; i < n; i += 64) {
      // A last part of r < 64 bytes goes as the whole block that ends with it (its first
      // 64 - r codes are written again, the same).
      if (i + 64 > n) i = n - 64;
      const __m512i codes = code_bytes(t0, t1, t2, t3, _mm512_loadu_si512(src + i));
      if (fwd != nullptr) _mm512_storeu_si512(fwd + i, codes);
      // Byte j of the block goes to rev_end[-1 - (i + j)].
      if (rev_end != nullptr) _mm512_storeu_si512(rev_end - i - 64, _mm512_permutexvar_epi8(reverse, codes));
    }
  } else if (n > 0) {  // fewer than 64 bytes, masked: nothing outside the buffers is touched
    const __mmask64 m = (__mmask64{1} << n) - 1;
    const __m512i codes = code_bytes(t0, t1, t2, t3, _mm512_maskz_loadu_epi8(m, src));
    if (fwd != nullptr) _mm512_mask_storeu_epi8(fwd, m, codes);
    // Reversed, the n codes sit in the top n bytes of a 64-byte store ending at rev_end.
    if (rev_end != nullptr) _mm512_mask_storeu_epi8(rev_end - 64, m << (64 - n), _mm512_permutexvar_epi8(reverse, codes));
  }
}

// 64 pattern positions at a time: the same two-table byte permutes as encode_vbmi look up
// each position's class planes, and one byte test per class gives the class's 64 bits.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void build_peq_vbmi(
    const ClassPlanes& planes, unsigned classes, std::string_view seq, std::uint64_t* peq) {
  const std::size_t words = (seq.size() + 63) / 64;
  __m512i table[2][4];
  const unsigned plane_count = classes > 8 ? 2 : 1;
  for (unsigned p = 0; p < plane_count; ++p)
    for (unsigned q = 0; q < 4; ++q) table[p][q] = _mm512_loadu_si512(planes[p].data() + 64 * q);
  for (std::size_t w = 0; w < words; ++w) {
    const std::size_t len = seq.size() - 64 * w < 64 ? seq.size() - 64 * w : 64;
    const __mmask64 m = len == 64 ? ~__mmask64{0} : (__mmask64{1} << len) - 1;
    const __m512i x = _mm512_maskz_loadu_epi8(m, seq.data() + 64 * w);
    const __mmask64 high = _mm512_movepi8_mask(x);
    for (unsigned p = 0; p < plane_count; ++p) {
      const __m512i bits = _mm512_mask_blend_epi8(high, _mm512_permutex2var_epi8(table[p][0], x, table[p][1]),
                                                  _mm512_permutex2var_epi8(table[p][2], x, table[p][3]));
      const unsigned last = classes < 8 * p + 8 ? classes : 8 * p + 8;
      for (unsigned c = 8 * p; c < last; ++c)
        peq[std::size_t{c} * words + w] =
            _mm512_mask_test_epi8_mask(m, bits, _mm512_set1_epi8(static_cast<char>(1u << (c & 7))));
    }
  }
}

// SeedFilter's look-up, 64 windows at a time: the bases of six shifted loads (a byte shuffle
// each) give every window's 6-mer as a head byte (its first four bases) and a tail (the last
// two); the seed bitmap's byte for the head (two 256-entry byte permutes, one per half of
// the tails) and the tail's bit in it tell the windows that start a seed of any scan, and
// only those (a small share of the windows, the smaller the fewer the patterns) are looked
// up in the table, one by one. Gathering every window's word
// instead gained nothing over the scalar loop, as a gather loads one word at a time on AMD
// Zen 5.
// The windows are OR-ed, so the last block may overlap the one before it. Needs AVX512-VBMI
// and BW (the dispatch below checks).
struct SeedBitmap {
  __m512i low[4], high[4];  // bytes [head] of the bitmap for tails 0-7 and 8-15
  __m512i tail_bit;         // per 128-bit block: byte t = 1 << (t & 7)
  __m512i base_of;          // per 128-bit block: byte c = base_of_class[c]
};

// Windows i .. i + 63 (those of `in`), from the codes i .. i + 68: stores their heads and
// tails, ORs their bases into `seen`, and returns those that start a seed.
__attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline)) inline __mmask64 seed_block(
    const SeedBitmap& bitmap, const std::uint8_t* codes, std::size_t n, std::size_t i, __mmask64 in,
    std::uint8_t* heads, std::uint8_t* tails, __m512i& seen) {
  __m512i b[6];  // b[j]: the bases at i + j .. i + j + 63 (0 past the text)
  for (unsigned j = 0; j < 6; ++j) {
    if (in == ~__mmask64{0}) {  // (a whole block with plain loads: masked ones are slow on AMD Zen)
      b[j] = _mm512_shuffle_epi8(bitmap.base_of, _mm512_loadu_si512(codes + i + j));
    } else {
      const std::size_t left = n - i - j;
      const __mmask64 m = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
      b[j] = _mm512_maskz_shuffle_epi8(m, bitmap.base_of, _mm512_maskz_loadu_epi8(m, codes + i + j));
    }
  }
  // (0xFE: a | b | c.)
  seen = _mm512_ternarylogic_epi64(seen, b[0], _mm512_ternarylogic_epi64(b[1], b[2], b[3], 0xFE), 0xFE);
  seen = _mm512_ternarylogic_epi64(seen, b[4], b[5], 0xFE);
  // Bases are < 4 (else the answer is all ones anyway), so no bit leaves its byte.
  const __m512i head = _mm512_ternarylogic_epi64(_mm512_slli_epi16(b[0], 6), _mm512_slli_epi16(b[1], 4),
                                                 _mm512_or_si512(_mm512_slli_epi16(b[2], 2), b[3]), 0xFE);
  const __m512i tail = _mm512_or_si512(_mm512_slli_epi16(b[4], 2), b[5]);
  _mm512_store_si512(heads, head);
  _mm512_store_si512(tails, tail);
  const __m512i low = code_bytes(bitmap.low[0], bitmap.low[1], bitmap.low[2], bitmap.low[3], head);
  const __m512i high = code_bytes(bitmap.high[0], bitmap.high[1], bitmap.high[2], bitmap.high[3], head);
  const __mmask64 high_tail = _mm512_test_epi8_mask(tail, _mm512_set1_epi8(8));
  const __m512i bits = _mm512_mask_blend_epi8(high_tail, low, high);
  return _mm512_mask_test_epi8_mask(in, bits, _mm512_shuffle_epi8(bitmap.tail_bit, tail));
}

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::uint64_t seed_lookup_vbmi(const SeedTable& table,
                                                                                      const std::uint8_t* codes,
                                                                                      std::size_t n) {
  if (n < 6) return scalar_kernel().seed_lookup(table, codes, n);
  SeedBitmap bitmap;
  for (unsigned q = 0; q < 4; ++q) {
    bitmap.low[q] = _mm512_loadu_si512(table.seed_bits + 64 * q);
    bitmap.high[q] = _mm512_loadu_si512(table.seed_bits + 256 + 64 * q);
  }
  // (maskz: the plain broadcast trips a false GCC 12 warning of its undefined operand.)
  bitmap.tail_bit = _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128));
  bitmap.base_of = _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(table.base_of_class)));
  const std::size_t windows = n - 5;  // 6-mers at 0 .. n - 6
  std::uint64_t found = 0;
  __m512i seen = _mm512_setzero_si512();
  // Up to kRound blocks, then the windows of theirs that start a seed: a branch per block
  // on whether it has any was mispredicted often enough to cost more than the block.
  constexpr unsigned kRound = 8;
  alignas(64) std::uint8_t heads[kRound][64], tails[kRound][64];
  __mmask64 starts[kRound];
  auto look_up = [&](unsigned blocks) {
    for (unsigned r = 0; r < blocks; ++r)
      for (__mmask64 s = starts[r]; s; s &= s - 1) {
        const auto w = static_cast<unsigned>(__builtin_ctzll(s));
        found |= table.seeds[unsigned{heads[r][w]} << 4 | tails[r][w]];
      }
  };
  if (windows < 64) {
    starts[0] = seed_block(bitmap, codes, n, 0, (__mmask64{1} << windows) - 1, heads[0], tails[0], seen);
    look_up(1);
  } else {
    unsigned r = 0;
    for (std::size_t i = 0;; i += 64) {
      // The windows are OR-ed, so the last block may overlap the one before it.
      const bool last = i + 64 >= windows;
      if (last) i = windows - 64;
      starts[r] = seed_block(bitmap, codes, n, i, ~__mmask64{0}, heads[r], tails[r], seen);
      if (++r == kRound || last) {
        look_up(r);
        r = 0;
      }
      if (last) break;
    }
  }
  if (_mm512_test_epi8_mask(seen, _mm512_set1_epi8(kAmbiguousBase)) != 0) return ~std::uint64_t{0};
  return found;
}

// The bases of codes [at, at + 64), 0 past the text's n: masked loads only near its end
// (they are slow on AMD Zen).
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i span_bases(
    __m512i base_of, const std::uint8_t* codes, std::size_t n, std::size_t at) {
  if (at + 64 <= n) return _mm512_shuffle_epi8(base_of, _mm512_loadu_si512(codes + at));
  if (at >= n) return _mm512_setzero_si512();
  const __mmask64 m = (__mmask64{1} << (n - at)) - 1;
  return _mm512_maskz_shuffle_epi8(m, base_of, _mm512_maskz_loadu_epi8(m, codes + at));
}

// PairedSeedFilter's look-up, 64 positions a block. Each block's bases are loaded once (a
// byte shuffle from class to base) and carried into the next; every position's value is
// built by doubling: pairs of bases, then four (the value's low byte), then the four after
// them (its high byte), each step one two-register byte permute that shifts the block by
// 1, 2 and 4 positions (fewer instructions than a load and a shuffle per base). The
// values are compared with each seed's two bytes; positions that start a seed are rare (an
// occurrence, a chance match), so a block's masks are only looked at when one has any.
// Needs AVX512-VBMI and BW (the dispatch below checks).
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) bool seed_spans_vbmi(const SeedSpanQuery& query,
                                                                            const std::uint8_t* codes, std::size_t n,
                                                                            std::uint32_t* first, std::uint32_t* last) {
  for (std::uint32_t s = 0; s < query.count; ++s) {
    first[s] = UINT32_MAX;
    last[s] = 0;
  }
  // (maskz: the plain broadcast trips a false GCC 12 warning of its undefined operand.)
  const __m512i base_of = _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(query.base_of_class)));
  if (n < query.length) {
    const __m512i bases = n > 0 ? span_bases(base_of, codes, n, 0) : _mm512_setzero_si512();
    return _mm512_test_epi8_mask(bases, _mm512_set1_epi8(kAmbiguousBase)) == 0;
  }
  // Each seed's two bytes, broadcast once.
  __m512i seed_low[SeedSpanQuery::kMaxSeeds], seed_high[SeedSpanQuery::kMaxSeeds];
  for (std::uint32_t s = 0; s < query.count; ++s) {
    seed_low[s] = _mm512_set1_epi8(static_cast<char>(query.seeds[s] & 0xFF));
    seed_high[s] = _mm512_set1_epi8(static_cast<char>(query.seeds[s] >> 8));
  }
  // Permute indexes: the bytes of (a, b) from 1, 2 and 4 on (b follows a). Constant tables:
  // filled per call, their byte stores would stall the vector loads.
  static constexpr auto kShiftBy = [] {
    std::array<std::array<std::uint8_t, 64>, 3> by{};
    for (unsigned i = 0; i < 64; ++i) {
      by[0][i] = static_cast<std::uint8_t>(i + 1);
      by[1][i] = static_cast<std::uint8_t>(i + 2);
      by[2][i] = static_cast<std::uint8_t>(i + 4);
    }
    return by;
  }();
  const __m512i by1 = _mm512_loadu_si512(kShiftBy[0].data()), by2 = _mm512_loadu_si512(kShiftBy[1].data()),
                by4 = _mm512_loadu_si512(kShiftBy[2].data());
  // Bases past `length` are 0 in a value (its high byte holds bases 4 .. 7).
  const __m512i high_mask = _mm512_set1_epi8(static_cast<char>(query.length >= 8 ? 0xFF : (1u << (2 * (query.length - 4))) - 1));
  const std::size_t starts = n - query.length + 1;  // positions 0 .. n - length
  __m512i bases = span_bases(base_of, codes, n, 0);
  __m512i seen = bases;
  for (std::size_t i = 0; i < starts; i += 64) {
    const __m512i next = span_bases(base_of, codes, n, i + 64);
    seen = _mm512_or_si512(seen, next);
    // Values < 4 per base (else the answer is "ambiguous" anyway), so no bit leaves its
    // byte. Of the next block only its first bytes are needed: in-lane byte shifts do.
    const __m512i pairs = _mm512_or_si512(bases, _mm512_slli_epi16(_mm512_permutex2var_epi8(bases, by1, next), 2));
    const __m512i next_pairs = _mm512_or_si512(next, _mm512_slli_epi16(_mm512_bsrli_epi128(next, 1), 2));
    const __m512i low = _mm512_or_si512(pairs, _mm512_slli_epi16(_mm512_permutex2var_epi8(pairs, by2, next_pairs), 4));
    const __m512i next_low = _mm512_or_si512(next_pairs, _mm512_slli_epi16(_mm512_bsrli_epi128(next_pairs, 2), 4));
    const __m512i high = _mm512_and_si512(_mm512_permutex2var_epi8(low, by4, next_low), high_mask);
    const __mmask64 in = starts - i >= 64 ? ~__mmask64{0} : (__mmask64{1} << (starts - i)) - 1;
    __mmask64 hits[SeedSpanQuery::kMaxSeeds];
    __mmask64 any = 0;
    for (std::uint32_t s = 0; s < query.count; ++s) {
      hits[s] = _mm512_mask_cmpeq_epi8_mask(_mm512_mask_cmpeq_epi8_mask(in, low, seed_low[s]), high, seed_high[s]);
      any |= hits[s];
    }
    if (any != 0) {
      for (std::uint32_t s = 0; s < query.count; ++s) {
        if (hits[s] == 0) continue;
        const auto lo = static_cast<std::uint32_t>(i + static_cast<std::size_t>(__builtin_ctzll(hits[s])));
        const auto hi = static_cast<std::uint32_t>(i + 63 - static_cast<std::size_t>(__builtin_clzll(hits[s])));
        if (lo < first[s]) first[s] = lo;
        if (hi > last[s]) last[s] = hi;
      }
    }
    bases = next;
  }
  return _mm512_test_epi8_mask(seen, _mm512_set1_epi8(kAmbiguousBase)) == 0;
}

// PatternIndex's look-up, 64 positions a block. Each position's key is built by doubling, as
// in seed_spans_vbmi but with the first base on top: pairs and fours of bases in bytes, then
// eights and sixteens in dwords (16 positions a register, shifted by whole dwords across
// registers); the key is the top 2q bits of the sixteen. Its bit in `present` comes from a
// gather of the bitmap's 32-bit words (four per block; a scalar load a position took as long
// as the rest of the block). Present keys are rare, so a block's keys are stored only when
// one of its positions has one. Needs AVX512-VBMI and BW (the dispatch below checks).
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::size_t seed_keys_vbmi(const SeedKeyQuery& query,
                                                                                  const std::uint8_t* codes,
                                                                                  std::size_t n, std::uint32_t* keys,
                                                                                  std::uint32_t* at) {
  const __m512i base_of = _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(query.base_of_class)));
  const std::uint32_t q = query.q;
  if (n < q) {
    const __m512i bases = n > 0 ? span_bases(base_of, codes, n, 0) : _mm512_setzero_si512();
    return _mm512_test_epi8_mask(bases, _mm512_set1_epi8(kAmbiguousBase)) == 0 ? 0 : kSeedKeysAmbiguous;
  }
  static constexpr auto kShiftBy = [] {
    std::array<std::array<std::uint8_t, 64>, 2> by{};
    for (unsigned i = 0; i < 64; ++i) {
      by[0][i] = static_cast<std::uint8_t>(i + 1);
      by[1][i] = static_cast<std::uint8_t>(i + 2);
    }
    return by;
  }();
  const __m512i by1 = _mm512_loadu_si512(kShiftBy[0].data()), by2 = _mm512_loadu_si512(kShiftBy[1].data());
  const __m512i one = _mm512_set1_epi32(1), low5 = _mm512_set1_epi32(31);
  const auto* words = reinterpret_cast<const int*>(query.present);
  const std::size_t starts = n - q + 1;  // positions 0 .. n - q
  std::size_t found = 0;
  __m512i bases = span_bases(base_of, codes, n, 0);
  __m512i seen = bases;
  for (std::size_t i = 0; i < starts; i += 64) {
    const __m512i next = span_bases(base_of, codes, n, i + 64);
    seen = _mm512_or_si512(seen, next);
    // Bases < 4 (else the answer is "ambiguous" anyway): pairs and fours stay in their byte.
    // Of the next block only its first 12 fours are needed: in-lane byte shifts do.
    const __m512i pairs = _mm512_or_si512(_mm512_slli_epi16(bases, 2), _mm512_permutex2var_epi8(bases, by1, next));
    const __m512i next_pairs = _mm512_or_si512(_mm512_slli_epi16(next, 2), _mm512_bsrli_epi128(next, 1));
    const __m512i fours = _mm512_or_si512(_mm512_slli_epi16(pairs, 4), _mm512_permutex2var_epi8(pairs, by2, next_pairs));
    const __m512i next_fours =
        _mm512_or_si512(_mm512_slli_epi16(next_pairs, 4), _mm512_bsrli_epi128(next_pairs, 2));
    __m512i d[5];
    d[0] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(fours, 0));
    d[1] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(fours, 1));
    d[2] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(fours, 2));
    d[3] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(fours, 3));
    d[4] = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(next_fours));
    __m512i eights[5];
    for (unsigned j = 0; j < 5; ++j)
      eights[j] = _mm512_or_si512(_mm512_slli_epi32(d[j], 8), _mm512_alignr_epi32(j < 4 ? d[j + 1] : d[j], d[j], 4));
    const __mmask64 in = starts - i >= 64 ? ~__mmask64{0} : (__mmask64{1} << (starts - i)) - 1;
    __m512i key[4];
    __mmask64 hit = 0;
    for (unsigned j = 0; j < 4; ++j) {
      const __m512i sixteen = _mm512_or_si512(_mm512_slli_epi32(eights[j], 16), _mm512_alignr_epi32(eights[j + 1], eights[j], 8));
      key[j] = _mm512_srli_epi32(sixteen, 32 - 2 * q);
      const __m512i word = _mm512_i32gather_epi32(_mm512_srli_epi32(key[j], 5), words, 4);
      const __m512i bit = _mm512_srlv_epi32(word, _mm512_and_si512(key[j], low5));
      hit |= __mmask64{_mm512_test_epi32_mask(bit, one)} << (16 * j);
    }
    bases = next;
    hit &= in;
    if (hit == 0) continue;
    alignas(64) std::uint32_t block[64];
    for (unsigned j = 0; j < 4; ++j) _mm512_store_si512(block + 16 * j, key[j]);
    for (; hit; hit &= hit - 1) {
      const auto w = static_cast<unsigned>(__builtin_ctzll(hit));
      keys[found] = block[w];
      at[found++] = static_cast<std::uint32_t>(i + w);
    }
  }
  return _mm512_test_epi8_mask(seen, _mm512_set1_epi8(kAmbiguousBase)) == 0 ? found : kSeedKeysAmbiguous;
}

// The screen (ScreenFn): 16-bit lanes, so 32 texts a vector, each text read by two
// vectors, one per piece, that share its bytes: a block's bytes of 32 texts are transposed
// once, and a step's 32 bytes widened to words index both pieces' tables (a one-register
// word permute each, which reads the low 5 bits). kScreenGroups such pairs of vectors step
// side by side, as a Myers step is a chain of dependent instructions. Nothing is written
// per end: a lane keeps the lowest score it has seen, compared with k when its text ends.
// Blocks run as far as the lane closest to its end (at least kScreenMinBlock steps, at
// most 64): a lane whose text ends earlier in the block reads on past it, but its lowest
// score takes only the steps before its end (texts of varied lengths would otherwise make
// blocks of a step or two).
constexpr unsigned kScreenLanes = 32;
constexpr unsigned kScreenGroups = 2;
constexpr std::uint32_t kScreenMinBlock = 16;
constexpr std::size_t kScreenAhead = 2 * kScreenLanes * kScreenGroups;
static_assert(kScreenGroups == 2, "screen_avx512bw names its vectors");

// A step's 32 bytes of a group (transposed as two halves of 16 lanes: transpose_bytes16),
// widened to words.
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i screen_step_bytes(
    const std::uint8_t (*halves)[16][64], unsigned row, unsigned block) {
  const __m128i lo = _mm_load_si128(reinterpret_cast<const __m128i*>(halves[0][row] + block));
  const __m128i hi = _mm_load_si128(reinterpret_cast<const __m128i*>(halves[1][row] + block));
  return _mm512_cvtepu8_epi16(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
}

// One vector of the screen's lanes: the column (pv, mv) and the lowest score at the last
// row since the lane's text began.
struct ScreenLanes {
  __m512i pv, mv, lowest;
  // One Myers step (kernel_jobs.h, advance) on 16-bit lanes; `lowest` takes the new score
  // in the lanes of in_text. A piece fills its lane, so the score at its last row is the sum
  // of the column's deltas, popcount(pv) - popcount(mv), with no score carried from step to
  // step, cheaper than the usual masked add and subtract of the last row's deltas
  // (docs/performance.md).
  __attribute__((target("avx512f,avx512bw,avx512bitalg"), always_inline)) void step(__m512i eq, __mmask32 in_text) {
    const __m512i xv = _mm512_or_si512(eq, mv);
    const __m512i xh = _mm512_or_si512(_mm512_xor_si512(_mm512_add_epi16(_mm512_and_si512(eq, pv), pv), pv), eq);
    const __m512i ph = _mm512_ternarylogic_epi32(mv, xh, pv, 0xF1);  // mv | ~(xh | pv)
    const __m512i mh = _mm512_and_si512(pv, xh);
    const __m512i ph_up = _mm512_slli_epi16(ph, 1);
    const __m512i mh_up = _mm512_slli_epi16(mh, 1);
    pv = _mm512_ternarylogic_epi32(mh_up, xv, ph_up, 0xF1);  // mh | ~(xv | ph), shifted
    mv = _mm512_and_si512(ph_up, xv);
    const __m512i score = _mm512_sub_epi16(_mm512_popcnt_epi16(pv), _mm512_popcnt_epi16(mv));
    lowest = _mm512_mask_min_epu16(lowest, in_text, lowest, score);
  }
  // The lanes of `lanes` from the start column (vp all ones), no score seen yet.
  __attribute__((target("avx512f,avx512bw"), always_inline)) void restart(__mmask32 lanes, __m512i ones) {
    pv = _mm512_mask_mov_epi16(pv, lanes, ones);
    mv = _mm512_maskz_mov_epi16(~lanes, mv);
    lowest = _mm512_mask_mov_epi16(lowest, lanes, ones);
  }
};

// `steps` steps of the screen's four vectors (kScreenGroups pairs) on a block's transposed
// bytes; kMasked: a lane's lowest score takes only its first stop[lane] steps.
template <bool kMasked>
__attribute__((target("avx512f,avx512bw,avx512bitalg"), always_inline)) inline void screen_block(
    ScreenLanes& a0, ScreenLanes& b0, ScreenLanes& a1, ScreenLanes& b1, const std::uint8_t (*bytes)[2][16][64],
    const __m512i (&table)[2], const std::uint16_t* stop, std::uint32_t steps) {
  const __m512i stop0 = _mm512_load_si512(stop), stop1 = _mm512_load_si512(stop + kScreenLanes);
  const __m512i one = _mm512_set1_epi16(1);
  __m512i step_no = _mm512_setzero_si512();
  for (std::uint32_t s = 0; s < steps; ++s) {
    const unsigned row = s & 15, block = 16 * (s >> 4);
    const __m512i idx0 = screen_step_bytes(bytes[0], row, block), idx1 = screen_step_bytes(bytes[1], row, block);
    __mmask32 in0 = ~__mmask32{0}, in1 = ~__mmask32{0};
    if constexpr (kMasked) {
      in0 = _mm512_cmplt_epu16_mask(step_no, stop0);
      in1 = _mm512_cmplt_epu16_mask(step_no, stop1);
      step_no = _mm512_add_epi16(step_no, one);
    }
    a0.step(_mm512_permutexvar_epi16(idx0, table[0]), in0);
    b0.step(_mm512_permutexvar_epi16(idx0, table[1]), in0);
    a1.step(_mm512_permutexvar_epi16(idx1, table[0]), in1);
    b1.step(_mm512_permutexvar_epi16(idx1, table[1]), in1);
  }
}

// A lane's 64 bytes from `at`, of which `left` belong to its text: a masked load for a text's
// last block, which reads only the text's own bytes (and the others as 0). (Masked loads
// are slow on AMD Zen, but one a text cost nothing measurable against plain loads here.)
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i lane_block(const std::uint8_t* at,
                                                                                  std::uint32_t left) {
  if (left >= 64) return _mm512_loadu_si512(at);
  return _mm512_maskz_loadu_epi8((__mmask64{1} << left) - 1, at);
}

__attribute__((target("avx512f,avx512bw,avx512bitalg"))) void screen_avx512bw(const ScreenPieces& pieces, const ScreenText* texts,
                                                                std::size_t n, std::uint8_t* flags) {
  constexpr unsigned W = kScreenLanes, G = kScreenGroups, L = G * W;
  const __m512i table[2] = {_mm512_loadu_si512(pieces.peq[0]), _mm512_loadu_si512(pieces.peq[1])};
  static_assert(kScreenPiece == 16, "a piece fills a 16-bit lane");
  const __m512i ones = _mm512_set1_epi16(-1);
  const __m512i kv = _mm512_set1_epi16(static_cast<short>(pieces.k));

  // Per lane: where its text goes on, how much of it is left, and which text it is.
  alignas(64) static const std::uint8_t kIdleText[64] = {};
  const std::uint8_t* at[L];
  std::uint32_t left[L];
  std::uint32_t text_of[L];
  std::uint64_t busy = 0;  // bit l: lane l holds a text
  std::size_t next = 0;
  auto take = [&](unsigned l) {
    while (next < n && texts[next].len == 0) flags[next++] = 0;  // no end position >= 1
    if (next == n) {
      at[l] = kIdleText;
      left[l] = 0;
      busy &= ~(std::uint64_t{1} << l);
      return;
    }
    // The text a round of lanes later, fetched into the cache now: texts are mostly read
    // here first, and a lane's loads would wait for memory.
    if (next + kScreenAhead < n) {
      const ScreenText& ahead = texts[next + kScreenAhead];
      for (std::uint32_t b = 0; b < ahead.len; b += 64) _mm_prefetch(reinterpret_cast<const char*>(ahead.bytes) + b, _MM_HINT_T0);
    }
    at[l] = texts[next].bytes;
    left[l] = texts[next].len;
    text_of[l] = static_cast<std::uint32_t>(next++);
    busy |= std::uint64_t{1} << l;
  };
  for (unsigned l = 0; l < L; ++l) take(l);

  // Four vectors of lanes by name, not in arrays: GCC kept arrays of them on the stack and
  // stored every vector back each step.
  // Piece a (0) and b (1) of group 0 and group 1, every lane at the start column.
  const ScreenLanes start{ones, _mm512_setzero_si512(), ones};
  ScreenLanes a0 = start, b0 = start, a1 = start, b1 = start;
  alignas(64) std::uint8_t bytes[G][2][16][64];  // [group][lanes 0-15, 16-31]: transpose_bytes16
  alignas(64) std::uint16_t stop[L];              // steps of the block before the lane's end
  while (busy) {
    // (Loops over every lane, branch free, so that they vectorize: an idle lane has 0 left,
    // a busy one more.)
    std::uint32_t shortest = UINT32_MAX, longest = 0;
    for (unsigned l = 0; l < L; ++l) {
      shortest = std::min(shortest, left[l] - 1);
      longest = std::max(longest, left[l]);
    }
    shortest += 1;
    const std::uint32_t steps = std::min({std::uint32_t{64}, longest, std::max(shortest, kScreenMinBlock)});
    for (unsigned l = 0; l < L; ++l) stop[l] = static_cast<std::uint16_t>(std::min(left[l], steps));
    for (unsigned g = 0; g < G; ++g)
      for (unsigned h = 0; h < 2; ++h) {
        __m512i r[16];
        for (unsigned i = 0; i < 16; ++i) {
          const unsigned l = g * W + 16 * h + i;
          r[i] = lane_block(at[l], left[l]);
        }
        transpose_bytes16(r, bytes[g][h]);
      }
    // (Where every busy lane's text covers the block, as with texts of one length, no lane's
    // steps need masking: idle lanes' scores are never read.)
    if (shortest >= steps) screen_block<false>(a0, b0, a1, b1, bytes, table, stop, steps);
    else screen_block<true>(a0, b0, a1, b1, bytes, table, stop, steps);
    // Lanes whose text ended: their flags, then the next text from the start column.
    std::uint32_t ended[G] = {};
    for (unsigned g = 0; g < G; ++g)
      for (unsigned i = 0; i < W; ++i) {
        const unsigned l = g * W + i;
        ended[g] |= static_cast<std::uint32_t>(left[l] - 1 < steps) << i;
        const std::uint32_t advance = left[l] > steps ? steps : 0;
        left[l] -= advance;
        at[l] += advance;
      }
    if ((ended[0] | ended[1]) == 0) continue;
    const std::uint32_t hit_a[G] = {_mm512_cmple_epu16_mask(a0.lowest, kv), _mm512_cmple_epu16_mask(a1.lowest, kv)};
    const std::uint32_t hit_b[G] = {_mm512_cmple_epu16_mask(b0.lowest, kv), _mm512_cmple_epu16_mask(b1.lowest, kv)};
    for (unsigned g = 0; g < G; ++g)
      for (std::uint32_t e = ended[g]; e; e &= e - 1) {
        const unsigned i = static_cast<unsigned>(__builtin_ctz(e));
        flags[text_of[g * W + i]] = static_cast<std::uint8_t>((hit_a[g] >> i & 1) | (hit_b[g] >> i & 1) << 1);
        take(g * W + i);
      }
    a0.restart(ended[0], ones);
    b0.restart(ended[0], ones);
    a1.restart(ended[1], ones);
    b1.restart(ended[1], ones);
  }
}

}  // namespace

const KernelFns& avx512_kernel() {
  // contains wants the first end, which an early-exiting scalar scan finds soonest.
  static const bool vbmi = cpu_features().avx512vbmi && cpu_features().avx512bw;
  static const bool screen = cpu_features().avx512bw && cpu_features().avx512bitalg;
  static const KernelFns fns{"avx512", &scan_avx512, scalar_kernel().scan_first,
                             &scan_jobs_avx512, vbmi ? &encode_vbmi : scalar_kernel().encode,
                             vbmi ? &build_peq_vbmi : scalar_kernel().build_peq,
                             vbmi ? &seed_lookup_vbmi : scalar_kernel().seed_lookup,
                             vbmi ? &seed_spans_vbmi : avx2_kernel().seed_spans,
                             vbmi ? &seed_keys_vbmi : scalar_kernel().seed_keys,
                             screen ? &screen_avx512bw : nullptr};
  return fns;
}

}  // namespace trawl
