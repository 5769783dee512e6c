// if/else chains and a switch with fall-through, a shared body and a default.
kernel void control_branches(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  int r;
  if (x < -50) {
    r = -1;
  } else if (x < 0) {
    r = x * 2;
  } else if (x == 0) {
    r = 1000;
  } else {
    r = x + 7;
  }
  // The selector is x % 11, in [-10, 10]. (A masked selector such as x & 7 is narrowed to an
  // i3 switch at -O2, which llvm-spirv-15 rejects.)
  int s = 0;
  switch (x % 11) {
    case 0:
      s += 1;  // fall through
    case 1:
      s += 10;
      break;
    case 2:
    case 3:
      s = 200 + x % 11;
      break;
    case -3:
      s = -6;
      break;
    case 9:
      s = x;
      break;
    default:
      s = x % 11 - 100;
  }
  out[2 * i + 0] = r;
  out[2 * i + 1] = s;
}
