// ub: producer=spirv15 opt=O2
// subgroup.not-whole: the lanes below `limit` of each subgroup take part in a subgroup reduction
// (OpGroupIAdd), the others skip it. limit >= subgroup size: the whole subgroup takes part.
kernel void not_whole(global int *out, uint limit) {
  int gid = get_global_id(0);
  int x = gid;
  if (get_sub_group_local_id() < limit) x = sub_group_reduce_add(x);
  out[gid] = x;
}
