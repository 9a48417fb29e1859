#include "trawl/run/pipeline.h"

#include <tbb/concurrent_queue.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "trawl/core/errors.h"
#include "trawl/search/searcher.h"

namespace trawl {
namespace {

// Bytes appended in place and never moved: the sequence of a long record as it is read, so
// that windows of the part read so far can be searched while the rest is read. Address space
// for `capacity` bytes, touched only as written, in huge pages where the kernel allows (a
// 100 Mbp chromosome would otherwise fault in 25,000 pages).
class TextBlock {
 public:
  explicit TextBlock(std::size_t capacity) { bytes_.reserve(HugePageAllocator<char>::room_for(capacity)); }
  char* data() { return bytes_.data(); }
  std::size_t capacity() const { return bytes_.capacity(); }

 private:
  HugePageVector<char> bytes_;  // reserved, never resized: data() is the room
};

// Blocks that no task uses any more, for the next long record: a fresh block's pages are
// cleared by the kernel as they are first written, a large part of reading chromosome after
// chromosome (docs/performance.md). Blocks come back from any thread (the last task that
// viewed one), hence the lock; at most kKept are kept.
class BlockPool : public std::enable_shared_from_this<BlockPool> {
 public:
  // A block of at least `capacity` bytes, kept or new (may throw std::bad_alloc); it returns
  // here when its last user drops it.
  std::shared_ptr<TextBlock> get(std::size_t capacity) {
    std::unique_ptr<TextBlock> block;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = kept_.begin(); it != kept_.end(); ++it)
        if ((*it)->capacity() >= capacity) {
          block = std::move(*it);
          kept_.erase(it);
          break;
        }
    }
    if (!block) block = std::make_unique<TextBlock>(capacity);
    std::weak_ptr<BlockPool> home = weak_from_this();
    return {block.release(), [home](TextBlock* b) {
              if (const auto pool = home.lock()) pool->put(std::unique_ptr<TextBlock>(b));
              else delete b;
            }};
  }

 private:
  static constexpr std::size_t kKept = 2;
  void put(std::unique_ptr<TextBlock> block) {
    const std::lock_guard<std::mutex> lock(mutex_);
    kept_.push_back(std::move(block));
    // The largest stay: a later record's bound is the rest of the same file, never more.
    std::sort(kept_.begin(), kept_.end(), [](const auto& a, const auto& b) { return a->capacity() > b->capacity(); });
    if (kept_.size() > kKept) kept_.pop_back();
  }
  std::mutex mutex_;
  std::vector<std::unique_ptr<TextBlock>> kept_;
};

// A record longer than a batch, searched as (pattern, window) tasks of about batch_bases
// residues each, so one chromosome keeps every thread busy. Its sequence is lent by a mapped
// input file, held in `storage`, or (in lines) read into `block` while its first windows are
// searched. Only the input stage changes it; tasks read their own view of the part read.
struct LongRecord {
  std::uint64_t text_idx = 0;
  std::string name;
  std::string_view seq;  // what has been read so far; all of it once `complete`
  bool complete = true;
  std::string storage;
  std::shared_ptr<MappedFile> mapping;
  std::shared_ptr<TextBlock> block;
  // Set by a task whose window's runs reach past the part read: windows are then given only
  // the whole record (see LongRecordAssembler for the task's own second search).
  mutable std::atomic<bool> too_short{false};
};

struct WindowTask {
  std::shared_ptr<const LongRecord> record;
  // The record's sequence as far as it had been read (all of it unless `partial`), and what
  // keeps those bytes alive where they are in a block the record may since have outgrown.
  std::string_view text;
  bool partial = false;
  std::shared_ptr<TextBlock> block;
  std::uint32_t pattern = 0;
  Window window;
  bool last_window = false;   // of this (record, pattern)
  bool last_of_record = false;
  bool no_pattern = false;    // --paired surplus record: counted, not searched
  bool incomplete = false;    // a partial text too short for the window: searched again later

  // The residues whose ends this task owns.
  std::uint64_t bases() const {
    return window.end == Window::kOpen ? text.size() - window.begin : window.end - window.begin;
  }
};

