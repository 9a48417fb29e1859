#include "cli.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <charconv>
#include <iostream>
#include <string_view>

#include "trawl/core/ranges.h"

namespace trawl::app {
namespace {

// Flags and names as typed, turned into RunOptions after parsing.
struct Raw {
  std::string count_by = "pair";        // count --by pair|pattern
  std::string contains_by = "record";   // contains --by record|pair
  bool contains_by_pattern = false;     // contains --by-pattern: the old spelling of --by pair
  bool paired = false;                  // --paired: the old spelling of --pattern-per-record
  std::string alphabet = "iupac";
  bool no_rc = false;
  bool no_region = false;
  bool no_cigar = false;
  std::string region;                   // --region A:B, checked by validate()
  std::string shard;                    // --shard I/N, checked by validate()
};

// Examples per command; each runs as shown from the repository root on the bundled data/
// (tests/cli/help_examples.sh runs every one, so none can rot).
constexpr const char* kExamples = R"(
Examples (from the repository root, on the bundled data/):
  trawl hits -p TATCTATCTGGCATTCAACCAGG -k 3 data/reads.fastq.gz
  trawl count -l data/barcodes.txt -k 1 --by pattern data/reads.fastq.gz
  trawl contains -f data/primers.fa -k 2 data/reads.fastq.gz
  trawl filter -f data/primers.fa -k 2 -o with_primer.fastq.gz data/reads.fastq.gz
  trawl demux -l data/barcodes.txt -k 1 --out-dir demuxed --report report.tsv data/reads.fastq.gz
)";
constexpr const char* kHitsExamples = R"(
Examples (from the repository root, on the bundled data/):
  trawl hits -p TATCTATCTGGCATTCAACCAGG -k 3 data/reads.fastq.gz
  trawl hits -f data/primers.fa -k 2 --no-rc -o hits.tsv data/genome.fa
  zcat data/reads.fastq.gz | trawl hits -l data/barcodes.txt -k 2 --alphabet dna --best -
  trawl hits -p gattaca -k 0 --alphabet ascii -i --no-cigar data/genome.fa
  trawl hits -f data/primers.fa -k 2 --columns pat_idx,text_idx -o hits.parquet data/genome.fa
)";
constexpr const char* kCountExamples = R"(
Examples (from the repository root, on the bundled data/):
  trawl count -f data/primers.fa -k 2 data/genome.fa
  trawl count -l data/barcodes.txt -k 1 --by pattern data/reads.fastq.gz
  trawl count -p TATCTATCTGGCATTCAACCAGG -k 3 --zeros -o counts.parquet data/reads.fastq.gz
)";
constexpr const char* kFilterExamples = R"(
Examples (from the repository root, on the bundled data/):
  trawl filter -f data/primers.fa -k 2 -o with_primer.fastq.gz data/reads.fastq.gz
  trawl filter -f data/primers.fa -k 2 --invert --format fasta data/reads.fastq.gz
  trawl filter -p TATCTATCTGGCATTCAACCAGG -k 3 --tag --unmatched rest.fastq.gz -o kept.fastq data/reads.fastq.gz
)";
constexpr const char* kDemuxExamples = R"(
Each record goes to the barcode with the lowest cost over all its hits (both strands unless
--no-rc, within --region where given); two or more barcodes at that cost: 'ambiguous'
(never a guess; ties do not depend on the order of the barcode file); no hit <= k:
'unassigned'. --assignments columns: text_id assignment best_id cost strand start end
[mate] second_id second_cost ('*' where none; Parquet: -1); best_id and second_id are the
two lowest (cost, id) barcodes, so an ambiguous row names two of the tied.

Examples (from the repository root, on the bundled data/):
  trawl demux -l data/barcodes.txt -k 1 --region 1:40 --report report.tsv data/reads.fastq.gz
  trawl demux -l data/barcodes.txt -k 1 --out-dir demuxed --assignments assignments.tsv data/reads.fastq.gz
  trawl demux -l data/barcodes.txt -k 1 --min-margin 2 --report report.json --assignments assignments.parquet data/reads.fastq.gz
)";
constexpr const char* kContainsExamples = R"(
Examples (from the repository root, on the bundled data/):
  trawl contains -f data/primers.fa -k 2 data/reads.fastq.gz
  trawl contains -f data/primers.fa -k 3 --by pair -o contains.tsv.gz data/reads.fastq.gz
)";

