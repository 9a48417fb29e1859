#include "trawl/sinks/factory.h"

#include <filesystem>
#include <system_error>

#include "trawl/core/errors.h"

namespace trawl {

HitColumns hit_columns(const ColumnChoice& choice) {
  HitColumns columns;
  columns.region = choice.region;
  columns.cigar = choice.cigar;
  columns.sam = choice.sam;
  for (const std::string& name : choice.extra) {
    if (name == "pattern_start") columns.extra.push_back(ExtraColumn::pattern_start);
    if (name == "pattern_end") columns.extra.push_back(ExtraColumn::pattern_end);
    if (name == "pat_idx") columns.extra.push_back(ExtraColumn::pat_idx);
    if (name == "text_idx") columns.extra.push_back(ExtraColumn::text_idx);
  }
  return columns;
}

ParquetOptions parquet_options(const RunOptions& options) {
  ParquetOptions po;
  const std::optional<parquet::Compression> compression =
      parquet::parse_compression(options.compression);
  if (!compression) throw UsageError("--compression " + options.compression + ": unknown");
  po.compression = *compression;
  po.row_group_rows = options.row_group_rows;
  po.version = options.version;
  po.command_line = options.command_line;
  return po;
}

SamOptions sam_options(const RunOptions& options) {
  SamOptions so;
  so.version = options.version;
  so.command_line = options.command_line;
  std::string lengths = options.ref_lengths;
  std::error_code ec;
  if (lengths.empty() && options.inputs.size() == 1 && options.inputs[0] != "-" &&
      std::filesystem::is_regular_file(options.inputs[0] + ".fai", ec))
    lengths = options.inputs[0] + ".fai";
  if (!lengths.empty()) {
    so.refs = read_ref_lengths(lengths);
    so.collect = false;
  }
  return so;
}

std::unique_ptr<ResultSink> make_result_sink(OutputFormat format, ByteSink& out,
                                             const PatternSet& patterns,
                                             const AlphabetSpec& alphabet,
                                             const ResultShape& shape, const HitColumns& columns,
                                             const ParquetOptions& parquet, SamOptions sam) {
  HitColumns hit = columns;
  hit.mate = shape.mate;
  // (validate() allows BED, PAF and SAM for hits only.)
  if (format == OutputFormat::bed) return make_bed_sink(out, patterns, shape.mate);
  if (format == OutputFormat::paf) return make_paf_sink(out, patterns, shape.mate);
  if (format == OutputFormat::sam) return make_sam_sink(out, patterns, alphabet, shape.mate, std::move(sam));
  if (format == OutputFormat::parquet) {
    switch (shape.command) {
      case Command::hits: return make_parquet_hits_sink(out, patterns, alphabet, hit, parquet);
      case Command::count: return make_parquet_count_sink(out, patterns, shape, parquet);
      case Command::contains: return make_parquet_contains_sink(out, patterns, shape, parquet);
    }
  } else {
    switch (shape.command) {
      case Command::hits: return make_tsv_hits_sink(out, patterns, alphabet, hit);
      case Command::count: return make_tsv_count_sink(out, patterns, shape);
      case Command::contains: return make_tsv_contains_sink(out, patterns, shape);
    }
  }
  throw UsageError("unknown command");
}

}  // namespace trawl
