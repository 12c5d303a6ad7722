// ub: producer=spirv15 opt=O2
// subgroup.non-uniform: sub_group_broadcast (OpGroupBroadcast) from lane `src + lane * step`;
// the lane id must be the same in the whole subgroup, so step != 0 triggers (step = 0 is clean).
kernel void broadcast(global int *out, uint src, uint step) {
  uint lane = get_sub_group_local_id();
  out[get_global_id(0)] = sub_group_broadcast((int)get_global_id(0), src + lane * step);
}
