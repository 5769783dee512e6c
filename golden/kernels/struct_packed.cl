// A packed struct in a global buffer: char at 0, int at 1, short at 5, 7 bytes in all,
// so the int and short fields are misaligned.
typedef struct __attribute__((packed)) {
  char tag;
  int value;
  short delta;
} Packed;

kernel void struct_packed(global Packed* recs, global int* sums) {
  size_t i = get_global_id(0);
  Packed p = recs[i];
  // Wrapping sums go through uint: the fields hold arbitrary bits.
  sums[i] = (int)((uint)p.tag + (uint)p.value + (uint)p.delta);
  p.value = (int)((uint)p.value - (uint)p.delta);
  p.tag = (char)(p.tag ^ 0x55);
  recs[i] = p;
}
