#include "trawl/run/load_patterns.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "trawl/core/errors.h"
#include "trawl/io/reader.h"
#include "trawl/run/pipeline.h"

namespace trawl {
namespace {

// PatternSet rejects a bad pattern with invalid_argument; for the user it is a usage error.
void add(PatternSet& patterns, std::string_view id, std::string_view seq,
         std::shared_ptr<const void> owner = nullptr) {
  try {
    patterns.add(id, seq, std::move(owner));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

void load_fasta(const std::string& path, bool full_header, PatternSet& patterns) {
  FastxReader reader({path}, ReaderOptions{full_header, 0});
  RecordBatch batch;
  while (reader.next(batch)) {
    // A one-line sequence of a mapped file is lent: the set keeps the mapping, not a copy.
    const bool lent = (batch.seq_spans[0].offset & RecordBatch::kBorrowed) != 0;
    add(patterns, batch.name(0), batch.seq(0),
        lent ? std::shared_ptr<const void>(batch.borrowed_mapping) : nullptr);
    batch.clear();
  }
}

std::shared_ptr<PatternListText> load_list(const std::string& path, PatternSet& patterns,
                                           int threads) {
  // The set keeps the list's text (its patterns are views into it).
  auto list = std::make_shared<PatternListText>(path);
  // Lists of 1 MiB or more load in parallel, in pieces of about 1 MiB and at least four
  // per thread (for balance): millions of patterns (--paired) load before the search.
  const std::size_t parts = std::max<std::size_t>(
      list->text().size() < (std::size_t{1} << 20) ? 1 : 4 * static_cast<std::size_t>(threads),
      list->text().size() >> 20);
  try {
    patterns.add_list(
        list->text(), list, parts,
        [threads](std::size_t count, const std::function<void(std::size_t)>& body) {
          for_each_in_parallel(count, threads, body);
        },
        [&list](std::string_view piece) { list->release(piece); });
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return list;
}

}  // namespace

std::shared_ptr<PatternListText> load_patterns(const PatternSources& sources, bool full_header,
                                               PatternSet& patterns, int threads) {
  std::shared_ptr<PatternListText> list;
  if (!sources.inline_patterns.empty()) {
    const bool numbered = sources.inline_patterns.size() > 1;
    for (std::size_t i = 0; i < sources.inline_patterns.size(); ++i)
      add(patterns, numbered ? "pattern" + std::to_string(i + 1) : "pattern",
          sources.inline_patterns[i]);
  } else if (!sources.fasta.empty()) {
    load_fasta(sources.fasta, full_header, patterns);
  } else {
    list = load_list(sources.list, patterns, threads);
  }
  if (patterns.size() == 0) {
    const std::string& file = sources.fasta.empty() ? sources.list : sources.fasta;
    throw UsageError(file + ": no patterns found");
  }
  patterns.finish();
  return list;
}

}  // namespace trawl
