#pragma once
// Many output files (demux: one per barcode) through a bounded number of open descriptors.
// Each file is buffered; when more than `max_open` would be open, the least recently used
// one is closed and later reopened to append (BGZF blocks concatenate, so a .gz file written
// in several opens stays one valid file). Files are written into a temporary folder inside
// `dir` and renamed into `dir` only by commit(), so a failed run leaves none under its final
// name. Serial use only.
#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <vector>

namespace trawl {

class FilePool {
 public:
  // Files `names[i]` (plain names, no '/') in `dir`, created if missing (with its parents).
  // Throws OutputError where the folder or the temporary folder cannot be made.
  FilePool(const std::string& dir, std::vector<std::string> names, std::size_t max_open);
  ~FilePool();  // removes the temporary folder and its files unless committed
  FilePool(const FilePool&) = delete;
  FilePool& operator=(const FilePool&) = delete;

  // Appends to file `i` (created on its first append). Throws OutputError naming the file.
  void append(std::size_t i, const char* data, std::size_t size);
  // Creates file `i` empty where it does not exist yet.
  void touch(std::size_t i);
  bool exists(std::size_t i) const { return files_[i].created; }
  std::size_t size() const { return files_.size(); }
  // Appends `trailer` (e.g. the BGZF end block) to every file that exists whose name ends in
  // `suffix`, flushes and closes all; a write error surfaces here. Nothing is renamed.
  void finish(std::string_view suffix, std::string_view trailer);
  // Renames every file that exists into `dir` (replacing what is there) and removes the
  // temporary folder.
  void commit();

  const std::string& temp_dir() const { return temp_dir_; }
  std::size_t max_open() const { return max_open_; }
  // The open files allowed by default: half the soft RLIMIT_NOFILE, between 4 and 4096.
  static std::size_t default_max_open();

 private:
  struct File {
    std::string buffer;
    int fd = -1;
    bool created = false;
    std::list<std::uint32_t>::iterator lru;  // valid while fd >= 0
  };
  void flush(std::size_t i);
  int open_fd(std::size_t i);
  void close_fd(std::size_t i);
  std::string temp_path(std::size_t i) const { return temp_dir_ + "/" + names_[i]; }

  std::string dir_, temp_dir_;
  std::vector<std::string> names_;
  std::vector<File> files_;
  std::list<std::uint32_t> lru_;  // open files, most recently used first
  std::size_t max_open_;
  std::size_t buffered_ = 0;      // bytes in all buffers
  bool committed_ = false;
};

}  // namespace trawl
