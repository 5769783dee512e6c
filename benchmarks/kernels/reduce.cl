/* Local-memory tree reduction: each work-group sums its slice of `in` into
 * out[group]. The work-group size must be a power of two; `scratch` holds one
 * int per work-item (set with clSetKernelArg(k, 2, lsize * sizeof(int), NULL)).
 * One barrier per step. OpenCL C 1.2. */
__kernel void reduce(__global const int *in,
                     __global int *out,
                     __local int *scratch,
                     const uint n)
{
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);

    scratch[lid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
