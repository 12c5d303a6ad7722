// ub: producer=spirv15 opt=O2
// Intel subgroup block read (OpSubgroupBlockReadINTEL) from in + base + lane * step, by the lanes
// below `limit` of the subgroup:
//   subgroup.non-uniform:     step != 0 (the pointer differs between lanes)
//   subgroup.block-alignment: `base` counted in bytes, not a multiple of 4
//   subgroup.not-whole:       limit < subgroup size (or a partial last subgroup)
// base = 0, step = 0, limit >= subgroup size: clean.
kernel void block_read(global uint *out, global uint *in, uint base, uint step, uint limit) {
  uint lane = get_sub_group_local_id();
  uint group_base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
  uint v = 0;
  if (lane < limit) {
    global uint *p = (global uint *)((global char *)(in + group_base) + base) + lane * step;
    v = intel_sub_group_block_read(p);
  }
  out[get_global_id(0)] = v;
}
