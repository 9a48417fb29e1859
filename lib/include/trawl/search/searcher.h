#pragma once
// Searcher: one per thread. Runs patterns over one record, or over one window of a long
// record, and reports the selected, filtered, traced hits. Owns all scratch buffers, so
// steady-state searching allocates nothing.
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "trawl/core/hit.h"
#include "trawl/core/results.h"
#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"
#include "trawl/search/lane_strategies.h"
#include "trawl/search/pattern_index.h"
#include "trawl/search/plan.h"
#include "trawl/search/selection.h"
#include "trawl/search/traceback.h"
#include "trawl/core/uninitialized_vector.h"

namespace trawl {

// The part of a long record one task answers for, in forward end positions [begin, end).
// Windows that tile [0, infinity) give exactly the unsplit record's hits (docs/semantics.md §10):
// a '+' run of ends with cost <= k belongs to the window holding its first end, a '-' run
// to the window holding the forward start of its last reversed end, and each window looks
// as far beyond its borders as its runs need.
struct Window {
  static constexpr std::uint64_t kOpen = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t begin = 0;
  std::uint64_t end = kOpen;  // kOpen: the last window
};

// What a run asks of every (pattern, record) pair; fixed for the run.
struct SearchMode {
  ResultShape shape;    // the command's rows (hits, count, contains and their options)
  bool paired = false;  // --paired: pattern i is searched only in record i
  // One record at a time, never in job lanes: the reference the lane strategies are tested
  // against (tests only; long records and patterns take that path anyway).
  bool record_by_record = false;
  // The run's pattern index (PatternIndex::build), shared by every searcher; null: none.
  const PatternIndex* index = nullptr;
};

// One window of a long record and one pattern: a task of the partition.
struct WindowQuery {
  std::string_view text;  // the record's sequence, all of it unless `partial`
  Window window;
  // `text` is only the first part of the record (it is still being read). The answers are
  // those of the whole record wherever the text reaches far enough past the window for its
  // runs; where it does not, the answer says `incomplete` and must be thrown away.
  bool partial = false;
  std::uint32_t pattern = 0;
  std::uint64_t text_idx = 0;
};

struct WindowAnswer {
  StrandCounts counts;    // count: hits per strand (before --best's one per strand)
  bool contains = false;  // contains: whether the pattern has a hit in the window
  bool incomplete = false;
};

class Searcher {
 public:
  // The search plan is chosen here, once (see SearchPlan).
  Searcher(const PatternSet& patterns, const SearchOptions& options, const KernelFns& kernel,
           SearchMode mode);

  // The one call for whole records: records[r] is record first_index + r. Appends the
  // results the mode's command asks for to `out`: every hit (ordered by record, pattern,
  // start, strand '+' first, end), the (record, pattern) counts, or one contains flag per
  // record (or per pair), in input order. Steady state allocates nothing.
  void search(std::span<const std::string_view> records, std::uint64_t first_index,
              BatchResults& out);
  // The one call for a window of a long record: its hits (hits) go to `out.hits`, in the
  // order above; count and contains answer in the result.
  WindowAnswer search(const WindowQuery& query, BatchResults& out);

  const SearchPlan& plan() const { return plan_; }

 private:
  // Short records in bulk (docs/architecture.md §3): lanes_ scans a group of records from
  // the front of `texts` (LaneDriver::scan) and returns how many it took; then, for each of
  // them in order, select_prescanned(r) followed by the calls the mode's command allows
  // answers exactly as after set_text(texts[r]).
  std::size_t prescan(std::span<const std::string_view> texts, std::uint64_t paired_first) {
    return lanes_.scan(lane_context(), texts, paired_first);
  }
  void select_prescanned(std::size_t r);
  // Whether the record select_prescanned() chose is known to have no hit for any of its
  // patterns: its jobs were scanned for find_hits and none found an end (most records of a
  // pattern panel), so a caller can skip its patterns at once.
  bool selected_has_no_ends() const;
  // Whether the prescanned record's jobs lie together and every end they found is kept.
  bool prescanned_ends_kept() const;
  // Whether strand `strand` of pattern `pi` in the prescanned record is known to have no
  // hit: its job was ruled out or found no end (no overhang: then every end is the
  // kernel's). Nothing need be set up for it.
  bool prescanned_without_ends(std::uint32_t pi, Strand strand) const;
  LaneContext lane_context() const { return {patterns_, options_, kernel_, class_of_}; }
  // The rows of record text_idx (selected or set) for its patterns [first, last).
  void answer_record(std::uint64_t text_idx, std::uint32_t first, std::uint32_t last,
                     BatchResults& out);
  // Calls visit(pi) for the patterns of [first, last) that answer_record must ask about, in
  // order, until it returns false: all of them, or, unless `every` pair gets a row, only
  // those with a job (in a record the pattern index listed) or with an end (in a prescanned
  // record whose ends were kept): the others have no hit.
  template <class Visit>
  void for_each_pattern(std::uint32_t first, std::uint32_t last, bool every, Visit&& visit) const;

