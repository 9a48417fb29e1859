#pragma once
// Searcher: one per thread. Runs every pattern (or one, for --paired) over one record and
// appends the selected, filtered, traced hits. Owns all scratch buffers, so steady-state
// searching allocates nothing.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trawl/hit.h"
#include "trawl/kernel.h"
#include "trawl/pattern_set.h"
#include "trawl/traceback.h"

namespace trawl {

class Searcher {
 public:
  Searcher(const PatternSet& patterns, const SearchOptions& options, const KernelFns& kernel);

  // Appends the hits of every pattern in `text` (record `text_idx`) to `out`, ordered by
  // pattern, then start, then strand ('+' first), then end (SPEC §7).
  void search_record(std::uint64_t text_idx, std::string_view text, HitList& out);
  // The same for a single pattern (--paired).
  void search_pattern(std::uint32_t pattern_idx, std::uint64_t text_idx, std::string_view text,
                      HitList& out);

  // Tiered access for count/contains: set_text() once per record, then any of these per
  // pattern. The text must outlive the calls.
  void set_text(std::string_view text);
  void find_hits(std::uint32_t pattern_idx, std::uint64_t text_idx, HitList& out);
  // Number of hits find_hits would report, without traceback unless the N filter needs
  // one (only for candidates with an N near them).
  std::uint32_t count_hits(std::uint32_t pattern_idx);
  // Whether find_hits would report anything; stops at the first qualifying end, forward
  // strand first.
  bool has_hit(std::uint32_t pattern_idx);

 private:
  void search_strand(std::uint32_t pattern_idx, Strand strand, std::uint64_t text_idx,
                     HitList& out);
  std::span<const std::uint8_t> strand_text(Strand strand) const;
  // Fills selected_ with the candidate ends of one strand. With `stop_at_first`, returns
  // as soon as one end with cost <= k is known (no selection; for has_hit).
  void collect_ends(const StrandProfile& prof, std::span<const std::uint8_t> text,
                    bool stop_at_first = false);
  // Whether the candidate end survives the N filter, tracing only if an N is near it.
  bool survives_n_filter(const StrandProfile& prof, Strand strand, const EndCost& end);
  // best: lowest cost first, ties -> largest end in the strand's orientation.
  void sort_best_first();
  bool emit_hit(const StrandProfile& prof, Strand strand, std::span<const std::uint8_t> text,
                const EndCost& end, std::uint32_t pattern_idx, std::uint64_t text_idx,
                HitList& out);
  // N filter (SPEC §6), Sassy's two checks. Ranges are in the strand's coordinates.
  bool passes_end_window_check(Strand strand, std::uint32_t m, std::uint64_t p) const;
  bool passes_region_check(Strand strand, std::uint64_t s, std::uint64_t e) const;
  std::uint64_t count_n(Strand strand, std::uint64_t s, std::uint64_t e) const;
  // Runs of N/n in the current record (forward coordinates) with the number of Ns before
  // each run, so count_n is a binary search. Filled only when the N filter is on.
  struct NRun {
    std::uint64_t start, end, before;
  };
  std::vector<NRun> n_runs_;
  std::vector<CigarOp> scratch_ops_;
  std::vector<std::uint64_t> profile_scratch_;  // profiles built on demand (huge sets)  // traces made only to decide the N filter

  const PatternSet& patterns_;
  SearchOptions options_;
  const KernelFns& kernel_;
  Tracer tracer_;
  std::vector<std::uint64_t> vp_, vn_;
  std::vector<EndCost> ends_;        // kernel output, one chunk at a time
  std::vector<EndCost> selected_;    // chosen end positions of the current strand
  std::vector<std::int32_t> column_; // D(j, n) of the last column (right overhang)
  std::array<std::uint8_t, 256> class_of_{};  // text byte -> class
  std::vector<std::uint8_t> fwd_text_;        // the record as classes
  std::vector<std::uint8_t> rev_text_;        // reverse(record) as classes (rc strand)
  std::string_view text_;                     // the current record's bytes
};

}  // namespace trawl
