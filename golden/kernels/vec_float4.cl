// float4 arithmetic and swizzles.
#pragma OPENCL FP_CONTRACT OFF

kernel void vec_float4(global const float4* a, global const float4* b, global float4* sum,
                       global float4* prod, global float4* swz) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  sum[i] = x + y;
  prod[i] = x * y;
  // Swizzles and a scalar broadcast: (x.w, x.z, y.y, y.x) - 1.5
  swz[i] = (float4)(x.wz, y.yx) - 1.5f;
}
