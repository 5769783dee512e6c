// Clean, OpenCL C 2.0: a counter shared by every work-group, incremented with memory_scope_device.
kernel void clean_atomic_device_scope(global atomic_int* counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
}
