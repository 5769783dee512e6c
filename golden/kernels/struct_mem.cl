// Structs in private memory (an array of structs updated in place) and in a global buffer.
typedef struct {
  int id;
  float w;
  uint flags;
  short s[2];
} Item;  // 16 bytes: int, float, uint, short[2]

kernel void struct_private_global(global Item* items, global int* out) {
  size_t i = get_global_id(0);
  Item local_copy[2];
  local_copy[0] = items[i];
  local_copy[1] = local_copy[0];
  local_copy[1].id += 100;
  local_copy[1].s[0] = local_copy[0].s[1];
  local_copy[1].s[1] = local_copy[0].s[0];
  local_copy[1].flags |= 0x80000000u;
  local_copy[1].w = local_copy[0].w * 2.0f;
  items[i] = local_copy[1];  // the buffer is read and written
  out[i] = local_copy[0].id + local_copy[0].s[0] - local_copy[0].s[1];
}