// Everything one task needs on its way through the pipeline; recycled, never freed during
// the run. Either a batch of whole records or one window task.
struct Batch {
  RecordBatch records;
  // Unparsed FASTA records (when has_chunk), parsed into `records` by the parallel stage;
  // an error there waits in `error` until the serial output stage reaches this batch, so
  // everything before it is written first, as when the reader stage parsed.
  FastaChunk chunk;
  bool has_chunk = false;
  std::exception_ptr error;
  InputMark input_mark;  // where the reader was after this task: released once it is written
  std::vector<std::string_view> views;  // records.seq(r), for Searcher::search
  WindowTask task;
  bool is_window = false;
  BatchResults results;
  WindowAnswer window;  // a window task's count or contains answer
  FormattedBatch formatted;
};

void search_batch(Searcher& searcher, Batch& b) {
  b.results.clear();
  const RecordBatch& rb = b.records;
  b.views.clear();
  for (std::size_t r = 0; r < rb.size(); ++r) b.views.push_back(rb.seq(r));
  searcher.search(b.views, rb.first_record, b.results);
}

void search_window(Searcher& searcher, Batch& b) {
  b.results.clear();
  WindowTask& t = b.task;
  b.window = {};
  t.incomplete = false;
  if (t.no_pattern) return;
  b.window = searcher.search(WindowQuery{t.text, t.window, t.partial, t.pattern, t.record->text_idx},
                             b.results);
  if (b.window.incomplete) {
    t.incomplete = true;
    t.record->too_short.store(true, std::memory_order_relaxed);
  }
}

std::uint64_t hits_in(const BatchResults& r, Command command) {
  std::uint64_t total = r.hits.hits.size();
  for (const PairCount& pc : r.pair_counts) total += pc.count;
  if (command == Command::contains)
    for (std::uint8_t f : r.contains) total += f;
  return total;
}

bool output_before(const Hit& a, const Hit& b) {
  if (a.start != b.start) return a.start < b.start;
  if (a.strand != b.strand) return a.strand < b.strand;
  if (a.end != b.end) return a.end < b.end;
  return a.pattern_end > b.pattern_end;
}

// Serial stage helper: merges the window results of a long record into rows in SPEC §7
// order. Hits are released as soon as no later window can produce a hit before them: every
// hit of a later window starts at or after window.end - (m + k) (see trawl::Window). A window
// whose text was too short (the record was still being read) is searched again here once a
// task of the same (record, pattern) brings the whole record, which the last window of the
// pair always does; hits after its start wait for that.
class LongRecordAssembler {
 public:
  LongRecordAssembler(const PatternSet& patterns, const SearchOptions& options,
                      const KernelFns& kernel, const PipelineOptions& opt, ResultSink& sink)
      : patterns_(patterns), options_(options), kernel_(kernel), opt_(opt), sink_(sink) {}

  // Returns the number of hits (or records/pairs with hits, for contains) it emitted.
  std::uint64_t add(const Batch& b) {
    const WindowTask& t = b.task;
    const Command command = opt_.shape.command;
    out_.clear();
    if (t.no_pattern) return 0;
    if (t.incomplete) again_.push_back(t);
    else if (!t.partial && !again_.empty()) search_again(t.text);
    if (command == Command::hits) add_hits(b);
    if (command == Command::count) {
      counts_.fwd += b.window.counts.fwd;
      counts_.rc += b.window.counts.rc;
      if (t.last_window) {
        const std::uint32_t c = reported_count(counts_, opt_.best);
        if (c > 0 || opt_.shape.zeros) out_.pair_counts.push_back({t.record->text_idx, t.pattern, c});
        counts_ = {};
      }
    }
    if (command == Command::contains) {
      pair_contains_ = pair_contains_ || b.window.contains;
      if (t.last_window) {
        if (opt_.shape.per_pair)
          out_.pair_counts.push_back({t.record->text_idx, t.pattern, pair_contains_ ? 1u : 0u});
        record_contains_ = record_contains_ || pair_contains_;
        pair_contains_ = false;
      }
      if (t.last_of_record && !opt_.shape.per_pair) {
        out_.contains.push_back(record_contains_ ? 1 : 0);
        record_contains_ = false;
      }
    }
    view_.clear();
    view_.first_record = t.record->text_idx;
    view_.names = t.record->name;
    view_.name_spans.push_back({0, t.record->name.size()});
    view_.seq_spans.push_back({0, t.text.size()});
    view_.seq_bases = t.text.size();
    view_.external_seq = t.text;
    formatted_.clear();
    sink_.format(view_, out_, formatted_);
    sink_.write(view_, out_, formatted_);
    return hits_in(out_, command);
  }

