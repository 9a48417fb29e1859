// Writes the seeded benchmark workloads (issue W1–W5, ../shared ducksassy tables) as
// FASTA on stdout, and for the paired tables the patterns as a -l list file.
//
//   make_workload genome  TOTAL_BP RECORDS SEED            > genome.fa   (W1)
//   make_workload reads   COUNT LEN SEED [PATTERN]         > reads.fa    (W2, W3; PATTERN planted in 1 of 10)
//   make_workload windows small|large|balanced PATTERNS.txt > table.fa   (W4 and the scaling tables)
//   make_workload ascii   COUNT                            > ab.fa       (W5)
//   make_workload patterns COUNT LEN SEED                  > patterns.txt
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

std::string random_dna(SplitMix& rng, std::uint64_t n) {
  std::string s(n, 'A');
  for (std::uint64_t i = 0; i < n; i += 32) {
    std::uint64_t bits = rng.next();
    for (std::uint64_t j = i; j < n && j < i + 32; ++j, bits >>= 2) s[j] = "ACGT"[bits & 3];
  }
  return s;
}

void write_record(std::FILE* f, const std::string& name, const char* seq, std::size_t n) {
  std::fprintf(f, ">%s\n", name.c_str());
  std::fwrite(seq, 1, n, f);
  std::fputc('\n', f);
}

int usage() {
  std::fprintf(stderr, "usage: see the comment at the top of make_workload.cpp\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string mode = argv[1];
  static char out_buf[1 << 20];
  std::setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
  if (mode == "genome" && argc == 5) {
    const std::uint64_t total = std::strtoull(argv[2], nullptr, 10);
    const std::uint64_t records = std::strtoull(argv[3], nullptr, 10);
    SplitMix rng{std::strtoull(argv[4], nullptr, 10)};
    for (std::uint64_t r = 0; r < records; ++r) {
      const std::uint64_t len = total / records + (r < total % records ? 1 : 0);
      const std::string s = random_dna(rng, len);
      write_record(stdout, "chr" + std::to_string(r + 1), s.data(), s.size());
    }
  } else if (mode == "reads" && (argc == 5 || argc == 6)) {
    const std::uint64_t count = std::strtoull(argv[2], nullptr, 10);
    const std::uint64_t len = std::strtoull(argv[3], nullptr, 10);
    SplitMix rng{std::strtoull(argv[4], nullptr, 10)};
    const std::string pattern = argc == 6 ? argv[5] : "";
    for (std::uint64_t r = 0; r < count; ++r) {
      std::string s = random_dna(rng, len);
      if (!pattern.empty() && r % 10 == 0 && pattern.size() <= len)
        s.replace(rng.next() % (len - pattern.size() + 1), pattern.size(), pattern);
      write_record(stdout, "read" + std::to_string(r + 1), s.data(), s.size());
    }
  } else if (mode == "windows" && argc == 4) {
    // ducksassy-workloads.md §2.2: windows of a 4,641,652 bp reference (seeded random here),
    // sequence = 256 bp at (i*131) mod (L-256), pattern = its 23-mer at offset 64.
    const std::string table = argv[2];
    const std::uint64_t L = 4641652;
    SplitMix rng{4641652};
    const std::string ref = random_dna(rng, L);
    std::uint64_t rows = table == "small" ? 262144 : table == "balanced" ? 983040 : 262144;
    const int copies = table == "large" ? 8 : 1;
    if (table != "small" && table != "large" && table != "balanced") return usage();
    std::FILE* pats = std::fopen(argv[3], "w");
    if (!pats) return usage();
    for (int j = 0; j < copies; ++j)
      for (std::uint64_t i = 0; i < rows; ++i) {
        const std::uint64_t at = (i * 131) % (L - 256);
        write_record(stdout, "row" + std::to_string(i + j * rows), ref.data() + at, 256);
        std::fwrite(ref.data() + at + 64, 1, 23, pats);
        std::fputc('\n', pats);
      }
    std::fclose(pats);
  } else if (mode == "ascii" && argc == 3) {
    const std::uint64_t count = std::strtoull(argv[2], nullptr, 10);
    std::string ab;
    for (int i = 0; i < 128; ++i) ab += "ab";
    for (std::uint64_t r = 0; r < count; ++r)
      write_record(stdout, "t" + std::to_string(r + 1), ab.data(), ab.size());
  } else if (mode == "patterns" && argc == 5) {
    const std::uint64_t count = std::strtoull(argv[2], nullptr, 10);
    const std::uint64_t len = std::strtoull(argv[3], nullptr, 10);
    SplitMix rng{std::strtoull(argv[4], nullptr, 10)};
    for (std::uint64_t r = 0; r < count; ++r) std::printf("%s\n", random_dna(rng, len).c_str());
  } else {
    return usage();
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
