// Matrix multiplication C = A * B, row-major, M x K times K x N; one work-item per element of
// C in a 2D NDRange (dimension 0 = column). Both kernels accumulate in the order k = 0..K-1
// with a separately rounded multiply and add, so they give identical bits.
#pragma OPENCL FP_CONTRACT OFF

kernel void matmul_naive(global const float* A, global const float* B, global float* C, uint M,
                         uint N, uint K) {
  size_t col = get_global_id(0), row = get_global_id(1);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (uint k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Tiled through local memory; the local size must be TILE x TILE and M, N, K multiples of TILE.
#define TILE 8
kernel void matmul_tiled(global const float* A, global const float* B, global float* C, uint M,
                         uint N, uint K) {
  local float As[TILE][TILE];
  local float Bs[TILE][TILE];
  size_t tx = get_local_id(0), ty = get_local_id(1);
  size_t col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < K; t += TILE) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
  (void)M;
}
