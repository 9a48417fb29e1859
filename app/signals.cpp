#include "signals.h"

#include <unistd.h>

#include <csignal>
#include <cstring>

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
  std::strncpy(g_temp_path, path.c_str(), sizeof g_temp_path - 1);
}

void clear_temp_path() { g_temp_path[0] = 0; }

}  // namespace trawl::app