// CLI11 reads a number too large for its field (or negative for an unsigned one) as "not
// a number"; this says it is out of range instead, in the words validate() uses for the rest.
template <typename T>
CLI::Validator fits(WholeRange range) {
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        const std::size_t sign = !text.empty() && text[0] == '-';
        if (text.size() == sign || text.find_first_not_of("0123456789", sign) != std::string::npos)
          return {};  // not a whole number: CLI11's conversion error says so
        T value{};
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && end == text.data() + text.size()) return {};
        return range_text(text, range);
      },
      "", "fits");
}

// Paired-end reads: rows then have a mate column (1 or 2) after text_id.
void add_mate_options(CLI::App& cmd, RunOptions& c) {
  cmd.add_option("-1,--mate1", c.mate1,
                 "Paired-end: mate 1 reads (FASTA/FASTQ, plain/gzip/BGZF), read in lock-step with -2; no other inputs");
  cmd.add_option("-2,--mate2", c.mate2, "Paired-end: mate 2 reads, in the order of -1's, names agreeing (up to /1 /2)");
  cmd.add_flag("--interleaved", c.interleaved,
               "Paired-end: the inputs hold mate 1 and mate 2 of each pair in turn");
}

void add_common_options(CLI::App& cmd, RunOptions& c, Raw& raw, CommandLine& line) {
  // allow_extra_args(false): each -p takes one value, so `-p SEQ file.fa` leaves the file.
  cmd.add_option("-p,--pattern", c.patterns.inline_patterns,
                 "Pattern, SEQ or NAME=SEQ (repeatable; unnamed: id 'pattern', or 'patternN' for the Nth -p)")
      ->allow_extra_args(false);
  cmd.add_option("-f,--pattern-fasta", c.patterns.fasta,
                 "FASTA/FASTQ file of patterns (or - for stdin; id = record name)");
  cmd.add_option("-l,--pattern-list", c.patterns.list,
                 "Text file (or - for stdin), one pattern per line (id = line number; empty lines skipped), or NAME<TAB>SEQ lines");
  cmd.add_option("-k", c.search.k, "Maximum edit distance (inclusive)")
      ->required()
      ->check(fits<int>(kKRange));
  cmd.add_option("-a,--alphabet", raw.alphabet, "iupac, dna or ascii")
      ->check(CLI::IsMember({"iupac", "dna", "ascii"}))
      ->capture_default_str();
  cmd.add_flag("-i,--ignore-case", c.search.alphabet.ignore_case,
               "Case-insensitive ascii search (iupac and dna always ignore case)");
  cmd.add_flag("--no-rc", raw.no_rc, "Search the forward strand only");
  cmd.add_option("--overhang", c.search.overhang,
                 "Let the pattern hang over a text end at this cost per character (0..1)");
  cmd.add_option("--max-n-frac", c.search.max_n_frac,
                 "Drop hits whose text region has a larger fraction of N "
                 "(default 0.2 for iupac, off otherwise; 1 = off)");
  cmd.add_flag("--all-ends", c.all_ends, "Report every end position with cost <= k");
  cmd.add_flag("--best", c.best,
               "Only the lowest-cost hit per (record, pattern, strand)");
  cmd.add_flag("--lines", c.lines,
               "Inputs are plain text (logs, CSV, ...): each line is a record, text_id its line number");
  cmd.add_flag("--full-header", c.full_header,
               "text_id is the whole header line, not the name up to the first space");
  cmd.add_flag("--pattern-per-record", c.paired,
               "Search pattern i only in record i (as many patterns as records)");
  cmd.add_flag("--paired", raw.paired, "Same as --pattern-per-record")->group("");
  cmd.add_option("--region", raw.region,
                 "Search only bases A to B of each record: 1-based, inclusive, as in seqkit; negative "
                 "counts from the end (1:35 the first 35, -35:-1 the last 35, 20:-1 from base 20 on); "
                 "several ranges joined by commas (1:150,-150:-1 both ends) are searched as separate parts "
                 "(joined where they overlap); positions stay those of the whole record")
      ->type_name("A:B[,C:D]")
      ->allow_extra_args(false);
  cmd.add_option("--shard", raw.shard,
                 "Only the I-th of N equal parts of the input's records (pairs), so N runs share one input; "
                 "their outputs concatenated in order 1..N are one whole run's (a first pass counts the records)")
      ->type_name("I/N");
  cmd.add_option("-t,--threads", c.threads, "Worker threads (default: the CPUs this process may use: affinity mask and cgroup quota)")
      ->check(fits<int>(kThreadsRange));
  cmd.add_option("--kernel", c.kernel,
                 "auto (fastest this CPU runs), scalar, avx2 or avx512")
      ->check(CLI::IsMember({"auto", "scalar", "avx2", "avx512"}))
      ->capture_default_str();
  cmd.add_option("--index", c.index,
                 "Pattern index (same results): auto (for DNA panels where it pays), always (wherever it can "
                 "answer: dna/iupac, patterns of A/C/G/T, k + 1 pieces of 6+ bases, no overhang) or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd.add_option("--batch-bases", c.batch_bases, "Residues per work task at most (hits takes fewer where hits are dense)")
      ->check(fits<std::uint64_t>(kBatchBasesRange))
      ->capture_default_str();
  cmd.add_flag("-q,--quiet", line.quiet, "Log errors only");
  cmd.add_flag("-v,--verbose", line.verbose, "Also log the kernel and why, the search plan, batch size, per-input counts and stage times");
  cmd.add_option("inputs", c.inputs, "FASTA/FASTQ files, plain/gzip/BGZF ('-' or none = stdin)");
  cmd.add_option("--json", c.json,
                 "Also write a run summary as JSON (inputs, records, hits, per-pattern totals, seconds, "
                 "threads, kernel); a name SAMPLE_mqc.json is picked up by MultiQC as a table row SAMPLE")
      ->type_name("FILE");
  add_mate_options(cmd, c);
}

// The outputs of the commands that write rows (hits, count, contains).
void add_table_options(CLI::App& cmd, RunOptions& c) {
  cmd.add_option("-o,--output", c.output,
                 std::string("Output file ('-' = stdout); its extension picks the format: ") +
                     kOutputExtensions + " (no extension: tsv; any other needs --format)")
      ->capture_default_str();
  cmd.add_option("--format", c.format,
                 "tsv or parquet; hits also bed, paf or sam (default: from the -o extension; stdout: tsv)")
      ->check(CLI::IsMember({"tsv", "parquet", "bed", "paf", "sam"}));
  cmd.add_option("--compression", c.compression, "Parquet compression: zstd, snappy or none")
      ->check(CLI::IsMember({"zstd", "snappy", "none"}))
      ->capture_default_str();
  cmd.add_option("--row-group-rows", c.row_group_rows, "Parquet rows per row group")
      ->check(fits<std::size_t>(kRowGroupRowsRange))
      ->capture_default_str();
}

// filter's outputs: records, not rows.
void add_record_options(CLI::App& cmd, RunOptions& c) {
  cmd.add_option("-o,--output", c.output,
                 "Output file of the matched records ('-' = stdout); a name ending in .gz is "
                 "written BGZF-compressed (gzip-readable)")
      ->capture_default_str();
  cmd.add_option("--unmatched", c.records.unmatched,
                 "Also write the records without a hit to this file (.gz: BGZF), in the same pass");
  cmd.add_flag("--invert", c.records.invert,
               "Write the records without a hit to -o (and those with one to --unmatched)");
  cmd.add_option("--format", c.records.format,
                 "fasta or fastq (default: each record as read; FASTQ can become FASTA, not the reverse)")
      ->check(CLI::IsMember({"fasta", "fastq"}));
  cmd.add_option("--pair-match", c.records.pair_match,
                 "Paired input: a pair matches when any (default), both, the first or the second "
                 "mate has a hit; both mates go to the same side")
      ->check(CLI::IsMember({"any", "both", "first", "second"}));
  cmd.add_option("--output2", c.records.output2,
                 "Paired input: mate 2's file (mate 1's is -o); without it the mates go to -o interleaved");
  cmd.add_option("--unmatched2", c.records.unmatched2, "Paired input with --output2: mate 2's --unmatched file");
  cmd.add_option("--compress-level", c.records.compress_level,
                 "BGZF level of .gz outputs, 0 (fastest) to 3 (smallest)")
      ->check(fits<int>(kCompressLevelRange))
      ->capture_default_str();
  cmd.add_flag("--tag", c.records.tag,
               "Append ' trawl:pat=ID,cost=C,strand=S,start=X,end=Y' (the record's best hit) to "
               "each matched record's header");
}

// demux's outputs: a table of assignments, the records by barcode, a per-barcode report.
void add_demux_options(CLI::App& cmd, RunOptions& c) {
  DemuxChoice& d = c.demux;
  cmd.add_option("--assignments", d.assignments,
                 "One row per record (pair), in input order: .tsv, .tsv.gz or .parquet (by name)");
  cmd.add_option("--out-dir", d.out_dir,
                 "Write each record as read to the file of its barcode (and ambiguous, unassigned) in "
                 "this folder (made if missing); files appear only when the run succeeds");
  cmd.add_option("--out-pattern", d.out_pattern,
                 "File names in --out-dir: {id} is the barcode id (or ambiguous, unassigned), {mate} "
                 "1 or 2 for paired input (without it the mates go interleaved); .gz: BGZF")
      ->capture_default_str();
  cmd.add_option("--max-open", d.max_open,
                 "Files open at once at most (others are closed and reopened to append; default: half "
                 "the open-file limit, ulimit -n, at most 4096)")
      ->check(fits<std::size_t>(kMaxOpenRange))
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  cmd.add_flag("--all-files", d.all_files, "Also write empty files for barcodes without records");
  cmd.add_option("--report", d.report,
                 "One row per barcode (zeros too), then ambiguous and unassigned: reads, fraction and "
                 "the histogram of costs 0..k: .tsv, .json or .parquet (no fraction column), by name");
  cmd.add_option("--min-margin", d.min_margin,
                 "The runner-up barcode's cost must exceed the best's by at least this, else ambiguous")
      ->check(fits<int>(kMinMarginRange))
      ->capture_default_str();
  cmd.add_option("--barcode-mate", d.barcode_mate,
                 "Paired input: the mate that carries the barcode: 1, 2 or either (each barcode's "
                 "lowest cost over both); both mates follow the assignment")
      ->check(CLI::IsMember({"1", "2", "either"}))
      ->capture_default_str();
  cmd.add_option("--compress-level", d.compress_level, "BGZF level of .gz record files, 0 (fastest) to 3 (smallest)")
      ->check(fits<int>(kCompressLevelRange))
      ->capture_default_str();
  cmd.add_option("--compression", c.compression, "Parquet compression: zstd, snappy or none")
      ->check(CLI::IsMember({"zstd", "snappy", "none"}))
      ->capture_default_str();
}

}  // namespace

