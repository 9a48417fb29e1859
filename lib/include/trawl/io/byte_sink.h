#pragma once
// Where encoded output bytes go (a file, a temporary file renamed on success, stdout).
// Implementations throw trawl::OutputError on a failed write.
#include <cstddef>

namespace trawl {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // Appends [data, data + size); data may be null when size is 0.
  virtual void write(const void* data, std::size_t size) = 0;
};

}  // namespace trawl
