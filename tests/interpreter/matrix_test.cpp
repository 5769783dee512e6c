// Matrices in Vulkan compute shaders (interpreter/ops_matrix.cpp, the matrix layouts of ops_memory.cpp): the
// products, transpose and outer product through GLSL shaders run with the host API, matrices in std140 and std430
// blocks column- and row-major, in arrays and structs, read and written whole, by column and by element; the
// determinant and inverse evaluations. Expected values are computed here on the host in clref's stated order (each
// product rounded, the sum in index order, no fusion: the stores through volatile keep the compiler from
// contracting), and for inputs whose products are exact also in double.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"
#include "interpreter/ops_matrix.hpp"
#include "interpreter/program.hpp"
#include "interpreter/shadow.hpp"
#include "numerics/half_arith.hpp"
#include "spvasm.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

// A column-major matrix of R rows and C columns on the host.
template <class T> struct Mat {
  uint32_t rows, cols;
  std::vector<T> v;  // v[c * rows + r]
  T at(uint32_t r, uint32_t c) const { return v[c * rows + r]; }
};

// Σ_k a_k·b_k in index order, each operation rounded in T.
template <class T> T sumOfProducts(const std::vector<T>& a, const std::vector<T>& b) {
  volatile T acc = a[0] * b[0];
  for (size_t k = 1; k < a.size(); ++k) {
    volatile T p = a[k] * b[k];
    acc = acc + p;
  }
  return acc;
}
template <class T> Mat<T> multiply(const Mat<T>& a, const Mat<T>& b) {
  Mat<T> out{a.rows, b.cols, std::vector<T>(a.rows * b.cols)};
  for (uint32_t c = 0; c < b.cols; ++c)
    for (uint32_t r = 0; r < a.rows; ++r) {
      std::vector<T> x, y;
      for (uint32_t k = 0; k < a.cols; ++k) {
        x.push_back(a.at(r, k));
        y.push_back(b.at(k, c));
      }
      out.v[c * a.rows + r] = sumOfProducts(x, y);
    }
  return out;
}

template <class T> std::shared_ptr<host::Buffer> bufferOf(const std::vector<T>& v) {
  return std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(T));
}

// The shader of the arithmetic tests: the inputs are T x[] (binding 0), the outputs T y[] (binding 1); matrices are
// built from x and written to y component by component through Function-storage matrices (access chains into
// matrices in registers' layout).
const char* kArithmetic = R"(#version 450
#extension GL_ARB_gpu_shader_fp64 : enable
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { SCALAR x[]; };
layout(std430, set = 0, binding = 1) buffer Out { SCALAR y[]; };
int o = 0;
void put(MAT3 m) { for (int c = 0; c < 3; ++c) for (int r = 0; r < 3; ++r) y[o++] = m[c][r]; }
void put(MAT2X3 m) { for (int c = 0; c < 2; ++c) for (int r = 0; r < 3; ++r) y[o++] = m[c][r]; }
void put(MAT3X2 m) { for (int c = 0; c < 3; ++c) for (int r = 0; r < 2; ++r) y[o++] = m[c][r]; }
void put(MAT4 m) { for (int c = 0; c < 4; ++c) for (int r = 0; r < 4; ++r) y[o++] = m[c][r]; }
void put(VEC3 v) { for (int r = 0; r < 3; ++r) y[o++] = v[r]; }
void put(VEC2 v) { y[o++] = v.x; y[o++] = v.y; }
void put(VEC4 v) { for (int r = 0; r < 4; ++r) y[o++] = v[r]; }
void main() {
  MAT3 a; MAT4 b; MAT2X3 c; MAT4X3 d; MAT2X4 e;
  int i = 0;
  for (int k = 0; k < 3; ++k) for (int r = 0; r < 3; ++r) a[k][r] = x[i++];
  for (int k = 0; k < 4; ++k) for (int r = 0; r < 4; ++r) b[k][r] = x[i++];
  for (int k = 0; k < 2; ++k) for (int r = 0; r < 3; ++r) c[k][r] = x[i++];
  for (int k = 0; k < 4; ++k) { d[k] = VEC3(x[i], x[i + 1], x[i + 2]); i += 3; }
  for (int k = 0; k < 2; ++k) { e[k] = VEC4(x[i], x[i + 1], x[i + 2], x[i + 3]); i += 4; }
  VEC3 v3 = VEC3(x[i], x[i + 1], x[i + 2]);
  VEC4 v4 = VEC4(x[i + 3], x[i + 4], x[i + 5], x[i + 6]);
  VEC2 v2 = VEC2(x[i + 7], x[i + 8]);
  SCALAR s = x[i + 9];
  put(a * v3);             // OpMatrixTimesVector
  put(v3 * a);             // OpVectorTimesMatrix
  put(a * a);              // OpMatrixTimesMatrix
  put(b * v4);
  put(v4 * b);
  put(b * b);
  put(c * v2);             // mat2x3 × vec2 → vec3
  put(v3 * c);             // vec3 × mat2x3 → vec2
  put(d * e);              // mat4x3 × mat2x4 → mat2x3
  put(transpose(c));       // OpTranspose: mat3x2
  put(outerProduct(v3, v2));  // mat2x3
  put(a * s);              // OpMatrixTimesScalar
  put(-c);                 // component-wise on the columns
  put(c + c);
}
)";

