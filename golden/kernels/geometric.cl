// Geometric functions (OpenCL C 1.2 §6.12.5 "Geometric Functions"): clref returns each component correctly rounded
// from the exact value.
kernel void geometric(global const float4* a, global const float4* b, global float4* o, global float* s) {
  const size_t g = get_global_id(0);
  o[g * 2] = cross(a[g], b[g]);
  o[g * 2 + 1] = normalize(a[g]);
  s[g * 3] = length(a[g]);
  s[g * 3 + 1] = distance(a[g], b[g]);
  s[g * 3 + 2] = dot(a[g], b[g]);
}
