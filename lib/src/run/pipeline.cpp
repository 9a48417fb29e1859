#include "trawl/run/pipeline.h"

#include <tbb/concurrent_queue.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "trawl/core/errors.h"
#include "trawl/partition/assembler.h"
#include "trawl/partition/record_parts.h"
#include "trawl/partition/task_source.h"
#include "trawl/search/searcher.h"

namespace trawl {
namespace {

// Everything one task needs on its way through the pipeline; recycled, never freed during
// the run. A parse error of the worker waits in `error` until the serial output stage
// reaches this batch, so everything before it is written first, as when the reader stage
// parsed.
struct Batch {
  Task task;
  std::exception_ptr error;
  std::vector<std::string_view> views;  // records.seq(r), for Searcher::search
  RecordParts parts;                     // --region
  BatchResults results;
  WindowAnswer window;  // a window task's count or contains answer
  FormattedBatch formatted;
};

// Searches a batch of whole records, or with a region each record as its parts
// (RecordParts): one part each is searched as the record by the run's searcher, its hits
// moved back to the record's coordinates (the formatted match_region is the same bytes either
// way); several are searched as records of their own by `part_searcher`, whose hits
// RecordParts folds into the run's rows.
void search_batch(Searcher& searcher, Batch& b, const PipelineOptions& opt, Searcher& part_searcher,
                  std::uint32_t patterns) {
  b.results.clear();
  const RecordBatch& rb = b.task.records;
  if (!opt.region) {
    b.views.clear();
    for (std::size_t r = 0; r < rb.size(); ++r) b.views.push_back(rb.seq(r));
    searcher.search(b.views, rb.first_record, b.results);
    return;
  }
  b.parts.split(rb, *opt.region);
  if (b.parts.one_each()) {
    searcher.search(b.parts.views(), rb.first_record, b.results);
    b.parts.place(b.results);
    return;
  }
  part_searcher.search(b.parts.views(), 0, b.results);
  b.parts.fold(b.results, opt.shape, opt.best, patterns);
}

void search_window(Searcher& searcher, Batch& b) {
  b.results.clear();
  WindowTask& t = b.task.window;
  b.window = {};
  t.incomplete = false;
  if (t.no_pattern) return;
  b.window = searcher.search(WindowQuery{t.searched(), t.window, t.partial, t.pattern, t.record->text_idx},
                             b.results);
  if (b.window.incomplete) {
    t.incomplete = true;
    t.record->too_short.store(true, std::memory_order_relaxed);
  }
}

// The searchers of the worker threads: one in the run's mode; one for the parts of records
// where the region has several ranges and the run is not hits (made on first use).
struct Searchers {
  Searchers(const PatternSet& patterns, const SearchOptions& options, const KernelFns& kernel, const SearchMode& mode)
      : run([&] { return Searcher(patterns, options, kernel, mode); }),
        parts([&patterns, &options, &kernel, mode] {
          SearchMode m = mode;
          m.shape = RecordParts::searched_shape(mode.shape);
          return Searcher(patterns, options, kernel, m);
        }),
        parts_differ(mode.shape.command != Command::hits) {}
  tbb::enumerable_thread_specific<Searcher> run, parts;
  const bool parts_differ;
};

// The worker stage: parse a chunk, search, format.
void work_on(Batch& b, Searchers& searchers, const ResultSink& sink, const PipelineOptions& opt,
             std::uint32_t patterns) {
  Task& t = b.task;
  if (t.has_chunk) {
    try {
      FastxReader::parse_chunk(t.chunk, t.records);
      t.records.truncate(t.keep);
    } catch (const InputError&) {
      b.error = std::current_exception();
      return;
    }
  }
  Searcher& searcher = searchers.run.local();
  if (t.is_window) {
    search_window(searcher, b);
    return;
  }
  const bool parts = opt.region && !opt.region->single();
  search_batch(searcher, b, opt, parts && searchers.parts_differ ? searchers.parts.local() : searcher, patterns);
  b.formatted.clear();
  sink.format(t.records, b.results, b.formatted);
}

// Runs body(i, at, len) for the parts [at, at + len) of n bytes, `part` bytes each, on every
// thread, from inside the serial input stage (isolated: a thread waiting for the parts runs
// only parts, never a pipeline stage).
template <class Body>
void for_each_part(std::size_t n, std::size_t part, const Body& body) {
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(std::size_t{0}, (n + part - 1) / part, [&](std::size_t i) {
      const std::size_t at = i * part;
      body(i, at, std::min(part, n - at));
    });
  });
}

