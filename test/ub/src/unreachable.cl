// ub: producer=spirv15 opt=O0
// control.unreachable: work-item `bad` reaches __builtin_unreachable() (bad = -1: nobody does).
// Built at O0: the optimiser turns an unreachable branch into an assumption and drops it.
kernel void unreachable(global int *out, int bad) {
  int gid = get_global_id(0);
  if (gid == bad) __builtin_unreachable();
  out[gid] = gid;
}
