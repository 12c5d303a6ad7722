// ub: producer=spirv15 opt=O0
// barrier.divergent: the work-group barrier is reached
//   mode 0: by every work-item                                        -> clean
//   mode 1: by the lower half of every subgroup only                  -> part of a subgroup
//   mode 2: by subgroup 0 at one barrier, the others at another one   -> different barriers
//   mode 3: by every subgroup but subgroup 1, which has returned      -> a subgroup finished
// Modes 2 and 3 need two subgroups per work-group.
// Built at O0: at O2 LLVM merges the two barrier calls of mode 2 into one call with a phi of the
// fence flags (and llvm-spirv-15 then crashes on the non-constant memory semantics).
kernel void barrier_divergent(global int *out, int mode) {
  int gid = get_global_id(0);
  uint sg = get_sub_group_id();
  if (mode == 1) {
    if (get_sub_group_local_id() < get_sub_group_size() / 2) barrier(CLK_LOCAL_MEM_FENCE);
  } else if (mode == 2) {
    if (sg == 0)
      barrier(CLK_LOCAL_MEM_FENCE);
    else
      barrier(CLK_GLOBAL_MEM_FENCE);
  } else if (mode == 3) {
    if (sg == 1) return;
    barrier(CLK_LOCAL_MEM_FENCE);
  } else {
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = gid;
}