// A long one-line record's end is searched by every thread, in parts of 4 MiB.
std::size_t find_line_end_in_parallel(const char* p, std::size_t n) {
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
}

// The input stage's line index of a chunk (the first read of its bytes, a good part of the
// one-thread work on short records) would cap the speed-up at a few threads: split over
// parts of 256 KiB, each indexed by any thread into its own list, then joined in order.
FastxReader::LineIndexer parallel_line_indexer() {
  auto parts = std::make_shared<std::vector<UninitializedVector<std::uint32_t>>>();
  return [parts](std::string_view bytes, UninitializedVector<std::uint32_t>& newlines) {
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
  };
}

// The reader's own line work done by every thread for the length of a run: a reader read on
// afterwards does it on its own thread again (the helpers run TBB work under this run's
// thread limit). From two threads on: a FASTQ filter run's line index is about a third of
// its one-thread work, enough for the serial stage to hold a second thread back.
class ParallelReading {
 public:
  ParallelReading(FastxReader& reader, int threads) : reader_(reader) {
    reader_.set_line_end_finder(find_line_end_in_parallel);
    if (threads >= 2) reader_.set_line_indexer(parallel_line_indexer());
  }
  ~ParallelReading() {
    reader_.set_line_end_finder({});
    reader_.set_line_indexer({});
  }
  ParallelReading(const ParallelReading&) = delete;
  ParallelReading& operator=(const ParallelReading&) = delete;

 private:
  FastxReader& reader_;
};

// The serial output stage: a batch's rows to the sink (a window's through the assembler),
// its input released, the run's totals and the task sizer fed.
class Writer {
 public:
  Writer(ResultSink& sink, LongRecordAssembler& assembler, TaskSizer& sizer, Command command,
         const FastxReader& reader, PipelineReport* report)
      : sink_(sink), assembler_(assembler), sizer_(sizer), command_(command), reader_(reader), report_(report) {
    if (report_) report_->inputs.assign(reader.inputs().size(), RunStats{});
  }

  void write(Batch& b, RunStats& stats) {
    if (b.error) std::rethrow_exception(b.error);
    Task& t = b.task;
    if (command_ == Command::hits) sizer_.observe(t.bases(), b.results.hits.hits.size());
    if (t.is_window) {
      stats.hits += assembler_.add(t.window, b.results, b.window);
      FastxReader::release(t.input_mark);
      stats.input_read = t.input_bytes;
      if (t.window.last_of_record) {
        stats.records += 1;
        stats.bases += t.window.text.size();
        if (report_) {
          RunStats& in = report_->inputs[reader_.input_of(t.window.record->text_idx)];
          in.records += 1;
          in.bases += t.window.text.size();
        }
      }
      t.window.record.reset();
      t.window.block.reset();
      return;
    }
    sink_.write(t.records, b.results, b.formatted);
    FastxReader::release(t.input_mark);
    stats.input_read = t.input_bytes;
    stats.records += t.records.size();
    stats.bases += t.records.bases();
    stats.hits += hits_in(b.results, command_);
    if (report_) count_inputs(t.records);
  }

 private:
  // The batch's records and bases by input (a batch of small files can hold several).
  void count_inputs(const RecordBatch& rb) {
    if (reader_.mates() == MateLayout::two_files) {
      count_mate_files(rb);
      return;
    }
    for (std::size_t r = 0; r < rb.size();) {
      const std::size_t input = reader_.input_of(rb.first_record + r);
      const std::uint64_t next_first = reader_.first_record_of(input + 1);  // > the record's index
      const std::size_t end = static_cast<std::size_t>(std::min<std::uint64_t>(rb.size(), next_first - rb.first_record));
      RunStats& in = report_->inputs[input];
      in.records += end - r;
      for (; r < end; ++r) in.bases += rb.seq_spans[r].length;
    }
  }

  // Two mate files take turns (FastxReader::input_of), so each record is counted alone.
  void count_mate_files(const RecordBatch& rb) {
    for (std::size_t r = 0; r < rb.size(); ++r) {
      RunStats& in = report_->inputs[reader_.input_of(rb.first_record + r)];
      in.records += 1;
      in.bases += rb.seq_spans[r].length;
    }
  }

