// ub: producer=spirv15 opt=O2
// memory.misaligned: work-item `bad` stores its int one byte past its element, at an address
// that is not 4-byte aligned (bad = -1: every store is aligned).
kernel void misaligned(global int *out, int bad) {
  int gid = get_global_id(0);
  global char *p = (global char *)(out + gid);
  if (gid == bad) p += 1;
  *(global int *)p = gid;
}
