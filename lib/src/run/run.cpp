#include "trawl/run/run.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "trawl/core/errors.h"
#include "trawl/io/output_file.h"
#include "trawl/io/reader.h"
#include "trawl/kernel/kernel.h"
#include "trawl/run/load_patterns.h"
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

// The per-batch callback: progress for the observer and, with --paired over a mapped list,
// the release of the list's pages behind the search (the search passes the list in order,
// a pattern per record, so memory does not grow with the list). Empty when neither is
// wanted, so the pipeline skips the call.
std::function<void(const RunStats&)> per_batch(const PatternSet& patterns,
                                               PatternListText* release_list,
                                               RunObserver& observer) {
  const bool show_progress = observer.wants_progress();
  if (!show_progress && !release_list) return {};
  return [&patterns, release_list, &observer, show_progress](const RunStats& s) {
    if (release_list && s.records < patterns.size())
      release_list->release_before(patterns.seq(s.records).data());
    if (show_progress) observer.progress(s);
  };
}

}  // namespace

RunSummary run(const RunOptions& options, RunObserver& observer) {
  if (std::vector<std::string> problems = validate(options); !problems.empty())
    throw UsageError(problems.front());
  const SearchOptions search = effective_search(options);
  const int threads = effective_threads(options);
  // --paired searches each pattern once: build its profile then rather than keep millions.
  PatternSet patterns(search, options.paired ? 0 : PatternSet::kPrecomputeLimit);
  const std::shared_ptr<PatternListText> list =
      load_patterns(options.patterns, options.full_header, patterns, threads);
  warn_if_k_too_large(search, patterns, observer);
  const KernelFns& kernel = choose_kernel(options.kernel);
  observer.started(RunStart{patterns.size(), search.k, search.alphabet.alphabet,
                            search.searches_rc(), kernel.name, threads});

  // The reader first: a missing input fails before any output file is created.
  // BGZF input is decompressed on htslib's own thread pool (plain gzip cannot be split and
  // stays on the reader thread).
  FastxReader reader(options.inputs,
                     ReaderOptions{options.full_header, threads > 1 ? std::min(threads, 8) : 0});
  const OutputFormat format = output_format(options);
  Output out(options, format, observer);
  const ParquetOptions parquet =
      format == OutputFormat::parquet ? parquet_options(options) : ParquetOptions{};
  const std::unique_ptr<ResultSink> sink =
      make_result_sink(format, out.bytes(), patterns, search.alphabet, options.shape,
                       hit_columns(options.columns), parquet);

  const auto t0 = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.stats = run_pipeline(reader, patterns, search, kernel, *sink,
                               pipeline_options(options, search, threads),
                               per_batch(patterns, options.paired ? list.get() : nullptr, observer));
  out.commit();
  summary.command = options.shape.command;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  summary.kernel = kernel.name;
  observer.finished(summary);
  return summary;
}

}  // namespace trawl