std::string arithmeticSource(bool dbl) {
  std::string s = kArithmetic;
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
      s.replace(p, from.size(), to);
  };
  replace("SCALAR", dbl ? "double" : "float");
  replace("MAT2X3", dbl ? "dmat2x3" : "mat2x3");
  replace("MAT3X2", dbl ? "dmat3x2" : "mat3x2");
  replace("MAT4X3", dbl ? "dmat4x3" : "mat4x3");
  replace("MAT2X4", dbl ? "dmat2x4" : "mat2x4");
  replace("MAT3", dbl ? "dmat3" : "mat3");
  replace("MAT4", dbl ? "dmat4" : "mat4");
  replace("VEC2", dbl ? "dvec2" : "vec2");
  replace("VEC3", dbl ? "dvec3" : "vec3");
  replace("VEC4", dbl ? "dvec4" : "vec4");
  return s;
}

// The expected outputs of kArithmetic for inputs x, in put() order.
template <class T> std::vector<T> expectedArithmetic(const std::vector<T>& x) {
  size_t i = 0;
  auto take = [&](uint32_t rows, uint32_t cols) {
    Mat<T> m{rows, cols, std::vector<T>(x.begin() + long(i), x.begin() + long(i + rows * cols))};
    i += rows * cols;
    return m;
  };
  const Mat<T> a = take(3, 3), b = take(4, 4), c = take(3, 2), d = take(3, 4), e = take(4, 2);
  const Mat<T> v3 = take(3, 1), v4 = take(4, 1), v2 = take(2, 1);
  const T s = x[i];
  auto row = [](const Mat<T>& v) { return Mat<T>{1, v.rows, v.v}; };
  std::vector<T> out;
  auto put = [&](const Mat<T>& m) { out.insert(out.end(), m.v.begin(), m.v.end()); };
  put(multiply(a, v3));
  put(multiply(row(v3), a));
  put(multiply(a, a));
  put(multiply(b, v4));
  put(multiply(row(v4), b));
  put(multiply(b, b));
  put(multiply(c, v2));
  put(multiply(row(v3), c));
  put(multiply(d, e));
  Mat<T> t{2, 3, std::vector<T>(6)};
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t k = 0; k < 2; ++k) t.v[r * 2 + k] = c.at(r, k);
  put(t);
  put(multiply(v3, row(v2)));  // outer product: a 3×1 times a 1×2, one product each
  for (T m : a.v) out.push_back(T(m * s));
  for (T m : c.v) out.push_back(-m);
  for (T m : c.v) out.push_back(m + m);
  return out;
}

constexpr size_t kInputs = 9 + 16 + 6 + 12 + 8 + 3 + 4 + 2 + 1;
constexpr size_t kOutputs = 3 + 3 + 9 + 4 + 4 + 16 + 3 + 2 + 6 + 6 + 6 + 9 + 6 + 6;

template <class T> std::vector<T> runArithmetic(const std::vector<T>& x) {
  host::Device device;
  auto program = host::Program::fromGlsl(device, arithmeticSource(std::is_same_v<T, double>));
  host::Kernel k(program, "main");
  auto y = std::make_shared<host::Buffer>(kOutputs * sizeof(T));
  k.setArg(*k.resourceArg(0, 0), bufferOf(x));
  k.setArg(*k.resourceArg(0, 1), y);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  const auto out = y->as<T>();
  return std::vector<T>(out.begin(), out.begin() + kOutputs);
}

template <class T> void checkSame(const std::vector<T>& got, const std::vector<T>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << i);
    CHECK(std::memcmp(&got[i], &want[i], sizeof(T)) == 0);
    CHECK(got[i] == want[i]);
  }
}

}  // namespace

TEST_CASE("matrix products of exact inputs give the exact values", "[shader][matrix]") {
  // Small integers: every product and sum is exact in float, so the values are the mathematical ones (computed in
  // double, then compared as floats).
  std::vector<double> xd(kInputs);
  for (size_t i = 0; i < kInputs; ++i) xd[i] = double(int(i * 7 % 11) - 5);
  std::vector<float> xf(xd.begin(), xd.end());
  const std::vector<double> want = expectedArithmetic(xd);
  const std::vector<float> got = runArithmetic(xf);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << i);
    CHECK(double(got[i]) == want[i]);
  }
}

