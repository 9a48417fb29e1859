#include "trawl/io/file_pool.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "trawl/core/errors.h"

namespace trawl {
namespace {

// A file's buffer is written once it holds this much, so most writes are large.
constexpr std::size_t kFileBuffer = std::size_t{1} << 16;
// All buffers together are written out past this, so memory does not grow with the files.
constexpr std::size_t kAllBuffers = std::size_t{1} << 26;

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw OutputError(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

std::size_t FilePool::default_max_open() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 4096;
  return std::clamp<std::size_t>(static_cast<std::size_t>(limit.rlim_cur) / 2, 4, 4096);
}

FilePool::FilePool(const std::string& dir, std::vector<std::string> names, std::size_t max_open)
    : dir_(dir.empty() ? "." : dir), names_(std::move(names)), files_(names_.size()),
      max_open_(std::max<std::size_t>(1, max_open)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw OutputError("--out-dir " + dir_ + ": " + ec.message());
  std::string pattern = dir_ + "/.trawl-demux-XXXXXX";
  if (!::mkdtemp(pattern.data())) fail("--out-dir: cannot create a temporary folder in", dir_);
  temp_dir_ = pattern;
}

FilePool::~FilePool() {
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (files_[i].fd >= 0) ::close(files_[i].fd);
  if (committed_) return;
  std::error_code ec;
  std::filesystem::remove_all(temp_dir_, ec);
}

int FilePool::open_fd(std::size_t i) {
  File& f = files_[i];
  if (f.fd >= 0) {
    lru_.splice(lru_.begin(), lru_, f.lru);
    return f.fd;
  }
  if (lru_.size() >= max_open_) close_fd(lru_.back());
  const std::string path = temp_path(i);
  const int flags = O_WRONLY | O_CLOEXEC | O_CREAT | (f.created ? O_APPEND : O_TRUNC);
  f.fd = ::open(path.c_str(), flags, 0666);
  if (f.fd < 0) fail("cannot open", path);
  f.created = true;
  lru_.push_front(static_cast<std::uint32_t>(i));
  f.lru = lru_.begin();
  return f.fd;
}

void FilePool::close_fd(std::size_t i) {
  File& f = files_[i];
  if (f.fd < 0) return;
  lru_.erase(f.lru);
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) fail("cannot write", temp_path(i));
}

void FilePool::flush(std::size_t i) {
  File& f = files_[i];
  const int fd = open_fd(i);
  std::size_t done = 0;
  while (done < f.buffer.size()) {
    const ssize_t n = ::write(fd, f.buffer.data() + done, f.buffer.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write", temp_path(i));
    done += static_cast<std::size_t>(n);
  }
  buffered_ -= f.buffer.size();
  f.buffer.clear();
}

void FilePool::append(std::size_t i, const char* data, std::size_t size) {
  File& f = files_[i];
  f.buffer.append(data, size);
  buffered_ += size;
  if (f.buffer.size() >= kFileBuffer) flush(i);
  if (buffered_ < kAllBuffers) return;
  for (std::size_t j = 0; j < files_.size(); ++j)
    if (!files_[j].buffer.empty()) flush(j);
}

void FilePool::touch(std::size_t i) {
  if (!files_[i].created) open_fd(i);
}

void FilePool::finish(std::string_view suffix, std::string_view trailer) {
  for (std::size_t i = 0; i < files_.size(); ++i) {
    File& f = files_[i];
    const std::string& name = names_[i];
    if (!f.created && f.buffer.empty()) continue;
    if (!trailer.empty() && name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      f.buffer.append(trailer);
    flush(i);
    close_fd(i);
    std::string().swap(f.buffer);
  }
}

void FilePool::commit() {
  for (std::size_t i = 0; i < files_.size(); ++i) {
    if (!files_[i].created) continue;
    const std::string to = dir_ + "/" + names_[i];
    if (::rename(temp_path(i).c_str(), to.c_str()) != 0) fail("cannot rename into place", to);
  }
  committed_ = true;
  std::error_code ec;
  std::filesystem::remove_all(temp_dir_, ec);
}

}  // namespace trawl
