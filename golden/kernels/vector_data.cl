// Vector data loads and stores (OpenCL C 1.2 §6.12.7 "Vector Data Load and Store Functions"): vloadn/vstoren on
// unaligned element pointers, vload_half/vstore_half (round to nearest even and toward zero), and the aligned
// vloada_half3/vstorea_half3 that step by four halves.
kernel void vector_data(global const float* f, global const int* i, global const half* h,
                        global float* fo, global int* io, global half* ho, global half* hz,
                        global half* ha, global float* fa) {
  const size_t g = get_global_id(0);
  const float4 a = vload4(g, f);        // f + 4g
  vstore4(a * 2.0f, g, fo);
  const int3 b = vload3(g, i + 1);      // i + 1 + 3g: element alignment only
  vstore3(b + (int3)(1, 2, 3), g, io);
  const float4 c = vload_half4(g, h);
  vstore4(c, g, fo + 256);
  vstore_half4(a, g, ho);               // rte
  vstore_half4_rtz(a, g, hz);
  const float3 d = vloada_half3(g, h);  // h + 4g
  vstorea_half3_rtp(d * 3.0f, g, ha);
  vstore3(d, g, fa);
}