 private:
  // The windows that wait for the whole record, searched in it (with a searcher of this
  // stage's own: rare, so made on first use).
  void search_again(std::string_view text) {
    if (!searcher_) searcher_.emplace(patterns_, options_, kernel_, SearchMode{opt_.shape, opt_.paired});
    for (const WindowTask& w : again_) {
      again_results_.clear();
      const WindowAnswer a = searcher_->search(WindowQuery{text, w.window, false, w.pattern, w.record->text_idx}, again_results_);
      take_hits(again_results_.hits);
      counts_.fwd += a.counts.fwd;
      counts_.rc += a.counts.rc;
      pair_contains_ = pair_contains_ || a.contains;
    }
    again_.clear();
  }

  void take_hits(const HitList& in) {
    for (const Hit& h : in.hits) {
      Hit copy = h;
      copy.cigar_offset = static_cast<std::uint32_t>(pending_.cigar_ops.size());
      const auto ops = in.cigar(h);
      pending_.cigar_ops.insert(pending_.cigar_ops.end(), ops.begin(), ops.end());
      pending_.hits.push_back(copy);
    }
  }

  void add_hits(const Batch& b) {
    const WindowTask& t = b.task;
    take_hits(b.results.hits);
    // --best holds every window's best until the last window of the pair.
    const std::uint64_t band = patterns_.seq(t.pattern).size() + static_cast<std::uint64_t>(options_.k);
    std::uint64_t watermark = 0;
    if (t.last_window) {
      watermark = Window::kOpen;
      if (opt_.best) keep_best();
    } else if (!opt_.best) {
      watermark = t.window.end > band ? t.window.end - band : 0;
    }
    // Not past the hits a window searched again later may still add.
    for (const WindowTask& w : again_) watermark = std::min(watermark, w.window.begin > band ? w.window.begin - band : 0);
    std::stable_sort(pending_.hits.begin(), pending_.hits.end(), output_before);
    std::size_t release = 0;
    while (release < pending_.hits.size() && pending_.hits[release].start < watermark) ++release;
    for (std::size_t i = 0; i < release; ++i) {
      Hit h = pending_.hits[i];
      const auto ops = pending_.cigar(h);
      h.cigar_offset = static_cast<std::uint32_t>(out_.hits.cigar_ops.size());
      out_.hits.cigar_ops.insert(out_.hits.cigar_ops.end(), ops.begin(), ops.end());
      out_.hits.hits.push_back(h);
    }
    pending_.hits.erase(pending_.hits.begin(), pending_.hits.begin() + static_cast<std::ptrdiff_t>(release));
    if (pending_.hits.empty()) pending_.cigar_ops.clear();
  }

  // Keeps one hit per strand: lowest cost, ties -> largest end in the strand's orientation
  // (for '-' the smallest forward start).
  void keep_best() {
    const Hit* best[2] = {nullptr, nullptr};
    for (const Hit& h : pending_.hits) {
      const Hit*& slot = best[h.strand == Strand::fwd ? 0 : 1];
      const bool better = !slot || h.cost < slot->cost ||
                          (h.cost == slot->cost && (h.strand == Strand::fwd ? h.end > slot->end
                                                                          : h.start < slot->start));
      if (better) slot = &h;
    }
    std::vector<Hit> kept;
    for (const Hit* h : best)
      if (h) kept.push_back(*h);
    pending_.hits = std::move(kept);
  }

  const PatternSet& patterns_;
  const SearchOptions& options_;
  const KernelFns& kernel_;
  const PipelineOptions& opt_;
  ResultSink& sink_;
  std::vector<WindowTask> again_;   // windows to search again in the whole record
  std::optional<Searcher> searcher_;
  BatchResults again_results_;
  HitList pending_;  // hits not yet released, with their CIGAR runs
  StrandCounts counts_;
  bool pair_contains_ = false, record_contains_ = false;
  BatchResults out_;
  RecordBatch view_;
  FormattedBatch formatted_;
};

