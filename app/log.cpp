#include "log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "signals.h"
#include "trawl/run/progress.h"

namespace trawl::app {

void setup_logging(bool quiet, bool verbose) {
  auto logger = spdlog::stderr_color_mt("trawl");
  logger->set_pattern("[%n] %^%l%$: %v");
  logger->set_level(quiet ? spdlog::level::err
                    : verbose ? spdlog::level::debug
                              : spdlog::level::info);
  spdlog::set_default_logger(logger);
}

void log_problems(const std::vector<std::string>& problems) {
  for (const std::string& problem : problems) spdlog::error("{}", problem);
}

void log_warnings(const std::vector<std::string>& warnings) {
  for (const std::string& warning : warnings) spdlog::warn("{}", warning);
}

void LogObserver::warning(const std::string& message) { spdlog::warn("{}", message); }

bool LogObserver::wants_details() const { return spdlog::should_log(spdlog::level::debug); }

void LogObserver::started(const RunStart& s) {
  spdlog::info("{} pattern(s), k = {}, alphabet {}{}, kernel {}, {} thread(s)", s.patterns, s.k,
               alphabet_name(s.alphabet), s.both_strands ? ", both strands" : ", forward strand",
               s.kernel, s.threads);
  if (wants_details()) {
    spdlog::debug("patterns loaded in {:.3f} s", s.load_seconds);
    spdlog::debug("kernel {}: {}", s.kernel, s.kernel_reason);
    spdlog::debug("{}", s.plan);
    spdlog::debug("batches of about {} bases, at most {} in flight on {} thread(s)", s.batch_bases,
                  s.batches_in_flight, s.threads);
  }
  last_report_ = started_ = std::chrono::steady_clock::now();
}

void LogObserver::temp_file_created(const std::string& path) { publish_temp_path(path); }

void LogObserver::progress(const RunStats& s) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_report_ < std::chrono::milliseconds(500)) return;
  last_report_ = now;
  const double seconds = std::chrono::duration<double>(now - started_).count();
  // (\033[K clears what a longer line before left.)
  std::fprintf(stderr, "\r[trawl] %s\033[K", progress_text(s, seconds).c_str());
}

void LogObserver::finished(const RunSummary& summary) {
  clear_temp_path();
  if (show_progress_) std::fprintf(stderr, "\r\033[K");
  static const char* what[] = {"hits", "hits", "with hits"};
  const RunStats& stats = summary.stats;
  const double secs = summary.seconds;
  const std::uint64_t sorted = summary.assigned + summary.ambiguous + summary.unassigned_reads;
  auto percent = [sorted](std::uint64_t n) {
    return sorted ? 100.0 * static_cast<double>(n) / static_cast<double>(sorted) : 0.0;
  };
  if (summary.demuxed) {
    spdlog::info("done: {} records read, {} {}: {} assigned ({:.2f}%), {} ambiguous ({:.2f}%), "
                 "{} unassigned ({:.2f}%) in {:.3f} s ({:.1f} Mbp/s, kernel {})",
                 stats.records, sorted,
                 summary.paired ? "pairs" : "records", summary.assigned, percent(summary.assigned),
                 summary.ambiguous, percent(summary.ambiguous), summary.unassigned_reads,
                 percent(summary.unassigned_reads), secs,
                 secs > 0 ? static_cast<double>(stats.bases) / secs / 1e6 : 0.0, summary.kernel);
  } else if (summary.filtered) {
    const char* sent = summary.inverted ? "unmatched" : "matched";
    const char* other = summary.inverted ? "matched" : "unmatched";
    spdlog::info("done: {} records read, {} matched, {} unmatched; the {} written to the output{} "
                 "in {:.3f} s ({:.1f} Mbp/s, kernel {})",
                 stats.records, summary.matched, summary.unmatched, sent,
                 summary.others_written ? std::string(", the ") + other + " to --unmatched" : std::string(),
                 secs, secs > 0 ? static_cast<double>(stats.bases) / secs / 1e6 : 0.0, summary.kernel);
  } else {
    spdlog::info("done: {} records, {} bases, {} {} in {:.3f} s ({:.1f} Mbp/s, kernel {})",
               stats.records, stats.bases, stats.hits,
               what[static_cast<int>(summary.command)], secs,
               secs > 0 ? static_cast<double>(stats.bases) / secs / 1e6 : 0.0, summary.kernel);
  }
  if (!wants_details()) return;
  const PipelineReport& r = summary.report;
  for (std::size_t i = 0; i < r.inputs.size() && i < summary.inputs.size(); ++i)
    spdlog::debug("input {}: {} records, {} bases", summary.inputs[i] == "-" ? "stdin" : summary.inputs[i],
                  r.inputs[i].records, r.inputs[i].bases);
  spdlog::debug("time: reading {:.3f} s, searching {:.3f} s (all threads), writing {:.3f} s",
                r.read_seconds, r.search_seconds, r.write_seconds);
}

}  // namespace trawl::app
