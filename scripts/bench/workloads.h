#pragma once
// The seeded benchmark workloads (W1–W5 and the windows tables: docs/performance.md,
// "Workloads"), shared by
// make_workload.cpp (which writes them as FASTA) and bench_speed.cpp (which builds them in
// memory). Both must see the same bytes for the same arguments, so every generator lives
// here once. Header-only and dependency-free (make_workload is built on its own too, see
// scripts/device_scaling.sh).
#include <cstdint>
#include <string>
#include <string_view>

namespace trawl_bench {

// SplitMix64: the seeded generator behind every workload.
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

// n random ACGT bases, two bits each from one rng.next() per 32 bases.
inline std::string random_dna(SplitMix& rng, std::uint64_t n) {
  std::string s(n, 'A');
  for (std::uint64_t i = 0; i < n; i += 32) {
    std::uint64_t bits = rng.next();
    for (std::uint64_t j = i; j < n && j < i + 32; ++j, bits >>= 2) s[j] = "ACGT"[bits & 3];
  }
  return s;
}

// W1: `records` random records totalling `total` bases (the first total % records are one
// base longer). Calls fn(r, seq) for r = 0..records-1.
template <class Fn>
void genome_records(std::uint64_t total, std::uint64_t records, std::uint64_t seed, Fn&& fn) {
  SplitMix rng{seed};
  for (std::uint64_t r = 0; r < records; ++r) {
    const std::uint64_t len = total / records + (r < total % records ? 1 : 0);
    const std::string s = random_dna(rng, len);
    fn(r, std::string_view(s));
  }
}

// W2, W3: `count` random reads of `len` bases; a non-empty `pattern` (no longer than a
// read) is planted at a random offset in reads 0, 10, 20, ... Calls fn(r, seq).
template <class Fn>
void read_records(std::uint64_t count, std::uint64_t len, std::uint64_t seed,
                  std::string_view pattern, Fn&& fn) {
  SplitMix rng{seed};
  for (std::uint64_t r = 0; r < count; ++r) {
    std::string s = random_dna(rng, len);
    if (!pattern.empty() && r % 10 == 0 && pattern.size() <= len)
      s.replace(rng.next() % (len - pattern.size() + 1), pattern.size(), pattern);
    fn(r, std::string_view(s));
  }
}

// `count` random patterns of `len` bases (make_workload patterns). Calls fn(i, seq).
template <class Fn>
void random_patterns(std::uint64_t count, std::uint64_t len, std::uint64_t seed, Fn&& fn) {
  SplitMix rng{seed};
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string s = random_dna(rng, len);
    fn(i, std::string_view(s));
  }
}

// W4 and the scaling tables (docs/performance.md, "Workloads"): windows of a 4,641,652 bp
// reference (seeded random here); row i's sequence is the 256 bp at (i*131) mod (L-256)
// and its pattern the 23-mer at offset 64 of it. "small" has 262,144 rows, "balanced"
// 983,040, "large" is small repeated 8 times (2,097,152 rows; row i + j*262,144 = row i).
class WindowsTable {
 public:
  static constexpr std::uint64_t kReferenceLength = 4641652;
  static constexpr std::uint64_t kWindow = 256;
  static constexpr std::uint64_t kPatternOffset = 64;
  static constexpr std::uint64_t kPatternLength = 23;

  // False for an unknown table name.
  static bool known(std::string_view table) {
    return table == "small" || table == "large" || table == "balanced";
  }
  // Builds the reference (about 4.6 MB); `table` must be known().
  explicit WindowsTable(std::string_view table)
      : rows_(table == "balanced" ? 983040 : 262144), copies_(table == "large" ? 8 : 1) {
    SplitMix rng{kReferenceLength};
    ref_ = random_dna(rng, kReferenceLength);
  }

  std::uint64_t size() const { return rows_ * copies_; }
  std::string_view seq(std::uint64_t row) const {
    return std::string_view(ref_).substr(offset(row), kWindow);
  }
  std::string_view pattern(std::uint64_t row) const {
    return std::string_view(ref_).substr(offset(row) + kPatternOffset, kPatternLength);
  }

 private:
  std::uint64_t offset(std::uint64_t row) const {
    return ((row % rows_) * 131) % (kReferenceLength - kWindow);
  }

  std::uint64_t rows_;
  std::uint64_t copies_;
  std::string ref_;
};

// W5: the dense ASCII record, "ab" repeated 128 times (every record is the same).
inline std::string ascii_record() {
  std::string ab;
  for (int i = 0; i < 128; ++i) ab += "ab";
  return ab;
}

}  // namespace trawl_bench