// How many residues the next task takes: --batch-bases, or fewer where the hits are so
// dense that a task of that size would hold more than kHitBudget hit rows (`trawl hits`
// with a short pattern can find one every other base: 1 MiB batches held ~55 MiB of hits
// each, half a GiB in flight at two threads, and ran slower for it). Fed by the output
// stage after every task, read by the input stage. Hit rows are the only results that grow
// with density, so only `hits` adapts; it starts small and at most doubles per task, as
// the first tasks are read before any is written. Output never depends on task sizes (runs
// are independent, DESIGN §3), so this changes only memory and speed. The budget is small
// because a task's hit rows and formatted text are first-touched memory: each of the
// 2 x threads tasks in flight grows its buffers to the budget, and a page fault costs more
// than formatting the rows on it (8,388,608 dense hits at one thread: 65,536 rows a task
// took 12,100 page faults and 0.42 s, 8,192 rows 2,100 and 0.31 s; smaller tasks than about
// 16 KiB then cost more in hand-offs between threads than they save).
class TaskSizer {
 public:
  static constexpr std::uint64_t kHitBudget = 1 << 13;
  static constexpr std::uint64_t kMinBases = 1 << 14;

  TaskSizer(std::uint64_t batch_bases, bool adaptive)
      : max_(batch_bases), min_(std::min(kMinBases, batch_bases)),
        now_(adaptive ? min_ : batch_bases) {}
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

// The serial input stage: batches of whole records, and the window tasks of long records.
class TaskSource {
 public:
  TaskSource(FastxReader& reader, const PatternSet& patterns, const PipelineOptions& opt,
             const TaskSizer& sizer)
      : reader_(reader), patterns_(patterns), opt_(opt), sizer_(sizer) {}

  // Fills `b` with the next task; false at the end of the input.
  bool next(Batch& b) {
    b.records.clear();
    b.has_chunk = false;
    b.error = nullptr;
    if (long_ && emit_window(b)) return true;
    b.is_window = false;
    const std::uint64_t batch_bases = sizer_.bases();
    // FASTA records are only cut out here and parsed by the parallel stage, so reading
    // keeps up with many threads.
    if (reader_.next_chunk(b.chunk, batch_bases)) {
      b.has_chunk = true;
      b.records.first_record = next_record_;
      next_record_ += b.chunk.records;
      b.input_mark = reader_.mark();
      return true;
    }
    b.records.first_record = next_record_;
    bool took_long = false;
    // (A sequence in lines longer than a batch is read only that far here: see read_long.)
    while (b.records.bases() < batch_bases && reader_.next(b.records, batch_bases)) {
      const std::size_t last = b.records.size() - 1;
      if (reader_.sequence_open() || b.records.seq(last).size() > batch_bases) {
        take_long_record(b.records);  // sets next_record_ past the long record
        took_long = true;
        break;
      }
    }
    if (!took_long) next_record_ = b.records.first_record + b.records.size();
    b.input_mark = took_long ? mark_in_long_record(0) : reader_.mark();
    if (b.records.size() > 0) return true;
    return long_ && emit_window(b);
  }

 private:
  // Moves the last record of the batch out into long_ (no copy when it is alone).
  void take_long_record(RecordBatch& rb) {
    auto rec = std::make_shared<LongRecord>();
    const std::size_t last = rb.size() - 1;
    rec->text_idx = rb.first_record + last;
    rec->name = std::string(rb.name(last));
    rb.seq_bases -= rb.seq_spans[last].length;
    if (rb.seq_spans[last].offset & RecordBatch::kBorrowed) {
      // A one-line sequence of a mapped file stays where it is (FastxReader::next lent it).
      rec->seq = rb.seq(last);
      rec->mapping = rb.borrowed_mapping;
    } else if (reader_.sequence_open()) {
      // The rest of a sequence in lines goes into a block while its first windows are
      // searched: room for the rest of the file where that is known, else grown as needed.
      const std::string_view first = rb.seq(last);
      const std::uint64_t bound = reader_.sequence_bound();
      rec->block = make_block(first.size() + (bound > 0 ? bound : kFirstBlock));
      std::memcpy(rec->block->data(), first.data(), first.size());
      rec->seq = {rec->block->data(), first.size()};
      rec->complete = false;
      rb.seqs.resize(rb.seq_spans[last].offset);
    } else if (last == 0) {
      rec->storage.swap(rb.seqs);
      rec->seq = rec->storage;
    } else {
      rec->storage = std::string(rb.seq(last));
      rec->seq = rec->storage;
      rb.seqs.resize(rb.seq_spans[last].offset);
    }
    rb.names.resize(rb.name_spans[last].offset);
    rb.name_spans.pop_back();
    rb.seq_spans.pop_back();
    rb.first_record = rec->text_idx - last;
    if (last == 0) rb.clear();
    long_ = std::move(rec);
    next_record_ = long_->text_idx + 1;
    const auto npat = static_cast<std::uint32_t>(patterns_.size());
    if (opt_.paired) {
      pattern_ = long_->text_idx < npat ? static_cast<std::uint32_t>(long_->text_idx) : npat;
      pattern_end_ = long_->text_idx < npat ? pattern_ + 1 : npat;
    } else {
      pattern_ = 0;
      pattern_end_ = npat;
    }
    window_begin_ = 0;
    // A --paired surplus record has no pattern: one task that only counts it.
    no_pattern_ = pattern_ == pattern_end_;
    if (no_pattern_) pattern_end_ = pattern_ + 1;
  }

