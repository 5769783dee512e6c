// A lookup table in a 1D image buffer: out[i] = lut[in[i]].
kernel void lut1d(read_only image1d_buffer_t lut, global const uchar* in, global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(lut, (int)in[i]);
}
