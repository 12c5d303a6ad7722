// ub: producer=spirv15 opt=O2
// memory.out-of-bounds: out[i] = in[i + shift]; with `in` as large as the launch, shift = 1 makes
// the last work-item read one element past the end, shift = -1 the first one before the start.
kernel void out_of_bounds(global int *out, global const int *in, long shift) {
  long gid = get_global_id(0);
  out[gid] = in[gid + shift];
}
