#pragma once
// The filter command's sink: the records themselves, written as read (header line, sequence,
// FASTQ quality), each to the output of its side: matched (a pattern hits it, or its pair as
// --pair-match says) or not. format() runs on worker threads (and compresses there); write()
// and close() in input order.
#include <array>
#include <cstdint>
#include <memory>

#include "trawl/core/pattern_set.h"
#include "trawl/io/byte_sink.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

enum class RecordFormat : std::uint8_t { as_read, fasta, fastq };

// Which mates of a pair (records 2i and 2i + 1) must have a hit for the pair to match; none:
// the records are not pairs.
enum class PairMatch : std::uint8_t { none, any, both, first, second };

// The outputs, by side and mate: the matched side is `out` unless `invert`.
struct RecordOutputs {
  enum Index : std::size_t { out, other, out2, other2 };
  // Null: not written (the records are only counted). `out2` null with paired records: both
  // mates go to `out` (and `other`), interleaved.
  std::array<ByteSink*, 4> sinks{};
  std::array<bool, 4> bgzf{};  // BGZF-compressed (on the workers)
};

struct RecordSinkOptions {
  bool invert = false;  // the records without a hit go to `out`, those with one to `other`
  // Append " trawl:pat=ID,cost=C,strand=S,start=X,end=Y" (the record's best hit: lowest cost,
  // then first pattern, then first in output order) to each header of a record with a hit.
  // Needs the search's hits (Command::hits); otherwise the search's contains flags decide.
  bool tag = false;
  RecordFormat format = RecordFormat::as_read;  // fastq of a FASTA record throws UsageError
  PairMatch pairs = PairMatch::none;
  int level = 1;  // ISA-L level of BGZF outputs
};

class RecordSink : public ResultSink {
 public:
  // Records written to `out` and the others (counted whether or not `other` is written).
  virtual std::uint64_t written() const = 0;
  virtual std::uint64_t others() const = 0;
};

// Appends record r of `batch` (kept by the reader: ReaderOptions::keep_records) to `dst` as
// `format` asks, a FASTA sequence on one line; with `tag`, that hit is appended to the header
// as --tag does. Throws InputError for fastq of a FASTA record. Thread safe.
void append_record(const RecordBatch& batch, std::size_t r, RecordFormat format, const Hit* tag,
                   const PatternSet& patterns, FormattedBytes& dst);

// The sink keeps references to the outputs' sinks and to `patterns`; outputs.sinks[out] is
// required.
std::unique_ptr<RecordSink> make_record_sink(const RecordOutputs& outputs, const PatternSet& patterns,
                                             const RecordSinkOptions& options);

}  // namespace trawl