  // A position `offset` bytes into the long record, where it lies in a mapped input file
  // (FastxReader lent it), else where the reader is. Windows a task leaves to later tasks
  // are read from the mapping, so they must stay; releasing too early would only cost page
  // faults (a read-only file mapping reads its pages again), never wrong bytes. A window
  // reads at most m + k before its start, except when a run crosses its border (k >= m),
  // which the margin of a whole window covers in all but extreme cases.
  InputMark mark_in_long_record(std::uint64_t offset) const {
    if (!long_->mapping) return reader_.mark();
    return {long_->mapping, long_->seq.data() + offset};
  }

  // A block of at least `capacity` bytes; smaller where the system will not give that much
  // address space at once (the block then grows as it fills).
  std::shared_ptr<TextBlock> make_block(std::uint64_t capacity) {
    for (;; capacity /= 2) {
      try {
        return blocks_->get(static_cast<std::size_t>(capacity));
      } catch (const std::bad_alloc&) {
        if (capacity <= kFirstBlock) throw;
      }
    }
  }

  // Reads the long record on until it holds `want` bytes or all of it. A block that fills is
  // replaced by one twice its size; the tasks that view the old one keep it alive.
  void read_long(std::uint64_t want) {
    LongRecord& r = *long_;
    while (!r.complete && r.seq.size() < want) {
      const std::size_t have = r.seq.size();
      if (have == r.block->capacity()) {
        std::shared_ptr<TextBlock> bigger = make_block(2 * std::uint64_t{r.block->capacity()});
        std::memcpy(bigger->data(), r.block->data(), have);
        r.block = std::move(bigger);
      }
      const std::size_t room = static_cast<std::size_t>(
          std::min<std::uint64_t>(r.block->capacity() - have, std::max<std::uint64_t>(want - have, kReadStep)));
      const std::size_t got = reader_.read_sequence(r.block->data() + have, room);
      r.seq = {r.block->data(), have + got};
      r.complete = !reader_.sequence_open();
    }
  }

  bool emit_window(Batch& b) {
    if (pattern_ >= pattern_end_) {
      long_.reset();
      return false;
    }
    const std::uint64_t size = sizer_.bases();
    // A record still being read gets a window once the text reaches a window past it (room
    // for the runs that cross its end); once a window found that too short, or to count a
    // record without a pattern, all of it is read first.
    if (!long_->complete)
      read_long(no_pattern_ || long_->too_short.load(std::memory_order_relaxed) ? ~std::uint64_t{0}
                                                                               : window_begin_ + 2 * size);
    b.is_window = true;
    WindowTask& t = b.task;
    t.record = long_;
    t.text = long_->seq;
    t.partial = !long_->complete;
    t.block = long_->block;
    t.pattern = pattern_;
    const std::uint64_t n = long_->seq.size();
    t.window.begin = window_begin_;
    t.window.end = window_begin_ + size < n ? window_begin_ + size : Window::kOpen;
    t.last_window = t.window.end == Window::kOpen || no_pattern_;
    t.last_of_record = t.last_window && pattern_ + 1 == pattern_end_;
    t.no_pattern = no_pattern_;
    // What is released once this task is written: all that was read, after the record's
    // last task; before that, nothing of a record lent by a mapped file that a later task
    // reads (the last pattern's windows pass its pages in order; see mark_in_long_record).
    if (t.last_of_record) {
      b.input_mark = reader_.mark();
    } else {
      const bool last_pattern = pattern_ + 1 == pattern_end_;
      // (opt_.batch_bases: the largest window any task of this record may have.)
      const std::uint64_t behind = opt_.batch_bases + patterns_.max_length();
      b.input_mark = mark_in_long_record(last_pattern && t.window.begin > behind ? t.window.begin - behind : 0);
    }
    if (t.last_window) {
      ++pattern_;
      window_begin_ = 0;
    } else {
      window_begin_ = t.window.end;
    }
    b.records.first_record = long_->text_idx;
    return true;
  }

