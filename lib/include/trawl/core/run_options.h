#pragma once
// The library's description of one run: everything the command line says, without the
// parser. Filled by a front end (app/cli), checked whole by validate(), then read by run().
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/core/results.h"
#include "trawl/core/search_options.h"

namespace trawl {

// Where the patterns come from: any of the three, in this order (at least one: validate()
// checks).
struct PatternSources {
  // -p: SEQ or NAME=SEQ; an unnamed one is 'pattern' (the only -p) or 'patternN' (the Nth -p)
  std::vector<std::string> inline_patterns;
  std::string fasta;                         // -f: FASTA/FASTQ file or "-" (stdin)
  std::string list;                          // -l: one pattern per line, file or "-"
};

// The columns of a `hits` table beyond the standard ones, by name.
struct ColumnChoice {
  bool region = true;                // match_region
  bool cigar = true;
  bool sam = false;                  // '-' rows in text direction
  std::vector<std::string> extra;    // pattern_start, pattern_end, pat_idx, text_idx, in order
};

// filter: the matching records themselves are written, not rows (the search runs as
// contains, or as hits where --tag needs the best hit).
struct RecordChoice {
  bool on = false;
  bool invert = false;    // the records without a hit go to the output
  bool tag = false;       // the best hit appended to each written matched header
  std::string unmatched;  // the other records' file ("" = not written)
  std::string format;     // fasta | fastq | "" (each record as read)
  // Paired input: which mates need a hit (any | both | first | second), and mate 2's files
  // ("" = mate 2 goes with mate 1, interleaved).
  std::string pair_match = "any";
  std::string output2, unmatched2;
  // BGZF level of .gz outputs: 0 (fastest) to 3 (smallest); 1 by default, since compressing
  // dominates a filter run's time and a higher level saves little on FASTQ.
  int compress_level = 1;
};

// demux: each record (or pair) to its lowest-cost pattern (the search runs as hits), and
// any of three outputs ("" = not written).
struct DemuxChoice {
  bool on = false;
  std::string assignments;  // one row per record: .tsv, .tsv.gz or .parquet (by name)
  std::string out_dir;      // the records themselves, a file per barcode
  std::string out_pattern = "{id}.fastq.gz";  // file names: {id}, and {mate} for paired input
  std::size_t max_open = 0;  // open files at most; 0 = from RLIMIT_NOFILE (FilePool)
  bool all_files = false;    // a file for every barcode, ambiguous and unassigned, even empty
  std::string report;        // one row per barcode: .tsv, .parquet or .json (by name)
  int min_margin = 1;        // the runner-up's cost must exceed the best's by this
  std::string barcode_mate = "either";  // paired input: 1, 2 or either
  int compress_level = 1;    // BGZF level of .gz record files, as filter's
};

struct RunOptions {
  ResultShape shape;  // command and its row shape
  PatternSources patterns;
  std::vector<std::string> inputs;  // FASTA/FASTQ files; empty or "-" = stdin
  // Paired-end input: two mate files read in lock-step (-1/-2, then no `inputs`), or mates
  // alternating in `inputs` (--interleaved). Rows then have a mate column.
  std::string mate1, mate2;
  bool interleaved = false;

  // What to search for. max_n_frac is taken from `search` only where max_n_frac_given;
  // otherwise the default of docs/semantics.md §8 applies. The selection comes from
  // all_ends and best.
  SearchOptions search;
  bool max_n_frac_given = false;
  bool all_ends = false;
  bool best = false;

  ColumnChoice columns;
  bool full_header = false;  // text_id is the whole header line
  bool lines = false;        // --lines: inputs are plain text, a record per line
  bool paired = false;       // pattern i only in record i
  std::optional<std::string> region;  // --region A:B as given (core/region.h); none = whole records
  std::optional<std::string> shard;   // --shard I/N as given (core/shard.h); none = every record

  RecordChoice records;              // filter
  DemuxChoice demux;                 // demux

  std::string output = "-";          // "-" or empty = stdout
  std::string json;                  // --json: the run summary's file ("" = none)
  std::string format;                // tsv | parquet | bed | paf | sam | "" (from the output name)
  std::string ref_lengths;           // SAM @SQ lengths: a .fai or NAME<TAB>LENGTH file ("" = none)
  std::string compression = "zstd";  // Parquet: zstd | snappy | none
  std::size_t row_group_rows = 1 << 20;

  int threads = 0;                // 0 = all cores
  std::string kernel = "auto";    // auto | scalar | avx2 | avx512
  std::string index = "auto";     // pattern index: auto (where it pays) | always (where it can) | never
  std::uint64_t batch_bases = 1 << 20;

  // Provenance written into Parquet metadata.
  std::string version;
  std::string command_line;
  // The environment as the front end sees it: Parquet is never written to a terminal.
  bool stdout_is_terminal = false;
};

// Whether the records are pairs of mates (records 2i and 2i + 1): -1/-2 or --interleaved.
inline bool paired_input(const RunOptions& options) { return !options.mate1.empty() || options.interleaved; }

// Every problem with `options`, one message each (no prefix), in a fixed order; empty when
// the run may start. Checks the options only: pattern letters, files and the CPU's kernels
// are checked when the run reaches them.
std::vector<std::string> validate(const RunOptions& options);

// The search options the run uses: the N filter default (0.2 for iupac, else off) and the
// selection filled in.
SearchOptions effective_search(const RunOptions& options);

// Worker threads: `threads`, or the CPUs the process may use (run/cpus.h) where 0.
int effective_threads(const RunOptions& options, int available_cpus);

// records: filter's FASTA/FASTQ (BGZF where the name ends in .gz). bed, paf, sam: hits only
// (sinks/interchange_sinks.h).
enum class OutputFormat : std::uint8_t { tsv, tsv_gz, parquet, records, bed, paf, sam };

// The -o extensions that pick a format without --format, for messages and help; a name
// without an extension is TSV, one with any other extension needs --format (validate()).
inline constexpr const char* kOutputExtensions = ".tsv, .tsv.gz, .parquet, .bed, .paf or .sam";

// --format, else the output name (.parquet, .bed, .paf, .sam, .gz), else TSV.
OutputFormat output_format(const RunOptions& options);

// Whether an output of this name is written compressed (gzip; BGZF for records).
bool gzip_name(std::string_view path);

}  // namespace trawl
