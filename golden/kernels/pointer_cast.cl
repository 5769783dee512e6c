// Pointer casts: a byte view of an int buffer, and pointers round-tripped through integers.

// Byte-swaps each int through a uchar view of the same buffer (little-endian device).
kernel void ptr_byte_view(global int* data) {
  size_t i = get_global_id(0);
  global uchar* bytes = (global uchar*)(data + i);
  uchar b0 = bytes[0], b1 = bytes[1], b2 = bytes[2], b3 = bytes[3];
  bytes[0] = b3;
  bytes[1] = b2;
  bytes[2] = b1;
  bytes[3] = b0;
}

// Computes addresses as integers: element (n - 1 - i) is reached by uintptr_t arithmetic and
// cast back to a pointer; a short view of the same element reads its low half.
kernel void ptr_uintptr_roundtrip(global const int* in, global int* out, uint n) {
  size_t i = get_global_id(0);
  uintptr_t base = (uintptr_t)in;
  uintptr_t addr = base + (size_t)(n - 1 - i) * sizeof(int);
  global const int* p = (global const int*)addr;
  global const short* h = (global const short*)p;
  out[2 * i + 0] = *p;
  out[2 * i + 1] = h[0] + (int)((addr - base) / sizeof(int));
}
