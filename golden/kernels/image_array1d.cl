// Linear filtering along each layer of a 1D image array.
#pragma OPENCL FP_CONTRACT OFF

// Work-item (i, layer) samples layer `layer` at normalized u = i / (n - 1) with the argument's sampler.
kernel void array1d_lerp(read_only image1d_array_t src, sampler_t smp, global float4* out, float inv_n) {
  const int i = get_global_id(0), layer = get_global_id(1);
  out[layer * get_global_size(0) + i] = read_imagef(src, smp, (float2)((float)i * inv_n, (float)layer));
}
