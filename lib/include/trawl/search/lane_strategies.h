#pragma once
// The job-lane strategies (SearchPlan::strategy), each a small type with its own state that
// fills a LaneGroup its own way, and LaneDriver, the one group driver that runs any of them:
// a group is begun, gathered (records, their codes and jobs), screened, its jobs fixed up
// and scanned, and their ends grouped by job.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trawl/kernel/kernel.h"
#include "trawl/search/lane_group.h"
#include "trawl/search/pattern_index.h"
#include "trawl/search/plan.h"
#include "trawl/search/seed_filter.h"

namespace trawl {

// A pattern panel (precomputed profiles, not too many patterns): every pattern's job made
// once, forward at [i] and reverse at [size + i], without text and length, so that a
// group's jobs are copies (profile look-ups per job were a large part of a scan).
class PanelJobs {
 public:
  void make(const LaneContext& ctx, const LaneGroup& group);
  bool empty() const { return jobs_.empty(); }
  const ScanJob& job(std::uint32_t pattern_idx, bool rc, std::uint32_t npat) const {
    return jobs_[(rc ? npat : 0) + pattern_idx];
  }
  std::span<const ScanJob> all() const { return jobs_; }
  // The jobs of patterns [first, last) of one strand, copied as a block onto one text (a
  // call per job showed in a panel's profile).
  void add_strand(LaneGroup& group, const LaneContext& ctx, const LaneGroup::Record& rec,
                  std::uint32_t r, bool rc, std::uint64_t coded) const;

 private:
  std::vector<ScanJob> jobs_;
};

// The filtered panel: SeedFilter rules out most of a record's jobs before any is made. Each
// reverse job is probed on the forward text first (its rc profile with the rows reversed:
// reverse(complement(P)) against T has an alignment of cost <= k exactly where
// complement(P) against reverse(T) has), so that a record's jobs all read one text; the few
// probes that find an end are rescanned as the real reverse jobs.
class FilteredPanel {
 public:
  // Sets up the filter where it can rule out enough of a record's jobs to pay.
  void make(const LaneContext& ctx, const PanelJobs& panel);
  bool enabled() const { return filter_.enabled(); }
  std::uint64_t live(const LaneContext& ctx, const std::uint8_t* codes, std::uint64_t n) const {
    return filter_.candidates(codes, n, ctx.kernel.seed_lookup);
  }
  void begin_group() { probes_.clear(); }
  // The live jobs of one strand of a record (bits of `live`, panel order).
  void add_strand(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel,
                  const LaneGroup::Record& rec, std::uint32_t r, bool rc, std::uint64_t coded,
                  std::uint64_t live);
  // After the group's scan: a probe with an end becomes its reverse job, scanned for real;
  // its ends (or, counted, its count) take the probe's place.
  void rescan(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel);
  void rescan_counted(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel);

 private:
  void rescan_flagged(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel);

  SeedFilter filter_;
  std::vector<ScanJob> probe_jobs_;       // by pattern
  std::vector<std::uint64_t> probe_peq_;  // their profiles
  std::vector<std::uint32_t> probes_;     // the group's probe jobs
  std::vector<std::uint8_t> has_end_, is_probe_;  // per job of the group
  std::vector<ScanJob> rest_jobs_;        // the probes rescanned, rest_of_[i] their job
  std::vector<std::uint32_t> rest_of_;
  std::vector<JobState> rest_final_;
};

// The screened strategy: a few patterns of 16 characters or more in short records. Each
// pattern's 16-character piece (and its reverse complement) is looked for in the records'
// bytes first (KernelFns::screen); a strand whose piece has no end <= k has none of its own,
// so records are coded and given jobs only for the strands the screen passes (few, for one
// primer in reads).
class ScreenedRecords {
 public:
  // Sets up the screens where the kernel and the options allow one (not with `filtered`).
  void make(const LaneContext& ctx, bool filtered);
  bool enabled() const { return !screens_.empty(); }
  // Takes records while they fit the group; codes none of them yet. Returns how many.
  std::size_t gather(LaneGroup& group, const LaneContext& ctx,
                     std::span<const std::string_view> texts, std::uint64_t group_steps);
  // Codes the records the screen passes and makes the jobs of the strands it passes.
  void screen(LaneGroup& group, const LaneContext& ctx);

 private:
  bool make_screen(const LaneContext& ctx, std::uint32_t pattern_idx, ScreenPieces& pieces);

