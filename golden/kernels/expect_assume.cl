// build: -cl-std=CL3.0
// spirv: 1.0 SPV_KHR_expect_assume
// requires: cl_khr_expect_assume
// cl_khr_expect_assume: __builtin_expect(x, c) is x, whatever c says of its likely value, and __builtin_assume(cond)
// promises cond, which the inputs keep (every value is non-negative and below 2^20). Neither may change a result.
// The modules keep the promises as OpAssumeTrueKHR (ExpectAssumeKHR capability; clang-15 leaves no llvm.expect for
// OpExpectKHR), which clref checks: a broken promise would be a fault.
kernel void expect_assume(global const int* in, global int* out) {
  const size_t g = get_global_id(0), n = get_global_size(0);
  const int x = in[g];
  __builtin_assume(x >= 0);
  __builtin_assume(x < (1 << 20));
  if (__builtin_expect(x > 500000, 0))
    out[g] = x / 3;
  else
    out[g] = x * 2 + 1;
  out[n + g] = __builtin_expect(x & 7, 3) + (int)__builtin_expect((long)x, 0l) % 11;
  int steps = 0;
  for (int v = x; __builtin_expect(v != 0, 1); v >>= 1) ++steps;
  out[2 * n + g] = steps;
}
