// build: -cl-std=CL3.0
// requires: __opencl_c_generic_address_space
// The generic address space (OpenCL C 3.0 §6.7.5 [[the-generic-address-space]], the OpenCL C 3.0 feature
// __opencl_c_generic_address_space): functions whose pointer parameters have no address space are called with
// pointers to global, local and private memory, and with a pointer that points to one of the three depending on the
// work-item's value. to_global, to_local and to_private (§6.15.10 [[address-space-qualifier-functions]]) return NULL
// for a pointer into another address space; get_fence's flags cover the pointer's address space.
#define MAX_WG 64

int sumOf(const int* p, int count) {
  int s = 0;
  for (int i = 0; i < count; ++i) s += p[i];
  return s;
}

void scale(int* p, int factor) { *p = *p * factor; }

// 1 when p points to global memory, 2 to local, 4 to private (as to_global, to_local and to_private find).
int whereIs(int* p) {
  return (to_global(p) != NULL ? 1 : 0) | (to_local(p) != NULL ? 2 : 0) | (to_private(p) != NULL ? 4 : 0);
}

kernel void generic_address_space(global const int* in, global int* buf, global int* out) {
  local int shared[MAX_WG];
  int priv[4];
  const size_t g = get_global_id(0), l = get_local_id(0), first = g - l;
  const int x = in[g];
  buf[g] = x;
  shared[l] = x + 1;
  for (int k = 0; k < 4; ++k) priv[k] = x * k;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  global int* o = out + 8 * g;
  // The group's first four values, from global and from local memory, and the work-item's own private array.
  o[0] = sumOf(buf + first, 4);
  o[1] = sumOf(shared, 4);
  o[2] = sumOf(priv, 4);
  o[3] = whereIs(buf + g) | whereIs(shared + l) << 3 | whereIs(priv + 1) << 6;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  // One generic pointer, to the work-item's own element in one of the three address spaces.
  const int space = x & 3;  // 0 global, 1 local, 2 and 3 private
  int* p = space == 0 ? (int*)&buf[g] : space == 1 ? (int*)&shared[l] : (int*)&priv[space - 1];
  scale(p, 3);
  o[4] = *p;
  o[5] = whereIs(p);
  const cl_mem_fence_flags want = space == 0 ? CLK_GLOBAL_MEM_FENCE : CLK_LOCAL_MEM_FENCE;
  o[6] = space >= 2 || (get_fence(p) & want) != 0;
  o[7] = buf[g] + shared[l] + priv[1] + priv[2];
}
