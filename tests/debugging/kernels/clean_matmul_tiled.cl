// Clean: a tiled matrix multiply C = A B of n x n matrices, with a barrier after loading each pair of tiles and
// another before the next iteration overwrites them.
#define TS 4
kernel void clean_matmul_tiled(global const float* A, global const float* B, global float* C, int n) {
  local float As[TS][TS], Bs[TS][TS];
  int col = get_global_id(0), row = get_global_id(1), lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TS; ++t) {
    As[ly][lx] = A[row * n + t * TS + lx];
    Bs[ly][lx] = B[(t * TS + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