TEST_CASE("matrix products round each product and sum in index order, float and double", "[shader][matrix]") {
  std::vector<float> xf(kInputs);
  std::vector<double> xd(kInputs);
  for (size_t i = 0; i < kInputs; ++i) {
    xf[i] = float(i % 13) / 7.0f - 0.9f + float(i) * 1e-3f;
    xd[i] = double(i % 13) / 7.0 - 0.9 + double(i) * 1e-3;
  }
  const std::vector<float> wantF = expectedArithmetic(xf);
  checkSame(runArithmetic(xf), wantF);
  checkSame(runArithmetic(xd), expectedArithmetic(xd));
  // The order matters for these inputs: the sums in reverse order differ somewhere.
  std::vector<float> reversed;
  {
    const Mat<float> b{4, 4, std::vector<float>(xf.begin() + 9, xf.begin() + 25)};
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t r = 0; r < 4; ++r) {
        volatile float acc = b.at(r, 3) * b.at(3, c);
        for (int k = 2; k >= 0; --k) {
          volatile float p = b.at(r, uint32_t(k)) * b.at(uint32_t(k), c);
          acc = acc + p;
        }
        reversed.push_back(float(acc));
      }
  }
  CHECK_FALSE(std::equal(reversed.begin(), reversed.end(), wantF.begin() + 3 + 3 + 9 + 4 + 4));
}

namespace {

// std140 uniform block: mat2 (MatrixStride 16) at 0, a row-major mat3 (rows 16 apart) at 32, an array of two structs
// {mat2x3 m (MatrixStride 16); float f;} (ArrayStride 48) at 80. std430 storage block written by the shader: a
// row-major mat3 at 0, a mat2x3 at 48 (MatrixStride 16), a row-major dmat2 at 80 (rows 16 apart).
const char* kLayout = R"(#version 450
layout(local_size_x = 1) in;
struct S { mat2x3 m; float f; };
layout(std140, set = 0, binding = 0) uniform U { mat2 a; layout(row_major) mat3 b; S s[2]; } u;
layout(std430, set = 0, binding = 1) buffer Out { float y[]; };
layout(std430, set = 0, binding = 2) buffer W { layout(row_major) mat3 rm; mat2x3 cm; layout(row_major) dmat2 dr; } w;
layout(std430, set = 0, binding = 3) readonly buffer Idx { int one; };
int o = 0;
void main() {
  mat2 a = u.a;
  mat3 b = u.b;
  for (int c = 0; c < 2; ++c) for (int r = 0; r < 2; ++r) y[o++] = a[c][r];
  for (int c = 0; c < 3; ++c) for (int r = 0; r < 3; ++r) y[o++] = b[c][r];
  vec3 col = u.b[one];          // a column of a row-major matrix: components 16 bytes apart
  y[o++] = col.x; y[o++] = col.y; y[o++] = col.z;
  y[o++] = u.b[2][one];         // one element of it
  y[o++] = u.b[one + 1][0];
  S s1 = u.s[one];              // a struct holding a matrix, from an array
  for (int c = 0; c < 2; ++c) for (int r = 0; r < 3; ++r) y[o++] = s1.m[c][r];
  y[o++] = s1.f;
  y[o++] = u.s[0].m[one].z;
  vec2 p = u.a * vec2(1.0, 2.0);
  y[o++] = p.x; y[o++] = p.y;
  w.rm = b * 2.0;               // a whole row-major matrix stored
  w.rm[one] = vec3(-1.0, -2.0, -3.0);  // a column of it stored: scattered over the rows
  w.rm[2][one + 1] = 9.0;       // one element
  w.cm = transpose(mat3x2(b));
  w.cm[0][one] = 5.0;
  w.dr = dmat2(1.5, 2.5, 3.5, 4.5);
  w.dr[one][0] = -8.0;
}
)";

}  // namespace

