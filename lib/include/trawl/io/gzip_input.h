#pragma once
// Inflating a gzip stream (one member or several concatenated, as `cat a.gz b.gz` makes) with
// ISA-L, whose inflate is about twice zlib's speed; a plain gzip file cannot be split, so its
// inflate is the serial part of every run that reads one. The reader feeds it the compressed
// bytes; BGZF input stays with htslib, which inflates its blocks on several threads.
#include <cstddef>
#include <functional>
#include <memory>

namespace trawl {

class GzipInput {
 public:
  // Reads up to n compressed bytes into dst; 0 at the end of the input.
  using Source = std::function<std::size_t(char* dst, std::size_t n)>;

  explicit GzipInput(Source source);
  ~GzipInput();
  GzipInput(const GzipInput&) = delete;
  GzipInput& operator=(const GzipInput&) = delete;

  // Up to `size` decompressed bytes into dst; 0 at the end of the last member. Throws
  // std::runtime_error on corrupt data, a wrong checksum, bytes after the last member that are
  // not another member, or input that ends inside a member.
  std::size_t read(char* dst, std::size_t size);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace trawl
