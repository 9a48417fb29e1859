#pragma once
// The demux command's sink: each record (or pair of mates) assigned to the pattern with the
// lowest cost among its hits, `ambiguous` where two or more patterns share that cost (or the
// runner-up is closer than --min-margin), `unassigned` where none hits. Ties are broken by
// pattern id, never by input order, so the result does not depend on the order of the
// barcode file. format() runs on worker threads (assigns, formats the table rows, groups
// the records by file and BGZF-compresses them); write() and close() in input order.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/core/pattern_set.h"
#include "trawl/io/byte_sink.h"
#include "trawl/io/file_pool.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

// Which mate of a pair carries the barcode: mate 1, mate 2, or either (each pattern's
// lowest cost over both).
enum class BarcodeMate : std::uint8_t { first, second, either };

// A hit a demux assignment weighs, with its mate (1 or 2; 0 for unpaired records).
struct DemuxCandidate {
  Hit hit;
  std::uint8_t mate;
};

// One record's (or pair's) verdict.
struct Assignment {
  static constexpr std::uint32_t kNone = UINT32_MAX;
  enum class Kind : std::uint8_t { barcode, ambiguous, unassigned };
  Kind kind = Kind::unassigned;
  // The lowest-cost pattern (among equals the lowest id rank) and the runner-up (the next
  // by cost, then id rank): kNone and -1 where there is none.
  std::uint32_t best = kNone, second = kNone;
  std::int32_t cost = -1, second_cost = -1;
  DemuxCandidate hit{};  // best's own best hit: lowest cost, then mate 1, then output order
};

// The assignment of one record's candidates (any order; a pattern may occur several times:
// its lowest cost counts). `rank[p]` is pattern p's place in the order of ids (id_ranks).
// `min_margin` >= 1: the runner-up's cost must exceed the best's by at least this.
// Reorders `candidates`. Allocates nothing.
Assignment assign(std::span<DemuxCandidate> candidates, std::span<const std::uint32_t> rank, int min_margin);

// Each pattern's place in the byte order of the pattern ids.
std::vector<std::uint32_t> id_ranks(const PatternSet& patterns);

// Throws UsageError where two patterns share an id or an id is `ambiguous` or `unassigned`
// (the names of demux's own outcomes).
void check_demux_ids(const PatternSet& patterns);

// The names of demux's files: `out_pattern` with {id} replaced by each pattern id, then
// `ambiguous`, then `unassigned`, and with `split_mates` {mate} by 1 and 2 (file 2d + m - 1
// for destination d, mate m). Throws UsageError for an id that is not a plain file name
// (contains '/' or a NUL, or is '.' or '..').
std::vector<std::string> demux_file_names(const PatternSet& patterns, std::string_view out_pattern, bool split_mates);

enum class ReportFormat : std::uint8_t { tsv, parquet, json };

struct DemuxSinkOptions {
  int k = 0;
  int min_margin = 1;
  bool paired = false;  // records 2i and 2i + 1 are mates
  BarcodeMate mate = BarcodeMate::either;
  // --assignments: one row per record (pair) in input order; null: not written.
  ByteSink* assignments = nullptr;
  bool assignments_parquet = false;
  ParquetOptions parquet;
  // --out-dir: the records by destination; null: not written. `files` has
  // demux_file_names' files.
  FilePool* files = nullptr;
  bool split_mates = false;  // mate 2 to files of its own
  bool all_files = false;    // a file for every destination, even without records
  bool bgzf = false;         // the files are BGZF-compressed (their names end in .gz)
  int level = 1;             // ISA-L level of BGZF
  // --report: one row per destination with its reads and their costs; null: not written.
  ByteSink* report = nullptr;
  ReportFormat report_format = ReportFormat::tsv;
};

class DemuxSink : public ResultSink {
 public:
  // Records (pairs) assigned to a pattern, ambiguous and unassigned so far.
  virtual std::uint64_t assigned() const = 0;
  virtual std::uint64_t ambiguous() const = 0;
  virtual std::uint64_t unassigned() const = 0;
};

// The search must run as hits. Keeps references to `patterns` and the outputs.
std::unique_ptr<DemuxSink> make_demux_sink(const PatternSet& patterns, const DemuxSinkOptions& options);

}  // namespace trawl
