// ub: producer=spirv15 opt=O2
// value.undefined-source is not undefined behaviour (DECISIONS.md 16): the idiom of a neighbour
// shuffle at the edge of a subgroup. Every lane reads its right neighbour with
// sub_group_shuffle_down (OpGroupNonUniformShuffleDown) and its left one with
// intel_sub_group_shuffle (OpSubgroupShuffleINTEL, lane - 1, so lane 0 asks for 2^32 - 1); the
// last and first lane of each subgroup read an invocation that does not exist, and a select
// drops what they read: out[i] = R - L, R = in[i + 1] (in[i] in the subgroup's last lane),
// L = in[i - 1] (in[i] in its first lane).
kernel void shuffle_edge(global int *out, global const int *in) {
  int gid = get_global_id(0);
  uint lane = get_sub_group_local_id();
  int x = in[gid];
  int right = sub_group_shuffle_down(x, 1u);
  int left = intel_sub_group_shuffle(x, lane - 1);
  int has_right = lane + 1 < get_sub_group_size();
  out[gid] = (has_right ? right : x) - (lane > 0 ? left : x);
}
