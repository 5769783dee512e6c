// build: -cl-std=CL3.0 -Xclang -cl-ext=+cl_khr_mipmap_image
// Mip-level selection with an explicit lod (cl_khr_mipmap_image): row y of the output reads at lod lods[y].
#pragma OPENCL FP_CONTRACT OFF

kernel void mip_lod(read_only image2d_t img, sampler_t smp, global const float* lods, global float4* out,
                    global int* levels) {
  const int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  const float u = ((float)x + 0.5f) * 0.0625f;  // w is 16 in the cases
  out[y * w + x] = read_imagef(img, smp, (float2)(u, 0.375f), lods[y]);
  if (x == 0 && y == 0) levels[0] = get_image_num_mip_levels(img);
}
