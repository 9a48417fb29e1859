#include "trawl/core/run_options.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <initializer_list>
#include <string_view>

#include "trawl/core/ranges.h"
#include "trawl/core/region.h"
#include "trawl/core/shard.h"

namespace trawl {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool one_of_inputs(const std::vector<std::string>& inputs, std::string_view name) {
  return std::find(inputs.begin(), inputs.end(), name) != inputs.end();
}

bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void check_patterns(const RunOptions& o, std::vector<std::string>& problems) {
  const PatternSources& p = o.patterns;
  if (p.inline_patterns.empty() && p.fasta.empty() && p.list.empty())
    problems.emplace_back("no patterns: give -p SEQ, -f FILE or -l FILE");
  // Stdin ('-') can be read once: by one pattern file, or by the records.
  const bool fasta_stdin = p.fasta == "-", list_stdin = p.list == "-";
  if (fasta_stdin && list_stdin) problems.emplace_back("-f and -l cannot both read stdin");
  const bool records_stdin = o.mate1.empty() && o.mate2.empty()
                                 ? o.inputs.empty() || std::find(o.inputs.begin(), o.inputs.end(), "-") != o.inputs.end()
                                 : o.mate1 == "-" || o.mate2 == "-";
  if ((fasta_stdin || list_stdin) && records_stdin)
    problems.emplace_back("patterns and records cannot both come from stdin: give the input files");
}

// Names the command line already restricts; checked again for other front ends.
void check_names(const RunOptions& o, std::vector<std::string>& problems) {
  if (!o.records.on && !one_of(o.format, {"", "tsv", "parquet", "bed", "paf", "sam"}))
    problems.emplace_back("--format " + o.format + ": give tsv, parquet, bed, paf or sam");
  if (o.records.on && !one_of(o.records.format, {"", "fasta", "fastq"}))
    problems.emplace_back("--format " + o.records.format + ": give fasta or fastq");
  if (!one_of(o.compression, {"zstd", "snappy", "none"}))
    problems.emplace_back("--compression " + o.compression + ": give zstd, snappy or none");
  if (!one_of(o.kernel, {"auto", "scalar", "avx2", "avx512"}))
    problems.emplace_back("--kernel " + o.kernel + ": give auto, scalar, avx2 or avx512");
  if (!one_of(o.index, {"auto", "always", "never"}))
    problems.emplace_back("--index " + o.index + ": give auto, always or never");
  for (const std::string& name : o.columns.extra)
    if (!one_of(name, {"pattern_start", "pattern_end", "pat_idx", "text_idx"}))
      problems.emplace_back("--columns " + name +
                            ": give pattern_start, pattern_end, pat_idx or text_idx");
  if (o.threads < 0) problems.push_back(out_of_range("--threads", std::to_string(o.threads), kThreadsRange));
  if (o.batch_bases == 0 || o.batch_bases > kBatchBasesRange.max)
    problems.push_back(out_of_range("--batch-bases", std::to_string(o.batch_bases), kBatchBasesRange));
  if (o.row_group_rows == 0)
    problems.push_back(out_of_range("--row-group-rows", "0", kRowGroupRowsRange));
}

// The extension of an -o name: from the last '.' of its last path part ("" where none, or
// where the part starts with its only '.'), with the one before it where the last is .gz.
std::string_view extension_of(std::string_view path) {
  const std::string_view name = path.substr(path.find_last_of('/') + 1);
  std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  if (name.substr(dot) == ".gz") {
    const std::size_t before = name.rfind('.', dot - 1);
    if (before != std::string_view::npos && before > 0) dot = before;
  }
  return name.substr(dot);
}

// An -o name picks the format only by an extension trawl writes; any other (x.csv, x.bam)
// needs --format, so that it never silently gets TSV.
void check_output_name(const RunOptions& o, std::vector<std::string>& problems) {
  if (!o.format.empty() || o.records.on || o.demux.on) return;
  const std::string_view extension = extension_of(o.output);
  if (extension.empty() || one_of(extension, {".tsv", ".tsv.gz", ".parquet", ".bed", ".paf", ".sam"})) return;
  problems.push_back("-o " + o.output + ": trawl does not write " + std::string(extension) +
                     " files; name it " + std::string(kOutputExtensions) +
                     ", or give --format");
}

// BED, PAF and SAM lines are hits; --ref-lengths is SAM's.
void check_interchange(const RunOptions& o, std::vector<std::string>& problems) {
  const OutputFormat f = output_format(o);
  const bool interchange = f == OutputFormat::bed || f == OutputFormat::paf || f == OutputFormat::sam;
  if (interchange && (o.records.on || o.shape.command != Command::hits)) {
    const char* name = f == OutputFormat::bed ? "bed" : f == OutputFormat::paf ? "paf" : "sam";
    problems.push_back(std::string("--format ") + name + " (or -o FILE." + name +
                       "): only hits writes it (its lines are hits); give tsv or parquet");
  }
  if (!o.ref_lengths.empty() && f != OutputFormat::sam)
    problems.emplace_back("--ref-lengths is for SAM output: give --format sam or -o FILE.sam");
  // (They are written uncompressed: a .gz name would lie about the file.)
  if (interchange && gzip_name(o.output))
    problems.push_back("-o " + o.output + ": BED, PAF and SAM are written uncompressed; drop the .gz (or pipe - into bgzip)");
}

bool is_stdout(const std::string& path) { return path.empty() || path == "-"; }

// Whether two paths name the same place: both stdout, or one file however spelled.
bool same_place(const std::string& a, const std::string& b) {
  if (is_stdout(a) || is_stdout(b)) return is_stdout(a) && is_stdout(b);
  if (a == b) return true;
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
  const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
  return !ea && !eb && ca == cb;
}

// filter's outputs: two different places, records in a form they can take.
void check_records(const RunOptions& o, std::vector<std::string>& problems) {
  const RecordChoice& r = o.records;
  if (!r.on) return;
  const std::pair<const char*, const std::string*> outputs[] = {
      {"-o", &o.output}, {"--unmatched", &r.unmatched}, {"--output2", &r.output2}, {"--unmatched2", &r.unmatched2}};
  for (std::size_t i = 1; i < 4; ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[i].second->empty() && !(j > 0 && outputs[j].second->empty()) &&
          same_place(*outputs[i].second, *outputs[j].second))
        problems.push_back(std::string(outputs[i].first) + " " + *outputs[i].second + ": the same place as " +
                           outputs[j].first + "; give another file");
  if (!paired_input(o) && (!r.output2.empty() || !r.unmatched2.empty() || r.pair_match != "any"))
    problems.emplace_back("--output2, --unmatched2 and --pair-match need paired input (-1/-2 or --interleaved)");
  if (!r.unmatched2.empty() && (r.output2.empty() || r.unmatched.empty()))
    problems.emplace_back("--unmatched2 needs --output2 and --unmatched");
  if (!r.output2.empty() && !r.unmatched.empty() && r.unmatched2.empty())
    problems.emplace_back("with --output2, --unmatched needs --unmatched2 for the mates 2");
  if (r.compress_level < kCompressLevelRange.min || static_cast<std::uint64_t>(r.compress_level) > kCompressLevelRange.max)
    problems.push_back(out_of_range("--compress-level", std::to_string(r.compress_level), kCompressLevelRange));
  if (!one_of(r.pair_match, {"any", "both", "first", "second"}))
    problems.emplace_back("--pair-match " + r.pair_match + ": give any, both, first or second");
  if (o.lines && !r.format.empty())
    problems.emplace_back("--format " + r.format + " with --lines: lines are written as read");
  if (o.lines && r.tag) problems.emplace_back("--tag with --lines: a line has no header to tag");
  if (r.compress_level != 1 && !gzip_name(o.output) && !gzip_name(r.unmatched) && !gzip_name(r.output2) &&
      !gzip_name(r.unmatched2))
    problems.push_back("--compress-level " + std::to_string(r.compress_level) +
                       ": no output is compressed (name one FILE.gz)");
  // Options that shape rows, not records, would be silently ignored.
  const std::pair<const char*, bool> row_options[] = {
      {"--all-ends", o.all_ends}, {"--best", o.best}, {"--full-header", o.full_header}, {"--pattern-per-record", o.paired}};
  for (const auto& [name, given] : row_options)
    if (given) problems.push_back(std::string(name) + " does not apply to filter: it writes whole records, not rows");
  if (o.shape.command != (r.tag ? Command::hits : Command::contains) || o.shape.per_pair)
    problems.emplace_back("filter searches as contains (hits with --tag)");
}

// --json: a file of its own, beside the outputs.
void check_json(const RunOptions& o, std::vector<std::string>& problems) {
  if (o.json.empty()) return;
  if (is_stdout(o.json)) {
    problems.emplace_back("--json -: give a file name (stdout carries the results)");
    return;
  }
  for (const std::string* other : {&o.output, &o.records.unmatched, &o.records.output2, &o.records.unmatched2})
    if (!other->empty() && !is_stdout(*other) && same_place(o.json, *other))
      problems.push_back("--json " + o.json + ": the same file as an output; give another file");
}

// --shard: counts the input's records first, then reads them again, so never stdin.
void check_shard(const RunOptions& o, std::vector<std::string>& problems) {
  if (!o.shard) return;
  if (std::string problem = Shard::problem(*o.shard); !problem.empty()) problems.push_back(std::move(problem));
  const bool stdin_input = o.mate1.empty() ? o.inputs.empty() || one_of_inputs(o.inputs, "-") : o.mate1 == "-" || o.mate2 == "-";
  if (stdin_input) problems.emplace_back("--shard needs input files: stdin cannot be read twice");
  if (o.paired) problems.emplace_back("--shard and --pattern-per-record cannot be combined");
}

// demux's outputs: names whose format trawl knows, a file pattern that names each barcode.
void check_demux(const RunOptions& o, std::vector<std::string>& problems) {
  const DemuxChoice& d = o.demux;
  if (!d.on) return;
  if (o.shape.command != Command::hits) problems.emplace_back("demux searches as hits");
  if (o.paired) problems.emplace_back("demux and --pattern-per-record cannot be combined");
  const std::string_view table = extension_of(d.assignments);
  if (!d.assignments.empty() && !one_of(table, {"", ".tsv", ".tsv.gz", ".parquet"}))
    problems.push_back("--assignments " + d.assignments + ": name it .tsv, .tsv.gz or .parquet");
  if (!d.report.empty() && !is_stdout(d.report) && !one_of(extension_of(d.report), {".tsv", ".parquet", ".json"}))
    problems.push_back("--report " + d.report + ": name it .tsv, .parquet or .json");
  if (d.out_pattern.find("{id}") == std::string::npos)
    problems.push_back("--out-pattern " + d.out_pattern + ": it needs {id} (the barcode id)");
  if (d.out_pattern.find('/') != std::string::npos)
    problems.push_back("--out-pattern " + d.out_pattern + ": a file name, without '/' (the folder is --out-dir)");
  const bool mate_field = d.out_pattern.find("{mate}") != std::string::npos;
  if (mate_field && !paired_input(o))
    problems.push_back("--out-pattern " + d.out_pattern + ": {mate} needs paired input (-1/-2 or --interleaved)");
  if (!one_of(d.barcode_mate, {"1", "2", "either"}))
    problems.push_back("--barcode-mate " + d.barcode_mate + ": give 1, 2 or either");
  else if (d.barcode_mate != "either" && !paired_input(o))
    problems.emplace_back("--barcode-mate needs paired input (-1/-2 or --interleaved)");
  if (d.min_margin < 1) problems.push_back(out_of_range("--min-margin", std::to_string(d.min_margin), kMinMarginRange));
  if (d.compress_level < kCompressLevelRange.min || static_cast<std::uint64_t>(d.compress_level) > kCompressLevelRange.max)
    problems.push_back(out_of_range("--compress-level", std::to_string(d.compress_level), kCompressLevelRange));
  if (!d.assignments.empty() && !d.report.empty() && same_place(d.assignments, d.report))
    problems.push_back("--report " + d.report + ": the same place as --assignments; give another file");
}

// Paired-end input: two mate files in place of the inputs, or --interleaved inputs; neither
// with a mode whose records are not reads (--lines) or are matched to patterns one by one.
void check_mates(const RunOptions& o, std::vector<std::string>& problems) {
  const bool files = !o.mate1.empty() || !o.mate2.empty();
  if (files && (o.mate1.empty() || o.mate2.empty()))
    problems.emplace_back(o.mate1.empty() ? "-2 needs -1: give both mate files" : "-1 needs -2: give both mate files");
  if (files && !o.inputs.empty())
    problems.emplace_back("-1/-2 take the place of the inputs: give no other input files");
  if (o.mate1 == "-" && o.mate2 == "-") problems.emplace_back("-1 and -2 cannot both read stdin");
  else if (!o.mate1.empty() && !o.mate2.empty() && same_place(o.mate1, o.mate2))
    problems.emplace_back("-1 and -2 name the same file: give the two mate files");
  if (files && o.interleaved) problems.emplace_back("--interleaved and -1/-2 cannot be combined");
  const char* paired = files ? "-1/-2" : o.interleaved ? "--interleaved" : nullptr;
  if (paired && o.lines) problems.push_back(std::string(paired) + " and --lines cannot be combined");
  if (paired && o.paired) problems.push_back(std::string(paired) + " and --pattern-per-record cannot be combined");
}

}  // namespace

