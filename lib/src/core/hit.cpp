#include "trawl/core/hit.h"

#include <charconv>

namespace trawl {

void append_cigar(std::string& out, std::span<const CigarOp> ops, bool reversed) {
  char buf[16];
  for (std::size_t r = 0; r < ops.size(); ++r) {
    const CigarOp& op = ops[reversed ? ops.size() - 1 - r : r];
    auto res = std::to_chars(buf, buf + sizeof buf, op.len);
    out.append(buf, res.ptr);
    out.push_back(op.op);
  }
}

}  // namespace trawl
