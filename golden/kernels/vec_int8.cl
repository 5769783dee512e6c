// int8 arithmetic: element-wise multiply (wrapping is avoided by the input range), add,
// and .lo/.hi/.even/.odd halves.
kernel void vec_int8(global const int8* a, global const int8* b, global int8* prod,
                     global int8* mix) {
  size_t i = get_global_id(0);
  int8 x = a[i], y = b[i];
  prod[i] = x * y;
  int4 s = x.lo + y.hi;
  int4 d = x.even - y.odd;
  mix[i] = (int8)(s, d);
}
