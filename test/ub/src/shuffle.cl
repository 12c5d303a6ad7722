// ub: producer=spirv15 opt=O2
// value.undefined-source: the lanes below `limit` of each subgroup run
// intel_sub_group_shuffle(x, src) (OpSubgroupShuffleINTEL), the others skip it. Reading a lane
// at or above `limit` (it did not execute the shuffle) or past the subgroup gives an undefined
// value. Clean: src < limit.
kernel void shuffle(global int *out, uint limit, uint src) {
  int gid = get_global_id(0);
  int x = gid;
  if (get_sub_group_local_id() < limit) x = intel_sub_group_shuffle(x, src);
  out[gid] = x;
}
