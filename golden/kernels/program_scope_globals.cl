// build: -cl-std=CL3.0
// requires: __opencl_c_program_scope_global_variables
// Program-scope variables in the global address space (OpenCL C 3.0 §6.7.1 [[global-or-global]], the OpenCL C 3.0
// feature __opencl_c_program_scope_global_variables): initialised arrays, a float, a struct array, a pointer to another
// program-scope variable and a static variable inside a function, read by every work-item, and an array each
// work-item writes and reads back only its own element of (their values persist between launches, so no launch reads
// what another wrote).
#pragma OPENCL FP_CONTRACT OFF

struct Pair {
  int a;
  short b;
};

global int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
global float factor = 1.5f;
global int scratch[512];
global int* global cursor = &table[2];
global struct Pair pairs[2] = {{7, -1}, {-8, 2}};
constant int offsets[4] = {0, 10, 20, 30};

int base(void) {
  static global int start = 100;
  return start;
}

kernel void program_scope_globals(global const int* in, global int* out) {
  const size_t g = get_global_id(0);
  const int x = in[g];
  scratch[g] = x * 2 + table[g % 8];
  global int* o = out + 4 * g;
  o[0] = scratch[g] + offsets[g % 4];
  o[1] = (int)((float)x * factor);
  o[2] = cursor[g % 3];
  o[3] = pairs[g & 1].a * pairs[g & 1].b + base();
}
