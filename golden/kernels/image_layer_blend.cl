// A blend of two layers of a 2D image array, chosen by rounding float layer coordinates.
#pragma OPENCL FP_CONTRACT OFF

constant sampler_t kLayers = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// dst = a * layer(la) + (1 - a) * layer(lb); the layer is round-to-nearest of the coordinate, clamped.
kernel void layer_blend(read_only image2d_array_t src, write_only image2d_t dst, float la, float lb, float a) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float4 p = read_imagef(src, kLayers, (float4)((float)x + 0.5f, (float)y + 0.5f, la, 0.0f));
  const float4 q = read_imagef(src, kLayers, (float4)((float)x + 0.5f, (float)y + 0.5f, lb, 0.0f));
  write_imagef(dst, (int2)(x, y), (p * a) + (q * (1.0f - a)));
}
