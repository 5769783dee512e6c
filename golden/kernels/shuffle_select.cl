// shuffle, shuffle2, bitselect and select (OpenCL C 1.2 §6.12.12 "Miscellaneous Vector Functions",
// §6.12.6 "Relational Functions").
kernel void shuffle_select(global const float4* a, global const float4* b, global const uint4* m,
                           global const uint8* m8, global float4* o, global float8* o8,
                           global int4* sel, global const int4* ia) {
  const size_t g = get_global_id(0);
  o[g * 2] = shuffle(a[g], m[g]);
  o8[g] = shuffle2(a[g], b[g], m8[g]);
  o[g * 2 + 1] = bitselect(a[g], b[g], as_float4(ia[g]));
  sel[g] = select(ia[g], (int4)(7), ia[g]);
}
