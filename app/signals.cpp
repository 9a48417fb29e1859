#include "signals.h"

#include <unistd.h>

#include <csignal>
#include <cstring>

namespace trawl::app {
namespace {

// The temporary output files (filter writes up to four), removed by the signal handlers (no
// allocation allowed there).
constexpr int kMaxTempFiles = 4;
char g_temp_paths[kMaxTempFiles][4096];

void unlink_temp_files() {
  for (const char* path : g_temp_paths)
    if (path[0]) ::unlink(path);
}

extern "C" void on_fatal_signal(int sig) {
  unlink_temp_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Uncompressed inputs are read through a mapping; if such a file is truncated while it is
// read, touching the lost pages raises SIGBUS. That is a read failure like any other: a
// message, no partial output file, exit 1 (only async-signal-safe calls here).
extern "C" void on_bus_error(int) {
  unlink_temp_files();
  static const char kMessage[] =
      "[trawl] error: an input file shrank or vanished while it was being read (SIGBUS)\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(1);
}

}  // namespace

void install_signal_handlers() {
  // A closed pipe must surface as EPIPE from write(), not kill us (docs/architecture.md §1).
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

void publish_temp_path(const std::string& path) {
  for (char* slot : g_temp_paths)
    if (!slot[0]) {
      std::strncpy(slot, path.c_str(), sizeof g_temp_paths[0] - 1);
      return;
    }
}

void clear_temp_path() {
  for (char* slot : g_temp_paths) slot[0] = 0;
}

}  // namespace trawl::app
