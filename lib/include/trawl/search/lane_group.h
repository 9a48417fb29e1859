#pragma once
// LaneGroup: one work group of short records in the kernel's job lanes — the records, their
// class codes, the (record, pattern, strand) jobs a strategy made for them, and, once
// scanned, each job's ends (or its count). The lane strategies (lane_strategies.h) fill a
// group, LaneDriver scans it, and the searcher answers each record from it.
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "trawl/core/pattern_set.h"
#include "trawl/core/search_options.h"
#include "trawl/core/uninitialized_vector.h"
#include "trawl/kernel/kernel.h"
#include "trawl/search/seed_filter.h"
#include "trawl/search/selection.h"

namespace trawl {

// What filling and scanning a group reads, fixed for the run (the searcher's; a view made
// per group, so no object keeps a pointer into another).
struct LaneContext {
  const PatternSet& patterns;
  const SearchOptions& options;
  const KernelFns& kernel;
  const std::array<std::uint8_t, 256>& class_of;  // text byte -> class

  unsigned strands() const { return options.searches_rc() ? 2 : 1; }
  // The pattern's profile on one strand: precomputed, or built on demand at the end of `out`
  // (a group keeps its profiles there without copying each from a scratch).
  StrandProfile profile_into(std::uint32_t pattern_idx, Strand strand,
                             std::vector<std::uint64_t>& out) const;
};

class LaneGroup {
 public:
  static constexpr std::uint32_t kNoJobs = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint64_t kAllLive = ~std::uint64_t{0};
  static constexpr std::uint64_t kNoProfile = std::numeric_limits<std::uint64_t>::max();

  struct Record {
    std::string_view text;
    std::uint32_t codes_offset = 0;  // in fwd / rev (a group's codes are few)
    std::uint32_t first_job = kNoJobs;  // kNoJobs: not in lanes (the ordinary path)
    std::uint32_t first_pattern = 0;
    std::uint32_t patterns = 0;  // its jobs: every pattern's forward, then (2 strands) reverse
    std::uint32_t jobs = 0;
    // Filtered (by SeedFilter, PairedSeedFilter or the screen; a record ruled out has no
    // jobs, and first_job 0): only the jobs of the bits of `live` were made (bit i: job i
    // of the list above), in that order; kAllLive: every job, as listed.
    std::uint64_t live = kAllLive;
    // Indexed (PatternIndex): only the jobs of candidate pairs were made, by pattern, forward
    // first (a pair without a job has no end).
    bool listed = false;
  };
  // Where each job's text and profile are, to fix the jobs up once the buffers stop growing.
  struct JobSource {
    std::uint64_t codes;
    bool rc;
    std::uint64_t peq;  // offset in peq, or kNoProfile: the precomputed profile in the job
    std::uint32_t pattern;
    std::uint32_t record;  // in records
  };

  // The start column of a job at the text start, by pattern length (overhang changes it).
  void set_start_columns(const SearchOptions& options);
  const std::pair<std::uint64_t, std::int64_t>& start_column(std::uint32_t m) const {
    return start_column_[m];
  }

  // Empties the group. `strands`: jobs per (record, pattern), listed forward then reverse;
  // `counted`: ends are counted as the kernel yields them, never kept; chunk_steps: the most
  // steps the kernel is given at once.
  void begin(unsigned strands, bool counted, std::uint64_t chunk_steps);
  // A job of pattern `pattern_idx` over n codes at `codes` of one strand of `record`.
  void add_job(const LaneContext& ctx, std::uint64_t codes, bool rc, std::uint32_t pattern_idx,
               std::uint32_t record, std::uint32_t n);
  // A job of pattern `pattern_idx` over part of one strand of `record` (rec): codes
  // [range.begin, range.end) of the strand, started earlier (or ended later) to a whole
  // number of kPartQuantum steps, which finds the same ends.
  void add_part_job(const LaneContext& ctx, const Record& rec, std::uint32_t record, std::uint32_t pattern_idx,
                    bool rc, StrandRange range);
  // Points the jobs at their codes and profiles where those buffers moved as they grew.
  void fix_up_jobs();
  const std::uint8_t* codes_of(bool rc, std::uint64_t codes) const {
    return (rc ? rev : fwd).data() + codes;
  }

