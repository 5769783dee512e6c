/* What the layer tests' C host programs (layer_host.c, layer_cmdbuf_host.c, layer_exit_host.c) share: each failed
 * call printed with the program's name and counted (the exit status says whether any failed), and the device they
 * run on. Define HOST_NAME, the program's name, before including it. */
#ifndef CLREF_TESTS_LAYER_HOST_CHECK_H
#define CLREF_TESTS_LAYER_HOST_CHECK_H

#include <CL/cl.h>
#include <stdio.h>

static int failures = 0;
static void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, HOST_NAME ": %s failed: %d\n", what, err);
    ++failures;
  }
}

/* The first platform's first device (of the platform the ICD loader lists first: the one under test); 0 when there is
 * none, the failed call counted. */
static int firstDevice(cl_platform_id* platform, cl_device_id* device) {
  check(clGetPlatformIDs(1, platform, NULL), "clGetPlatformIDs");
  if (failures) return 0;
  check(clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 1, device, NULL), "clGetDeviceIDs");
  return failures == 0;
}

#endif