std::optional<int> parse_command_line(int argc, char** argv, CommandLine& line) {
  RunOptions& c = line.options;
  Raw raw;
  CLI::App app{"trawl: find every approximate occurrence (up to k edits) of short patterns in "
               "FASTA/FASTQ records"};
  app.set_version_flag("--version", TRAWL_VERSION, "Print the version and exit");
  app.require_subcommand(1);
  app.footer(kExamples);

  CLI::App* hits = app.add_subcommand("hits", "One row per hit");
  add_common_options(*hits, c, raw, line);
  add_table_options(*hits, c);
  hits->add_option("--ref-lengths", c.ref_lengths,
                   "SAM @SQ lengths: a .fai or NAME<TAB>LENGTH file (default: INPUT.fai beside a single "
                   "input, else the records with hits)");
  hits->add_flag("--sam", c.columns.sam, "'-' rows: match_region and cigar in text direction");
  hits->add_flag("--no-region", raw.no_region, "Drop the match_region column");
  hits->add_flag("--no-cigar", raw.no_cigar, "Drop the cigar column");
  hits->add_option("--columns", c.columns.extra,
                   "Extra columns: pattern_start, pattern_end, pat_idx, text_idx")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"pattern_start", "pattern_end", "pat_idx", "text_idx"}));
  hits->footer(kHitsExamples);

  CLI::App* count = app.add_subcommand(
      "count", "One row per (pattern, record) with hits: the number of rows `hits` would print");
  add_common_options(*count, c, raw, line);
  add_table_options(*count, c);
  count->add_flag("--zeros", c.shape.zeros, "Also print pairs with 0 hits");
  count->add_option("--by", raw.count_by,
                    "pair (default): per (pattern, record); pattern: one row per pattern "
                    "with its hit count and number of records hit")
      ->check(CLI::IsMember({"pair", "pattern"}));
  count->footer(kCountExamples);

  CLI::App* contains = app.add_subcommand(
      "contains", "One row per record: whether any pattern hits it");
  add_common_options(*contains, c, raw, line);
  add_table_options(*contains, c);
  contains->add_option("--by", raw.contains_by,
                           "record (default): one row per record; pair: one row per "
                           "(pattern, record) for every pair")
          ->check(CLI::IsMember({"record", "pair"}));
  // The old spelling, kept working but out of the help: one --by for count and contains.
  contains->add_flag("--by-pattern", raw.contains_by_pattern, "Same as --by pair")->group("");
  contains->footer(kContainsExamples);

  CLI::App* filter = app.add_subcommand(
      "filter", "The records that any pattern hits, themselves: as read (a FASTA sequence on one line), in input order");
  add_common_options(*filter, c, raw, line);
  add_record_options(*filter, c);
  filter->footer(kFilterExamples);

  CLI::App* demux = app.add_subcommand(
      "demux", "Each record (pair) to its best barcode: lowest cost wins, ties are 'ambiguous', none 'unassigned'");
  add_common_options(*demux, c, raw, line);
  add_demux_options(*demux, c);
  demux->footer(kDemuxExamples);

  for (int i = 0; i < argc; ++i) {
    if (i) c.command_line += ' ';
    c.command_line += argv[i];
  }
  // CLI11 takes an unknown first word for a stray argument and says only that a command
  // is required.
  const std::string first = argc > 1 ? argv[1] : "";
  if (!first.empty() && first[0] != '-' && !hits->check_name(first) &&
      !count->check_name(first) && !contains->check_name(first) && !filter->check_name(first) && !demux->check_name(first)) {
    std::cerr << "[trawl] error: unknown command '" << first
              << "'; the commands are hits, count, contains, filter and demux\nRun with --help for usage.\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    std::cout << TRAWL_VERSION << '\n';
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "[trawl] error: " << e.what() << "\nRun with --help for usage.\n";
    return 2;
  }

  CLI::App* chosen = hits->parsed()       ? hits
                     : count->parsed()    ? count
                     : contains->parsed() ? contains
                     : filter->parsed()   ? filter
                                          : demux;
  // filter searches as contains, or as hits where --tag needs the best hit; demux as hits.
  c.records.on = filter->parsed();
  c.demux.on = demux->parsed();
  c.shape.command = hits->parsed() || c.demux.on || (c.records.on && c.records.tag) ? Command::hits
                    : count->parsed()                                 ? Command::count
                                                                      : Command::contains;
  c.shape.per_pattern_totals = raw.count_by == "pattern";
  if (raw.contains_by_pattern && raw.contains_by == "record" && contains->count("--by")) {
    std::cerr << "[trawl] error: --by-pattern is --by pair: give one --by\nRun with --help for usage.\n";
    return 2;
  }
  c.shape.per_pair = raw.contains_by == "pair" || raw.contains_by_pattern;
  if (raw.paired) {
    // Paired-end reads will be -1/-2; this option never meant them.
    c.paired = true;
    line.warnings.push_back("--paired is now --pattern-per-record (pattern i in record i); the old name will go");
  }
  c.max_n_frac_given = chosen->count("--max-n-frac") > 0;
  if (chosen->count("--region") > 0) c.region = raw.region;
  if (chosen->count("--shard") > 0) c.shard = raw.shard;
  c.search.alphabet.alphabet = *parse_alphabet(raw.alphabet);
  c.search.both_strands = !raw.no_rc;
  c.columns.region = !raw.no_region;
  c.columns.cigar = !raw.no_cigar;
  c.version = TRAWL_VERSION;
  c.stdout_is_terminal = ::isatty(STDOUT_FILENO) != 0;
  return std::nullopt;
}

}  // namespace trawl::app
