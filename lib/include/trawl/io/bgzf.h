#pragma once
// BGZF (blocked gzip, as samtools and htslib write it): a file of independent gzip members of
// at most 64 KiB each, ended by an empty one. Independent blocks let worker threads compress
// their own batches, which then concatenate into one valid file that gzip, zcat and htslib
// read (and htslib can index).
#include <string_view>

#include "trawl/core/uninitialized_vector.h"

namespace trawl {

// Appends `data` to `out` as complete BGZF blocks (none for empty data). `level` is ISA-L's
// (0 fastest .. 3 smallest). Thread safe: each thread keeps its own working memory.
void bgzf_compress(std::string_view data, UninitializedVector<char>& out, int level);

// The empty block that ends every BGZF file.
std::string_view bgzf_eof_block();

}  // namespace trawl
