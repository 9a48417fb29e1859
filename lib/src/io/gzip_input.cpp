#include "trawl/io/gzip_input.h"

#include <isa-l/igzip_lib.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace trawl {

struct GzipInput::State {
  Source source;
  inflate_state inflate{};
  std::vector<std::uint8_t> in = std::vector<std::uint8_t>(std::size_t{1} << 20);
  bool input_done = false;  // source returned 0
  bool done = false;        // the last member ended at the end of the input

  // More compressed bytes once the current ones are used up; false at the input's end.
  bool fill() {
    if (inflate.avail_in > 0) return true;
    if (input_done) return false;
    const std::size_t got = source(reinterpret_cast<char*>(in.data()), in.size());
    if (got == 0) {
      input_done = true;
      return false;
    }
    inflate.next_in = in.data();
    inflate.avail_in = static_cast<std::uint32_t>(got);
    return true;
  }
  void start_member() {
    isal_inflate_reset(&inflate);
    inflate.crc_flag = ISAL_GZIP;
  }
};

GzipInput::GzipInput(Source source) : state_(std::make_unique<State>()) {
  state_->source = std::move(source);
  isal_inflate_init(&state_->inflate);
  state_->inflate.crc_flag = ISAL_GZIP;
}

GzipInput::~GzipInput() = default;

std::size_t GzipInput::read(char* dst, std::size_t size) {
  State& s = *state_;
  inflate_state& z = s.inflate;
  z.next_out = reinterpret_cast<std::uint8_t*>(dst);
  z.avail_out = static_cast<std::uint32_t>(size);
  while (z.avail_out > 0 && !s.done) {
    if (z.block_state == ISAL_BLOCK_FINISH) {
      // A member ended: the input ends here too, or another member follows (zero bytes
      // after the last member are padding, which gzip also ignores).
      while (s.fill() && z.next_in[0] == 0) {
        ++z.next_in;
        --z.avail_in;
      }
      if (!s.fill()) {
        s.done = true;
        break;
      }
      if (z.next_in[0] != 0x1f) throw std::runtime_error("data after the end of the gzip stream");
      s.start_member();
    }
    if (!s.fill()) throw std::runtime_error("truncated gzip data (the input ends inside a member)");
    const int rc = isal_inflate(&z);
    if (rc < 0 || rc == ISAL_NEED_DICT)
      throw std::runtime_error(rc == ISAL_INCORRECT_CHECKSUM ? "gzip checksum mismatch" : "corrupt gzip data");
  }
  return size - z.avail_out;
}

}  // namespace trawl
