// The kernel of the issue "clref check": a composition of math functions, divisions and a mad per element.
kernel void math_heavy(global const float* x, global const float* y, global float* out) {
  size_t i = get_global_id(0);
  float a = x[i], b = y[i];
  out[i] = mad(sin(a) * exp(b), a / b, a) + cos(b) / (1.0f + a * a);
}
