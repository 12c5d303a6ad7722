// ub: producer=spirv15 opt=O2
// memory.read-only: work-item `bad` writes into the __constant buffer `in` (reached through an
// integer round trip, as OpenCL C has no cast from __constant to __global); bad = -1: every
// work-item only writes `out`.
kernel void constant_write(global int *out, constant int *in, int bad) {
  int gid = get_global_id(0);
  global int *p = out;
  if (gid == bad) p = (global int *)(ulong)in;
  p[gid] = in[gid] + 1;
}
