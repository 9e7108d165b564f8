// Stand-in for libFuzzer's main in the ordinary (gcc) build: runs LLVMFuzzerTestOneInput once on
// every file of the directories (or files) given, so CTest replays the seed corpus and every
// saved crash on each run. A crash, sanitizer report or hang fails the test like it would fail
// the fuzzer; the file name is printed first so the failing input is known.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

void run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replay %s (%zu bytes)\n", path.c_str(), bytes.size());
  // A copy in its own allocation: ASan then sees a read past the end of the input.
  std::vector<uint8_t> copy(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(copy.data(), copy.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  size_t files = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> paths;
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) paths.push_back(entry.path());
      std::sort(paths.begin(), paths.end());
      for (const auto& p : paths) run_file(p), ++files;
    } else if (std::filesystem::exists(arg)) {
      run_file(arg), ++files;
    } else if (i == 1) {
      // The seed corpus must exist; a missing regressions folder is fine (no crash saved yet).
      std::fprintf(stderr, "no such corpus: %s\n", arg.c_str());
      return 1;
    }
  }
  std::fprintf(stderr, "replayed %zu inputs\n", files);
  return files > 0 ? 0 : 1;
}
