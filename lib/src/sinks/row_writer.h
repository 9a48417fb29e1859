#pragma once
// RowWriter: the text sinks' (TSV, BED, PAF, SAM) writer of rows into FormattedBytes, room
// made once per row. Private to lib/src/sinks.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "trawl/sinks/sinks.h"

namespace trawl {

// Writes rows into `out` through a raw pointer. reserve(bound) before each row makes room
// for at most `bound` bytes plus kSlack, growing `out` geometrically (rarely: once it has
// reached a batch's size it is reused); close() trims what was not used. One
// std::vector append per field would dominate dense outputs.
class RowWriter {
 public:
  // Bytes that may be written past a row's bound by the fixed-size copies below.
  static constexpr std::size_t kSlack = 64;

  explicit RowWriter(FormattedBytes& out) : out_(out) {
    const std::size_t used = out_.size();
    out_.resize(out_.capacity());
    w_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }
  [[gnu::always_inline]] void reserve(std::size_t bound) {
    if (static_cast<std::size_t>(end_ - w_) < bound + kSlack) grow(bound + kSlack);
  }
  void close() { out_.resize(static_cast<std::size_t>(w_ - out_.data())); }
  // Fields are mostly a few bytes (ids, names, costs, a short region), where a memcpy call
  // costs more than the copy: up to 16 bytes go as two overlapping loads and stores that
  // stay inside the field.
  [[gnu::always_inline]] void put(std::string_view v) {
    const std::size_t n = v.size();
    const char* src = v.data();
    if (n >= 8 && n <= 16) {
      copy_two<std::uint64_t>(src, n);
    } else if (n >= 4 && n < 8) {
      copy_two<std::uint32_t>(src, n);
    } else if (n < 4) {
      for (std::size_t i = 0; i < n; ++i) w_[i] = src[i];
    } else {
      std::memcpy(w_, src, n);
    }
    w_ += n;
  }
  // `n` bytes from a buffer that may be read up to 32 bytes past them (rounded up to whole
  // 32-byte copies, which the slack absorbs).
  [[gnu::always_inline]] void put_padded(const char* src, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 32) std::memcpy(w_ + i, src + i, 32);
    w_ += n;
  }
  [[gnu::always_inline]] void put(char c) { *w_++ = c; }
  // The byte written last (a row's closing tab becomes its newline).
  char& back() { return w_[-1]; }
  // Costs, CIGAR lengths and short-read positions are mostly one to four digits: two digits
  // per table lookup, no division loop.
  [[gnu::always_inline]] void put_uint(std::uint64_t v) {
    if (v < 10) {
      *w_++ = static_cast<char>('0' + v);
    } else if (v < 100) {
      std::memcpy(w_, kDigitPairs + 2 * v, 2);
      w_ += 2;
    } else if (v < 1000) {
      w_[0] = static_cast<char>('0' + v / 100);
      std::memcpy(w_ + 1, kDigitPairs + 2 * (v % 100), 2);
      w_ += 3;
    } else if (v < 10000) {
      std::memcpy(w_, kDigitPairs + 2 * (v / 100), 2);
      std::memcpy(w_ + 2, kDigitPairs + 2 * (v % 100), 2);
      w_ += 4;
    } else {
      w_ = std::to_chars(w_, w_ + 20, v).ptr;
    }
  }

 private:
  static constexpr char kDigitPairs[201] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";

  void grow(std::size_t need) {
    const std::size_t used = static_cast<std::size_t>(w_ - out_.data());
    out_.resize(std::max(used + need, 2 * out_.size() + 4096));
    w_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }
  // [src, src + n) for sizeof(Word) <= n <= 2 * sizeof(Word): the first and the last Word.
  template <class Word>
  void copy_two(const char* src, std::size_t n) {
    Word head, tail;
    std::memcpy(&head, src, sizeof head);
    std::memcpy(&tail, src + n - sizeof tail, sizeof tail);
    std::memcpy(w_, &head, sizeof head);
    std::memcpy(w_ + n - sizeof tail, &tail, sizeof tail);
  }

  FormattedBytes& out_;
  char* w_ = nullptr;
  char* end_ = nullptr;
};

}  // namespace trawl
