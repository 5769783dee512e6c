/* Naive matmul, row-major n x n: one work-item per output element C[r][c].
 * Global size (n, n): dimension 0 = column, dimension 1 = row. OpenCL C 1.2. */
__kernel void matmul(__global const float *A,
                     __global const float *B,
                     __global float *C,
                     const uint n)
{
    size_t c = get_global_id(0);
    size_t r = get_global_id(1);
    if (r >= n || c >= n)
        return;
    float s = 0.0f;
    for (uint k = 0; k < n; ++k)
        s += A[r * n + k] * B[k * n + c];
    C[r * n + c] = s;
}
