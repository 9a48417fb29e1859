// Writes the seeded benchmark workloads (W1–W5 and the windows tables, described in
// docs/performance.md, "Workloads") as FASTA on stdout, and for the paired tables the
// patterns as a -l list file.
//
//   make_workload genome  TOTAL_BP RECORDS SEED [WIDTH]    > genome.fa   (W1; WIDTH: bases a line, 0 = one line)
//   make_workload reads   COUNT LEN SEED [PATTERN]         > reads.fa    (W2, W3; PATTERN planted in 1 of 10)
//   make_workload windows small|large|balanced PATTERNS.txt > table.fa   (W4 and the scaling tables)
//   make_workload ascii   COUNT                            > ab.fa       (W5)
//   make_workload patterns COUNT LEN SEED                  > patterns.txt
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "workloads.h"

namespace {

using namespace trawl_bench;

// A record with its sequence in lines of `width` bases (0: one line).
void write_record(std::FILE* f, const std::string& name, const char* seq, std::size_t n,
                  std::size_t width = 0) {
  std::fprintf(f, ">%s\n", name.c_str());
  if (width == 0) width = n;
  for (std::size_t at = 0; at < n; at += width) {
    std::fwrite(seq + at, 1, std::min(width, n - at), f);
    std::fputc('\n', f);
  }
  if (n == 0) std::fputc('\n', f);
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
  if (mode == "genome" && (argc == 5 || argc == 6)) {
    const std::size_t width = argc == 6 ? std::strtoull(argv[5], nullptr, 10) : 0;
    genome_records(std::strtoull(argv[2], nullptr, 10), std::strtoull(argv[3], nullptr, 10),
                   std::strtoull(argv[4], nullptr, 10), [width](std::uint64_t r, std::string_view s) {
                     write_record(stdout, "chr" + std::to_string(r + 1), s.data(), s.size(), width);
                   });
  } else if (mode == "reads" && (argc == 5 || argc == 6)) {
    read_records(std::strtoull(argv[2], nullptr, 10), std::strtoull(argv[3], nullptr, 10),
                 std::strtoull(argv[4], nullptr, 10), argc == 6 ? argv[5] : "",
                 [](std::uint64_t r, std::string_view s) {
                   write_record(stdout, "read" + std::to_string(r + 1), s.data(), s.size());
                 });
  } else if (mode == "windows" && argc == 4) {
    if (!WindowsTable::known(argv[2])) return usage();
    const WindowsTable table(argv[2]);
    std::FILE* pats = std::fopen(argv[3], "w");
    if (!pats) return usage();
    for (std::uint64_t i = 0; i < table.size(); ++i) {
      const std::string_view seq = table.seq(i), pattern = table.pattern(i);
      write_record(stdout, "row" + std::to_string(i), seq.data(), seq.size());
      std::fwrite(pattern.data(), 1, pattern.size(), pats);
      std::fputc('\n', pats);
    }
    std::fclose(pats);
  } else if (mode == "ascii" && argc == 3) {
    const std::uint64_t count = std::strtoull(argv[2], nullptr, 10);
    const std::string ab = ascii_record();
    for (std::uint64_t r = 0; r < count; ++r)
      write_record(stdout, "t" + std::to_string(r + 1), ab.data(), ab.size());
  } else if (mode == "patterns" && argc == 5) {
    random_patterns(std::strtoull(argv[2], nullptr, 10), std::strtoull(argv[3], nullptr, 10),
                    std::strtoull(argv[4], nullptr, 10), [](std::uint64_t, std::string_view s) {
                      std::printf("%.*s\n", static_cast<int>(s.size()), s.data());
                    });
  } else {
    return usage();
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