  // Tiered access: set_text() (whole record) or set_window() (one window of a record) once,
  // then any of these per pattern. The text must outlive the calls.
  void set_text(std::string_view text);
  void set_window(std::string_view text, Window window, bool partial = false);
  // Appends the hits (of the window, when one is set), sorted as search() does.
  void find_hits(std::uint32_t pattern_idx, std::uint64_t text_idx, HitList& out);
  // Hits per strand that find_hits would report without --best (for --best, a strand has a
  // hit iff its count is > 0). No traceback unless the N filter needs one.
  StrandCounts count_hits(std::uint32_t pattern_idx);
  // Whether find_hits would report anything; stops at the first qualifying end, forward
  // strand first.
  bool has_hit(std::uint32_t pattern_idx);

  // A strand's text (class-encoded, in the strand's orientation) or a slice of it.
  struct StrandText {
    std::span<const std::uint8_t> codes;  // positions [begin, begin + codes.size())
    std::uint64_t begin = 0;
    std::uint64_t n = 0;  // length of the whole strand text
  };

  // Fills selected_ with the candidate ends (local minima, or all ends for all_ends) of
  // the owned runs, in increasing p; with stop_at_first, stops once one owned end is known.
  // Returns false when `st` is too short to tell which runs are owned.
  bool collect_ends(const StrandProfile& prof, const StrandText& st, Ownership own,
                    bool stop_at_first);
  // collect_ends' parts: the start column at st.begin, the prescanned job's ends, the ends
  // past the text of a right overhang.
  ColumnState start_column(const StrandProfile& prof, std::uint64_t begin);
  bool collect_prescanned(EndCollector& ends, bool whole, bool stop_at_first, std::uint64_t last,
                          ColumnState& state);
  void collect_overhang_ends(EndCollector& ends, std::uint32_t m, std::uint64_t n, std::uint32_t extra);
  // Candidate ends of one strand for the current record or window; sets strand_text_.
  void strand_candidates(std::uint32_t pattern_idx, const StrandProfile& prof, Strand strand,
                         bool stop_at_first);
  // Codes of the window's strand positions [lo, hi) (see strand_candidates), from what
  // earlier patterns of the same window had coded where that covers them.
  StrandText window_slice(Strand strand, std::uint64_t lo, std::uint64_t hi, bool stop_at_first);
  // The ends of one strand that the window owns, in the strand's end positions.
  Ownership window_ownership(Strand strand) const;
  // The positions [lo, hi) of one strand's slice of the window, for a band of m + k.
  std::pair<std::uint64_t, std::uint64_t> window_range(Strand strand, std::uint64_t band) const;
  // The pattern's profile on one strand, built into profile_scratch_ where not precomputed.
  StrandProfile profile_of(std::uint32_t pattern_idx, Strand strand);
  // plan_ from the mode, the options and what the constructor could set up.
  void choose_plan();
  // The pattern's profile on one strand; a prescanned record reuses its job's words.
  StrandProfile profile_for(std::uint32_t pattern_idx, Strand strand);
  void encode_forward_until(std::uint64_t end);