TEST_CASE("matrices in std140 and std430 blocks, column- and row-major, in arrays and structs", "[shader][matrix]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, kLayout);
  host::Kernel k(program, "main");
  // The uniform block's bytes, laid out by hand from the layout rules (GLSL 4.60 §7.6.2.2 [external] std140).
  std::vector<float> ubo(176 / 4, -100.0f);  // padding holds a value that must never be read
  auto a = [](uint32_t c, uint32_t r) { return float(10 * c + r + 1); };        // mat2
  auto b = [](uint32_t c, uint32_t r) { return float(100 + 10 * c + r) / 4; };  // mat3
  auto m = [](uint32_t s, uint32_t c, uint32_t r) { return float(1000 * (s + 1) + 10 * c + r); };
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t r = 0; r < 2; ++r) ubo[(0 + c * 16 + r * 4) / 4] = a(c, r);
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t r = 0; r < 3; ++r) ubo[(32 + r * 16 + c * 4) / 4] = b(c, r);  // row-major
  for (uint32_t s = 0; s < 2; ++s) {
    for (uint32_t c = 0; c < 2; ++c)
      for (uint32_t r = 0; r < 3; ++r) ubo[(80 + 48 * s + c * 16 + r * 4) / 4] = m(s, c, r);
    ubo[(80 + 48 * s + 32) / 4] = float(s) + 0.5f;
  }
  auto y = std::make_shared<host::Buffer>(64 * 4);
  std::vector<float> wInit(112 / 4, -100.0f);
  auto w = bufferOf(wInit);
  const int one = 1;
  k.setArg(*k.resourceArg(0, 0), bufferOf(ubo));
  k.setArg(*k.resourceArg(0, 1), y);
  k.setArg(*k.resourceArg(0, 2), w);
  k.setArg(*k.resourceArg(0, 3), std::make_shared<host::Buffer>(&one, 4));
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);

  std::vector<float> want;
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t r = 0; r < 2; ++r) want.push_back(a(c, r));
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t r = 0; r < 3; ++r) want.push_back(b(c, r));
  for (uint32_t r = 0; r < 3; ++r) want.push_back(b(1, r));
  want.push_back(b(2, 1));
  want.push_back(b(2, 0));
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t r = 0; r < 3; ++r) want.push_back(m(1, c, r));
  want.push_back(1.5f);
  want.push_back(m(0, 1, 2));
  want.push_back(a(0, 0) * 1.0f + a(1, 0) * 2.0f);
  want.push_back(a(0, 1) * 1.0f + a(1, 1) * 2.0f);
  const float* got = y->as<float>().data();
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("output " << i);
    CHECK(got[i] == want[i]);
  }

  // The storage block: rm row-major (element (c, r) at r·16 + c·4), cm column-major at 48, dr at 80 in doubles.
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(w->data());
  auto f = [&](uint32_t off) {
    float v;
    std::memcpy(&v, bytes + off, 4);
    return v;
  };
  auto d = [&](uint32_t off) {
    double v;
    std::memcpy(&v, bytes + off, 8);
    return v;
  };
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t r = 0; r < 3; ++r) {
      INFO("rm column " << c << " row " << r);
      float expect = b(c, r) * 2.0f;
      if (c == 1) expect = -float(r + 1);
      if (c == 2 && r == 2) expect = 9.0f;
      CHECK(f(r * 16 + c * 4) == expect);
    }
  for (uint32_t r = 0; r < 3; ++r) CHECK(f(r * 16 + 12) == -100.0f);  // the rows' padding is untouched
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t r = 0; r < 3; ++r) {
      INFO("cm column " << c << " row " << r);
      // transpose(mat3x2(b)): mat3x2(b) keeps b's first two rows; its transpose has column c = row c of that.
      const float expect = c == 0 && r == 1 ? 5.0f : b(r, c);
      CHECK(f(48 + c * 16 + r * 4) == expect);
    }
  // dmat2(1.5, 2.5, 3.5, 4.5): columns (1.5, 2.5), (3.5, 4.5); row-major: (c, r) at 80 + r·16 + c·8.
  CHECK(d(80 + 0 * 16 + 0 * 8) == 1.5);
  CHECK(d(80 + 1 * 16 + 0 * 8) == 2.5);
  CHECK(d(80 + 0 * 16 + 1 * 8) == -8.0);
  CHECK(d(80 + 1 * 16 + 1 * 8) == 4.5);
}

