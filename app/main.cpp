// trawl's entry point: parse -> options -> library run -> exit code (docs/architecture.md §1):
// 0 finished, 1 runtime failure, 2 usage error; a closed downstream pipe ends quietly with 0.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "signals.h"
#include "trawl/core/errors.h"
#include "trawl/run/run.h"

int main(int argc, char** argv) {
  using namespace trawl;
  app::CommandLine line;
  if (auto code = app::parse_command_line(argc, argv, line)) return *code;
  app::install_signal_handlers();
  app::setup_logging(line.quiet, line.verbose);
  app::log_warnings(line.warnings);
  if (const std::vector<std::string> problems = validate(line.options); !problems.empty()) {
    app::log_problems(problems);
    return 2;
  }
  app::LogObserver observer(!line.quiet && ::isatty(STDERR_FILENO));
  try {
    run(line.options, observer);
    return 0;
  } catch (const DownstreamClosed&) {
    return 0;
  } catch (const UsageError& e) {
    spdlog::error("{}", e.what());
    return 2;
  } catch (const std::exception& e) {
    // InputError, OutputError and anything unforeseen.
    spdlog::error("{}", e.what());
    return 1;
  }
}