  std::vector<ScreenPieces> screens_;       // per pattern; empty: no screen
  std::vector<std::uint32_t> screened_;     // the group's screened records
  std::vector<ScreenText> texts_;           // their texts
  std::vector<std::uint8_t> flags_;         // [pattern][screened record]: ScreenFn's flags
  std::vector<std::uint64_t> scratch_;      // profiles read while making the screens
};

// --paired (pattern i only in record i): a record's jobs cover only the strands, and the
// parts of them, where PairedSeedFilter says an end can be.
class PairedParts {
 public:
  void make(const LaneContext& ctx);
  // Returns false where the filter cannot tell (the record then gets whole-strand jobs).
  bool add_jobs(LaneGroup& group, const LaneContext& ctx, LaneGroup::Record& rec, std::uint32_t r);

 private:
  PairedSeedFilter filter_;
};

// A large DNA panel (PatternIndex): a record's jobs are only its candidate (pattern, strand)
// pairs, each over the part of its strand that can hold the pair's ends, listed by pattern
// (LaneGroup::Record::listed). A record the index cannot tell about (an ambiguous code in
// the text), or too long for a lane, takes the ordinary path.
class IndexedRecords {
 public:
  void make(const PatternIndex* index) { index_ = index; }
  bool enabled() const { return index_ != nullptr; }
  // Takes records while they fit the group (at least one), codes them and makes their jobs.
  // Returns how many.
  std::size_t gather(LaneGroup& group, const LaneContext& ctx, std::span<const std::string_view> texts,
                     std::uint64_t group_steps);

 private:
  const PatternIndex* index_ = nullptr;
  PatternIndex::Scratch scratch_;
  std::vector<PatternIndex::Candidate> candidates_;
};

// contains where the first end decides (no N filter): every forward job was scanned over its
// head only and stopped at its first end; the others carry on over the rest of their text,
// and the reverse strands of those that still found none are scanned. A record that hits
// early is never coded past its head, nor reversed.
class FirstEndPass {
 public:
  void finish(LaneGroup& group, const LaneContext& ctx);

 private:
  void scan_reverse_where_no_end(LaneGroup& group, const LaneContext& ctx);

  std::vector<std::uint8_t> has_end_;  // per forward job
  std::vector<ScanJob> rest_jobs_;     // carried on past their head, rest_of_[i] their job
  std::vector<std::uint32_t> rest_of_;
  std::vector<JobState> rest_final_;
};

// The one group driver: runs the plan's strategy over a group of short records.
class LaneDriver {
 public:
  static constexpr std::uint64_t kAllPatterns = std::numeric_limits<std::uint64_t>::max();

  // Sets up every strategy the options and the pattern set allow (plan choice reads which);
  // `index`: the run's pattern index, if it has one.
  explicit LaneDriver(const LaneContext& ctx, const PatternIndex* index = nullptr);
  bool filtered_panel() const { return filtered_.enabled(); }
  bool screened() const { return screened_.enabled(); }
  bool panel() const { return !panel_.empty(); }
  bool indexed() const { return indexed_.enabled(); }
  void follow(const SearchPlan& plan) { plan_ = plan; }

  // Takes records from the front of `texts` while they fit one group (at least one), scans
  // their jobs and returns how many it took. `paired_first`: kAllPatterns, or (--paired) the
  // pattern of texts[0]; record r then has pattern paired_first + r (none past the last).
  // Records too long for a lane, and patterns longer than 64, get no jobs.
  std::size_t scan(const LaneContext& ctx, std::span<const std::string_view> texts,
                   std::uint64_t paired_first);
  const LaneGroup& group() const { return group_; }

 private:
  std::uint64_t begin_group(const LaneContext& ctx);
  std::size_t gather_records(const LaneContext& ctx, std::span<const std::string_view> texts,
                             std::uint64_t paired_first, std::uint64_t group_steps);
  std::uint64_t add_record_jobs(const LaneContext& ctx, LaneGroup::Record& rec, std::uint32_t r,
                                bool paired);
  void add_strand_jobs(const LaneContext& ctx, const LaneGroup::Record& rec, std::uint32_t r,
                       bool rc, std::uint64_t coded, std::uint64_t live);
  void scan_group(const LaneContext& ctx);

  SearchPlan plan_;
  LaneGroup group_;
  PanelJobs panel_;
  FilteredPanel filtered_;
  ScreenedRecords screened_;
  PairedParts paired_;
  IndexedRecords indexed_;
  FirstEndPass first_end_;
};

}  // namespace trawl
