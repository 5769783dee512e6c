// CLREF_LOG=api: every entry point that returns an error code (or sets *errcode_ret to one) says on stderr, in one
// line, which rule the call broke:
//
//   clref: clSetKernelArg: CL_INVALID_ARG_SIZE: arg_size is 4, the argument is 8 bytes, a cl_mem (argument 0 a:
//   global float*)
//
// An error code alone names a whole class of mistakes (CL_INVALID_VALUE is the answer to dozens of different ones in
// one entry point), so each error return carries its reason: the parameter, the value it had and what the
// specification requires of it. The reason is a format string whose "{}" stand for the arguments that follow it,
// checked at compile time (their count), and formatted only when the channel is on: with CLREF_LOG unset an error
// return costs one test of a cached flag and allocates nothing (the allocation-failure tests rely on that). Logging
// never throws: it runs in catch handlers too, and an exception may not cross into the C caller.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace clref::cl {

// Whether CLREF_LOG names the channel "api" (logChannel, read once).
bool apiLogOn();

// The name of an error code of cl.h ("CL_INVALID_VALUE"); nullptr for a value that is none.
const char* errorName(cl_int code);

// A value shown in hexadecimal (flags, enumerants such as param_name): the form cl.h writes them in.
struct Hex {
  unsigned long long value;
};
template <std::integral T> Hex hex(T v) { return Hex{static_cast<unsigned long long>(v)}; }

// An event's execution status: "CL_RUNNING", or an error shown with the name cl.h gives the code,
// "-5 (CL_OUT_OF_RESOURCES)" (a user event's may be any negative value: "-1234").
struct Status {
  cl_int value;
};

namespace detail {

constexpr size_t placeholders(const char* s) {
  size_t n = 0;
  for (; *s; ++s)
    if (s[0] == '{' && s[1] == '}') ++n;
  return n;
}

void put(std::string& out, std::string_view s);
void put(std::string& out, const char* s);  // NULL shows as "NULL"
void put(std::string& out, const void* p);  // an address, or "NULL"
void put(std::string& out, Hex h);
void put(std::string& out, Status s);
void put(std::string& out, long long v);
void put(std::string& out, unsigned long long v);
void put(std::string& out, double v);
template <std::integral T> void put(std::string& out, T v) {
  if constexpr (std::is_signed_v<T>)
    put(out, static_cast<long long>(v));
  else
    put(out, static_cast<unsigned long long>(v));
}
inline void put(std::string& out, float v) { put(out, static_cast<double>(v)); }
void put(std::string& out, const std::vector<std::string>& v);  // the strings joined with ", "
// An argument of another type is shown by a put(std::string&, const T&) of T's own namespace (found by
// argument-dependent lookup): an entry point's file can describe its objects (a kernel argument, say) lazily.
template <class T> std::string text(const T& v) {
  std::string s;
  put(s, v);
  return s;
}

// Prints "clref: <function>: <code name>: <reason>" on stderr as one line (newlines in the reason become "; "),
// `format` with its "{}" replaced by the `count` parts in turn ("(?)" for a part missing).
// Never throws: a message that cannot be made (no memory) is printed with "(?)" for every value.
void print(const char* function, cl_int code, const char* format, const std::string* parts, size_t count) noexcept;

}  // namespace detail

// The reason of an error: a string literal with one "{}" per argument (a mismatch does not compile).
template <class... Args> struct Reason {
  template <size_t N> consteval Reason(const char (&text)[N]) : text(text) {
    if (detail::placeholders(text) != sizeof...(Args)) throw "the reason's {} do not match its arguments";
  }
  const char* text;
};

// Logs the error on the channel "api" and returns `code`: `return apiError(__func__, CL_INVALID_VALUE, "...", ...)`.
template <class... Args>
cl_int apiError(const char* function, cl_int code, std::type_identity_t<Reason<Args...>> reason, const Args&... args) {
  if (apiLogOn()) {
    try {
      const std::string parts[sizeof...(Args) + 1] = {detail::text(args)...};
      detail::print(function, code, reason.text, parts, sizeof...(Args));
    } catch (...) { detail::print(function, code, reason.text, nullptr, 0); }
  }
  return code;
}

// The same for the entry points that create an object: sets *errcode_ret (when given) to `code` and returns nullptr,
// the failed call's value: `return apiErrorRet(__func__, errcode_ret, CL_INVALID_CONTEXT, "...", ...)`.
template <class... Args> std::nullptr_t apiErrorRet(const char* function, cl_int* errcode_ret, cl_int code,
                                                    std::type_identity_t<Reason<Args...>> reason, const Args&... args) {
  apiError<Args...>(function, code, reason, args...);
  if (errcode_ret) *errcode_ret = code;
  return nullptr;
}

}  // namespace clref::cl
