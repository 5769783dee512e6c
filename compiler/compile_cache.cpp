// The OpenCL C compiler's cache (compile_cache.hpp).
#include "compiler/compile_cache.hpp"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <unordered_map>

namespace clref::compiler::cache {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[] = "clref-compile-cache 1\n";
// Beyond this many bytes of values the process's level starts over (a conformance run builds thousands of programs).
constexpr size_t kMemoryBytes = size_t(256) << 20;

struct Memory {
  std::mutex mutex;
  std::unordered_map<std::string, std::string> entries;
  size_t bytes = 0;
};
Memory& memory() {
  static Memory m;
  return m;
}

// A file as the key names it: its path, size and modification time (nanoseconds), or its path alone when it cannot
// be read (then every key with it differs from one made when it could).
std::string fileIdentity(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return path + " ?";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

// The file holding this code: the clref library or the program it is linked into.
std::string codeFile() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&fileIdentity), &info) && info.dli_fname && info.dli_fname[0] == '/')
    return info.dli_fname;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("?") : self.string();
}

// Two 64-bit FNV-1a hashes with different starting values: a file name, not a proof (the file holds the key).
std::string fileName(const std::string& key) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (const unsigned char c : key) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ c) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return name;
}

void putLength(std::string& out, uint64_t n) {
  for (int i = 0; i < 8; ++i) out.push_back(char((n >> (8 * i)) & 0xff));
}
bool getLength(const std::string& in, size_t& at, uint64_t& n) {
  if (in.size() - at < 8) return false;
  n = 0;
  for (int i = 0; i < 8; ++i) n |= uint64_t(uint8_t(in[at + size_t(i)])) << (8 * i);
  at += 8;
  return n <= in.size() - at;
}

void keepInMemory(const std::string& key, const std::string& value) {
  Memory& m = memory();
  std::lock_guard lock(m.mutex);
  if (m.bytes + value.size() > kMemoryBytes) {
    m.entries.clear();
    m.bytes = 0;
  }
  if (m.entries.emplace(key, value).second) m.bytes += value.size();
}

std::optional<std::string> readEntry(const fs::path& file, const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t magic = sizeof kMagic - 1;
  if (bytes.size() < magic || bytes.compare(0, magic, kMagic) != 0) return std::nullopt;
  size_t at = magic;
  uint64_t keyBytes = 0, valueBytes = 0;
  if (!getLength(bytes, at, keyBytes) || bytes.compare(at, keyBytes, key) != 0 || keyBytes != key.size())
    return std::nullopt;
  at += keyBytes;
  if (!getLength(bytes, at, valueBytes) || at + valueBytes != bytes.size()) return std::nullopt;
  return bytes.substr(at, valueBytes);
}

// CLREF_COMPILE_CACHE=0: neither level is used.
bool off() {
  const char* setting = std::getenv("CLREF_COMPILE_CACHE");
  return setting && std::strcmp(setting, "0") == 0;
}

}  // namespace

std::string toolIdentity(const std::vector<std::string>& toolPaths) {
  std::string id = fileIdentity(codeFile());
  for (const auto& p : toolPaths) id += "\n" + fileIdentity(p);
  return id;
}

std::string directory() {
  if (off()) return "";
  const char* setting = std::getenv("CLREF_COMPILE_CACHE");
  fs::path dir;
  if (setting && *setting) {
    dir = setting;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    dir = fs::path(xdg) / "clref";
  } else if (const char* home = std::getenv("HOME"); home && *home == '/') {
    dir = fs::path(home) / ".cache" / "clref";
  } else {
    return "";
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (!fs::create_directories(dir, ec) && !fs::is_directory(dir, ec)) return "";
    fs::permissions(dir, fs::perms::owner_all, ec);  // the user's own: entries decide what programs compute
  }
  return dir.string();
}

std::optional<std::string> find(const std::string& key) {
  if (off()) return std::nullopt;
  {
    Memory& m = memory();
    std::lock_guard lock(m.mutex);
    if (const auto it = m.entries.find(key); it != m.entries.end()) return it->second;
  }
  const std::string dir = directory();
  if (dir.empty()) return std::nullopt;
  auto value = readEntry(fs::path(dir) / fileName(key), key);
  if (value) keepInMemory(key, *value);
  return value;
}

void store(const std::string& key, const std::string& value) {
  if (off()) return;
  keepInMemory(key, value);
  const std::string dir = directory();
  if (dir.empty()) return;
  std::string bytes(kMagic);
  putLength(bytes, key.size());
  bytes += key;
  putLength(bytes, value.size());
  bytes += value;
  static std::atomic<uint64_t> serial{0};
  const fs::path file = fs::path(dir) / fileName(key);
  const fs::path part = file.string() + ".part." + std::to_string(getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) {
      out.close();
      std::error_code ec;
      fs::remove(part, ec);
      return;
    }
  }
  std::error_code ec;
  fs::rename(part, file, ec);
  if (ec) fs::remove(part, ec);
}

void clearMemory() {
  Memory& m = memory();
  std::lock_guard lock(m.mutex);
  m.entries.clear();
  m.bytes = 0;
}

}  // namespace clref::compiler::cache