TEST_CASE("determinant and inverse: cofactor expansion along the first column, each operation rounded", "[matrix]") {
  using interpreter::matrixDeterminant;
  using interpreter::matrixInverse;
  // 2×2, columns (a, b), (c, d): a·d − b·c.
  const float m2[4] = {3, 1, 4, 2};
  CHECK(matrixDeterminant(m2, 2, false) == 2.0f);
  // 3×3 with exact arithmetic: the mathematical value (computed in double by the rule of Sarrus, independently).
  const double m3d[9] = {2, -1, 0, 1, 3, 4, -2, 5, 1};  // columns
  auto e = [&](int r, int c) { return m3d[c * 3 + r]; };
  const double sarrus = e(0, 0) * e(1, 1) * e(2, 2) + e(0, 1) * e(1, 2) * e(2, 0) + e(0, 2) * e(1, 0) * e(2, 1) -
                        e(0, 2) * e(1, 1) * e(2, 0) - e(0, 0) * e(1, 2) * e(2, 1) - e(0, 1) * e(1, 0) * e(2, 2);
  CHECK(matrixDeterminant(m3d, 3, false) == sarrus);
  float m3f[9];
  for (int i = 0; i < 9; ++i) m3f[i] = float(m3d[i]);
  CHECK(double(matrixDeterminant(m3f, 3, false)) == sarrus);

  // Rounded inputs: the stated order computed here in float, operation by operation.
  float m[16];
  for (int i = 0; i < 16; ++i) m[i] = float(i * 5 % 7) / 3.0f + float(i) * 0.01f - 1.0f;
  auto at = [&](int r, int c) { return m[c * 4 + r]; };
  // det2 of rows (r0, r1), columns (c0, c1): m[c0][r0]·m[c1][r1] − m[c0][r1]·m[c1][r0].
  auto det2 = [&](int r0, int r1, int c0, int c1) {
    volatile float p = at(r0, c0) * at(r1, c1);
    volatile float q = at(r1, c0) * at(r0, c1);
    return float(p - q);
  };
  auto det3 = [&](const int* rows, int c0, int c1, int c2) {
    volatile float t0 = at(rows[0], c0) * det2(rows[1], rows[2], c1, c2);
    volatile float t1 = at(rows[1], c0) * det2(rows[0], rows[2], c1, c2);
    volatile float t2 = at(rows[2], c0) * det2(rows[0], rows[1], c1, c2);
    volatile float s = t0 - t1;
    return float(s + t2);
  };
  const int r123[3] = {1, 2, 3}, r023[3] = {0, 2, 3}, r013[3] = {0, 1, 3}, r012[3] = {0, 1, 2};
  volatile float t0 = at(0, 0) * det3(r123, 1, 2, 3);
  volatile float t1 = at(1, 0) * det3(r023, 1, 2, 3);
  volatile float t2 = at(2, 0) * det3(r013, 1, 2, 3);
  volatile float t3 = at(3, 0) * det3(r012, 1, 2, 3);
  volatile float s01 = t0 - t1;
  volatile float s012 = s01 + t2;
  const float det4 = s012 - t3;
  CHECK(matrixDeterminant(m, 4, false) == det4);
  // The 3×3 in the top-left corner.
  float m3[9];
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m3[c * 3 + r] = at(r, c);
  CHECK(matrixDeterminant(m3, 3, false) == det3(r012, 0, 1, 2));

  // inverse: element (column c, row r) = (−1)^(r+c)·det(minor without row c, column r) / det.
  float inv[16];
  matrixInverse(m, 4, inv, false);
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      int rows[3], cols[3];
      for (int i = 0, o = 0; i < 4; ++i)
        if (i != c) rows[o++] = i;
      for (int j = 0, o = 0; j < 4; ++j)
        if (j != r) cols[o++] = j;
      float cof = det3(rows, cols[0], cols[1], cols[2]);
      if ((r + c) % 2) cof = -cof;
      volatile float q = cof / det4;
      INFO("column " << c << " row " << r);
      CHECK(inv[c * 4 + r] == q);
    }
  // A matrix whose inverse is exact in binary64 (a power-of-two determinant) gets that inverse.
  const double u[4] = {2, 0, 1, 4};  // columns (2, 0), (1, 4): det 8
  double ui[4];
  matrixInverse(u, 2, ui, false);
  CHECK(ui[0] == 0.5);
  CHECK(ui[1] == 0.0);
  CHECK(ui[2] == -0.125);
  CHECK(ui[3] == 0.25);
  // binary16: det of [[1.5, 0.25], [2, 3]] = 1.5·3 − 0.25·2 = 4.
  const numerics::Half h[4] = {numerics::toHalf(1.5f), numerics::toHalf(0.25f), numerics::toHalf(2.0f),
                               numerics::toHalf(3.0f)};
  CHECK(numerics::toFloat(matrixDeterminant(h, 2, false)) == 4.0f);
  // Flushing: a subnormal product becomes zero.
  const float tiny[4] = {1e-20f, 0, 0, 1e-20f};
  CHECK(matrixDeterminant(tiny, 2, true) == 0.0f);
  CHECK(matrixDeterminant(tiny, 2, false) == 1e-20f * 1e-20f);
}

namespace {

// A storage block {mat2 m; float f;} loaded whole and stored back, with `decorations` on member 0 beyond its Offset.
std::string blockShader(const std::string& decorations, uint32_t secondOffset) {
  return R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Block Block
               OpMemberDecorate %Block 0 Offset 0
)" + decorations +
         R"(
               OpMemberDecorate %Block 1 Offset )" +
         std::to_string(secondOffset) + R"(
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %vec2 = OpTypeVector %float 2
       %mat2 = OpTypeMatrix %vec2 2
      %Block = OpTypeStruct %mat2 %float
    %ptr_blk = OpTypePointer StorageBuffer %Block
        %buf = OpVariable %ptr_blk StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpLoad %Block %buf
               OpStore %buf %v
               OpReturn
               OpFunctionEnd
)";
}

