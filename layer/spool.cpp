// The spool's folders (spool.hpp).
#include "layer/spool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "layer/settings.hpp"

namespace clref::layer {
namespace {

namespace fs = std::filesystem;

std::mutex spoolMutex;
uint64_t nextNumber = 0;  // 0: DIR not scanned yet
uint64_t temporaries = 0;

// "00000042": the folder of the 42nd case.
std::string numbered(uint64_t n) {
  char name[32];
  std::snprintf(name, sizeof name, "%08llu", static_cast<unsigned long long>(n));
  return name;
}

// The number after the highest folder already in DIR: a second run appends to the spool after the first.
uint64_t firstFree(const fs::path& dir) {
  uint64_t highest = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    highest = std::max<uint64_t>(highest, std::strtoull(name.c_str(), nullptr, 10));
  }
  return highest + 1;
}

bool writeFile(const fs::path& path, const void* data, size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return false;
    }
    p += n;
    size -= size_t(n);
  }
  return ::close(fd) == 0;
}

bool writeFolder(const std::vector<std::pair<std::string, std::string>>& texts, const std::vector<SpoolFile>& files) {
  const fs::path dir = settings().spoolDir;
  std::lock_guard lock(spoolMutex);
  auto fail = [&](const std::string& why) {
    std::fprintf(stderr, "clref check layer: cannot write to CLREF_CHECK_SPOOL=%s: %s\n", dir.c_str(), why.c_str());
    return false;
  };
  std::error_code ec;
  if (nextNumber == 0) {
    fs::create_directories(dir, ec);
    if (ec) return fail(ec.message());
    nextNumber = firstFree(dir);
    std::fprintf(stderr,
                 "clref check layer: spooling the enqueues it checks to %s (judge them with clref check-spool %s)\n",
                 dir.c_str(), dir.c_str());
  }
  const fs::path temporary = dir / (".writing-" + std::to_string(::getpid()) + "-" + std::to_string(++temporaries));
  fs::remove_all(temporary, ec);
  if (!fs::create_directory(temporary, ec)) return fail(temporary.string() + ": " + ec.message());
  for (const auto& [name, text] : texts)
    if (!writeFile(temporary / name, text.data(), text.size())) return fail(name + ": " + std::strerror(errno));
  for (const SpoolFile& f : files)
    if (!writeFile(temporary / f.name, f.data, f.size)) return fail(f.name + ": " + std::strerror(errno));
  // rename(2) of a folder onto a folder that is there and not empty fails: another process writing into the same
  // spool took the number, and this case takes the next.
  for (;; ++nextNumber) {
    const fs::path target = dir / numbered(nextNumber);
    if (::rename(temporary.c_str(), target.c_str()) == 0) break;
    if (errno != EEXIST && errno != ENOTEMPTY) return fail(target.string() + ": " + std::strerror(errno));
  }
  ++nextNumber;
  return true;
}

std::string text(const nlohmann::json& j) {
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

bool spoolCase(const nlohmann::json& caseJson, const nlohmann::json& enqueue, const std::vector<SpoolFile>& files) {
  return writeFolder({{"case.json", text(caseJson)}, {"enqueue.json", text(enqueue)}}, files);
}

bool spoolLine(const nlohmann::json& line, const std::string& summary) {
  return writeFolder({{"enqueue.json", text({{"line", line}, {"summary", summary}})}}, {});
}

}  // namespace clref::layer
