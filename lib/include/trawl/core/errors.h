#pragma once
// Typed errors. The library never logs or exits; app/main.cpp turns these into messages
// and exit codes (docs/architecture.md §1): InputError/OutputError -> 1, UsageError -> 2, and
// DownstreamClosed -> a quiet 0.
#include <stdexcept>
#include <string>

namespace trawl {

// Unreadable or malformed input; the message names the file and, where known, the record.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failed write, rename or close of the output.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The reader of our stdout went away (EPIPE): stop quietly, as `grep | head` does.
struct DownstreamClosed : std::runtime_error {
  DownstreamClosed() : std::runtime_error("downstream pipe closed") {}
};

// Bad options or patterns found after parsing (e.g. --paired count mismatch is not this:
// that is an InputError).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace trawl