// Lowers `main` of a module parsed without the Vulkan validator (which refuses both layouts before clref sees them:
// these are the lowering's own refusals, for a module that reaches it); returns the refusal's message.
std::string loweringRefusal(const std::string& text) {
  const auto module = interpreter::Module::parse(test::assembleText(text, SPV_ENV_VULKAN_1_1_SPIRV_1_4));
  try {
    interpreter::lowerKernel(module, "main", interpreter::LowerOptions{});
  } catch (const interpreter::ModuleError& e) { return e.what(); }
  return "lowered";
}

}  // namespace

TEST_CASE("a matrix layout clref cannot convert is refused at lowering, naming the instruction", "[shader][matrix]") {
  host::Device device;
  // Through the host API the Vulkan validator refuses a Block's matrix without MatrixStride.
  CHECK_THROWS_WITH(host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly,
                                              blockShader("OpMemberDecorate %Block 0 ColMajor", 16)),
                    Contains("MatrixStride"));
  // The lowering's own refusals.
  const std::string noStride = loweringRefusal(blockShader("OpMemberDecorate %Block 0 ColMajor", 16));
  CHECK_THAT(noStride, Contains("no MatrixStride decoration"));
  CHECK_THAT(noStride, Contains("OpLoad"));
  // MatrixStride 4: the columns overlap in memory, the matrix spans 12 bytes there and the float follows at 12; the
  // packed register matrix takes 16.
  const std::string overlap = loweringRefusal(
      blockShader("OpMemberDecorate %Block 0 ColMajor\n               OpMemberDecorate %Block 0 MatrixStride 4", 12));
  CHECK_THAT(overlap, Contains("cannot convert this layout"));
  CHECK_THAT(overlap, Contains("byte offset 12"));
  CHECK_THAT(overlap, Contains("OpLoad"));
  // The same with the float at 16 lowers (the memory layout is odd, not unconvertible).
  CHECK(loweringRefusal(blockShader(
            "OpMemberDecorate %Block 0 ColMajor\n               OpMemberDecorate %Block 0 MatrixStride 8", 16)) ==
        "lowered");
}

TEST_CASE("binary16 matrix products: each product and sum rounded to half", "[shader][matrix][half]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { float x[]; };
layout(std430, set = 0, binding = 1) buffer Out { float y[]; };
void main() {
  f16mat3 a = f16mat3(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]);
  f16vec3 v = f16vec3(x[9], x[10], x[11]);
  f16vec3 p = a * v;
  f16mat3 q = a * a;
  for (int r = 0; r < 3; ++r) y[r] = float(p[r]);
  for (int c = 0; c < 3; ++c) for (int r = 0; r < 3; ++r) y[3 + 3 * c + r] = float(q[c][r]);
}
)");
  host::Kernel k(program, "main");
  // Values exact in binary16 whose products and sums are not.
  std::vector<float> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = numerics::toFloat(numerics::toHalf(1.0f / float(i + 3) + float(i)));
  auto y = std::make_shared<host::Buffer>(12 * 4);
  k.setArg(*k.resourceArg(0, 0), bufferOf(x));
  k.setArg(*k.resourceArg(0, 1), y);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  // The reference: a product or sum of two binary16 values is exact in double (at most 22 significant bits, or
  // exponents at most 40 apart), so one rounding of the double to binary16 is the correctly rounded operation.
  auto h = [](double v) { return numerics::toDouble(numerics::toHalf(v)); };
  auto at = [&](uint32_t r, uint32_t c) { return double(x[c * 3 + r]); };
  auto sum3 = [&](double p0, double p1, double p2) { return h(h(h(p0) + h(p1)) + h(p2)); };
  std::vector<double> want;
  for (uint32_t r = 0; r < 3; ++r) want.push_back(sum3(at(r, 0) * x[9], at(r, 1) * x[10], at(r, 2) * x[11]));
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t r = 0; r < 3; ++r)
      want.push_back(sum3(at(r, 0) * at(0, c), at(r, 1) * at(1, c), at(r, 2) * at(2, c)));
  bool someRounded = false;
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("output " << i);
    CHECK(double(y->as<float>()[i]) == want[i]);
    const uint32_t r = uint32_t(i < 3 ? i : (i - 3) % 3), c = uint32_t(i < 3 ? 0 : (i - 3) / 3);
    const double exact = i < 3 ? at(r, 0) * x[9] + at(r, 1) * x[10] + at(r, 2) * x[11]
                               : at(r, 0) * at(0, c) + at(r, 1) * at(1, c) + at(r, 2) * at(2, c);
    someRounded |= want[i] != exact;
  }
  CHECK(someRounded);
}

