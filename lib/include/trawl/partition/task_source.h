#pragma once
// The input side of a run, cut into tasks of about equal residues (not records): batches of
// whole records, and the (pattern, window) tasks of records longer than a task. Serial: the
// run's input stage calls TaskSource::next; workers only read the tasks it fills.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

#include "trawl/core/pattern_set.h"
#include "trawl/core/region.h"
#include "trawl/core/shard.h"
#include "trawl/io/reader.h"
#include "trawl/io/record_batch.h"
#include "trawl/partition/long_record.h"

namespace trawl {

// One task: either a batch of whole records (unparsed FASTA bytes in `chunk` where
// has_chunk, to be parsed into `records` by a worker) or one window of a long record.
struct Task {
  RecordBatch records;
  FastaChunk chunk;
  bool has_chunk = false;
  // The chunk's records to keep once parsed (a --shard's last chunk may hold the next
  // shard's records); all where it is the maximum.
  std::uint64_t keep = UINT64_MAX;
  InputMark input_mark;  // where the reader was after this task: released once it is written
  std::uint64_t input_bytes = 0;  // the reader's bytes_read() after this task (progress)
  WindowTask window;
  bool is_window = false;

  std::uint64_t bases() const { return is_window ? window.bases() : records.bases(); }
};

// How many residues the next task takes: the run's task size, or fewer where the hits are so
// dense that a task of that size would hold more than kHitBudget hit rows. Fed by the output
// stage after every task, read by the input stage. Hit rows are the only results that grow
// with density, so only `hits` adapts; it starts small and at most doubles per task, as the
// first tasks are read before any is written. Output never depends on task sizes (runs of
// ends are independent, docs/semantics.md §10), so this changes only memory and speed. The
// budget is small because a task's hit rows and formatted text are first-touched memory:
// every task in flight grows its buffers to the budget, and a page fault costs more than
// formatting the rows on it; much smaller tasks cost more in hand-offs between threads than
// they save (docs/performance.md).
class TaskSizer {
 public:
  static constexpr std::uint64_t kHitBudget = 1 << 13;
  static constexpr std::uint64_t kMinBases = 1 << 14;

  TaskSizer(std::uint64_t task_bases, bool adaptive)
      : max_(task_bases), min_(std::min(kMinBases, task_bases)),
        now_(adaptive ? min_ : task_bases) {}
  std::uint64_t bases() const { return now_.load(std::memory_order_relaxed); }
  // A task of `task_bases` residues yielded `hits` hit rows: size the next ones for that
  // density.
  void observe(std::uint64_t task_bases, std::uint64_t hits) {
    if (task_bases == 0) return;
    const std::uint64_t fit = hits == 0 ? max_ : task_bases * kHitBudget / hits;
    now_.store(std::clamp(std::min(fit, 2 * bases()), min_, max_), std::memory_order_relaxed);
  }

 private:
  const std::uint64_t max_, min_;
  std::atomic<std::uint64_t> now_;
};

class TaskSource {
 public:
  // `paired`: pattern i only in record i. `max_task_bases`: the largest task the sizer gives.
  // `region`: a long record's windows cover only that part of it (read whole first).
  // `records`: only these records become tasks (--shard): those before are read and dropped,
  // reading stops after the last.
  TaskSource(FastxReader& reader, const PatternSet& patterns, bool paired,
             std::uint64_t max_task_bases, const TaskSizer& sizer,
             std::optional<Region> region = std::nullopt, RecordRange records = {})
      : reader_(reader), patterns_(patterns), paired_(paired), max_task_bases_(max_task_bases),
        sizer_(sizer), region_(region), range_(records) {}

  // Fills `t` with the next task; false at the end of the input.
  bool next(Task& t);

 private:
  bool next_filled(Task& t);
  bool next_records(Task& t);
  void skip_to_range();
  bool next_pairs(Task& t, std::uint64_t task_bases);
  void take_long_record(RecordBatch& rb);
  InputMark mark_in_long_record(std::uint64_t offset) const;
  std::shared_ptr<TextBlock> make_block(std::uint64_t capacity);
  void read_long(std::uint64_t want);
  bool emit_window(Task& t);
  InputMark window_mark(const WindowTask& w) const;

  FastxReader& reader_;
  const PatternSet& patterns_;
  const bool paired_;
  const std::uint64_t max_task_bases_;
  const TaskSizer& sizer_;
  const std::optional<Region> region_;
  const RecordRange range_;
  bool skipped_ = false;  // the records before range_.first are read
  std::uint64_t next_record_ = 0;
  // A long record's first block where the rest of its input is of unknown size, and the
  // least read_long reads at once.
  static constexpr std::uint64_t kFirstBlock = std::uint64_t{64} << 20;
  static constexpr std::uint64_t kReadStep = std::uint64_t{1} << 20;
  std::shared_ptr<BlockPool> blocks_ = std::make_shared<BlockPool>();
  std::shared_ptr<LongRecord> long_;
  std::uint32_t pattern_ = 0, pattern_end_ = 0;
  std::uint64_t window_begin_ = 0;
  std::vector<Span> parts_;  // the long record's parts (--region), and the part of the windows
  std::size_t part_ = 0;
  bool no_pattern_ = false;
};

}  // namespace trawl
