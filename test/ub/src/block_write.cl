// ub: producer=spirv15 opt=O2
// subgroup.block-alignment: Intel subgroup block write (OpSubgroupBlockWriteINTEL) of each
// subgroup's ids to out + shift elements; block writes need 16-byte alignment, so shift must be
// a multiple of 4 (clean: 0 or 4; trigger: 1). `out` needs room for shift more elements.
kernel void block_write(global uint *out, uint shift) {
  uint group_base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
  intel_sub_group_block_write(out + group_base + shift, (uint)get_global_id(0));
}
