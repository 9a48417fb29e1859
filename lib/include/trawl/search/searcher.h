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
#include "trawl/search/plan.h"
#include "trawl/search/seed_filter.h"
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
  // Short records in bulk (docs/architecture.md §3): scans the patterns of whole records
  // from the front of `texts` in the kernel's job lanes, one (record, pattern, strand) a lane.
  // Takes records while they fit one work group (at least one) and returns how many it
  // took; then, for each of them in order, select_prescanned(r) followed by the calls the
  // mode's command allows answers exactly as after set_text(texts[r]). `paired_first`:
  // kAllPatterns, or (--paired) the pattern of texts[0]; record r then has pattern
  // paired_first + r (none past the last pattern). Records too long for a lane, and
  // patterns longer than 64, take the ordinary path.
  static constexpr std::uint64_t kAllPatterns = std::numeric_limits<std::uint64_t>::max();
  std::size_t prescan(std::span<const std::string_view> texts, std::uint64_t paired_first);
  void select_prescanned(std::size_t r);
  // Whether the record select_prescanned() chose is known to have no hit for any of its
  // patterns: its jobs were scanned for find_hits and none found an end (most records of a
  // pattern panel), so a caller can skip its patterns at once.
  bool selected_has_no_ends() const;
  // The rows of record text_idx (selected or set) for its patterns [first, last).
  void answer_record(std::uint64_t text_idx, std::uint32_t first, std::uint32_t last,
                     BatchResults& out);

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
  // The pattern's profile on one strand: precomputed, or built on demand at the end of
  // `out` (prescan keeps a group's profiles there without copying each from a scratch).
  StrandProfile profile_into(std::uint32_t pattern_idx, Strand strand, std::vector<std::uint64_t>& out);
  // The same, built into profile_scratch_.
  StrandProfile profile_of(std::uint32_t pattern_idx, Strand strand);
  // Sets up screens_ where the kernel and the options allow a screen.
  void make_screens();
  bool make_screen(std::uint32_t pattern_idx, ScreenPieces& pieces);
  // plan_ from the mode, the options and what the constructor could set up.
  void choose_plan();
  // The pattern's profile on one strand; a prescanned record reuses its job's words.
  StrandProfile profile_for(std::uint32_t pattern_idx, Strand strand);
  // Scans jobs[0, n) a bounded number of steps at a time, appending their ends to
  // pre_raw_ends_ with job = first_job + i and their last columns to finals[i].
  void scan_chunked(const ScanJob* jobs, std::size_t n, std::uint32_t first_job,
                    JobState* finals, bool first_only);
  // The prescan job of the current record for (pattern, strand); kNoJobs for a reverse
  // strand that was never scanned (its forward strand found an end first), or a job that
  // SeedFilter ruled out (it has no end).
  std::uint32_t prescan_job(std::uint32_t pattern_idx, Strand strand) const;
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

  // Prescan results (see prescan()): jobs by record, their ends grouped by job.
  static constexpr std::uint32_t kNoJobs = std::numeric_limits<std::uint32_t>::max();
  struct PrescanRecord {
    std::string_view text;
    std::uint32_t codes_offset = 0;  // in pre_fwd_ / pre_rev_ (a group's codes are few)
    std::uint32_t first_job = kNoJobs;
    std::uint32_t first_pattern = 0;
    std::uint32_t patterns = 0;  // its jobs: every pattern's forward, then (2 strands) reverse
    std::uint32_t jobs = 0;
    // Filtered by SeedFilter, PairedSeedFilter or the screen (screens_; a record it rules
    // out has no jobs, and first_job 0): only the jobs of the bits of `live` were
    // made (bit i: job i of the list above), in that order; kAllLive: every job, as listed.
    std::uint64_t live = kAllLive;
  };
  static constexpr std::uint64_t kAllLive = ~std::uint64_t{0};
  std::vector<PrescanRecord> pre_records_;
  UninitializedVector<std::uint8_t> pre_fwd_, pre_rev_;  // the records' class codes, back to back
  std::vector<ScanJob> pre_jobs_;
  unsigned pre_strands_ = 1;  // strands with jobs per (record, pattern): 2 = fwd, rc
  // With one (forward jobs only, see prescan): each forward job's reverse job, or kNoJobs.
  std::vector<std::uint32_t> pre_rc_job_;
  // Where each job's text and profile will be, fixed up once the buffers stop growing.
  struct JobSource {
    std::uint64_t codes;
    bool rc;
    std::uint64_t peq;  // offset in pre_peq_, or Window::kOpen: the precomputed profile in the job
    std::uint32_t pattern;
    std::uint32_t record;  // in pre_records_
  };
  std::vector<JobSource> sources_;
  const std::uint8_t* group_fwd_start_ = nullptr;  // the codes' buffers when the group began
  const std::uint8_t* group_rev_start_ = nullptr;
  std::vector<std::uint8_t> job_flags_, is_probe_, has_end_;  // per job, as the steps need them
  std::vector<std::uint32_t> fill_;
  // The steps of prescan (lanes.cpp, screened.cpp, paired.cpp, first_end.cpp): a group is
  // begun, gathered (records, their codes and jobs), screened, its jobs fixed up and scanned.
  std::uint64_t begin_group();
  std::size_t gather_records(std::span<const std::string_view> texts, std::uint64_t paired_first,
                             std::uint64_t group_steps);
  std::size_t gather_screened(std::span<const std::string_view> texts, std::uint64_t group_steps);
  void screen_group();
  std::uint64_t add_record_jobs(PrescanRecord& rec, std::uint32_t r, bool paired);
  void add_strand_jobs(const PrescanRecord& rec, std::uint32_t r, bool rc, std::uint64_t coded,
                       std::uint64_t live);
  void add_filtered_jobs(const PrescanRecord& rec, std::uint32_t r, bool rc, std::uint64_t coded,
                         std::uint64_t live);
  bool add_paired_jobs(PrescanRecord& rec, std::uint32_t r);
  void add_job(std::uint64_t codes, bool rc, std::uint32_t pattern_idx, std::uint32_t record,
               std::uint32_t n);
  void fix_up_jobs();
  void scan_group();
  void scan_counted();
  void rescan_probes();
  void continue_first_end();
  void scan_reverse_where_no_end();
  void group_ends();
  const std::uint8_t* codes_of(bool rc, std::uint64_t codes) const {
    return (rc ? pre_rev_ : pre_fwd_).data() + codes;
  }
  // Forward jobs carried on past their head (see prescan), and which job each is.
  std::vector<ScanJob> rest_jobs_;
  std::vector<std::uint32_t> rest_of_;
  std::vector<JobState> rest_final_;
  std::vector<JobState> pre_final_;
  std::vector<JobEnd> pre_raw_ends_;    // the group's ends, job by job in any order
  UninitializedVector<JobEnd> chunk_ends_;  // the kernel's output for one chunk of jobs
  // Ends of job j: pre_ends_[off[j] + j, off[j + 1] + j) (see prescan; a group without
  // ends leaves pre_ends_ as it was).
  std::vector<std::uint32_t> pre_end_offsets_;
  std::vector<EndCost> pre_ends_;
  bool prescanned_job_has_ends(std::uint32_t j) const {
    return j != kNoJobs && pre_end_offsets_[j + 1] > pre_end_offsets_[j];
  }
  std::span<const EndCost> prescanned_ends(std::uint32_t j) const {
    const std::uint32_t count = pre_end_offsets_[j + 1] - pre_end_offsets_[j];
    if (count == 0) return {};
    return {pre_ends_.data() + pre_end_offsets_[j] + j, count};
  }
  std::vector<std::uint64_t> pre_peq_;  // profiles built on demand for the jobs
  // With precomputed profiles: the job of pattern i, forward at [i], reverse at [size + i],
  // without text and length (empty for large or long pattern sets).
  std::vector<ScanJob> panel_jobs_;
  // For panels of up to 64 jobs a record (panel_jobs_' order): which of a record's jobs
  // can have an end at all, so that prescan makes and scans only those.
  SeedFilter seed_filter_;
  // With the filter, each pattern's reverse job probed on the forward text first: its rc
  // profile with the rows reversed (reverse(complement(P)) against T has an alignment of
  // cost <= k exactly where complement(P) against reverse(T) has), so that a record's jobs
  // all read one text (see prescan). panel_probe_peq_ holds their profiles.
  std::vector<ScanJob> panel_probe_jobs_;
  std::vector<std::uint64_t> panel_probe_peq_;
  std::vector<std::uint32_t> probes_;  // the group's probe jobs (prescan)
  // --paired: which strands of a record can have an end at all, and the part of each that
  // holds them (prescan scans only that part).
  PairedSeedFilter paired_filter_;
  // The screen (KernelFns::screen), for a few long-enough patterns without the seed filter:
  // per pattern, a piece of 16 of its characters and that piece's reverse complement, both
  // read on a record's bytes. A strand whose piece has no end <= k has none of its own, so
  // prescan codes records and makes jobs only for the strands the screen passes (few, for
  // one primer in reads: a random 16-mer comes within 3 edits of 150 random bases in 0.3%
  // of them). Empty: no screen.
  std::vector<ScreenPieces> screens_;
  std::vector<std::uint32_t> screened_;    // the group's screened records (prescan)
  std::vector<ScreenText> screen_texts_;   // their texts
  std::vector<std::uint8_t> screen_flags_; // [pattern][screened record]: ScreenFn's flags
  // Where job j's text starts in its strand's codes: pre_job_offsets_[j], or 0 past its
  // size (only jobs of a part of a strand have one). The kernel counts their ends from it.
  std::vector<std::uint32_t> pre_job_offsets_;
  std::uint64_t chunk_steps_ = 0;  // the most steps scan_chunked gives the kernel at once
  // plan_.counted: each job's count of hits, and the
  // selectors that count them while the kernel runs.
  bool pre_counted_ = false;
  std::vector<LocalMinimaCounter> pre_counters_;
  std::vector<std::uint32_t> pre_counts_;
  std::array<std::pair<std::uint64_t, std::int64_t>, 65> start_column_{};  // (vp, score) by m
  const PrescanRecord* pre_current_ = nullptr;  // selected by select_prescanned()
  const ScanJob* pre_job_ = nullptr;            // the job collect_ends consumes, if any
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
  const PrescanRecord& rec = pre_records_[r];
  if (rec.first_job == kNoJobs) {
    set_text(rec.text);
    return;
  }
  text_ = rec.text;
  windowed_ = false;
  rev_ready_ = false;
  pre_current_ = &rec;
}

inline bool Searcher::selected_has_no_ends() const {
  // Only where every end is kept and the record's jobs lie together: not for ends counted
  // as they came (count) or forward-first jobs (contains), nor with overhang (ends past the
  // text are not the kernel's).
  const unsigned strands = options_.searches_rc() ? 2 : 1;
  if (!pre_current_ || pre_current_->first_job == kNoJobs || pre_counted_ ||
      pre_strands_ != strands || options_.overhang)
    return false;
  const std::uint32_t first = pre_current_->first_job;
  return pre_end_offsets_[first + pre_current_->jobs] == pre_end_offsets_[first];
}

}  // namespace trawl
