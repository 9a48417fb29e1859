#include "trawl/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <charconv>
#include <cstring>
#include <string_view>

#include "trawl/core/errors.h"

#include <zlib.h>

namespace trawl {
namespace {
constexpr std::size_t kBufferSize = 1 << 20;
// Writes at least this large skip the buffer: copying a batch's formatted rows (hundreds of
// KiB in dense outputs) cost more than the extra write call.
constexpr std::size_t kDirectWrite = kBufferSize / 8;

// The descriptor of this process that a path names (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N), or -1. Such a path resolves to whatever the descriptor is open on, a
// regular file too (`-o /dev/stdout > out.tsv`), where a temporary file renamed over it
// would replace the link in /dev itself.
int own_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    int fd = 0;
    const char* end = path.data() + path.size();
    const auto [ptr, ec] = std::from_chars(path.data() + prefix.size(), end, fd);
    return ec == std::errc() && ptr == end ? fd : -1;
  }
  return -1;
}
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
  buf_.resize(kBufferSize);
  if (path.empty() || path == "-") {
    fd_ = 1;
    return;
  }
  // One of the process's own descriptors is written through a copy of it, in place (as the
  // shell opened it: appending where it appends).
  if (const int own = own_descriptor(path); own >= 0) {
    fd_ = ::fcntl(own, F_DUPFD_CLOEXEC, 3);
    if (fd_ < 0) throw OutputError(path + ": cannot open output: " + std::strerror(errno));
    committed_ = true;  // nothing to rename
    direct_ = true;
    return;
  }
  // A device, FIFO or other non-regular file (/dev/null, a named pipe) is written in place:
  // renaming a temporary file over it would replace the device.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw OutputError(path + ": cannot write output: is a directory");
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw OutputError(path + ": cannot open output: " + std::strerror(errno));
    committed_ = true;  // nothing to rename
    direct_ = true;
    return;
  }
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  temp_path_ = dir + "." + base + ".trawl-tmp." + std::to_string(::getpid());
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    const int err = errno;
    temp_path_.clear();
    throw OutputError(path + ": cannot create output file: " + std::strerror(err));
  }
}

OutputFile::~OutputFile() {
  if (fd_ > 1) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void OutputFile::raw_write(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE && is_stdout()) throw DownstreamClosed();
      throw OutputError((is_stdout() ? std::string("stdout") : path_) +
                        ": write failed: " + std::strerror(errno));
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void OutputFile::flush() {
  raw_write(buf_.data(), used_);
  used_ = 0;
}

void OutputFile::write(const void* data, std::size_t size) {
  if (size == 0) return;  // (data may then be null: an empty FormattedBytes has no buffer)
  if (size >= kDirectWrite) {
    if (used_ > 0) flush();
    raw_write(static_cast<const char*>(data), size);
    return;
  }
  if (used_ + size > buf_.size()) flush();
  std::memcpy(buf_.data() + used_, data, size);
  used_ += size;
}

void OutputFile::finish() {
  if (finished_) return;
  flush();
  finished_ = true;
  if (is_stdout()) return;
  // close() can report a deferred write error (NFS, full disk); check it before renaming.
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw OutputError(path_ + ": write failed on close: " + std::strerror(errno));
}

void OutputFile::commit() {
  finish();
  if (is_stdout() || direct_) return;
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw OutputError(path_ + ": cannot rename temporary file: " + std::strerror(errno));
  committed_ = true;
}

struct GzipByteSink::State {
  z_stream z{};
};

GzipByteSink::GzipByteSink(ByteSink& out, int level) : out_(out), state_(new State) {
  buf_.resize(1 << 18);
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&state_->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    delete state_;
    throw OutputError("cannot start gzip compression");
  }
}

GzipByteSink::~GzipByteSink() {
  deflateEnd(&state_->z);
  delete state_;
}

void GzipByteSink::pump(int flush) {
  z_stream& z = state_->z;
  do {
    z.next_out = reinterpret_cast<Bytef*>(buf_.data());
    z.avail_out = static_cast<uInt>(buf_.size());
    const int rc = deflate(&z, flush);
    if (rc == Z_STREAM_ERROR) throw OutputError("gzip compression failed");
    out_.write(buf_.data(), buf_.size() - z.avail_out);
  } while (z.avail_out == 0);
}

void GzipByteSink::write(const void* data, std::size_t size) {
  z_stream& z = state_->z;
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const std::size_t chunk = std::min<std::size_t>(size, 1u << 30);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(p));
    z.avail_in = static_cast<uInt>(chunk);
    pump(Z_NO_FLUSH);
    p += chunk;
    size -= chunk;
  }
}

void GzipByteSink::finish() {
  state_->z.avail_in = 0;
  pump(Z_FINISH);
}

}  // namespace trawl
