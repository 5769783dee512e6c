// Tiling a small texture over a larger image with normalized coordinates: CLK_ADDRESS_REPEAT with nearest
// filtering, CLK_ADDRESS_MIRRORED_REPEAT with linear filtering.
#pragma OPENCL FP_CONTRACT OFF

constant sampler_t kRepeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
constant sampler_t kMirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;

// Output pixel (x, y) samples at ((x + 0.5) * scale - shift, (y + 0.5) * scale - shift).
kernel void tile_repeat(read_only image2d_t tex, write_only image2d_t dst, float scale, float shift) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 p = (float2)((((float)x + 0.5f) * scale) - shift, (((float)y + 0.5f) * scale) - shift);
  write_imagef(dst, (int2)(x, y), read_imagef(tex, kRepeat, p));
}

kernel void tile_mirror(read_only image2d_t tex, global float4* out, float scale, float shift) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 p = (float2)((((float)x + 0.5f) * scale) - shift, (((float)y + 0.5f) * scale) - shift);
  out[y * get_global_size(0) + x] = read_imagef(tex, kMirror, p);
}
