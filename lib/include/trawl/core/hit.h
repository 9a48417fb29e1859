#pragma once
// Hits as the searcher produces them: plain structs in reusable columnar-friendly vectors,
// CIGAR operations stored out of line so no hit owns heap memory.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trawl/core/search_options.h"

namespace trawl {

// One CIGAR run (SAM letters with pattern = query, text = reference): '=' match,
// 'X' substitution, 'I' pattern-only character, 'D' text-only character.
struct CigarOp {
  std::uint32_t len;
  char op;
};

struct Hit {
  std::uint64_t text_idx;       // 0-based record index in input order
  std::uint64_t start;          // forward text coordinates, 0-based, half-open
  std::uint64_t end;
  std::uint32_t pattern_idx;    // 0-based pattern index in input order
  std::uint32_t pattern_start;  // > 0 only with a left (or, for '-', right) overhang
  std::uint32_t pattern_end;    // < m only with overhang
  std::int32_t cost;
  Strand strand;
  std::uint32_t cigar_offset;   // first op in HitList::cigar_ops
  std::uint32_t cigar_count;    // number of ops; 0 = empty CIGAR (all-overhang hit)
};

// The order of a pattern's hits in a record's output (docs/semantics.md §9): start, then
// strand ('+' first), then end. Equal (start, strand, end) only arises from overhang ends past
// the text; those keep their end order (pattern_end down).
inline bool output_order(const Hit& a, const Hit& b) {
  if (a.start != b.start) return a.start < b.start;
  if (a.strand != b.strand) return a.strand < b.strand;
  if (a.end != b.end) return a.end < b.end;
  return a.pattern_end > b.pattern_end;
}

// Hits of one batch plus their CIGAR runs. Reused between batches (clear keeps capacity).
struct HitList {
  std::vector<Hit> hits;
  std::vector<CigarOp> cigar_ops;

  void clear() {
    hits.clear();
    cigar_ops.clear();
  }
  std::span<const CigarOp> cigar(const Hit& h) const {
    return {cigar_ops.data() + h.cigar_offset, h.cigar_count};
  }
};

// Appends the CIGAR text ("3=1X2=") of `ops` to `out`; `reversed` writes the runs in the
// opposite order (text direction of a '-' hit with --sam).
void append_cigar(std::string& out, std::span<const CigarOp> ops, bool reversed = false);

}  // namespace trawl