  void search_strand(std::uint32_t pattern_idx, Strand strand, std::uint64_t text_idx,
                     HitList& out);
  bool emit_hit(const StrandProfile& prof, Strand strand, const EndCost& end,
                std::uint32_t pattern_idx, std::uint64_t text_idx, HitList& out);
  // Whether the candidate end survives the N filter, tracing only if an N is near it.
  bool survives_n_filter(const StrandProfile& prof, Strand strand, const EndCost& end);
  // best: lowest cost first, ties -> largest end in the strand's orientation.
  void sort_best_first();
  // N filter (docs/semantics.md §8), Sassy's two checks; ranges in the strand's coordinates.
  bool passes_end_window_check(Strand strand, std::uint32_t m, std::uint64_t p) const;
  bool passes_region_check(Strand strand, std::uint64_t s, std::uint64_t e) const;
  std::uint64_t count_n(Strand strand, std::uint64_t s, std::uint64_t e) const;

  const PatternSet& patterns_;
  SearchOptions options_;
  const KernelFns& kernel_;
  SearchMode mode_;
  SearchPlan plan_;
  Tracer tracer_;
  std::array<std::uint8_t, 256> class_of_{};  // text byte -> class
  std::vector<std::uint64_t> vp_, vn_;
  UninitializedVector<EndCost> ends_;  // kernel output, one chunk at a time (written first)
  std::vector<EndCost> selected_;    // chosen end positions of the current strand
  std::vector<EndCost> run_;         // the open run, while its ownership is undecided
  std::vector<std::int32_t> column_; // D(j, n) of the last column (right overhang)
  std::vector<CigarOp> scratch_ops_;            // traces made only to decide the N filter
  std::vector<std::uint64_t> profile_scratch_;  // profiles built on demand (huge sets)

  // The job lanes: the strategy the plan chose and the group it last scanned.
  LaneDriver lanes_;
  const LaneGroup::Record* pre_current_ = nullptr;  // selected by select_prescanned()
  const ScanJob* pre_job_ = nullptr;                // the job collect_ends consumes, if any
  std::uint32_t pre_job_index_ = 0;

  std::string_view text_;                  // the current record's bytes
  bool windowed_ = false;
  Window window_;
  bool partial_ = false;     // the window's text is the first part of its record
  bool incomplete_ = false;  // a partial text was too short for one of the window's runs
  UninitializedVector<std::uint8_t> fwd_codes_;  // whole record (or a window slice) as classes
  UninitializedVector<std::uint8_t> rev_codes_;  // reverse(record) as classes (rc strand)
  bool rev_ready_ = false;                 // rev_codes_ holds the current record
  // In a window: whether fwd_codes_ / rev_codes_ hold the window's strand positions from
  // coded_from_[strand] on (one slice per window and strand, shared by every pattern).
  std::array<bool, 2> coded_{};
  std::array<std::uint64_t, 2> coded_from_{};
  std::uint64_t fwd_encoded_ = 0;          // fwd_codes_ is valid below this position
  bool lazy_forward_ = false;              // collect_ends must encode as it scans
  StrandText strand_text_;                 // what the last strand_candidates() scanned
};

// (Inline: called once per record of every prescanned group, most of which have no end.)
inline void Searcher::select_prescanned(std::size_t r) {
  const LaneGroup::Record& rec = lanes_.group().records[r];
  if (rec.first_job == LaneGroup::kNoJobs) {
    set_text(rec.text);
    return;
  }
  text_ = rec.text;
  windowed_ = false;
  rev_ready_ = false;
  pre_current_ = &rec;
}

inline bool Searcher::prescanned_ends_kept() const {
  // Not for ends counted as they came (count) or forward-first jobs (contains), nor with
  // overhang (ends past the text are not the kernel's).
  const unsigned strands = options_.searches_rc() ? 2 : 1;
  const LaneGroup& group = lanes_.group();
  return pre_current_ && pre_current_->first_job != LaneGroup::kNoJobs && !group.counted &&
         group.strands == strands && !options_.overhang;
}

inline bool Searcher::prescanned_without_ends(std::uint32_t pi, Strand strand) const {
  // (With k >= m every end position has cost <= k, so no end means an empty text, which has
  // no end positions at all without overhang.)
  if (!pre_current_ || options_.overhang) return false;
  const LaneGroup& group = lanes_.group();
  return !group.job_has_ends(group.job_of(*pre_current_, pi, strand));
}

inline bool Searcher::selected_has_no_ends() const {
  return prescanned_ends_kept() && lanes_.group().record_has_no_ends(*pre_current_);
}

}  // namespace trawl
