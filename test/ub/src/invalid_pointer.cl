// ub: producer=spirv15 opt=O2
// memory.invalid-pointer: work-item `bad` stores through a pointer made from the integer `addr`,
// which points into no buffer (bad = -1: everyone stores to its own element of `out`).
kernel void invalid_pointer(global int *out, int bad, ulong addr) {
  int gid = get_global_id(0);
  global int *p = out + gid;
  if (gid == bad) p = (global int *)addr;
  *p = gid;
}
