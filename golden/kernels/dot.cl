// Dot products. dot_product: each work-item multiplies one pair, then a local tree reduction
// sums a work-group's products (fixed addition order). dot4_fma: per work-item dot product of
// float4 rows with an explicit fma chain (one rounding per fma).
#pragma OPENCL FP_CONTRACT OFF

kernel void dot_product(global const float* a, global const float* b, global float* partial,
                        local float* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = a[get_global_id(0)] * b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] = scratch[l] + scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = scratch[0];
}

kernel void dot4_fma(global const float4* a, global const float4* b, global float* out) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  float r = x.x * y.x;
  r = fma(x.y, y.y, r);
  r = fma(x.z, y.z, r);
  r = fma(x.w, y.w, r);
  out[i] = r;
}
