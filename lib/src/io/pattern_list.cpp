#include "trawl/io/pattern_list.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "trawl/core/errors.h"

namespace trawl {

PatternListText::PatternListText(const std::string& path) {
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

PatternListText::~PatternListText() {
  if (!mapped_.empty()) ::munmap(const_cast<char*>(mapped_.data()), mapped_.size());
}

void PatternListText::release(std::string_view piece) const {
  if (!mapped_.empty()) pages::advise_inside(piece.data(), piece.size(), MADV_DONTNEED);
}

void PatternListText::release_before(const char* end) {
  if (behind_) behind_->release_before(end);
}

}  // namespace trawl
