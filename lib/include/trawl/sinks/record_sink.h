#pragma once
// The filter command's sink: the records themselves, written as read (header line, sequence,
// FASTQ quality), each to the output of its side: matched (a pattern hits it) or not.
// format() runs on worker threads (and compresses there); write() and close() in input order.
#include <cstdint>
#include <memory>

#include "trawl/core/pattern_set.h"
#include "trawl/io/byte_sink.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

enum class RecordFormat : std::uint8_t { as_read, fasta, fastq };

struct RecordSinkOptions {
  bool invert = false;  // the records without a hit go to `out`, those with one to `other`
  // Append " trawl:pat=ID,cost=C,strand=S,start=X,end=Y" (the record's best hit: lowest cost,
  // then first pattern, then first in output order) to each matched header. Needs the
  // search's hits (Command::hits); otherwise the search's contains flags decide.
  bool tag = false;
  RecordFormat format = RecordFormat::as_read;  // fastq of a FASTA record throws UsageError
  bool bgzf = false, other_bgzf = false;        // compress each output (BGZF, on the workers)
  int level = 5;                                // libdeflate level
};

class RecordSink : public ResultSink {
 public:
  // Records written to `out` and to `other` (counted also where there is no `other`).
  virtual std::uint64_t written() const = 0;
  virtual std::uint64_t others() const = 0;
};

// `other` may be null: those records are then only counted. The sink keeps references to
// `out`, `other` and `patterns`.
std::unique_ptr<RecordSink> make_record_sink(ByteSink& out, ByteSink* other, const PatternSet& patterns,
                                             const RecordSinkOptions& options);

}  // namespace trawl