TEST_CASE("std430 arrays of matrices, selected and passed through phis", "[shader][matrix]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { mat3 ms[4]; layout(row_major) mat2x3 rs[2]; dmat3x2 d; };
layout(std430, set = 0, binding = 1) buffer Out { vec4 y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  mat3 m = ms[i];
  mat3 pick = (i & 1u) == 0u ? m : transpose(m);   // OpSelect of matrices (or a phi)
  if (i == 3u) pick = pick * 2.0;                  // a phi of matrices
  vec3 v = pick * vec3(1.0, 10.0, 100.0);
  y[i] = vec4(v, ms[i][2][i % 3u]);
  if (i == 0u) {
    mat2x3 r = rs[1];
    y[4] = vec4(r[0], r[1].x);
    y[5] = vec4(vec2(d[1]), vec2(d[2]));
  }
}
)");
  host::Kernel k(program, "main");
  // std430: mat3 columns 16 apart (ArrayStride 48); row-major mat2x3: 3 rows of vec2, 8 apart (ArrayStride 24); the
  // dmat3x2 at 192 + 48 = 240: 3 columns of dvec2, 16 apart.
  std::vector<uint8_t> in(240 + 48, 0xff);
  auto putF = [&](size_t off, float v) { std::memcpy(in.data() + off, &v, 4); };
  auto putD = [&](size_t off, double v) { std::memcpy(in.data() + off, &v, 8); };
  auto ms = [](uint32_t i, uint32_t c, uint32_t r) { return float(i + 1) + float(c) * 0.25f + float(r) * 0.0625f; };
  auto rs = [](uint32_t i, uint32_t c, uint32_t r) { return float(100 * i + 10 * c + r); };
  for (uint32_t i = 0; i < 4; ++i)
    for (uint32_t c = 0; c < 3; ++c)
      for (uint32_t r = 0; r < 3; ++r) putF(i * 48 + c * 16 + r * 4, ms(i, c, r));
  for (uint32_t i = 0; i < 2; ++i)
    for (uint32_t c = 0; c < 2; ++c)
      for (uint32_t r = 0; r < 3; ++r) putF(192 + i * 24 + r * 8 + c * 4, rs(i, c, r));
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t r = 0; r < 2; ++r) putD(240 + c * 16 + r * 8, double(c) - double(r) / 8);
  auto y = std::make_shared<host::Buffer>(6 * 16);
  k.setArg(*k.resourceArg(0, 0), std::make_shared<host::Buffer>(in.data(), in.size()));
  k.setArg(*k.resourceArg(0, 1), y);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  const auto out = y->as<float>();
  for (uint32_t i = 0; i < 4; ++i) {
    // pick(r, c): m or its transpose, doubled for i = 3 (exact: these values are short binary fractions).
    auto pick = [&](uint32_t r, uint32_t c) {
      const float e = i % 2 == 0 ? ms(i, c, r) : ms(i, r, c);
      return i == 3 ? e * 2 : e;
    };
    for (uint32_t r = 0; r < 3; ++r) {
      volatile float p0 = pick(r, 0) * 1.0f, p1 = pick(r, 1) * 10.0f, p2 = pick(r, 2) * 100.0f;
      volatile float s = p0 + p1;
      INFO("invocation " << i << " row " << r);
      CHECK(out[i * 4 + r] == float(s + p2));
    }
    CHECK(out[i * 4 + 3] == ms(i, 2, i % 3));
  }
  CHECK(out[16] == rs(1, 0, 0));
  CHECK(out[17] == rs(1, 0, 1));
  CHECK(out[18] == rs(1, 0, 2));
  CHECK(out[19] == rs(1, 1, 0));
  CHECK(out[20] == 1.0f);
  CHECK(out[21] == float(1.0 - 1.0 / 8));
  CHECK(out[22] == 2.0f);
  CHECK(out[23] == float(2.0 - 1.0 / 8));
}

TEST_CASE("matrix shaders run in the shadow mode with clref's values unchanged", "[shader][matrix]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, kLayout);
  std::vector<float> ubo(176 / 4);
  for (size_t i = 0; i < ubo.size(); ++i) ubo[i] = float(i) / 8;
  const int one = 1;
  std::vector<float> plainW, shadowW, plainY, shadowY;
  for (bool shadow : {false, true}) {
    host::Kernel k(program, "main");
    auto y = std::make_shared<host::Buffer>(64 * 4);
    auto w = std::make_shared<host::Buffer>(112);
    k.setArg(*k.resourceArg(0, 0), bufferOf(ubo));
    k.setArg(*k.resourceArg(0, 1), y);
    k.setArg(*k.resourceArg(0, 2), w);
    k.setArg(*k.resourceArg(0, 3), std::make_shared<host::Buffer>(&one, 4));
    interpreter::ShadowRun run;
    const auto result = shadow ? k.runShadow(k.dispatch({1, 1, 1}), run) : k.run(k.dispatch({1, 1, 1}));
    INFO((result.fault ? result.fault->message : ""));
    REQUIRE(result.ok);
    (shadow ? shadowY : plainY).assign(y->as<float>().begin(), y->as<float>().end());
    (shadow ? shadowW : plainW).assign(w->as<float>().begin(), w->as<float>().end());
  }
  CHECK(plainY == shadowY);
  CHECK(plainW == shadowW);
}