std::vector<std::string> validate(const RunOptions& o) {
  std::vector<std::string> problems;
  if (o.shape.per_pattern_totals && o.shape.zeros)
    problems.emplace_back("--zeros and --by pattern cannot be combined");
  if (o.all_ends && o.best) problems.emplace_back("--all-ends and --best cannot be combined");
  for (std::string& problem : validate_all(effective_search(o)))
    problems.push_back(std::move(problem));
  check_patterns(o, problems);
  check_mates(o, problems);
  check_names(o, problems);
  check_output_name(o, problems);
  check_interchange(o, problems);
  check_records(o, problems);
  check_json(o, problems);
  check_demux(o, problems);
  if (o.region) {
    if (std::string problem = Region::problem(*o.region); !problem.empty()) problems.push_back(std::move(problem));
    else if (o.paired && o.region->find(',') != std::string::npos)
      problems.emplace_back("--region with several ranges cannot go with --pattern-per-record (give one range)");
  }
  check_shard(o, problems);
  const bool to_stdout = is_stdout(o.output);
  if (output_format(o) == OutputFormat::parquet && to_stdout && o.stdout_is_terminal)
    problems.emplace_back("refusing to write Parquet to a terminal: use -o FILE.parquet or a pipe");
  return problems;
}

SearchOptions effective_search(const RunOptions& o) {
  SearchOptions s = o.search;
  // docs/semantics.md §8: the N filter defaults to 0.2 for iupac, off for the others.
  if (!o.max_n_frac_given) s.max_n_frac = s.alphabet.alphabet == Alphabet::iupac ? 0.2f : 1.0f;
  s.selection = o.best       ? Selection::best
                : o.all_ends ? Selection::all_ends
                             : Selection::local_minima;
  return s;
}

int effective_threads(const RunOptions& o, int available_cpus) {
  return o.threads > 0 ? o.threads : std::max(1, available_cpus);
}

OutputFormat output_format(const RunOptions& o) {
  if (o.records.on) return OutputFormat::records;
  for (const auto& [name, format] : {std::pair{"bed", OutputFormat::bed}, std::pair{"paf", OutputFormat::paf},
                                     std::pair{"sam", OutputFormat::sam}})
    if (o.format == name || (o.format.empty() && ends_with(o.output, std::string(".") + name))) return format;
  if (o.format == "parquet" || (o.format.empty() && ends_with(o.output, ".parquet")))
    return OutputFormat::parquet;
  return gzip_name(o.output) ? OutputFormat::tsv_gz : OutputFormat::tsv;
}

bool gzip_name(std::string_view path) { return ends_with(path, ".gz"); }

}  // namespace trawl
