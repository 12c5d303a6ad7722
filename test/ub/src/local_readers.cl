// ub: producer=spirv15 opt=O2
// memory.local-race with several readers of one element: every work-item writes tmp[lid]; after
// a work-group barrier both work-items of each pair (2k, 2k+1) read tmp[2k]; then, after
//   sync 0: nothing                  -> race: 2k's write is unordered with 2k+1's read
//   sync 1: a subgroup barrier       -> clean (the pair is in one subgroup)
//   sync 2: a work-group barrier     -> clean
// work-item 2k overwrites tmp[2k].
kernel void local_readers(global int *out, int sync) {
  local int tmp[64];
  int lid = get_local_id(0);
  tmp[lid] = lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tmp[lid & ~1];
  if (sync == 1)
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  else if (sync == 2)
    barrier(CLK_LOCAL_MEM_FENCE);
  if ((lid & 1) == 0) tmp[lid] = -v;
  out[get_global_id(0)] = v;
}
