// PatternListText (io/pattern_list.h): the bytes of a pattern list exactly as in the file,
// mapped where it is a regular file and read whole where it is not (a FIFO, as `-l <(...)`
// gives, in pieces larger than one read), empty for an empty file; InputError naming the
// path and the system's reason where it cannot be opened or read; release() and
// release_before() only drop resident pages, the text reads the same afterwards. A
// PatternSet built from the text (PatternSet::add_list, as -l does) keeps views into it:
// its ids are line numbers, blank lines ("\n" or "\r\n") numbered but skipped.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "support/random_text.h"
#include "support/temp_dir.h"
#include "trawl/core/errors.h"
#include "trawl/core/pattern_set.h"
#include "trawl/io/pattern_list.h"

using namespace trawl;
using trawl::test::TempDir;

namespace {

std::string message_of(const std::string& path) {
  try {
    PatternListText text(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// Writes `bytes` into a FIFO at `path` from another thread while `read` reads it.
template <class Read>
void through_fifo(const std::string& path, const std::string& bytes, Read read) {
  REQUIRE(mkfifo(path.c_str(), 0600) == 0);
  std::thread writer([&] {
    std::ofstream f(path, std::ios::binary);
    f << bytes;
  });
  read();
  writer.join();
}

}  // namespace

TEST_CASE("pattern list text: a regular file's bytes exactly, an empty file empty") {
  const TempDir dir("trawl_pattern_list");
  const std::string bytes = "ACGT\n\nGATTACA\r\nTTT";  // blank line, CRLF, no final newline
  const PatternListText text(dir.write("list.txt", bytes));
  CHECK(text.text() == bytes);
  const PatternListText empty(dir.write("empty.txt", ""));
  CHECK(empty.text().empty());
}

TEST_CASE("pattern list text: a FIFO is read whole, over many reads") {
  const TempDir dir("trawl_pattern_list");
  std::mt19937_64 rng(55);
  std::string bytes;
  while (bytes.size() < 300000) bytes += trawl::test::random_text(rng, 10 + rng() % 30, "ACGT") + "\n";
  std::string got;
  through_fifo(dir.file("fifo"), bytes, [&] {
    const PatternListText text(dir.file("fifo"));
    got = std::string(text.text());
  });
  CHECK(got.size() == bytes.size());
  CHECK(got == bytes);
}

TEST_CASE("pattern list text: errors name the path and the reason") {
  const TempDir dir("trawl_pattern_list");
  const std::string missing = dir.file("missing.txt");
  CHECK(message_of(missing) == missing + ": cannot open: No such file or directory");
  CHECK(message_of(dir.path()) == dir.path() + ": read error: Is a directory");
}

TEST_CASE("pattern list text: releasing pages leaves the text as it was") {
  const TempDir dir("trawl_pattern_list");
  std::mt19937_64 rng(66);
  std::string bytes;
  while (bytes.size() < (std::size_t{3} << 20)) bytes += trawl::test::random_text(rng, 24, "ACGT") + "\n";
  PatternListText text(dir.write("big.txt", bytes));
  REQUIRE(text.text() == bytes);
  const std::string_view all = text.text();
  text.release(all.substr(4096, std::size_t{1} << 20));
  text.release_before(all.data() + (std::size_t{2} << 20));
  text.release_before(all.data() + all.size());
  CHECK(text.text() == bytes);  // read back from the page cache
  // A list read into memory (a FIFO) ignores both.
  through_fifo(dir.file("fifo"), "ACGT\nGGCC\n", [&] {
    PatternListText piped(dir.file("fifo"));
    piped.release(piped.text());
    piped.release_before(piped.text().data() + piped.text().size());
    CHECK(piped.text() == "ACGT\nGGCC\n");
  });
}

TEST_CASE("pattern list text: a set built from it keeps views into its bytes, ids are line numbers") {
  const TempDir dir("trawl_pattern_list");
  auto text = std::make_shared<PatternListText>(dir.write("list.txt", "ACGT\n\nGATTACA\r\n\r\nTTT"));
  SearchOptions opt;
  PatternSet set(opt);
  set.add_list(text->text(), text, 1, [](std::size_t n, const std::function<void(std::size_t)>& body) {
    for (std::size_t i = 0; i < n; ++i) body(i);
  });
  set.finish();
  REQUIRE(set.size() == 3);
  PatternSet::IdRoom room;
  CHECK(set.id(0, room) == "1");
  CHECK(set.seq(0) == "ACGT");
  CHECK(set.id(1, room) == "3");
  CHECK(set.seq(1) == "GATTACA");  // without the '\r'
  CHECK(set.id(2, room) == "5");
  CHECK(set.seq(2) == "TTT");
  const std::string_view all = text->text();
  for (std::size_t i = 0; i < set.size(); ++i) {
    CAPTURE(i);
    CHECK(set.seq(i).data() >= all.data());  // a view, not a copy
    CHECK(set.seq(i).data() + set.seq(i).size() <= all.data() + all.size());
  }
}
