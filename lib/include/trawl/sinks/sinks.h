#pragma once
// Result sinks: writers of the rows of trawl/sinks/rows.h, as TSV or Parquet. format() runs
// on worker threads, concurrently for different batches; write() and close() run on one
// thread, in input order.
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "trawl/io/byte_sink.h"
#include "trawl/sinks/parquet_writer.h"
#include "trawl/sinks/rows.h"
#include "trawl/core/pattern_set.h"
#include "trawl/io/record_batch.h"
#include "trawl/core/results.h"
#include "trawl/core/uninitialized_vector.h"

namespace trawl {

// A batch's formatted output. Uninitialized growth: a sink reserves room for a group of rows
// at their largest and writes fewer bytes, and zeroing that room first (std::string) was a
// memset over several times the bytes written, and the first touch of pages never used.
using FormattedBytes = UninitializedVector<char>;

// What ResultSink::format makes of a batch on a worker thread, for write() to pass on in
// order: TSV text (`bytes`), or Parquet rows in columns (`rows`).
struct FormattedBatch {
  FormattedBytes bytes;
  parquet::RowBatch rows;
  // filter's other outputs: the other side's records, then mate 2's of both sides.
  std::array<FormattedBytes, 3> more;
  FormattedBytes scratch;  // the sink's own, e.g. the text before it is compressed
  std::uint64_t matched = 0;  // filter: the batch's records on the matched side
  // demux: the pieces of `bytes`, in order, as (file, length), and each record's (or pair's)
  // outcome as (destination, cost) for the report.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> routes;
  std::vector<std::pair<std::uint32_t, std::int32_t>> outcomes;
  void clear() {
    bytes.clear();
    rows.clear();
    for (FormattedBytes& m : more) m.clear();
    matched = 0;
    routes.clear();
    outcomes.clear();
  }
};

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  // Thread safe: encodes one batch's results into `out` (cleared by the caller).
  virtual void format(const RecordBatch& batch, const BatchResults& results,
                      FormattedBatch& out) const = 0;
  // Serial, in input order.
  virtual void write(const RecordBatch& batch, const BatchResults& results,
                     const FormattedBatch& formatted) = 0;
  // After the last batch: flush everything (not the commit/rename of the file).
  virtual void close() = 0;
};

// HitColumns and ExtraColumn (the user's choice of `hits` columns) are in rows.h.

// `hits` TSV with the Sassy header: pat_id text_id cost strand start end match_region cigar
// (with columns.mate a mate column after text_id).
std::unique_ptr<ResultSink> make_tsv_hits_sink(ByteSink& out, const PatternSet& patterns,
                                               const AlphabetSpec& alphabet, HitColumns columns);

// `count` TSV: `pat_id text_id count` per pair, or with shape.per_pattern_totals
// `pat_id count records` per pattern (written at close).
std::unique_ptr<ResultSink> make_tsv_count_sink(ByteSink& out, const PatternSet& patterns,
                                                const ResultShape& shape);
// `contains` TSV: `text_id contains` per record, or with shape.per_pair
// `pat_id text_id contains` per (pattern, record).
std::unique_ptr<ResultSink> make_tsv_contains_sink(ByteSink& out, const PatternSet& patterns,
                                                   const ResultShape& shape);

struct ParquetOptions {
  parquet::Compression compression = parquet::Compression::zstd;
  std::size_t row_group_rows = 1 << 20;
  std::string version;       // written as created_by and key/value metadata
  std::string command_line;  // written as key/value metadata
};

// The same rows and columns as the TSV sinks, as Parquet (INT64 positions and indexes,
// INT32 cost and count, UTF8 strings, BOOLEAN contains). close() writes the footer.
std::unique_ptr<ResultSink> make_parquet_hits_sink(ByteSink& out, const PatternSet& patterns,
                                                   const AlphabetSpec& alphabet, HitColumns columns,
                                                   const ParquetOptions& options);
std::unique_ptr<ResultSink> make_parquet_count_sink(ByteSink& out, const PatternSet& patterns,
                                                    const ResultShape& shape,
                                                    const ParquetOptions& options);
std::unique_ptr<ResultSink> make_parquet_contains_sink(ByteSink& out, const PatternSet& patterns,
                                                       const ResultShape& shape,
                                                       const ParquetOptions& options);

}  // namespace trawl
