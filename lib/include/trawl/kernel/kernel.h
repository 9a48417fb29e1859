#pragma once
// Bit-parallel end-cost kernels (Myers 1999 in Hyyrö's semi-global form), free of I/O,
// threads and formats. A kernel turns a text into the sparse stream of end positions whose
// cost is <= k. Values above k are never reported (they need not be exact downstream).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "trawl/kernel/profile.h"

namespace trawl {

// End position p (number of text characters consumed) and its cost C[p] = D(m, p).
struct EndCost {
  std::uint64_t pos;
  std::int32_t cost;
};

// The DP column state of one (pattern, strand) scan: vertical deltas of the current text
// column, one bit per pattern row, `words` words each; `score` = C at the current column.
struct ColumnState {
  std::uint64_t* vp;  // bit j: D(j+1, i) - D(j, i) == +1
  std::uint64_t* vn;  // bit j: D(j+1, i) - D(j, i) == -1
  std::int64_t score;
};

// Scans text[0, len), a text already mapped to classes (AlphabetSpec::text_class). text[0] is the character that moves the DP from end position p0 to
// p0 + 1. Writes every (p, C[p]) with p0 < p <= p0 + len and C[p] <= k to `out` (capacity
// >= len) in increasing p and returns how many it wrote. `state` is advanced in place, so
// a long text can be scanned in consecutive chunks.
using ScanFn = std::size_t (*)(const StrandProfile& profile, ColumnState& state,
                               const std::uint8_t* text, std::size_t len, std::uint64_t p0,
                               std::int32_t k, EndCost* out);

// One whole short-text scan for scan_jobs: a single-word profile (m <= 64) over a text of
// class codes, from the start column (vp, vn, score); end positions count from 0.
struct ScanJob {
  const std::uint64_t* peq;  // StrandProfile::peq, one word per class
  const std::uint8_t* text;
  std::uint32_t len;
  std::uint32_t m;
  std::uint32_t classes;     // rows of peq
  std::uint64_t vp;
  std::int64_t score;
  std::uint64_t vn = 0;
};
// An end p (1..len) of job `job` with cost <= k.
struct JobEnd {
  std::uint32_t job;
  std::uint32_t pos;
  std::int32_t cost;
};
// The DP column after a job's last character (for the right overhang).
struct JobState {
  std::uint64_t vp, vn;
  std::int64_t score;
};

// Runs every job and writes all their ends with cost <= k to `out` (capacity >= the sum of
// the jobs' lengths): each job's ends in increasing pos, jobs interleaved in any order.
// Writes every job's final column to final_states[job]. Returns the number of ends.
// first_only: each job stops at its first end (for contains; final_states then undefined).
using ScanJobsFn = std::size_t (*)(const ScanJob* jobs, std::size_t n, std::int32_t k,
                                   JobEnd* out, JobState* final_states, bool first_only);

// Maps text bytes to classes through a 256-entry table: fwd[i] = table[src[i]] (unless fwd is
// null), and when rev_end is not null also rev_end[-1 - i] = table[src[i]] (the reversed
// text for the rc strand), in one pass.
using EncodeFn = void (*)(const std::uint8_t* table, const std::uint8_t* src, std::size_t n,
                          std::uint8_t* fwd, std::uint8_t* rev_end);

// Writes a profile (see build_peq_from_planes, which every kernel may use).
using BuildPeqFn = void (*)(const ClassPlanes& planes, unsigned classes, std::string_view seq,
                            std::uint64_t* peq);

// SeedFilter's look-up (seed_filter.h) over a text of class codes (each < 16): every code is
// read through base_of_class as a base 0-3, or kAmbiguousBase; the 6-mer of the bases at
// i .. i + 5 is their 2-bit codes with the first in the top bits. Returns the OR of
// seeds[6-mer] over every i in [0, n - 6], or all ones if any code is ambiguous.
constexpr std::uint8_t kAmbiguousBase = 4;  // (a bit of its own: ORs of bases show it)
struct SeedTable {
  const std::uint8_t* base_of_class;  // 16 entries
  const std::uint64_t* seeds;         // 4096 entries
  // 512 bytes: bit (6-mer & 7) of byte (6-mer & 8) * 32 + (6-mer >> 4) is set iff
  // seeds[6-mer] != 0.
  const std::uint8_t* seed_bits;
};
using SeedLookupFn = std::uint64_t (*)(const SeedTable& table, const std::uint8_t* codes, std::size_t n);

// PairedSeedFilter's look-up (seed_filter.h): where seeds of `length` bases (4..8) start in
// a text of class codes (each < 16), every code read through base_of_class as in SeedTable.
// A seed (or a text position's `length` bases) is one 16-bit value: base j in bits 2j and
// 2j + 1 (seed_base_shift); bases past `length` are 0.
struct SeedSpanQuery {
  static constexpr unsigned kMaxSeeds = 16;
  const std::uint8_t* base_of_class;  // 16 entries
  std::uint32_t length;
  std::uint32_t count;                // <= kMaxSeeds
  std::uint16_t seeds[kMaxSeeds];
};
// Where base j (0..7) of a seed sits in its 16-bit value.
constexpr unsigned seed_base_shift(unsigned j) { return 2 * j; }
// For each seed i: first[i] and last[i], the first and the last position p in
// [0, n - length] where the text's bases p .. p + length - 1 equal the seed; first[i] =
// UINT32_MAX (and last[i] = 0) where there is none. Returns false, with first and last
// undefined, if any of the n codes is ambiguous (kAmbiguousBase). n < 2^32.
using SeedSpansFn = bool (*)(const SeedSpanQuery& query, const std::uint8_t* codes, std::size_t n,
                             std::uint32_t* first, std::uint32_t* last);

// PatternIndex's look-up (pattern_index.h): the positions p in [0, n - q] of a text of class
// codes (each < 16) whose q bases (every code read through base_of_class as in SeedTable;
// the first base in the top bits of the 2q-bit key) have their bit set in `present` (bit
// key & 63 of word key >> 6), in increasing p: at[i] = p and keys[i] = key for the i-th,
// with capacity n in both. Returns how many, or kSeedKeysAmbiguous if any of the n codes is
// ambiguous (kAmbiguousBase). 1 <= q <= kMaxSeedKeyBases; n < 2^32.
struct SeedKeyQuery {
  const std::uint8_t* base_of_class;  // 16 entries
  const std::uint64_t* present;       // 4^q bits
  std::uint32_t q;
};
constexpr std::uint32_t kMaxSeedKeyBases = 12;
constexpr std::size_t kSeedKeysAmbiguous = ~std::size_t{0};
using SeedKeysFn = std::size_t (*)(const SeedKeyQuery& query, const std::uint8_t* codes, std::size_t n,
                                   std::uint32_t* keys, std::uint32_t* at);

// The screen (ScreenedRecords, a few patterns over many short texts): whether each text
// holds an end with cost <= k of either of two *pieces* (patterns of kScreenPiece
// characters), both read on the text forward. A piece of a pattern has an end <= k wherever the pattern
// has one, so a text where neither piece has one needs no scan. The screen reads a text's
// bytes as they are: a byte b is looked up as b & 31 (the letters A-Z and a-z are 1-26),
// so a piece's word for b & 31 must hold every character's bit that matches any byte of
// that value (then a byte never matches less than it does, and the screen never misses
// an end).
constexpr std::uint32_t kScreenPiece = 16;
struct ScreenPieces {
  std::uint16_t peq[2][32];  // piece i, byte value v (b & 31): bit j set iff char j matches
  std::int32_t k;            // < kScreenPiece
};
struct ScreenText {
  const std::uint8_t* bytes;
  std::uint32_t len;
};
// flags[t] bit i (i = 0, 1): piece i has an end p (1 <= p <= texts[t].len) with
// D(kScreenPiece, p) <= k in text t, exactly (for the bytes as looked up).
using ScreenFn = void (*)(const ScreenPieces& pieces, const ScreenText* texts, std::size_t n,
                          std::uint8_t* flags);

struct KernelFns {
  const char* name;  // "scalar", "avx2", "avx512"
  ScanFn scan;
  // Like scan, but stops after the first end with cost <= k (writes at most one; `state`
  // is then left at that end). For contains, which needs only the first.
  ScanFn scan_first;
  // Many short texts at once, a different job in every SIMD lane (src/kernel_jobs.h).
  ScanJobsFn scan_jobs;
  EncodeFn encode;
  // Profiles built on demand (--paired: one per record and strand), for <= 16 classes.
  BuildPeqFn build_peq;
  SeedLookupFn seed_lookup;
  SeedSpansFn seed_spans;
  SeedKeysFn seed_keys;
  // Null where screening would not pay over scan_jobs on the whole patterns (the scalar and
  // AVX2 kernels, and AVX-512 without BW and BITALG): the searcher then does not screen.
  ScreenFn screen;
};

// The portable reference kernel, always available.
const KernelFns& scalar_kernel();
// SIMD kernels (text tiling; see src/kernel_tiled.h). Call only where the CPU has the
// instructions: use the dispatch functions below.
const KernelFns& avx2_kernel();
const KernelFns& avx512_kernel();

// Run-time dispatch: the kernels this CPU can run, fastest last (scalar first).
std::vector<const KernelFns*> available_kernels();
// "auto" picks the fastest available; "scalar", "avx2", "avx512" force one. Returns null
// for an unknown name or one the CPU lacks.
const KernelFns* find_kernel(std::string_view name);

}  // namespace trawl
