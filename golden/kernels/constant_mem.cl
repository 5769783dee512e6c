// Constant memory: a program-scope constant table with an initializer, and constant pointer
// kernel arguments.
#pragma OPENCL FP_CONTRACT OFF

constant uint crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

constant short weights[5] = {-3, 1, 4, -1, 5};

// CRC-32 (reflected, nibble table) of each work-item's 8 input bytes.
kernel void constant_table(global const uchar* in, global uint* out) {
  size_t i = get_global_id(0);
  uint crc = 0xFFFFFFFFu;
  for (int k = 0; k < 8; ++k) {
    crc ^= in[8 * i + k];
    crc = (crc >> 4) ^ crc_nibble[crc & 15u];
    crc = (crc >> 4) ^ crc_nibble[crc & 15u];
  }
  int w = 0;
  for (int k = 0; k < 5; ++k) w += weights[k] * in[8 * i + k];
  out[2 * i + 0] = ~crc;
  out[2 * i + 1] = (uint)w;
}

// Polynomial with coefficients from a constant buffer (Horner, one rounding per operation).
kernel void constant_arg_poly(global const float* x, constant float* coef, uint ncoef,
                              global float* out) {
  size_t i = get_global_id(0);
  float v = x[i], r = coef[ncoef - 1];
  for (uint k = ncoef - 1; k > 0; --k) {
    r = r * v;
    r = r + coef[k - 1];
  }
  out[i] = r;
}
