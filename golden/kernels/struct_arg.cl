// A struct passed by value as a kernel argument (OpenCL C 3.0 §6.11 [[restrictions]], layout per
// §6.3.5 [[alignment-of-types]]): int at 0, float at 4, short at 8, padding, uint at 12, 16 bytes in all.
typedef struct {
  int bias;
  float scale;
  short shift;
  uint mask;
} Params;

kernel void struct_by_value(global const int* in, global int* iout, global float* fout,
                            Params p) {
  size_t i = get_global_id(0);
  int x = in[i];
  iout[i] = ((x + p.bias) >> p.shift) & (int)p.mask;
  fout[i] = (float)x * p.scale;
}
