#pragma once
// A naive O(n·m) dynamic-programming oracle for docs/semantics.md §1–§8, written straight
// from the rules stated there and independent of the library:
// it does not call PatternSet, Searcher, Tracer, the kernels or the library's alphabet and
// overhang helpers. Every test that checks a search result compares against this.
//
// What it does, per strand (Sassy's order of steps):
//   full matrix D (D(0,i) = 0, D(j,0) = j or floor(j·α)), cost row C[0..n+S],
//   end selection (local minima / all ends / best), N pre-filter on the end window,
//   greedy traceback on the full matrix (= > X > D > I), N post-filter on the traced region.
// The rc strand searches complement(P) against reverse(T) and maps coordinates back.
// Slow on purpose (full matrix); meant for short cases.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/core/search_options.h"

namespace trawl::oracle {

struct OracleHit {
  trawl::Strand strand;
  std::int32_t cost;
  std::uint64_t start, end;  // forward text coordinates, half-open
  std::uint32_t pattern_start, pattern_end;
  std::string cigar;  // run-length with explicit counts, pattern direction; "" = no ops
};

bool operator==(const OracleHit& a, const OracleHit& b);

// docs/semantics.md §5 equality of pattern byte `p` and text byte `t`, re-derived from its
// table (iupac: set intersection, non-IUPAC bytes match nothing; dna: ACGT any case only;
// ascii: bytes, optionally ASCII case folded).
bool eq(const trawl::AlphabetSpec& a, std::uint8_t p, std::uint8_t t);
// True when `p` is a valid pattern byte for the alphabet (docs/semantics.md §5, "pattern").
bool valid_pattern_byte(trawl::Alphabet a, std::uint8_t p);
// IUPAC complement, case kept (A<->T, C<->G, R<->Y, K<->M, B<->V, D<->H; S W N X self;
// U -> A, as U = T); every other byte unchanged. The identity for ascii.
std::uint8_t complement(const trawl::AlphabetSpec& a, std::uint8_t b);
std::string complement(const trawl::AlphabetSpec& a, std::string_view s);
std::string reverse_complement(const trawl::AlphabetSpec& a, std::string_view s);

// Overhang cost (hang_cost) of j hanging characters: floor((float)j * α) (float), or j without overhang.
std::int32_t hang_cost(const trawl::SearchOptions& opt, std::uint32_t j);
// Extra right end positions S: 0 without overhang, m for α = 0 (trawl), else
// min(m, ceil((k + α) / α)) in float.
std::uint32_t overhang_steps(const trawl::SearchOptions& opt, std::uint32_t m);

// The cost row C[0..n+S] of `pattern` in `text` (one orientation, no complementing).
std::vector<std::int32_t> cost_row(std::string_view pattern, std::string_view text,
                                   const trawl::SearchOptions& opt);

// Which end positions Selection::best chooses from. docs/semantics.md §2 says "only the
// lowest-cost hit among those that the N filter (§8) keeps"; without the N filter both
// readings give the same hit (the lowest-cost, rightmost end is always a local minimum).
// With the N filter they differ:
//   local_minima: the default selection's hits (Sassy `search` + only_best_match, and
//                 docs/semantics.md §8: "A dropped hit is not replaced by a neighbouring
//                 end");
//   all_ends:     every end with cost <= k (Sassy `search_all` + only_best_match).
enum class BestFrom { local_minima, all_ends };

// All hits of one pattern in one text, in docs/semantics.md §9 order within a pattern: by
// start, then strand ('+' first), then end (stable: ties keep forward-then-rc, increasing
// end position in the searched orientation). Throws std::logic_error if its own traceback
// fails (a bug here).
std::vector<OracleHit> search(std::string_view pattern, std::string_view text,
                              const trawl::SearchOptions& opt,
                              BestFrom best_from = BestFrom::local_minima);

// Re-scores a CIGAR: `pattern_part` is the pattern range the CIGAR uses (for a '-' hit:
// complement(P)[ps, pe)), `text_slice` the text it covers (for '-': reverse(T[start, end))).
// Returns the number of X + I + D operations, or -1 if the CIGAR is malformed, does not
// consume exactly both strings, claims '=' on a mismatching pair or 'X' on a matching pair.
int rescore_cigar(std::string_view pattern_part, std::string_view text_slice,
                  std::string_view cigar, const trawl::AlphabetSpec& alphabet);

// Checks one reported hit of `pattern` in `text` on its own: coordinates in range, CIGAR
// consistent with the pattern range and text slice, and re-scored edits plus the overhang
// cost of both sides (floor(α·ps) + floor(α·(m − pe))) equal to the reported cost.
// Returns "" if fine, else a description of the problem.
std::string check_hit(std::string_view pattern, std::string_view text,
                      const trawl::SearchOptions& opt, const OracleHit& hit);

// "+ [3,7) [0,4) c1 2=1X1=" (strand, [start,end), [pattern_start,pattern_end), cost, CIGAR,
// as in the Sassy examples of oracle_vectors_test.cpp; an empty CIGAR prints as "*").
std::string format_hit(const OracleHit& h);
// Printable form of arbitrary bytes (\xNN for non-printables), for failure messages.
std::string escape(std::string_view s);
// Human-readable summary of the options that matter for a search.
std::string describe(const trawl::SearchOptions& opt);

// Not part of the oracle: converts a hit the library reported (CIGAR rendered with
// trawl::append_cigar) so it can be compared with OracleHit.
OracleHit from_library(const trawl::HitList& list, const trawl::Hit& h);

}  // namespace trawl::oracle