 private:
  FastxReader& reader_;
  const PatternSet& patterns_;
  const PipelineOptions& opt_;
  const TaskSizer& sizer_;
  std::uint64_t next_record_ = 0;
  // A long record's first block where the rest of its input is of unknown size, and the
  // least read_long reads at once.
  static constexpr std::uint64_t kFirstBlock = std::uint64_t{64} << 20;
  static constexpr std::uint64_t kReadStep = std::uint64_t{1} << 20;
  std::shared_ptr<BlockPool> blocks_ = std::make_shared<BlockPool>();
  std::shared_ptr<LongRecord> long_;
  std::uint32_t pattern_ = 0, pattern_end_ = 0;
  std::uint64_t window_begin_ = 0;
  bool no_pattern_ = false;
};

}  // namespace

RunStats run_pipeline(FastxReader& reader, const PatternSet& patterns,
                      const SearchOptions& options, const KernelFns& kernel, ResultSink& sink,
                      const PipelineOptions& opt,
                      const std::function<void(const RunStats&)>& progress) {
  const int threads = opt.threads < 1 ? 1 : opt.threads;
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(threads));
  // Two tasks per thread in flight keep every thread busy while the serial stages work (the
  // reader and writer take a small part of a task's time), and bound memory to that many
  // batches (plus the long record being split). Not four (DESIGN §1's first guess): every
  // task's input block is a fresh 2 MiB huge page the reader clears on first touch, and the
  // reader runs ahead to fill every token, so four a thread cleared twice the memory on the
  // serial stage for nothing (262,144 --paired records, 2 threads: 123 -> 112 ms, peak RSS
  // 36.8 -> 25.8 MB; 2,097,152: 446 -> 404 ms).
  const std::size_t tokens = 2 * static_cast<std::size_t>(threads);
  std::vector<std::unique_ptr<Batch>> pool;
  tbb::concurrent_queue<Batch*> free_batches;
  for (std::size_t i = 0; i < tokens; ++i) {
    pool.push_back(std::make_unique<Batch>());
    free_batches.push(pool.back().get());
  }
  tbb::enumerable_thread_specific<Searcher> searchers(
      [&] { return Searcher(patterns, options, kernel, SearchMode{opt.shape, opt.paired}); });
  TaskSizer sizer(opt.batch_bases, opt.shape.command == Command::hits);
  TaskSource source(reader, patterns, opt, sizer);
  LongRecordAssembler assembler(patterns, options, kernel, opt, sink);

  // Runs body(i, at, len) for the parts [at, at + len) of n bytes, `part` bytes each, on
  // every thread, from inside the serial input stage (isolated: a thread waiting for the
  // parts runs only parts, never a pipeline stage).
  const auto for_each_part = [](std::size_t n, std::size_t part, const auto& body) {
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(std::size_t{0}, (n + part - 1) / part, [&](std::size_t i) {
        const std::size_t at = i * part;
        body(i, at, std::min(part, n - at));
      });
    });
  };
  // A long one-line record's end is searched by every thread, in parts of 4 MiB.
  reader.set_line_end_finder([for_each_part](const char* p, std::size_t n) {
    constexpr std::size_t kPart = std::size_t{4} << 20;
    std::atomic<std::size_t> first{n};
    for_each_part(n, kPart, [&](std::size_t, std::size_t at, std::size_t len) {
      if (at >= first.load(std::memory_order_relaxed)) return;  // an earlier part has it
      const std::size_t end = FastxReader::find_line_end(p + at, len);
      if (end == len) return;
      std::size_t seen = first.load(std::memory_order_relaxed);
      while (at + end < seen && !first.compare_exchange_weak(seen, at + end, std::memory_order_relaxed)) {
      }
    });
    return first.load();
  });
  // The input stage's line index of a chunk (the first read of its bytes, about a sixth of
  // the one-thread work on short records) would cap the speed-up near six threads: with
  // more than two it is split over parts of 256 KiB, each indexed by any thread into its own
  // list, then joined in order. (With two threads the serial stage never holds the other
  // back: it is far below half the work.)
  if (threads > 2) {
    auto parts = std::make_shared<std::vector<UninitializedVector<std::uint32_t>>>();
    reader.set_line_indexer([parts, for_each_part](std::string_view bytes, UninitializedVector<std::uint32_t>& newlines) {
      constexpr std::size_t kPart = std::size_t{256} << 10;
      const std::size_t n = bytes.size();
      const std::size_t count = (n + kPart - 1) / kPart;
      if (parts->size() < count) parts->resize(count);
      std::atomic<bool> nul{false};
      for_each_part(n, kPart, [&](std::size_t i, std::size_t at, std::size_t len) {
        if (FastxReader::index_lines(bytes.substr(at, len), (*parts)[i])) nul.store(true, std::memory_order_relaxed);
      });
      std::size_t total = 0;
      for (std::size_t i = 0; i < count; ++i) total += (*parts)[i].size();
      newlines.resize(total);
      std::uint32_t* out = newlines.data();
      for (std::size_t i = 0; i < count; ++i) {
        const auto at = static_cast<std::uint32_t>(i * kPart);  // n < 4 GiB (an indexed chunk)
        for (const std::uint32_t offset : (*parts)[i]) *out++ = at + offset;
      }
      return nul.load();
    });
  }
  // A reader read on after this run searches and indexes on its own thread again (the
  // finder and the indexer run TBB work under this run's thread limit).
  struct ResetReader {
    FastxReader& reader;
    ~ResetReader() {
      reader.set_line_end_finder({});
      reader.set_line_indexer({});
    }
  } reset_reader{reader};

  RunStats stats;
  bool input_done = false;
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, Batch*>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& fc) -> Batch* {
            Batch* b = nullptr;
            if (input_done || !free_batches.try_pop(b)) {
              fc.stop();
              return nullptr;
            }
            if (!source.next(*b)) {
              input_done = true;
              free_batches.push(b);
              fc.stop();
              return nullptr;
            }
            return b;
          }) &
          tbb::make_filter<Batch*, Batch*>(
              tbb::filter_mode::parallel,
              [&](Batch* b) {
                if (b->has_chunk) {
                  try {
                    FastxReader::parse_chunk(b->chunk, b->records);
                  } catch (const InputError&) {
                    b->error = std::current_exception();
                    return b;
                  }
                }
                if (b->is_window) {
                  search_window(searchers.local(), *b);
                } else {
                  search_batch(searchers.local(), *b);
                  b->formatted.clear();
                  sink.format(b->records, b->results, b->formatted);
                }
                return b;
              }) &
          tbb::make_filter<Batch*, void>(
              tbb::filter_mode::serial_in_order, [&](Batch* b) {
                if (b->error) std::rethrow_exception(b->error);
                if (opt.shape.command == Command::hits)
                  sizer.observe(b->is_window ? b->task.bases() : b->records.bases(),
                                b->results.hits.hits.size());
                if (b->is_window) {
                  stats.hits += assembler.add(*b);
                  FastxReader::release(b->input_mark);
                  if (b->task.last_of_record) {
                    stats.records += 1;
                    stats.bases += b->task.text.size();
                  }
                  b->task.record.reset();
                  b->task.block.reset();
                } else {
                  sink.write(b->records, b->results, b->formatted);
                  FastxReader::release(b->input_mark);
                  stats.records += b->records.size();
                  stats.bases += b->records.bases();
                  stats.hits += hits_in(b->results, opt.shape.command);
                }
                free_batches.push(b);
                if (progress) progress(stats);
              }));

  sink.close();
  if (opt.paired && stats.records != patterns.size())
    throw InputError("--paired needs one pattern per record, but there are " +
                     std::to_string(patterns.size()) + " patterns and " +
                     std::to_string(stats.records) + " records");
  return stats;
}

void for_each_in_parallel(std::size_t count, int threads, const std::function<void(std::size_t)>& body) {
  if (threads <= 1 || count <= 1) {  // no scheduler for work one thread does anyway
    for (std::size_t i = 0; i < count; ++i) body(i);
    return;
  }
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(threads));
  tbb::parallel_for(std::size_t{0}, count, [&](std::size_t i) { body(i); });
}

}  // namespace trawl
