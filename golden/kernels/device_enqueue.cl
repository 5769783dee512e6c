// build: -cl-std=CL3.0
// requires: __opencl_c_device_enqueue __opencl_c_generic_address_space __opencl_c_program_scope_global_variables
// Device-side enqueue (OpenCL C 3.0 §6.15.19 [[enqueuing-kernels]]) on the default device queue: every stored value
// is the same whatever order the device runs the children in, as long as it keeps the orders the flags and events
// ask for.

// Work-item 0 enqueues one child over the whole range; the child writes i*i+1 (the captured `out` and `base`).
kernel void enqueue_once(global int* out, int base) {
  if (get_global_id(0) == 0) {
    const size_t n = get_global_size(0);
    int status = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(n), ^{
      const int i = (int)get_global_id(0);
      out[i] = base + i * i;
    });
    if (status != CLK_SUCCESS) out[0] = -1000 + status;
  }
}

// Every work-item enqueues a child of 4 work-items with work-groups of 2: out[4g + j] = 100g + 10 * group + j.
kernel void enqueue_per_item(global int* out) {
  const int g = (int)get_global_id(0);
  int status = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4, 2), ^{
    const int j = (int)get_global_id(0);
    out[4 * g + j] = 100 * g + 10 * (int)get_group_id(0) + j;
  });
  if (status != CLK_SUCCESS) out[4 * g] = -1000 + status;
}

// The child waits for the whole parent (CLK_ENQUEUE_FLAGS_WAIT_KERNEL) and reads what every parent work-item wrote:
// b[i] = a[n-1-i] * 3, where a[k] = 2k + 1 from the parent.
kernel void enqueue_wait_kernel(global int* a, global int* b) {
  const int i = (int)get_global_id(0);
  const int n = (int)get_global_size(0);
  a[i] = 2 * i + 1;
  if (i == 0) {
    int status = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D((size_t)n), ^{
      const int k = (int)get_global_id(0);
      b[k] = a[n - 1 - k] * 3;
    });
    if (status != CLK_SUCCESS) b[0] = -1000 + status;
  }
}

// Two children ordered by an event: the second starts after the first ends and doubles what it wrote; a marker
// after both lets a third child sum them with atomics (c[0] = the sum of 2 * i * i for i < n).
kernel void enqueue_events(global int* a, global int* c) {
  if (get_global_id(0) != 0) return;
  const int n = (int)get_global_size(0);
  queue_t q = get_default_queue();
  clk_event_t first, second, marker;
  int s0 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D((size_t)n), 0, NULL, &first, ^{
    const int i = (int)get_global_id(0);
    a[i] = i * i;
  });
  int s1 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D((size_t)n), 1, &first, &second, ^{
    const int i = (int)get_global_id(0);
    a[i] *= 2;
  });
  int s2 = enqueue_marker(q, 1, &second, &marker);
  int s3 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D((size_t)n), 1, &marker, NULL, ^{
    atomic_add(&c[0], a[get_global_id(0)]);
  });
  release_event(first);
  release_event(second);
  release_event(marker);
  c[1] = s0 | s1 | s2 | s3;  // CLK_SUCCESS (0) when every enqueue succeeded
}

// Nested: a child enqueues a grandchild (the parent's work-item 0, then each level's). Each level k (0, 1, 2) writes
// out[k] = k * k + 7 and, in its local memory block argument of 4 * (k + 2) bytes, stores the ints 1 .. k + 2 and
// their sum in out[3 + k].
void fill_and_sum(global int* out, int k, local int* s) {
  // Without loops: llvm-spirv-15 lays out this loop's blocks out of dominance order at -O2.
  s[0] = 1;
  s[1] = 2;
  if (k >= 1) s[2] = 3;
  if (k >= 2) s[3] = 4;
  out[k] = k * k + 7;
  out[3 + k] = s[0] + s[1] + (k >= 1 ? s[2] : 0) + (k >= 2 ? s[3] : 0);
}
kernel void enqueue_nested(global int* out) {
  if (get_global_id(0) != 0) return;
  const queue_t q = get_default_queue();
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^(local void* s0) {
    fill_and_sum(out, 0, (local int*)s0);
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^(local void* s1) {
      fill_and_sum(out, 1, (local int*)s1);
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^(local void* s2) {
        fill_and_sum(out, 2, (local int*)s2);
      }, 16u);
    }, 12u);
  }, 8u);
}
