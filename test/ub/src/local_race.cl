// ub: producer=spirv15 opt=O2
// memory.local-race: every work-item writes tmp[lid], then reads a neighbour's element.
//   mode 0: reads tmp[lid ^ 1] with no barrier                      -> race inside a subgroup
//   mode 1: reads tmp[lid ^ 1] after a work-group barrier           -> clean
//   mode 2: reads tmp[lid ^ 1] after a subgroup barrier             -> clean (same subgroup)
//   mode 3: reads the element one subgroup further after a subgroup
//           barrier, which does not order different subgroups       -> race between subgroups
kernel void local_race(global int *out, int mode) {
  local int tmp[64];
  int lid = get_local_id(0);
  int n = get_local_size(0);
  tmp[lid] = lid * 3;
  if (mode == 1)
    barrier(CLK_LOCAL_MEM_FENCE);
  else if (mode >= 2)
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int other = mode == 3 ? (lid + (int)get_max_sub_group_size()) % n : lid ^ 1;
  out[get_global_id(0)] = tmp[other];
}