  ResultSink& sink_;
  LongRecordAssembler& assembler_;
  TaskSizer& sizer_;
  const Command command_;
  const FastxReader& reader_;
  PipelineReport* report_;
};

// Adds the time from its making to its end to `total` (nanoseconds), where there is one (-v):
// no clock is read otherwise.
class StageTimer {
 public:
  explicit StageTimer(std::atomic<std::int64_t>* total)
      : total_(total), start_(total ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{}) {}
  ~StageTimer() {
    if (total_)
      total_->fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count(),
                        std::memory_order_relaxed);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  std::atomic<std::int64_t>* total_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

RunStats run_pipeline(FastxReader& reader, const PatternSet& patterns,
                      const SearchOptions& options, const KernelFns& kernel, ResultSink& sink,
                      const PipelineOptions& opt,
                      const std::function<void(const RunStats&)>& progress, PipelineReport* report) {
  const int threads = opt.threads < 1 ? 1 : opt.threads;
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(threads));
  // Two tasks per thread in flight keep every thread busy while the serial stages work (the
  // reader and writer take a small part of a task's time), and bound memory to that many
  // batches (plus the long record being split). Not more: every task's input block is fresh
  // memory the reader clears on first touch, and the reader runs ahead to fill every token
  // (docs/performance.md).
  const std::size_t tokens = batches_in_flight(threads);
  std::vector<std::unique_ptr<Batch>> pool;
  tbb::concurrent_queue<Batch*> free_batches;
  for (std::size_t i = 0; i < tokens; ++i) {
    pool.push_back(std::make_unique<Batch>());
    free_batches.push(pool.back().get());
  }
  const SearchMode mode{opt.shape, opt.paired, false, opt.index};
  Searchers searchers(patterns, options, kernel, mode);
  TaskSizer sizer(opt.batch_bases, opt.shape.command == Command::hits);
  TaskSource source(reader, patterns, opt.paired, opt.batch_bases, sizer, opt.region, opt.records);
  LongRecordAssembler assembler(patterns, options, kernel, mode, sink);
  Writer writer(sink, assembler, sizer, opt.shape.command, reader, report);
  const ParallelReading parallel_reading(reader, threads);
  std::array<std::atomic<std::int64_t>, 3> stage_ns{};  // read, search, write (-v)
  std::atomic<std::int64_t>* const timing = report ? stage_ns.data() : nullptr;

  RunStats stats;
  stats.input_size = reader.input_size();
  bool input_done = false;
  const auto read = [&](tbb::flow_control& fc) -> Batch* {
    const StageTimer timer(timing);
    Batch* b = nullptr;
    if (input_done || !free_batches.try_pop(b)) {
      fc.stop();
      return nullptr;
    }
    b->error = nullptr;
    if (!source.next(b->task)) {
      input_done = true;
      free_batches.push(b);
      fc.stop();
      return nullptr;
    }
    return b;
  };
  const auto work = [&](Batch* b) {
    const StageTimer timer(timing ? timing + 1 : nullptr);
    work_on(*b, searchers, sink, opt, static_cast<std::uint32_t>(patterns.size()));
    return b;
  };
  const auto write = [&](Batch* b) {
    const StageTimer timer(timing ? timing + 2 : nullptr);
    writer.write(*b, stats);
    free_batches.push(b);
    if (progress) progress(stats);
  };
  tbb::parallel_pipeline(tokens, tbb::make_filter<void, Batch*>(tbb::filter_mode::serial_in_order, read) &
                                     tbb::make_filter<Batch*, Batch*>(tbb::filter_mode::parallel, work) &
                                     tbb::make_filter<Batch*, void>(tbb::filter_mode::serial_in_order, write));

  {
    const StageTimer timer(timing ? timing + 2 : nullptr);
    sink.close();
  }
  if (report) {
    report->read_seconds = static_cast<double>(stage_ns[0].load()) * 1e-9;
    report->search_seconds = static_cast<double>(stage_ns[1].load()) * 1e-9;
    report->write_seconds = static_cast<double>(stage_ns[2].load()) * 1e-9;
  }
  if (opt.paired && stats.records != patterns.size())
    throw InputError("--pattern-per-record needs one pattern per record, but there are " +
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
