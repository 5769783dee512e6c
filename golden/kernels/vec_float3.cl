// float3: loaded through a float3 pointer (16-byte elements, OpenCL C 3.0 §6.3.5 [[alignment-of-types]]), results
// stored as three scalars so no padding lane is ever written.
#pragma OPENCL FP_CONTRACT OFF

kernel void vec_float3(global const float3* a, global const float3* b, global float* out) {
  size_t i = get_global_id(0);
  float3 x = a[i], y = b[i];
  float3 r = x * y - x.zxy;
  out[3 * i + 0] = r.x;
  out[3 * i + 1] = r.y;
  out[3 * i + 2] = r.z;
}