TEST_CASE("OpCopyMemory of a matrix converts between layouts", "[shader][matrix]") {
  // A row-major mat2 (rows 16 apart) copied to a Function variable, from there to a column-major one (columns 16
  // apart), and directly to another column-major one (columns 8 apart).
  const std::string source = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %in %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %In Block
               OpMemberDecorate %In 0 Offset 0
               OpMemberDecorate %In 0 RowMajor
               OpMemberDecorate %In 0 MatrixStride 16
               OpDecorate %Out Block
               OpMemberDecorate %Out 0 Offset 0
               OpMemberDecorate %Out 0 ColMajor
               OpMemberDecorate %Out 0 MatrixStride 16
               OpMemberDecorate %Out 1 Offset 32
               OpMemberDecorate %Out 1 ColMajor
               OpMemberDecorate %Out 1 MatrixStride 8
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %vec2 = OpTypeVector %float 2
       %mat2 = OpTypeMatrix %vec2 2
         %In = OpTypeStruct %mat2
        %Out = OpTypeStruct %mat2 %mat2
     %ptr_in = OpTypePointer StorageBuffer %In
    %ptr_out = OpTypePointer StorageBuffer %Out
    %ptr_mat = OpTypePointer StorageBuffer %mat2
   %ptr_fmat = OpTypePointer Function %mat2
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
         %in = OpVariable %ptr_in StorageBuffer
        %out = OpVariable %ptr_out StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
      %local = OpVariable %ptr_fmat Function
        %src = OpAccessChain %ptr_mat %in %int_0
               OpCopyMemory %local %src
         %d0 = OpAccessChain %ptr_mat %out %int_0
               OpCopyMemory %d0 %local
         %d1 = OpAccessChain %ptr_mat %out %int_1
               OpCopyMemory %d1 %src
               OpReturn
               OpFunctionEnd
)";
  host::Device device;
  auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, source);
  host::Kernel k(program, "main");
  std::vector<float> in(8, -1.0f), out(12, -1.0f);
  auto e = [](uint32_t c, uint32_t r) { return float(10 * c + r + 1); };
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t r = 0; r < 2; ++r) in[(r * 16 + c * 4) / 4] = e(c, r);
  auto outBuf = bufferOf(out);
  k.setArg(*k.resourceArg(0, 0), bufferOf(in));
  k.setArg(*k.resourceArg(0, 1), outBuf);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  const auto got = outBuf->as<float>();
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t r = 0; r < 2; ++r) {
      INFO("column " << c << " row " << r);
      CHECK(got[(c * 16 + r * 4) / 4] == e(c, r));
      CHECK(got[(32 + c * 8 + r * 4) / 4] == e(c, r));
    }
  CHECK(got[2] == -1.0f);  // the padding after column 0 is untouched
  // The shadow mode's copies follow the same plans.
  auto shadowOut = bufferOf(out);
  k.setArg(*k.resourceArg(0, 1), shadowOut);
  interpreter::ShadowRun run;
  REQUIRE(k.runShadow(k.dispatch({1, 1, 1}), run).ok);
  CHECK(std::equal(got.begin(), got.end(), shadowOut->as<float>().begin()));
}

TEST_CASE("matrix copies run clean under the race and uninitialised-value checkers", "[shader][matrix][checks]") {
  // The planned loads and stores access memory piece by piece: the checkers see each piece, and a fully written
  // input gives no finding.
  host::DeviceConfig config;
  config.checks = interpreter::parseChecks("all");
  host::Device device(config);
  auto program = host::Program::fromGlsl(device, kLayout);
  host::Kernel k(program, "main");
  std::vector<float> ubo(176 / 4);
  for (size_t i = 0; i < ubo.size(); ++i) ubo[i] = float(i);
  const int one = 1;
  std::vector<float> wInit(112 / 4, 0.0f), yInit(64, 0.0f);
  auto y = bufferOf(yInit);
  auto w = bufferOf(wInit);
  k.setArg(*k.resourceArg(0, 0), bufferOf(ubo));
  k.setArg(*k.resourceArg(0, 1), y);
  k.setArg(*k.resourceArg(0, 2), w);
  k.setArg(*k.resourceArg(0, 3), std::make_shared<host::Buffer>(&one, 4));
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  CHECK(result.ok);
  CHECK(result.findings.empty());
  // The row-major column read (u.b[1]) gathered b's column 1: rows 16 bytes apart from offset 32 + 4.
  CHECK(y->as<float>()[13] == ubo[(32 + 4) / 4]);
  CHECK(y->as<float>()[14] == ubo[(32 + 16 + 4) / 4]);
  CHECK(y->as<float>()[15] == ubo[(32 + 32 + 4) / 4]);
}
