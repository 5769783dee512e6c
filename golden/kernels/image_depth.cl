// A depth image (CL_DEPTH / CL_UNORM_INT16) read through image2d_depth_t with the argument's sampler, at
// quarter-texel steps.
#pragma OPENCL FP_CONTRACT OFF

kernel void depth_read(read_only image2d_depth_t depth, sampler_t smp, global float* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 p = (float2)(((float)x * 0.25f) + 0.125f, ((float)y * 0.25f) + 0.125f);
  out[y * get_global_size(0) + x] = read_imagef(depth, smp, p);
}
