// An atomic counter mixed with a plain store: work-item 0 resets the counter with an ordinary store while the other
// work-items increment it atomically; atomics are atomic only with respect to other atomics.
kernel void race_atomic_plain(global int* counter) {
  if (get_global_id(0) == 0) counter[0] = 0;  // BUG: a plain store racing with the atomic_inc below
  atomic_inc(counter);
}
