// trawl's entry point: wiring, logging and the mapping of errors to exit codes (SPEC §8):
// 0 finished, 1 runtime failure, 2 usage error; a closed downstream pipe ends quietly with 0.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "cli.h"
#include "trawl/core/errors.h"
#include "trawl/core/memory_pages.h"
#include "trawl/io/output_file.h"
#include "trawl/run/pipeline.h"
#include "trawl/io/reader.h"

namespace trawl::app {
namespace {

// The temporary output file, removed by the signal handler (no allocation allowed there).
char g_temp_path[4096];

extern "C" void on_fatal_signal(int sig) {
  if (g_temp_path[0]) ::unlink(g_temp_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Uncompressed inputs are read through a mapping; if such a file is truncated while it is
// read, touching the lost pages raises SIGBUS. That is a read failure like any other: a
// message, no partial output file, exit 1 (only async-signal-safe calls here).
extern "C" void on_bus_error(int) {
  if (g_temp_path[0]) ::unlink(g_temp_path);
  static const char kMessage[] =
      "[trawl] error: an input file shrank or vanished while it was being read (SIGBUS)\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(1);
}

void install_signal_handlers() {
  // A closed pipe must surface as EPIPE from write(), not kill us (SPEC §8).
  std::signal(SIGPIPE, SIG_IGN);
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  struct sigaction bus {};
  bus.sa_handler = on_bus_error;
  sigemptyset(&bus.sa_mask);
  sigaction(SIGBUS, &bus, nullptr);
}

// A pattern list's bytes: the file mapped where it is a regular file (no copy), else read
// whole (a pipe, `-l <(...)`).
class ListText {
 public:
  explicit ListText(const std::string& path) {
    const bool from_stdin = path == "-";
    const int fd = from_stdin ? ::dup(STDIN_FILENO) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        mapped_ = {static_cast<const char*>(p), static_cast<std::size_t>(st.st_size)};
        behind_.emplace(mapped_.data(), mapped_.size());
        ::close(fd);
        return;
      }
    }
    char block[1 << 16];
    for (;;) {
      const ssize_t got = ::read(fd, block, sizeof block);
      if (got == 0) break;
      if (got < 0) {
        if (errno == EINTR) continue;
        const int err = errno;
        ::close(fd);
        throw InputError(path + ": read error: " + std::strerror(err));
      }
      read_.append(block, static_cast<std::size_t>(got));
    }
    ::close(fd);
  }
  ~ListText() {
    if (!mapped_.empty()) ::munmap(const_cast<char*>(mapped_.data()), mapped_.size());
  }
  ListText(const ListText&) = delete;
  ListText& operator=(const ListText&) = delete;
  std::string_view text() const { return mapped_.empty() ? std::string_view(read_) : mapped_; }
  // Drops the mapped pages wholly inside `piece` from resident memory (they are read again
  // from the page cache where touched again); a list read into memory stays.
  void release(std::string_view piece) const {
    if (!mapped_.empty()) pages::advise_inside(piece.data(), piece.size(), MADV_DONTNEED);
  }
  // The same for the pages before `end` (a place in the text); calls come in order.
  void release_before(const char* end) {
    if (behind_) behind_->release_before(end);
  }

 private:
  std::string_view mapped_;
  std::string read_;
  std::optional<pages::ReleaseBehind> behind_;  // where mapped
};

// Loads the patterns straight into `patterns` (no second copy of millions of them), a
// pattern list on up to `threads` threads; returns the list's text (null without -l), which
// the set's patterns are views into. Invalid letters and empty pattern files are usage
// errors.
std::shared_ptr<ListText> load_patterns(const RunConfig& c, PatternSet& patterns, int threads) {
  const int sources = !c.inline_patterns.empty() + !c.pattern_fasta.empty() +
                      !c.pattern_list.empty();
  if (sources == 0) throw UsageError("no patterns: give -p SEQ, -f FILE or -l FILE");
  if (sources > 1) throw UsageError("give patterns with only one of -p, -f and -l");
  // Patterns from stdin ('-') leave nothing there for the records.
  const std::string& pattern_file = c.pattern_fasta.empty() ? c.pattern_list : c.pattern_fasta;
  if (pattern_file == "-" &&
      (c.inputs.empty() || std::find(c.inputs.begin(), c.inputs.end(), "-") != c.inputs.end()))
    throw UsageError("patterns and records cannot both come from stdin: give the input files");
  std::shared_ptr<ListText> list;
  auto add = [&patterns](std::string_view id, std::string_view seq, std::shared_ptr<const void> owner = nullptr) {
    try {
      patterns.add(id, seq, std::move(owner));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  };
  if (!c.inline_patterns.empty()) {
    const bool numbered = c.inline_patterns.size() > 1;
    for (std::size_t i = 0; i < c.inline_patterns.size(); ++i)
      add(numbered ? "pattern" + std::to_string(i + 1) : "pattern", c.inline_patterns[i]);
  } else if (!c.pattern_fasta.empty()) {
    FastxReader reader({c.pattern_fasta}, ReaderOptions{c.full_header, 0});
    RecordBatch batch;
    while (reader.next(batch)) {
      // A one-line sequence of a mapped file is lent: the set keeps the mapping, not a copy.
      const bool lent = (batch.seq_spans[0].offset & RecordBatch::kBorrowed) != 0;
      add(batch.name(0), batch.seq(0), lent ? std::shared_ptr<const void>(batch.borrowed_mapping) : nullptr);
      batch.clear();
    }
  } else {
    // The set keeps the list's text (its patterns are views into it).
    list = std::make_shared<ListText>(c.pattern_list);
    // Lists of 1 MiB or more load in parallel, in pieces of about 1 MiB and at least four
    // per thread (for balance): millions of patterns (--paired) load before the search.
    const std::size_t parts = std::max<std::size_t>(
        list->text().size() < (std::size_t{1} << 20) ? 1 : 4 * static_cast<std::size_t>(threads),
        list->text().size() >> 20);
    try {
      patterns.add_list(
          list->text(), list, parts,
          [threads](std::size_t count, const std::function<void(std::size_t)>& body) {
            for_each_in_parallel(count, threads, body);
          },
          [&list](std::string_view piece) { list->release(piece); });
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (patterns.size() == 0) {
    const std::string& file = c.pattern_fasta.empty() ? c.pattern_list : c.pattern_fasta;
    throw UsageError(file + ": no patterns found");
  }
  patterns.finish();
  return list;
}

void setup_logging(const RunConfig& c) {
  auto logger = spdlog::stderr_color_mt("trawl");
  logger->set_pattern("[%n] %^%l%$: %v");
  logger->set_level(c.quiet ? spdlog::level::err
                    : c.verbose ? spdlog::level::debug
                                : spdlog::level::info);
  spdlog::set_default_logger(logger);
}

int run(RunConfig& c) {
  SearchOptions& opt = c.search;
  // SPEC §6: the N filter defaults to 0.2 for iupac and is off for the other alphabets.
  if (!c.max_n_frac_given) opt.max_n_frac = opt.alphabet.alphabet == Alphabet::iupac ? 0.2f : 1.0f;
  if (std::string err = validate(opt); !err.empty()) throw UsageError(err);
  // --paired searches each pattern once: build its profile then rather than keep millions.
  const int threads = c.threads > 0 ? c.threads
                                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  PatternSet patterns(opt, c.paired ? 0 : PatternSet::kPrecomputeLimit);
  const std::shared_ptr<ListText> list = load_patterns(c, patterns, threads);
  std::uint32_t min_len = UINT32_MAX;
  for (std::size_t i = 0; i < patterns.size(); ++i)
    min_len = std::min<std::uint32_t>(min_len, static_cast<std::uint32_t>(patterns.seq(i).size()));
  if (static_cast<std::uint32_t>(opt.k) >= min_len)
    spdlog::warn("k = {} is not below the shortest pattern length {}: every position matches",
                 opt.k, min_len);

  const KernelFns* chosen = find_kernel(c.kernel);
  if (!chosen) throw UsageError("--kernel " + c.kernel + ": this CPU does not support it");
  const KernelFns& kernel = *chosen;
  spdlog::info("{} pattern(s), k = {}, alphabet {}{}, kernel {}, {} thread(s)", patterns.size(),
               opt.k, alphabet_name(opt.alphabet.alphabet),
               opt.searches_rc() ? ", both strands" : ", forward strand", kernel.name, threads);

  // The reader first: a missing input fails before any output file is created.
  // BGZF input is decompressed on htslib's own thread pool (plain gzip cannot be split and
  // stays on the reader thread).
  FastxReader reader(c.inputs, ReaderOptions{c.full_header, threads > 1 ? std::min(threads, 8) : 0});
  OutputFile out(c.output);
  if (!out.temp_path().empty())
    std::strncpy(g_temp_path, out.temp_path().c_str(), sizeof g_temp_path - 1);
  // Output format: --format, else the -o name (.parquet, .tsv, .tsv.gz), else TSV.
  const auto ends_with = [&](const char* suffix) {
    const std::string_view o = c.output, sfx = suffix;
    return o.size() >= sfx.size() && o.substr(o.size() - sfx.size()) == sfx;
  };
  const bool parquet_out = c.format == "parquet" || (c.format.empty() && ends_with(".parquet"));
  const bool gzip_out = !parquet_out && ends_with(".gz");
  if (parquet_out && out.is_stdout() && ::isatty(1))
    throw UsageError("refusing to write Parquet to a terminal: use -o FILE.parquet or a pipe");
  std::unique_ptr<GzipByteSink> gzip;
  if (gzip_out) gzip = std::make_unique<GzipByteSink>(out);
  ByteSink& bytes = gzip ? static_cast<ByteSink&>(*gzip) : out;
  std::unique_ptr<ResultSink> sink;
  if (parquet_out) {
    ParquetOptions po;
    po.compression = *parquet::parse_compression(c.compression);
    po.row_group_rows = c.row_group_rows;
    po.version = TRAWL_VERSION;
    po.command_line = c.command_line;
    switch (c.shape.command) {
      case Command::hits: sink = make_parquet_hits_sink(bytes, patterns, opt.alphabet, c.columns, po); break;
      case Command::count: sink = make_parquet_count_sink(bytes, patterns, c.shape, po); break;
      case Command::contains: sink = make_parquet_contains_sink(bytes, patterns, c.shape, po); break;
    }
  } else {
    switch (c.shape.command) {
      case Command::hits: sink = make_tsv_hits_sink(bytes, patterns, opt.alphabet, c.columns); break;
      case Command::count: sink = make_tsv_count_sink(bytes, patterns, c.shape); break;
      case Command::contains: sink = make_tsv_contains_sink(bytes, patterns, c.shape); break;
    }
  }
  PipelineOptions popt;
  popt.threads = threads;
  popt.batch_bases = c.batch_bases;
  popt.paired = c.paired;
  popt.shape = c.shape;
  popt.best = opt.selection == Selection::best;

  const bool show_progress = !c.quiet && ::isatty(2);
  const auto t0 = std::chrono::steady_clock::now();
  auto last_report = t0;
  auto progress = [&](const RunStats& s) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report < std::chrono::milliseconds(500)) return;
    last_report = now;
    std::fprintf(stderr, "\r[trawl] %llu records, %.1f Mbp, %llu hits",
                 static_cast<unsigned long long>(s.records), static_cast<double>(s.bases) / 1e6,
                 static_cast<unsigned long long>(s.hits));
  };
  // With --paired the search passes the list in order, a pattern per record: the list's pages
  // before the next record's pattern leave resident memory as the output is written, so
  // memory does not grow with the list (its pages were read again from the page cache).
  const bool release_list = list && c.paired;
  RunStats stats = run_pipeline(reader, patterns, opt, kernel, *sink, popt,
                                show_progress || release_list
                                    ? std::function<void(const RunStats&)>([&](const RunStats& s) {
                                        if (release_list && s.records < patterns.size())
                                          list->release_before(patterns.seq(s.records).data());
                                        if (show_progress) progress(s);
                                      })
                                    : std::function<void(const RunStats&)>());
  if (gzip) gzip->finish();
  out.commit();
  g_temp_path[0] = 0;
  if (show_progress) std::fprintf(stderr, "\r\033[K");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  static const char* what[] = {"hits", "hits", "with hits"};
  spdlog::info("done: {} records, {} bases, {} {} in {:.3f} s ({:.1f} Mbp/s, kernel {})",
               stats.records, stats.bases, stats.hits,
               what[static_cast<int>(c.shape.command)], secs,
               secs > 0 ? static_cast<double>(stats.bases) / secs / 1e6 : 0.0, kernel.name);
  return 0;
}

}  // namespace
}  // namespace trawl::app

int main(int argc, char** argv) {
  using namespace trawl;
  app::RunConfig config;
  if (auto code = app::parse_command_line(argc, argv, config)) return *code;
  app::install_signal_handlers();
  app::setup_logging(config);
  try {
    return app::run(config);
  } catch (const DownstreamClosed&) {
    return 0;
  } catch (const UsageError& e) {
    spdlog::error("{}", e.what());
    return 2;
  } catch (const InputError& e) {
    spdlog::error("{}", e.what());
    return 1;
  } catch (const OutputError& e) {
    spdlog::error("{}", e.what());
    return 1;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
