#include "trawl/run/run.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "trawl/core/errors.h"
#include "trawl/io/output_file.h"
#include "trawl/io/reader.h"
#include "trawl/kernel/cpu.h"
#include "trawl/kernel/kernel.h"
#include "trawl/run/load_patterns.h"
#include "trawl/search/searcher.h"
#include "trawl/sinks/factory.h"

namespace trawl {
namespace {

void warn_if_k_too_large(const SearchOptions& search, const PatternSet& patterns,
                         RunObserver& observer) {
  std::uint32_t min_len = UINT32_MAX;
  for (std::size_t i = 0; i < patterns.size(); ++i)
    min_len = std::min<std::uint32_t>(min_len, static_cast<std::uint32_t>(patterns.seq(i).size()));
  if (static_cast<std::uint32_t>(search.k) >= min_len)
    observer.warning("k = " + std::to_string(search.k) +
                     " is not below the shortest pattern length " + std::to_string(min_len) +
                     ": every position matches");
}

const KernelFns& choose_kernel(const std::string& name) {
  const KernelFns* chosen = find_kernel(name);
  if (!chosen) throw UsageError("--kernel " + name + ": this CPU does not support it");
  return *chosen;
}

// The output file, gzip-compressed where the format asks for it; commit() puts it in place.
class Output {
 public:
  Output(const RunOptions& options, OutputFormat format, RunObserver& observer)
      : file_(options.output) {
    if (!file_.temp_path().empty()) observer.temp_file_created(file_.temp_path());
    if (format == OutputFormat::tsv_gz) gzip_ = std::make_unique<GzipByteSink>(file_);
  }
  ByteSink& bytes() { return gzip_ ? static_cast<ByteSink&>(*gzip_) : file_; }
  void commit() {
    if (gzip_) gzip_->finish();
    file_.commit();
  }

 private:
  OutputFile file_;
  std::unique_ptr<GzipByteSink> gzip_;
};

PipelineOptions pipeline_options(const RunOptions& options, const SearchOptions& search,
                                 int threads) {
  PipelineOptions popt;
  popt.threads = threads;
  popt.batch_bases = options.batch_bases;
  popt.paired = options.paired;
  popt.shape = options.shape;
  popt.best = search.selection == Selection::best;
  return popt;
}

// The per-batch callback: progress for the observer and, with --pattern-per-record over a
// mapped list, the release of the list's pages behind the search (the search passes the
// list in order, a pattern per record, so memory does not grow with the list; patterns of
// -p and -f come before the list's and are not in it). Empty when neither is wanted, so the
// pipeline skips the call.
std::function<void(const RunStats&)> per_batch(const PatternSet& patterns,
                                               PatternListText* release_list,
                                               RunObserver& observer) {
  const bool show_progress = observer.wants_progress();
  if (!show_progress && !release_list) return {};
  return [&patterns, release_list, &observer, show_progress](const RunStats& s) {
    // (A -p or -f pattern lies outside the list's mapping: release_before ignores it.)
    if (release_list && s.records < patterns.size()) release_list->release_before(patterns.seq(s.records).data());
    if (show_progress) observer.progress(s);
  };
}

// Why the run has its kernel (for -v): asked for, or the fastest the CPU runs.
std::string kernel_reason(const std::string& requested) {
  if (requested != "auto") return "--kernel " + requested;
  const CpuFeatures& cpu = cpu_features();
  std::string has;
  for (const auto& [on, name] : {std::pair{cpu.avx2, "avx2"}, std::pair{cpu.avx512bw, "avx512bw"},
                                 std::pair{cpu.avx512vbmi, "avx512vbmi"}, std::pair{cpu.avx512vpopcntdq, "avx512vpopcntdq"}})
    if (on) has += has.empty() ? name : std::string(", ") + name;
  return "the fastest this CPU runs; it has " + (has.empty() ? std::string("none of avx2, avx512bw") : has);
}

// RunStart's details, for an observer that wants them: the plan is the one every thread's
// searcher chooses, found by making one more.
void add_details(RunStart& start, const RunOptions& options, const SearchOptions& search,
                 const PatternSet& patterns, const KernelFns& kernel, double load_seconds) {
  start.kernel_reason = kernel_reason(options.kernel);
  start.plan = Searcher(patterns, search, kernel, SearchMode{options.shape, options.paired}).plan().describe();
  start.batch_bases = options.batch_bases;
  start.batches_in_flight = batches_in_flight(start.threads);
  start.load_seconds = load_seconds;
}

// The reader's inputs: the two mate files of -1/-2, else the inputs.
std::vector<std::string> reader_inputs(const RunOptions& options) {
  if (!options.mate1.empty()) return {options.mate1, options.mate2};
  return options.inputs;
}

// BGZF input is decompressed on htslib's own thread pool (plain gzip cannot be split and
// stays on the reader thread).
ReaderOptions reader_options(const RunOptions& options, int threads) {
  ReaderOptions ro{options.full_header, threads > 1 ? std::min(threads, 8) : 0, true, options.lines};
  ro.mates = !options.mate1.empty() ? MateLayout::two_files
             : options.interleaved  ? MateLayout::interleaved
                                    : MateLayout::none;
  return ro;
}

}  // namespace

RunSummary run(const RunOptions& options, RunObserver& observer) {
  if (std::vector<std::string> problems = validate(options); !problems.empty())
    throw UsageError(problems.front());
  const SearchOptions search = effective_search(options);
  const int threads = effective_threads(options);
  const auto loading = std::chrono::steady_clock::now();
  // --paired searches each pattern once: build its profile then rather than keep millions.
  PatternSet patterns(search, options.paired ? 0 : PatternSet::kPrecomputeLimit);
  const std::shared_ptr<PatternListText> list =
      load_patterns(options.patterns, options.full_header, patterns, threads);
  warn_if_k_too_large(search, patterns, observer);
  const KernelFns& kernel = choose_kernel(options.kernel);
  RunStart start;
  start.patterns = patterns.size();
  start.k = search.k;
  start.alphabet = search.alphabet.alphabet;
  start.both_strands = search.searches_rc();
  start.kernel = kernel.name;
  start.threads = threads;
  if (observer.wants_details())
    add_details(start, options, search, patterns, kernel,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - loading).count());
  observer.started(start);

  // The reader first: a missing input fails before any output file is created.
  FastxReader reader(reader_inputs(options), reader_options(options, threads));
  const OutputFormat format = output_format(options);
  Output out(options, format, observer);
  const ParquetOptions parquet =
      format == OutputFormat::parquet ? parquet_options(options) : ParquetOptions{};
  ResultShape shape = options.shape;
  shape.mate = reader.mates() != MateLayout::none;
  const std::unique_ptr<ResultSink> sink =
      make_result_sink(format, out.bytes(), patterns, search.alphabet, shape,
                       hit_columns(options.columns), parquet);

  const auto t0 = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.stats = run_pipeline(reader, patterns, search, kernel, *sink,
                               pipeline_options(options, search, threads),
                               per_batch(patterns, options.paired ? list.get() : nullptr, observer),
                               observer.wants_details() ? &summary.report : nullptr);
  out.commit();
  summary.command = options.shape.command;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  summary.kernel = kernel.name;
  summary.inputs = reader.inputs();
  observer.finished(summary);
  return summary;
}

}  // namespace trawl
