// Clean: float3 elements read with vload3 and written with vstore3 (12 bytes each: the fourth lane of a float3
// value is never stored).
kernel void clean_vload3(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  float3 p = vload3(i, in);
  vstore3(p * 2.0f + (float3)(1.0f, 2.0f, 3.0f), i, out);
}
