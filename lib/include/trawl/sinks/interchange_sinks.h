#pragma once
// `hits` rows in the interchange formats of other tools (docs/semantics.md §12): BED6 for
// bedtools, PAF for minimap2's tools, SAM for samtools. Each writes the hit rows of the one
// row model (trawl/sinks/rows.h); none has a header of column names. Same threading as every
// ResultSink: format() on workers, write() and close() serial, in input order.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trawl/core/alphabet.h"
#include "trawl/core/pattern_set.h"
#include "trawl/io/byte_sink.h"
#include "trawl/sinks/sinks.h"

namespace trawl {

// A reference sequence of the SAM header (@SQ): a record's name and length.
struct RefLength {
  std::string name;
  std::uint64_t length = 0;
};

struct SamOptions {
  // The @SQ lines, in this order, from --ref-lengths or INPUT.fai; every record with a hit
  // must be among them. Where `collect`, they are gathered from the records with hits
  // instead, and the header is written at close (the rows wait in a temporary file).
  std::vector<RefLength> refs;
  bool collect = true;
  std::string version;       // @PG VN
  std::string command_line;  // @PG CL
};

// (name, length) per line of a samtools faidx index or a two-column TSV: name, tab, length,
// any further columns ignored. Throws InputError naming the file and line.
std::vector<RefLength> read_ref_lengths(const std::string& path);

// BED6: text_id start end pat_id cost strand, start and end as they are (0-based,
// half-open).
std::unique_ptr<ResultSink> make_bed_sink(ByteSink& out, const PatternSet& patterns, bool mate);

// PAF: the pattern is the query, the record the target; mapq 255; tags NM:i (edits of the
// aligned part) and cg:Z (the CIGAR in target forward direction).
std::unique_ptr<ResultSink> make_paf_sink(ByteSink& out, const PatternSet& patterns, bool mate);

// SAM: the pattern is the read (SEQ as aligned, FLAG 16 on '-'), the record the reference.
std::unique_ptr<ResultSink> make_sam_sink(ByteSink& out, const PatternSet& patterns,
                                          const AlphabetSpec& alphabet, bool mate, SamOptions options);

}  // namespace trawl
