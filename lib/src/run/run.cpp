#include "trawl/run/run.h"
#include "trawl/run/cpus.h"
#include "trawl/core/shard.h"
#include "trawl/run/summary_json.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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
#include "trawl/sinks/demux_sink.h"
#include "trawl/sinks/factory.h"
#include "trawl/sinks/record_sink.h"

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

// An output file, gzip-compressed where asked; commit() puts it in place.
class Output {
 public:
  Output(const std::string& path, bool gzip, RunObserver& observer) : file_(path) {
    if (!file_.temp_path().empty()) observer.temp_file_created(file_.temp_path());
    if (gzip) gzip_ = std::make_unique<GzipByteSink>(file_);
  }
  ByteSink& bytes() { return gzip_ ? static_cast<ByteSink&>(*gzip_) : file_; }
  // Everything written and the file closed (errors surface here), not yet in place.
  void finish() {
    if (gzip_) gzip_->finish();
    gzip_.reset();
    file_.finish();
  }
  void commit() {
    finish();
    file_.commit();
  }

 private:
  OutputFile file_;
  std::unique_ptr<GzipByteSink> gzip_;
};

// The rows' shape: the command's, with a mate column for paired input.
ResultShape row_shape(const RunOptions& options) {
  ResultShape shape = options.shape;
  shape.mate = paired_input(options);
  return shape;
}

PairMatch pair_match(const RunOptions& options) {
  const std::string& rule = options.records.pair_match;
  if (!paired_input(options)) return PairMatch::none;
  return rule == "both" ? PairMatch::both : rule == "first" ? PairMatch::first : rule == "second" ? PairMatch::second : PairMatch::any;
}

// The run's output files (filter's others too) and the sink that writes them.
class Outputs {
 public:
  Outputs(const RunOptions& options, const PatternSet& patterns, const SearchOptions& search,
          RunObserver& observer)
      : format_(output_format(options)),
        main_(options.output, format_ == OutputFormat::tsv_gz, observer) {
    if (format_ == OutputFormat::records) {
      open_records(options, patterns, observer);
      return;
    }
    if (options.demux.on) {
      open_demux(options, patterns, search, observer);
      return;
    }
    const ParquetOptions parquet =
        format_ == OutputFormat::parquet ? parquet_options(options) : ParquetOptions{};
    sink_ = make_result_sink(format_, main_.bytes(), patterns, search.alphabet, row_shape(options),
                             hit_columns(options.columns), parquet,
                             format_ == OutputFormat::sam ? sam_options(options) : SamOptions{});
  }
  ResultSink& sink() { return *sink_; }
  const RecordSink* records() const { return records_; }
  const DemuxSink* demux() const { return demux_; }
  // Every output finished before any is renamed into place: a failure in one leaves none.
  void commit() {
    main_.finish();
    for (std::optional<Output>& o : more_)
      if (o) o->finish();
    main_.commit();
    for (std::optional<Output>& o : more_)
      if (o) o->commit();
    if (pool_) pool_->commit();
  }

 private:
  void open_records(const RunOptions& options, const PatternSet& patterns, RunObserver& observer) {
    const RecordChoice& r = options.records;
    RecordOutputs outputs;
    outputs.sinks[RecordOutputs::out] = &main_.bytes();
    outputs.bgzf[RecordOutputs::out] = gzip_name(options.output);
    const std::string* paths[3] = {&r.unmatched, &r.output2, &r.unmatched2};
    for (std::size_t i = 0; i < 3; ++i) {
      if (paths[i]->empty()) continue;
      more_[i].emplace(*paths[i], false, observer);
      outputs.sinks[i + 1] = &more_[i]->bytes();
      outputs.bgzf[i + 1] = gzip_name(*paths[i]);
    }
    RecordSinkOptions ro;
    ro.invert = r.invert;
    ro.tag = r.tag;
    ro.format = r.format == "fasta" ? RecordFormat::fasta : r.format == "fastq" ? RecordFormat::fastq : RecordFormat::as_read;
    ro.pairs = pair_match(options);
    ro.level = r.compress_level;
    auto records = make_record_sink(outputs, patterns, ro);
    records_ = records.get();
    sink_ = std::move(records);
  }

  // demux: --assignments and --report in more_[0] and more_[1], --out-dir's files in pool_.
  void open_demux(const RunOptions& options, const PatternSet& patterns, const SearchOptions& search,
                  RunObserver& observer) {
    const DemuxChoice& d = options.demux;
    check_demux_ids(patterns);
    DemuxSinkOptions so;
    so.k = search.k;
    so.min_margin = d.min_margin;
    so.paired = paired_input(options);
    so.mate = d.barcode_mate == "1" ? BarcodeMate::first : d.barcode_mate == "2" ? BarcodeMate::second : BarcodeMate::either;
    so.parquet = parquet_options(options);
    if (!d.assignments.empty()) {
      so.assignments_parquet = d.assignments.ends_with(".parquet");
      more_[0].emplace(d.assignments, gzip_name(d.assignments), observer);
      so.assignments = &more_[0]->bytes();
    }
    if (!d.report.empty()) {
      so.report_format = d.report.ends_with(".parquet") ? ReportFormat::parquet
                         : d.report.ends_with(".json")  ? ReportFormat::json
                                                        : ReportFormat::tsv;
      more_[1].emplace(d.report, false, observer);
      so.report = &more_[1]->bytes();
    }
    if (!d.out_dir.empty()) {
      so.split_mates = so.paired && d.out_pattern.find("{mate}") != std::string::npos;
      pool_.emplace(d.out_dir, demux_file_names(patterns, d.out_pattern, so.split_mates),
                    d.max_open ? d.max_open : FilePool::default_max_open());
      so.files = &*pool_;
      so.all_files = d.all_files;
      so.bgzf = gzip_name(d.out_pattern);
      so.level = d.compress_level;
    }
    auto sink = make_demux_sink(patterns, so);
    demux_ = sink.get();
    sink_ = std::move(sink);
  }