  // Scans jobs[0, n) (not necessarily the group's own), chunk by chunk. Kept: their ends go
  // to raw_ends with job = first_job + i. counted: adds them to counts[first_job + i].
  // Their last columns go to finals[i].
  void scan_chunked(const LaneContext& ctx, const ScanJob* jobs, std::size_t n,
                    std::uint32_t first_job, JobState* finals, bool first_only, bool counted);
  // Counted scan of every job, start columns included (count, when the plan counts ends).
  void scan_counted(const LaneContext& ctx);
  // Resets the counts of `jobs` and counts their start columns (a rescan's, before its ends).
  void recount_start_columns(const LaneContext& ctx, std::span<const std::uint32_t> jobs);
  // Adds the ends in raw_ends[from, ..) to their jobs' counts, finishes `jobs`' counts, and
  // drops those ends.
  void count_rescanned(const LaneContext& ctx, std::size_t from, std::span<const std::uint32_t> jobs);
  // Groups raw_ends by job (ends_of), once every scan of the group is done.
  void group_ends();

  // The job of (pattern, strand) of record `rec`; kNoJobs for one that was ruled out or a
  // reverse strand never scanned (its forward strand found an end first).
  std::uint32_t job_of(const Record& rec, std::uint32_t pattern_idx, Strand strand) const;
  bool job_has_ends(std::uint32_t j) const {
    return j != kNoJobs && end_offsets_[j + 1] > end_offsets_[j];
  }
  std::span<const EndCost> ends_of(std::uint32_t j) const {
    const std::uint32_t count = end_offsets_[j + 1] - end_offsets_[j];
    if (count == 0) return {};
    return {ends_.data() + end_offsets_[j] + j, count};
  }
  // Whether none of the record's jobs found an end; only where every end is kept and the
  // record's jobs lie together.
  bool record_has_no_ends(const Record& rec) const {
    return end_offsets_[rec.first_job + rec.jobs] == end_offsets_[rec.first_job];
  }
  // Whether `rec` has a job for each of its patterns on each strand, in Record's order
  // (neither filtered nor indexed).
  bool has_every_job(const Record& rec) const { return !rec.listed && rec.live == kAllLive; }
  // Whether some strand of pattern `pattern_idx` found an end in `rec`, a record that
  // has_every_job and whose ends were kept.
  bool pattern_has_ends(const Record& rec, std::uint32_t pattern_idx) const {
    const std::uint32_t j = rec.first_job + (pattern_idx - rec.first_pattern);
    if (end_offsets_[j + 1] > end_offsets_[j]) return true;
    return strands == 2 && end_offsets_[j + rec.patterns + 1] > end_offsets_[j + rec.patterns];
  }

  // The group, as the strategies fill it and the driver scans it.
  std::vector<Record> records;
  UninitializedVector<std::uint8_t> fwd, rev;  // the records' class codes, back to back
  std::vector<ScanJob> jobs;
  std::vector<JobSource> sources;           // per job
  std::vector<std::uint64_t> peq;           // profiles built on demand for the jobs
  // Where job j's text starts in its strand's codes: job_offsets[j], or 0 past its size
  // (only jobs over part of a strand have one). Its ends count from there.
  std::vector<std::uint32_t> job_offsets;
  unsigned strands = 1;
  // With one strand where both are searched (the first end decides): each forward job's
  // reverse job, or kNoJobs.
  std::vector<std::uint32_t> rc_job;
  bool counted = false;
  std::vector<std::uint32_t> counts;  // counted: per job
  std::vector<JobEnd> raw_ends;       // kept: the scans' ends, job by job in any order
  std::vector<JobState> finals;       // per job, its last column

 private:
  // Resets job j's count to its start column's end, if that has one.
  void count_start_column(const LaneContext& ctx, std::uint32_t j);

  std::uint64_t chunk_steps_ = 0;
  std::array<std::pair<std::uint64_t, std::int64_t>, 65> start_column_{};  // (vp, score) by m
  const std::uint8_t* fwd_start_ = nullptr;  // the codes' buffers when the group began
  const std::uint8_t* rev_start_ = nullptr;
  std::vector<LocalMinimaCounter> counters_;  // counted, local minima: per job
  UninitializedVector<JobEnd> chunk_ends_;    // the kernel's output for one chunk of jobs
  // Ends of job j: ends_[off[j] + j, off[j + 1] + j) (a group without ends leaves ends_ as
  // it was).
  std::vector<std::uint32_t> end_offsets_;
  std::vector<EndCost> ends_;
  std::vector<std::uint32_t> fill_;
};

}  // namespace trawl
