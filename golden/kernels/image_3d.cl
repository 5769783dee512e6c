// 3D images: the average of every slice at (x, y), and trilinear sampling between slices.
#pragma OPENCL FP_CONTRACT OFF

kernel void slice_average(read_only image3d_t vol, global float* out, float inv_depth) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int d = get_image_depth(vol);
  float sum = 0.0f;
  for (int z = 0; z < d; ++z) sum += read_imagef(vol, (int4)(x, y, z, 0)).x;
  out[y * get_image_width(vol) + x] = sum * inv_depth;
}

constant sampler_t kTrilinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

// Work-item (x, y, z) samples at (x + 0.5, y + 0.5, 0.75 z + 0.25).
kernel void trilinear(read_only image3d_t vol, global float4* out) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const float4 p = (float4)((float)x + 0.5f, (float)y + 0.5f, (float)z * 0.75f + 0.25f, 0.0f);
  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(vol, kTrilinear, p);
}
