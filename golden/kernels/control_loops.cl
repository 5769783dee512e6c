// Loops: nested for loops with a data-dependent trip count, a while loop with break and
// continue, and a do-while. All arithmetic is unsigned so it may wrap. Each loop nest is its
// own (non-inlined) function, which also keeps llvm-spirv-15's block order valid at -O2.

// Nested loops: the inner trip count depends on the outer index, and the outer index on x.
// (Shapes matter here: a polynomial sum becomes a closed form with i33 arithmetic at -O2, and
// several other nestings get a block layout that llvm-spirv-15 emits out of dominance order.)
__attribute__((noinline)) uint triangle(uint x) {
  uint n = x % 9u;
  uint tri = 0;
  for (uint a = 0; a < n; ++a) {
    uint b = a;
    while (b != 0) {
      tri = tri * 31u + (a ^ (b << 2));
      b--;
    }
    tri ^= a;
  }
  return tri;
}

// Collatz steps, capped at 200: a while loop with continue and break.
__attribute__((noinline)) uint collatz_steps(uint x) {
  uint c = x | 1u, steps = 0;
  while (c != 1u) {
    ++steps;
    if ((c & 1u) == 0) {
      c >>= 1;
      continue;
    }
    if (steps >= 200u) break;
    c = 3u * c + 1u;
  }
  return steps;
}

// do-while: decimal digits of x (at least one iteration).
__attribute__((noinline)) uint digits(uint x) {
  uint n = 0;
  do {
    ++n;
    x /= 10u;
  } while (x != 0);
  return n;
}

kernel void control_loops(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  uint x = in[i];
  out[3 * i + 0] = triangle(x);
  out[3 * i + 1] = collatz_steps(x);
  out[3 * i + 2] = digits(x);
}