  OutputFormat format_;
  Output main_;
  std::optional<Output> more_[3];  // filter: --unmatched, --output2, --unmatched2
  std::unique_ptr<ResultSink> sink_;
  RecordSink* records_ = nullptr;
  std::optional<FilePool> pool_;  // demux --out-dir
  DemuxSink* demux_ = nullptr;
};

PipelineOptions pipeline_options(const RunOptions& options, const SearchOptions& search,
                                 int threads) {
  PipelineOptions popt;
  popt.threads = threads;
  popt.batch_bases = options.batch_bases;
  popt.paired = options.paired;
  popt.shape = options.shape;
  popt.best = search.selection == Selection::best;
  if (options.region) popt.region = Region::parse(*options.region);
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
                 const PatternSet& patterns, const PatternIndex* index, const KernelFns& kernel, double load_seconds) {
  start.kernel_reason = kernel_reason(options.kernel);
  start.plan = Searcher(patterns, search, kernel, SearchMode{options.shape, options.paired, false, index}).plan().describe();
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
  ReaderOptions ro{options.full_header, threads > 1 ? std::min(threads, 8) : 0, true, options.lines,
                   options.records.on || !options.demux.out_dir.empty()};
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
  const int threads = effective_threads(options, available_cpus());
  const auto loading = std::chrono::steady_clock::now();
  // --paired searches each pattern once: build its profile then rather than keep millions.
  PatternSet patterns(search, options.paired ? 0 : PatternSet::kPrecomputeLimit);
  const std::shared_ptr<PatternListText> list =
      load_patterns(options.patterns, options.full_header, patterns, threads);
  warn_if_k_too_large(search, patterns, observer);
  const KernelFns& kernel = choose_kernel(options.kernel);
  // Built once, shared by every thread (--paired searches one pattern per record anyway).
  const std::shared_ptr<const PatternIndex> index =
      options.index != "never" && !options.paired
          ? PatternIndex::build(patterns, search, options.index == "always")
          : nullptr;
  RunStart start;
  start.patterns = patterns.size();
  start.k = search.k;
  start.alphabet = search.alphabet.alphabet;
  start.both_strands = search.searches_rc();
  start.kernel = kernel.name;
  start.threads = threads;
  if (observer.wants_details())
    add_details(start, options, search, patterns, index.get(), kernel,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - loading).count());
  observer.started(start);

  // The reader first: a missing input fails before any output file is created.
  FastxReader reader(reader_inputs(options), reader_options(options, threads));
  PipelineOptions pipeline = pipeline_options(options, search, threads);
  pipeline.index = index.get();
  if (options.shard) {
    const std::uint64_t per = paired_input(options) ? 2 : 1;
    const std::uint64_t records = FastxReader::count_records(reader_inputs(options), reader_options(options, threads));
    pipeline.records = Shard::parse(*options.shard)->range(records / per, per);
  }
  Outputs out(options, patterns, search, observer);

  // --json: the run's own sink, seen through one that counts what each pattern found.
  PatternTallies tallies;
  std::unique_ptr<ResultSink> tally;
  if (!options.json.empty()) tally = make_tally_sink(out.sink(), patterns.size(), row_shape(options), tallies);
  ResultSink& sink = tally ? *tally : out.sink();

  const auto t0 = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.stats = run_pipeline(reader, patterns, search, kernel, sink,
                               pipeline,
                               per_batch(patterns, options.paired ? list.get() : nullptr, observer),
                               observer.wants_details() ? &summary.report : nullptr);
  out.commit();
  summary.command = options.shape.command;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  summary.kernel = kernel.name;
  summary.inputs = reader.inputs();
  if (const RecordSink* records = out.records()) {
    summary.filtered = true;
    summary.inverted = options.records.invert;
    summary.others_written = !options.records.unmatched.empty();
    summary.matched = summary.inverted ? records->others() : records->written();
    summary.unmatched = summary.inverted ? records->written() : records->others();
  }
  if (const DemuxSink* demux = out.demux()) {
    summary.demuxed = true;
    summary.paired = paired_input(options);
    summary.assigned = demux->assigned();
    summary.ambiguous = demux->ambiguous();
    summary.unassigned_reads = demux->unassigned();
  }
  if (!options.json.empty()) {
    OutputFile json(options.json);
    const std::string text = summary_json(options, start, summary, patterns, tallies);
    json.write(text.data(), text.size());
    json.commit();
  }
  observer.finished(summary);
  return summary;
}

}  // namespace trawl
