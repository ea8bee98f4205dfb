/* LD_PRELOAD shim for a deliberately wrong nccl-tests result: after every ncclAllReduce of at least
 * CORRUPT_MIN_COUNT elements (default 1048576), 16 bytes of the receive buffer are overwritten with 0x7f
 * on the same stream, so the test's data check counts wrong elements. Build: gcc -shared -fPIC -o libcorrupt.so corrupt.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
typedef int (*ar_t)(const void*, void*, size_t, int, int, void*, void*);
typedef int (*ms_t)(unsigned long long, unsigned char, size_t, void*);
int ncclAllReduce(const void* s, void* r, size_t count, int dt, int op, void* comm, void* stream) {
  static ar_t real; static ms_t ms; static size_t minCount;
  if (!real) {
    real = (ar_t)dlsym(RTLD_NEXT, "ncclAllReduce");
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    ms = cuda ? (ms_t)dlsym(cuda, "cuMemsetD8Async") : NULL;
    const char* e = getenv("CORRUPT_MIN_COUNT");
    minCount = e ? strtoull(e, NULL, 10) : 1048576;
  }
  int rc = real(s, r, count, dt, op, comm, stream);
  if (rc == 0 && ms && count >= minCount) ms((unsigned long long)r, 0x7f, 16, stream);
  return rc;
}
