#version 450
// GLSL.std.450 geometric functions on vec3s a, b and a normal n, 18 results per invocation: cross(a, b), dot(a, b),
// reflect(a, n), faceforward(b, a, n), refract(a, n, 0.75), length(b), distance(a, b) and normalize(b). Each
// GLSL.std.450 function is GLSL's formula evaluated in the order the GLSL specification writes it, every operation
// rounded, none fused; dot() compiles to the core OpDot, whose value in clref is the exact dot product rounded once.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 data[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec3 a = data[3u * i].xyz, b = data[3u * i + 1u].xyz, n = data[3u * i + 2u].xyz;
  vec3 c = cross(a, b), r = reflect(a, n), f = faceforward(b, a, n), t = refract(a, n, 0.75), u = normalize(b);
  uint at = i * 18u;
  for (int k = 0; k < 3; ++k) {
    results[at + k] = c[k];
    results[at + 4 + k] = r[k];
    results[at + 7 + k] = f[k];
    results[at + 10 + k] = t[k];
    results[at + 15 + k] = u[k];
  }
  results[at + 3] = dot(a, b);
  results[at + 13] = length(b);
  results[at + 14] = distance(a, b);
}
