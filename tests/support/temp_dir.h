#pragma once
// A unique folder under /tmp for a test's files, removed with everything in it when the
// test ends (passed or not).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace trawl::test {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix) {
    std::string tmpl = "/tmp/" + prefix + "_XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // The path of `name` in the folder.
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `bytes` to `name` in the folder and returns its path.
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string p = file(name);
    std::ofstream f(p, std::ios::binary);
    f << bytes;
    REQUIRE(f.good());
    return p;
  }

 private:
  std::string path_;
};

// The whole contents of a file ("" where it cannot be read).
inline std::string read_file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace trawl::test
