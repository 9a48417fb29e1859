#pragma once
// Command-line parsing (CLI11 lives in cli.cpp only: it is slow to compile).
#include <optional>
#include <string>
#include <vector>

#include "trawl/core/run_options.h"

namespace trawl::app {

struct CommandLine {
  RunOptions options;  // the run, for the library
  bool quiet = false;    // log errors only
  bool verbose = false;  // log debug messages
  std::vector<std::string> warnings;  // e.g. a deprecated spelling, logged once logging is set up
};

// Parses argv into `line`. Returns an exit code when the program must stop now (help or
// version printed: 0; a parse error printed: 2), otherwise nullopt. Problems CLI11 cannot
// see (option combinations, ranges) are left to validate(RunOptions).
std::optional<int> parse_command_line(int argc, char** argv, CommandLine& line);

}  // namespace trawl::app
