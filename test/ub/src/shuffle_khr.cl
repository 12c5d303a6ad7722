// ub: producer=spirv15 opt=O2
// value.undefined-source, core SPIR-V form: as shuffle.cl, with sub_group_shuffle
// (cl_khr_subgroup_shuffle, OpGroupNonUniformShuffle). Clean: src < limit.
kernel void shuffle_khr(global int *out, uint limit, uint src) {
  int gid = get_global_id(0);
  int x = gid;
  if (get_sub_group_local_id() < limit) x = sub_group_shuffle(x, src);
  out[gid] = x;
}
