#pragma once
// Command-line parsing (CLI11 lives in cli.cpp only: it is slow to compile).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trawl/core/results.h"
#include "trawl/core/search_options.h"
#include "trawl/sinks/sinks.h"

namespace trawl::app {

struct RunConfig {
  ResultShape shape;  // command and its row shape
  std::string count_by = "pair";  // count --by pair|pattern
  // Pattern sources: exactly one kind.
  std::vector<std::string> inline_patterns;  // -p
  std::string pattern_fasta;                 // -f
  std::string pattern_list;                  // -l
  std::vector<std::string> inputs;           // FASTA/FASTQ files; empty or "-" = stdin

  SearchOptions search;
  bool max_n_frac_given = false;
  std::string alphabet_name = "iupac";
  bool no_rc = false;
  bool all_ends = false;
  bool best = false;

  HitColumns columns;
  std::vector<std::string> extra_columns;  // --columns
  bool no_region = false;
  bool no_cigar = false;

  bool full_header = false;
  bool paired = false;
  std::string output = "-";
  std::string format;  // tsv | parquet | "" (from the file name)
  std::string compression = "zstd";  // Parquet: zstd | snappy | none
  std::size_t row_group_rows = 1 << 20;
  int threads = 0;     // 0 = all cores
  std::string kernel = "auto";  // auto | scalar | avx2 | avx512
  std::uint64_t batch_bases = 1 << 20;
  bool quiet = false;
  bool verbose = false;
  std::string command_line;  // for logs and Parquet metadata
};

// Parses argv into `config`. Returns an exit code when the program must stop now (help or
// version printed: 0; usage error printed: 2), otherwise nullopt.
std::optional<int> parse_command_line(int argc, char** argv, RunConfig& config);

}  // namespace trawl::app
