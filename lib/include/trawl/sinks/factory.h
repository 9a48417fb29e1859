#pragma once
// The sink factory: the one place that turns a run's command, output format and columns
// into a ResultSink. The format itself is decided by output_format() (core/run_options.h):
// --format, else the output name (.parquet, .gz), else TSV.
#include <memory>

#include "trawl/core/run_options.h"
#include "trawl/sinks/interchange_sinks.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

// The hits columns named by `choice` (names validate() accepted; others are ignored).
HitColumns hit_columns(const ColumnChoice& choice);

// Parquet settings of `options` (compression name validate() accepted, row group size,
// provenance for the file's metadata).
ParquetOptions parquet_options(const RunOptions& options);

// SAM header settings of `options`: the @SQ lengths of --ref-lengths, else of INPUT.fai beside
// a single input file, else gathered during the run; provenance for @PG. Reads the file.
SamOptions sam_options(const RunOptions& options);

// A sink writing `shape`'s rows for `patterns` into `out` as `format` (tsv_gz writes TSV:
// compressing is `out`'s business). `columns` matter to hits only (shape.mate adds its mate
// column), `parquet` to Parquet only, `sam` to SAM only. The sink keeps references to `out`
// and `patterns`.
std::unique_ptr<ResultSink> make_result_sink(OutputFormat format, ByteSink& out,
                                             const PatternSet& patterns,
                                             const AlphabetSpec& alphabet,
                                             const ResultShape& shape, const HitColumns& columns,
                                             const ParquetOptions& parquet, SamOptions sam = {});

}  // namespace trawl
