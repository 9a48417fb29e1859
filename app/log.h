#pragma once
// Logging (spdlog, "[trawl] level: message" on stderr) and the run's observer that speaks
// through it.
#include <chrono>
#include <string>
#include <vector>

#include "trawl/run/run.h"

namespace trawl::app {

// The "trawl" logger as the default: errors only with `quiet`, debug with `verbose`.
void setup_logging(bool quiet, bool verbose);

// Logs each of `problems` as an error.
void log_problems(const std::vector<std::string>& problems);
// Logs each of `warnings` as a warning.
void log_warnings(const std::vector<std::string>& warnings);

// Logs a run: the start line, warnings, the done line; a progress line on stderr where
// `show_progress` (redrawn at most twice a second); the temporary output file published to
// the signal handlers while it exists.
class LogObserver : public RunObserver {
 public:
  explicit LogObserver(bool show_progress) : show_progress_(show_progress) {}
  void warning(const std::string& message) override;
  void started(const RunStart& start) override;
  void temp_file_created(const std::string& path) override;
  bool wants_progress() const override { return show_progress_; }
  bool wants_details() const override;
  void progress(const RunStats& so_far) override;
  void finished(const RunSummary& summary) override;

 private:
  bool show_progress_;
  std::chrono::steady_clock::time_point last_report_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point started_ = last_report_;  // for the time left
};

}  // namespace trawl::app
