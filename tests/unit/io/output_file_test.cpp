// OutputFile buffers small writes and passes large ones straight through; the file must
// hold exactly the bytes written, in order, and appear under its name only on commit().
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "trawl/io/output_file.h"

using namespace trawl;

TEST_CASE("output file: writes of every size arrive in order, under the final name on commit") {
  char dir_template[] = "/tmp/trawl_output_test_XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string path = std::string(dir_template) + "/out.tsv";
  std::mt19937_64 rng(4);
  std::string want;
  {
    OutputFile out(path);
    // Sizes from one byte to past the buffer (1 MiB), mixed, so buffered bytes must go out
    // before a direct write.
    for (int i = 0; i < 120; ++i) {
      const std::size_t size = i % 7 == 0 ? rng() % (3 << 20) : i % 3 == 0 ? rng() % (300 << 10) : rng() % 300;
      std::string chunk(size, '\0');
      for (char& c : chunk) c = static_cast<char>('a' + rng() % 26);
      chunk += std::to_string(i) + "\n";
      out.write(chunk.data(), chunk.size());
      want += chunk;
    }
    out.write(nullptr, 0);
    CHECK(access(path.c_str(), F_OK) != 0);  // not yet under its name
    out.commit();
  }
  std::ifstream in(path, std::ios::binary);
  const std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(got.size() == want.size());
  CHECK(got == want);
  std::remove(path.c_str());
  rmdir(dir_template);
}
