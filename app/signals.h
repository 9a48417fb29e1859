#pragma once
// Signals: a closed pipe surfaces as EPIPE, and SIGINT/SIGTERM/SIGHUP and SIGBUS remove
// the temporary output file before the process ends (docs/architecture.md §1).
#include <string>

namespace trawl::app {

void install_signal_handlers();

// The temporary output files the handlers remove (up to four); cleared once they are renamed
// into place.
void publish_temp_path(const std::string& path);
void clear_temp_path();

}  // namespace trawl::app
